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
from sessions_graph_core.reconcile import pipeline
store = FalkorDBStore(EmbeddedServer(sys.argv[1]), graph=sys.argv[2])
if len(sys.argv) > 4:  # small batches, so the kill can land on a batch boundary
    pipeline.BATCH_UNITS = int(sys.argv[4])
print(pipeline.reconcile_session(store, sys.argv[3], promote_labels=len(sys.argv) > 4).status, flush=True)
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
    graph.record_turns("crash", turns(), user_id="crash-user")


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


FIRST = ["Alice", "Bruno", "Chiara", "Dmitri", "Elena", "Farid", "Greta", "Hiro", "Ingrid", "Jamal", "Keiko", "Lars"]
LAST = ["Novak", "Okafor", "Petrov", "Quinn", "Rossi", "Sato", "Tanaka", "Ueda", "Varga", "Weber"]


def unique_people_turns() -> list[dict]:
    """Every turn names a person no other turn names: an entity written by a batch is never seen again."""
    return [
        {
            "role": "user",
            "text": f"{FIRST[i % 12]} {LAST[i // 12]} joined the team in Berlin on Monday.",
            "timestamp": f"2026-03-{1 + i // 24:02d}T{i % 24:02d}:00:00Z",
            "turn_id": f"people-{i:03d}",
        }
        for i in range(len(FIRST) * len(LAST))
    ]


def prepare_people(graph: SessionsGraph) -> None:
    graph.setup()
    graph.record_session_start("people", user_id="crash-user", started_at="2026-03-01T00:00:00Z")
    graph.record_turns("people", unique_people_turns(), user_id="crash-user")


def test_killed_between_batches_then_rerun_labels_every_entity(graph: SessionsGraph, server: EmbeddedServer) -> None:
    """Killed after one, three and five batches of 20 turns, the re-run gives a clean run's graph, type labels included."""
    prepare_people(graph)
    total = len(FIRST) * len(LAST)
    for kill_after in (20, 60, 100):
        child = subprocess.Popen(
            [sys.executable, "-c", RECONCILE, str(server.data_dir), graph.store.name, "people", "20"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        deadline = time.monotonic() + 300
        while done_units(graph.store) < kill_after and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        assert kill_after <= done_units(graph.store) < total, f"the kill after {kill_after} units did not land mid-run"
    assert graph.reconcile_session("people", promote_labels=True).status == "completed"

    clean = SessionsGraph(FalkorDBStore(server, graph=f"test_{uuid.uuid4().hex[:12]}"))
    try:
        prepare_people(clean)
        assert clean.reconcile_session("people", promote_labels=True).status == "completed"
        labelled = "MATCH (n:Entity) WHERE size(labels(n)) > 1 RETURN count(n) AS n"
        assert graph.store.run(labelled)[0]["n"] == clean.store.run(labelled)[0]["n"] > 100
        assert stable(snapshot(graph.store)) == stable(snapshot(clean.store))
    finally:
        clean.store.delete_all()
        clean.close()
