"""A reconcile process killed mid-run, then run again, leaves the graph a clean run leaves."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid

from conftest import snapshot
from test_reconcile import stable

from sessions_graph_core import SessionsGraph
from sessions_graph_core.store.falkordb.server import EmbeddedServer
from sessions_graph_core.store.falkordb.store import FalkorDBStore

RECONCILE = """
import sys
from sessions_graph_core.store.falkordb.server import EmbeddedServer
from sessions_graph_core.store.falkordb.store import FalkorDBStore
from sessions_graph_core.reconcile.pipeline import reconcile_session
store = FalkorDBStore(EmbeddedServer(sys.argv[1]), graph=sys.argv[2])
print(reconcile_session(store, sys.argv[3]).status, flush=True)
"""
PEOPLE = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace"]
SERVICES = ["orders", "billing", "search", "payments", "shipping"]
TURNS = 240


def turns() -> list[dict]:
    """Owners changing hands many times, so the crash lands inside supersession chains."""
    return [
        {
            "role": "user",
            "text": f"{PEOPLE[i % 7]} owns the {SERVICES[i % 5]} service. We'll use Kafka{i % 3} for the {SERVICES[i % 5]} queue.",
            "timestamp": f"2026-03-{1 + i // 24:02d}T{i % 24:02d}:00:00Z",
            "turn_id": f"crash-{i:03d}",
        }
        for i in range(TURNS)
    ]


def prepare(graph: SessionsGraph) -> None:
    graph.setup()
    graph.record_session_start("crash", user_id="crash-user", started_at="2026-03-01T00:00:00Z")
    graph.record_turns("crash", turns())


def done_units(store: FalkorDBStore) -> int:
    return store.run("MATCH (:Turn)-[r:HAS_CHUNK]->() RETURN count(r) AS n")[0]["n"]


def facts_written(store: FalkorDBStore) -> int:
    return store.run("MATCH (x:Fact) RETURN count(x) AS n")[0]["n"]


def test_killed_reconcile_then_rerun_equals_a_clean_run(graph: SessionsGraph, server: EmbeddedServer) -> None:
    prepare(graph)
    child = subprocess.Popen(
        [sys.executable, "-c", RECONCILE, str(server.data_dir), graph.store.name, "crash"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 120
    while facts_written(graph.store) < 40 and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    at_kill = done_units(graph.store)
    assert facts_written(graph.store) >= 40 and at_kill < TURNS, f"the kill did not land mid-run ({at_kill} of {TURNS} units done)"

    assert graph.reconcile_session("crash").status == "completed"

    clean = SessionsGraph(FalkorDBStore(server, graph=f"test_{uuid.uuid4().hex[:12]}"))
    try:
        prepare(clean)
        assert clean.reconcile_session("crash").status == "completed"
        assert stable(snapshot(graph.store)) == stable(snapshot(clean.store))
        slots = graph.store.run("MATCH (x:Fact) WHERE x.slot <> '' AND x.superseded_at IS NULL RETURN x.slot AS s ORDER BY s")
        assert len(slots) == len({row["s"] for row in slots}) > 0  # one current statement per slot
    finally:
        clean.store.delete_all()
        clean.close()
