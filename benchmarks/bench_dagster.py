"""Dagster platform benchmark: sessions through the real sensors, daemon and runs on 127.0.0.1.

    .venv/bin/python benchmarks/bench_dagster.py [--latency-sessions 20] [--backlog 1000] [--baseline-backlog 60]

1. Latency: one session at a time becomes pending; the time until it is reconciled and embedded
   (sensor tick, run queue, run start, reconcile, embed), p50 over --latency-sessions.
2. Backlog throughput: --backlog pending sessions written before Dagster starts, drained (timed from
   the webserver answering to no pending work) with the shipped batching
   (SESSIONS_GRAPH_BATCH_SIZE=100), beside the one-run-per-session baseline (batch size 1) in the
   same process. The baseline pays a process start-up per session, so it runs a smaller backlog
   (--baseline-backlog); the table compares sessions per minute.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # devtools/ lives beside the packages

from devtools.local_platform import running_platform  # noqa: E402
from devtools.progress import runs, wait_until_drained  # noqa: E402
from sessions_graph_core import SessionsGraph  # noqa: E402
from sessions_graph_core.store.falkordb.server import EmbeddedServer  # noqa: E402
from sessions_graph_core.store.falkordb.store import FalkorDBStore  # noqa: E402

PEOPLE = ["Alice", "Bob", "Carol", "Dmitri", "Erin", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kemal", "Lena"]
SERVICES = ["orders", "billing", "payments", "search", "inventory", "shipping", "catalog", "accounts", "pricing"]
CITIES = ["Berlin", "Lisbon", "Toronto", "Madrid", "Oslo", "Dublin", "Vienna", "Prague", "Warsaw", "Zurich"]
DATABASES = ["Postgres", "CockroachDB", "MySQL", "Cassandra", "Redis", "SQLite", "DynamoDB"]

console = Console()


def turns(index: int) -> list[dict[str, str]]:
    """Six turns of a realistic working session, distinct per index so nothing is deduplicated away."""
    pick = lambda names, shift=0: names[(index + shift) % len(names)]  # noqa: E731
    person, other, service, city, db = pick(PEOPLE), pick(PEOPLE, 5), pick(SERVICES), pick(CITIES), pick(DATABASES)
    return [
        {"role": "user", "text": f"{person} owns the {service} service (ticket {index}). It runs in {city}."},
        {"role": "assistant", "text": f"Noted: {person} owns the {service} service in {city}, ticket {index}."},
        {"role": "user", "text": f"We'll use {db} for the {service} service database because {other} knows it well (case {index})."},
        {"role": "assistant", "text": f"Decision recorded for case {index}: {db} for the {service} service."},
        {"role": "user", "text": f"{other} moves to the {city} office next month; review {index} is on Friday."},
        {"role": "assistant", "text": f"Got it, {other} relocates to {city}; review {index} stays on Friday."},
    ]


def add_pending(graph: SessionsGraph, index: int, prefix: str, *, users: int = 25) -> str:
    sid = f"{prefix}-{index:05d}"
    graph.record_session_start(sid, user_id=f"user-{index % users:02d}")
    graph.record_turns(sid, turns(index), user_id=f"user-{index % users:02d}")
    graph.end_session(sid)
    return sid


def done(graph: SessionsGraph, sid: str) -> bool:
    rows = graph.store.run(
        "MATCH (s:Session {session_id: $sid}) RETURN s.reconciliation_status AS r, s.embedding_status AS e", {"sid": sid}
    )
    return bool(rows) and rows[0]["r"] == "completed" and rows[0]["e"] == "completed"


def latencies(url: str, graph: SessionsGraph, count: int) -> list[float]:
    seconds = []
    for index in range(count):
        sid = add_pending(graph, index, "lat")
        started = time.monotonic()
        while not done(graph, sid):
            if time.monotonic() - started > 600:
                states = [(run.run_id[:8], run.job_name, run.status) for run in runs(url)]
                raise TimeoutError(f"{sid} not reconciled and embedded after 600 s; runs: {states}")
            time.sleep(0.25)
        seconds.append(time.monotonic() - started)
        console.print(f"  session {index + 1}/{count}: {seconds[-1]:.1f} s")
        wait_until_drained(url, graph.store, timeout=600, poll=0.5)
    return seconds


def backlog(url: str, graph: SessionsGraph) -> tuple[float, int]:
    """Seconds from the platform's start to no pending work, and the runs it took."""
    took = wait_until_drained(url, graph.store, timeout=3600, poll=1.0)
    made = runs(url)
    failed = [run for run in made if run.status != "SUCCESS"]
    if failed:
        raise RuntimeError(f"{len(failed)} runs failed, e.g. {failed[0].run_id}")
    return took, len(made)


def platform_run(root: Path, name: str, batch_size: int, work, *, backlog_size: int = 0):
    """Fresh store and instance for one configuration; `work(url, graph)` is measured inside.

    A backlog of pending sessions is written before Dagster starts, so it is pending all at once.
    """
    home = root / name
    server = EmbeddedServer(home / "data")
    server.ensure_running()
    with SessionsGraph(FalkorDBStore(server)) as graph:
        graph.setup()
        for index in range(backlog_size):
            add_pending(graph, index, name)
    try:
        env = {"SESSIONS_GRAPH_DATA_DIR": str(server.data_dir), "SESSIONS_GRAPH_BATCH_SIZE": str(batch_size)}
        with running_platform(home / "dagster_home", env) as platform, SessionsGraph(FalkorDBStore(server)) as graph:
            graph.setup()
            return work(platform.url, graph)
    finally:
        server.stop()


def print_latency(seconds: list[float]) -> None:
    latency = Table(title="Pending -> reconciled + embedded, through the sensors")
    for column in ("sessions", "p50 s", "p90 s", "min s", "max s"):
        latency.add_column(column, justify="right")
    ordered = sorted(seconds)
    latency.add_row(
        str(len(seconds)),
        f"{statistics.median(seconds):.1f}",
        f"{ordered[int(0.9 * (len(ordered) - 1))]:.1f}",
        f"{ordered[0]:.1f}",
        f"{ordered[-1]:.1f}",
    )
    console.print(latency)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--latency-sessions", type=int, default=20)
    parser.add_argument("--backlog", type=int, default=1000)
    parser.add_argument("--baseline-backlog", type=int, default=60)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="sg-bench-", dir="/tmp"))
    console.print(f"Working directory (instance logs; removed on success): {root}")
    if args.latency_sessions:
        console.print(f"Latency: {args.latency_sessions} sessions, one at a time")
        seconds = platform_run(root, "latency", 100, lambda url, graph: latencies(url, graph, args.latency_sessions))
    console.print(f"Backlog: {args.backlog} sessions, batches of 100")
    batched = platform_run(root, "batched", 100, backlog, backlog_size=args.backlog)
    console.print(f"Baseline: {args.baseline_backlog} sessions, one run per session")
    baseline = platform_run(root, "baseline", 1, backlog, backlog_size=args.baseline_backlog)
    shutil.rmtree(root, ignore_errors=True)

    if args.latency_sessions:
        print_latency(seconds)

    throughput = Table(title="Backlog drained (sessions all pending at once)")
    for column in ("setup", "sessions", "runs", "seconds", "sessions/min", "x baseline"):
        throughput.add_column(column, justify="right")
    base_rate = args.baseline_backlog / baseline[0] * 60
    for name, count, (took, made) in (
        ("one run per session (baseline)", args.baseline_backlog, baseline),
        ("batches of 100 (shipped)", args.backlog, batched),
    ):
        rate = count / took * 60
        throughput.add_row(name, str(count), str(made), f"{took:.0f}", f"{rate:.1f}", f"{rate / base_rate:.1f}")
    console.print(throughput)


if __name__ == "__main__":
    main()
