"""Store benchmark: memories and turns for many users on the embedded FalkorDB.

    .venv/bin/python benchmarks/bench_store.py [--memories 10000] [--turns 10000] [--users 100] [--plot PNG]

Runs the same workload twice in one process: on the store as shipped (append-only log fsynced
on every write, so acknowledged writes survive kill -9) and on a baseline server without
persistence. The ratio column is shipped / baseline: the price of durability.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from plots import distributions, run_note
from rich.console import Console
from rich.progress import track
from rich.table import Table

from sessions_graph_core import SessionsGraph
from sessions_graph_core.store.falkordb.server import EmbeddedServer
from sessions_graph_core.store.falkordb.store import FalkorDBStore

WORDS = (
    "orders service postgres cockroachdb kafka billing checkout team deploy release migration schema index "
    "latency region failover owner decision python typescript garden tomato basil dog walk budget meeting "
    "review test flaky build cache redis queue worker retry backoff alert dashboard metric log trace"
).split()


class UnsyncedServer(EmbeddedServer):
    """The baseline: the same server with persistence switched off."""

    def _command(self) -> list[str]:
        command = super()._command()
        command[command.index("--appendonly") + 1] = "no"
        return command


def sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(len(ordered) * 0.95) - 1] * 1000


def timed(calls: list[Callable[[], object]], label: str) -> list[float]:
    samples = []
    for call in track(calls, description=label, transient=True):
        started = time.perf_counter()
        call()
        samples.append(time.perf_counter() - started)
    return samples


def run(server_class: type[EmbeddedServer], args: argparse.Namespace,
        label: str) -> tuple[dict[str, float], dict[str, list[float]]]:
    """The table's figures, and the latency samples (ms) of each timed call."""
    data_dir = Path(tempfile.mkdtemp(prefix="sg-bench-", dir="/tmp"))
    server = server_class(data_dir)
    started = time.perf_counter()
    server.ensure_running()
    start_ms = (time.perf_counter() - started) * 1000
    graph = SessionsGraph(FalkorDBStore(server))
    graph.setup()
    rng = random.Random(7)
    users = [f"user{n:03d}" for n in range(args.users)]

    memories = [(users[i % len(users)], sentence(rng, rng.randint(8, 40))) for i in range(args.memories)]
    memory_calls = [functools.partial(graph.save_memory, user, text) for user, text in memories]
    memory_times = timed(memory_calls, f"{label}: memories")

    sessions_per_user = max(1, args.turns // (args.users * 20))
    turn_batches = []
    for user in users:
        for s in range(sessions_per_user):
            sid = f"{user}-s{s}"
            graph.record_session_start(sid, user_id=user)
            turns = [{"role": "user" if t % 2 == 0 else "assistant", "text": sentence(rng, rng.randint(5, 60))} for t in range(args.turns // (args.users * sessions_per_user))]
            turn_batches.append((sid, user, turns))
    turn_times = timed([(lambda sid=sid, user=user, turns=turns: graph.record_turns(sid, turns, user_id=user)) for sid, user, turns in turn_batches], f"{label}: turns")
    turns_written = sum(len(turns) for _, _, turns in turn_batches)

    queries = [(rng.choice(users), " ".join(rng.sample(WORDS, 2))) for _ in range(args.queries)]
    search_times = timed([(lambda u=u, q=q: graph.search_memories(u, q)) for u, q in queries], f"{label}: search")
    listing_times = timed([(lambda u=u: graph.get_user_turns(u, limit=50)) for u, _ in queries], f"{label}: listing")

    status = server.status()
    graph.close()
    server.stop()
    restart = time.perf_counter()
    server.ensure_running()
    restart_ms = (time.perf_counter() - restart) * 1000
    server.stop()
    search_p50, search_p95 = percentiles(search_times)
    listing_p50, listing_p95 = percentiles(listing_times)
    save_p50, save_p95 = percentiles(memory_times)
    samples = {"save_memory": memory_times, "record_turns (a session)": turn_times, "search_memories": search_times,
               "one-user turn listing": listing_times}
    return {
        "store start, empty (ms)": start_ms,
        "store restart with data (ms)": restart_ms,
        "save_memory throughput (/s)": args.memories / sum(memory_times),
        "save_memory p50 (ms)": save_p50,
        "save_memory p95 (ms)": save_p95,
        "turn write throughput (/s)": turns_written / sum(turn_times),
        "search_memories p50 (ms)": search_p50,
        "search_memories p95 (ms)": search_p95,
        "one-user turn listing p50 (ms)": listing_p50,
        "one-user turn listing p95 (ms)": listing_p95,
        "server RSS (MiB)": (status.rss_bytes or 0) / 2**20,
        "bytes on disk per memory": status.disk_bytes / args.memories,
    }, {name: [second * 1000 for second in seconds] for name, seconds in samples.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--users", type=int, default=100)
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--plot", type=Path, help="also write the latency distributions of both stores as a PNG here")
    args = parser.parse_args()
    shipped, shipped_samples = run(EmbeddedServer, args, "durable")
    baseline, baseline_samples = run(UnsyncedServer, args, "baseline")
    table = Table(title=f"{args.memories:,} memories, {args.turns:,} turns, {args.users} users")
    for column in ("measure", "durable (shipped)", "no persistence (baseline)", "ratio"):
        table.add_column(column, justify="right" if column != "measure" else "left")
    for key, value in shipped.items():
        base = baseline[key]
        comparable = base and not key.startswith("bytes on disk")  # the baseline keeps nothing on disk
        table.add_row(key, f"{value:,.1f}", f"{base:,.1f}", f"{value / base:.2f}x" if comparable else "-")
    Console(width=110).print(table)
    if args.plot:
        samples = {f"{name}, {store}": values for name in shipped_samples
                   for store, values in (("durable", shipped_samples[name]), ("no persistence", baseline_samples[name]))}
        distributions(args.plot, samples, title=str(table.title), ylabel="ms per call", note=run_note())


if __name__ == "__main__":
    main()
