"""Slotted statements written a round of distinct slots per statement (facts.record, what reconciliation
does) beside one statement each (what it did before), reconciling the same sessions, in one process, on the
production store (a standalone FalkorDB primary with a replica, replica_acks=1).

    .venv/bin/python benchmarks/bench_record_rounds.py [--sessions 100] [--rounds 2]

Each round writes the sessions into an empty graph and reconciles them one way, then the other; the table
gives each way's median reconcile time and the ratio (tests/reconcile/test_record_rounds.py checks both
give one graph). The machine's load is printed with the results.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from bench_dagster import add_pending
from rich.console import Console
from rich.table import Table

from devtools.local_platform import free_port
from sessions_graph_core import SessionsGraph
from sessions_graph_core.reconcile import facts, pipeline
from sessions_graph_core.reconcile.extraction.base import SpacyBackend
from sessions_graph_core.store.falkordb.service import StandaloneServer
from sessions_graph_core.store.location import StoreSettings, open_store

console = Console(width=150)
ROUNDS = facts.record


def one_statement_each(store, kind, user_id, user_key, items) -> None:  # noqa: ANN001 - facts.record's signature
    for item in items:
        ROUNDS(store, kind, user_id, user_key, [item])


def reconcile_all(settings: StoreSettings, sessions: int, backend: SpacyBackend, record: Callable) -> float:
    with SessionsGraph(open_store(replace(settings, replica_acks=0))) as graph:
        graph.store.delete_all()
        graph.setup()
        ids = [add_pending(graph, index, "r", users=1) for index in range(sessions)]
    facts.record = record
    try:
        with open_store(settings) as store:
            started = time.perf_counter()
            for sid in ids:
                assert pipeline.reconcile_session(store, sid, backend=backend).status == "completed"
            return time.perf_counter() - started
    finally:
        facts.record = ROUNDS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=100, help="sessions of 6 turns, of one user (one run's batch)")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="sg-record-", dir="/tmp"))
    password = secrets.token_urlsafe(16)
    primary, replica = StandaloneServer(root / "primary"), StandaloneServer(root / "replica")
    primary.start(password=password, port=free_port())
    replica.start(password=password, port=free_port(), replica_of=primary.address)
    try:
        settings = StoreSettings(data_dir=root / "unused", falkordb_url=primary.url, falkordb_password=password,
                                 read_url=replica.url, replica_acks=1)
        backend = SpacyBackend()
        reconcile_all(settings, 1, backend, ROUNDS)  # the model loaded before anything is timed
        seconds: dict[str, list[float]] = {"one statement each (before)": [], "rounds of distinct slots": []}
        for round_ in range(args.rounds):
            for name, way in zip(seconds, (one_statement_each, ROUNDS), strict=True):
                seconds[name].append(reconcile_all(settings, args.sessions, backend, way))
                console.print(f"  round {round_ + 1}, {name}: {seconds[name][-1]:.1f} s, load {os.getloadavg()[0]:.1f}")
        table = Table(title=f"Reconciling {args.sessions} sessions of 6 turns (replica_acks=1)")
        for column in ("way", "median s", "sessions/min", "x of before"):
            table.add_column(column, justify="right")
        before = statistics.median(next(iter(seconds.values())))
        for name, times in seconds.items():
            median = statistics.median(times)
            table.add_row(name, f"{median:.1f}", f"{args.sessions / median * 60:.0f}", f"{median / before:.2f}")
        console.print(table)
        console.print(f"Load: {os.getloadavg()[0]:.1f} (1-min load average, {os.cpu_count()} cores)")
    finally:
        replica.stop()
        primary.stop()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
