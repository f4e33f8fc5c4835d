"""Embedding a run's sessions together (vectors.embed_sessions, what embedded_session does) beside one
session at a time (embed_session in a loop, what it did before), on the same reconciled sessions, in one
process, on the production store (a standalone FalkorDB primary with a replica, replica_acks=1).

    .venv/bin/python benchmarks/bench_embed_batch.py [--sessions 100] [--rounds 2]

Each round embeds the sessions one way, removes every vector, then the other way; the table gives each
way's median and the ratio. The machine's load is printed with the results.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from bench_dagster import add_pending
from rich.console import Console
from rich.table import Table

from devtools.local_platform import free_port
from sessions_graph_core import SessionsGraph
from sessions_graph_core.embeddings import vectors
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend
from sessions_graph_core.store.base import GraphStore
from sessions_graph_core.store.falkordb.service import StandaloneServer
from sessions_graph_core.store.location import StoreSettings, open_store

console = Console(width=150)


def forget_vectors(store: GraphStore) -> None:
    store.run("MATCH (p:Passage) DETACH DELETE p")
    store.run("MATCH (t) WHERE t.embedding_model IS NOT NULL AND NOT t:Session "
              "SET t.embedding_model = null, t.embedding_scheme = null, t.embedding_hash = null")
    store.run("MATCH (s:Session) SET s.embedding_status = null, s.embedding_model = null, s.embedded_at = null")


def one_at_a_time(store: GraphStore, ids: list[str]) -> int:
    return sum(vectors.embed_session(store, sid).passages for sid in ids)


def together(store: GraphStore, ids: list[str]) -> int:
    return sum(outcome.passages for outcome in vectors.embed_sessions(store, ids).values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=100, help="sessions of 6 turns, of one user (one run's batch)")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="sg-embed-", dir="/tmp"))
    password = secrets.token_urlsafe(16)
    primary, replica = StandaloneServer(root / "primary"), StandaloneServer(root / "replica")
    primary.start(password=password, port=free_port())
    replica.start(password=password, port=free_port(), replica_of=primary.address)
    try:
        settings = StoreSettings(data_dir=root / "unused", falkordb_url=primary.url, falkordb_password=password,
                                 read_url=replica.url, replica_acks=1)
        with SessionsGraph(open_store(settings.replace(replica_acks=0))) as graph:
            graph.setup()
            ids = [add_pending(graph, index, "e", users=1) for index in range(args.sessions)]
            for sid in ids:
                graph.reconcile_session(sid, backend=SpacyBackend())
        seconds: dict[str, list[float]] = {"one session at a time (before)": [], "together (embed_sessions)": []}
        passages: dict[str, int] = {}
        with open_store(settings) as store:
            vectors.embed_session(store, ids[0])  # the model loaded before anything is timed
            for round_ in range(args.rounds):
                for (name, way) in zip(seconds, (one_at_a_time, together), strict=True):
                    forget_vectors(store)
                    started = time.perf_counter()
                    passages[name] = way(store, ids)
                    seconds[name].append(time.perf_counter() - started)
                    console.print(f"  round {round_ + 1}, {name}: {seconds[name][-1]:.1f} s")
        table = Table(title=f"Embedding {args.sessions} reconciled sessions of 6 turns (replica_acks=1)")
        for column in ("way", "passages", "median s", "sessions/min", "x of before"):
            table.add_column(column, justify="right")
        before = statistics.median(next(iter(seconds.values())))
        for name, times in seconds.items():
            median = statistics.median(times)
            table.add_row(name, str(passages[name]), f"{median:.1f}", f"{args.sessions / median * 60:.0f}", f"{median / before:.2f}")
        console.print(table)
        console.print(f"Load: {os.getloadavg()[0]:.1f} (1-min load average, {os.cpu_count()} cores)")
    finally:
        replica.stop()
        primary.stop()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
