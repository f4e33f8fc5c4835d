"""What forgetting everywhere adds to a forget (issue 42): one session forgotten in a store of N turns.

    .venv/bin/python benchmarks/bench_forget.py [--turns 10000,100000] [--turns-per-session 50] [--forgets 3]

The store is an embedded one in a fresh directory, its turns recorded (not reconciled: reading 100k
turns takes hours on this machine) from LoCoMo's conversations, so the log and snapshot hold real
text. For each size, --forgets sessions are forgotten one after another; each time the graph's own
forget (forget_session) is timed, then each step the receipt adds: reading the traces, the log rewrite
(erase_history), scrubbing our logs and the search of the data directory. The added cost is reported
as a ratio to the graph's forget, measured in the same process on the same store. "with LZF" is what
the log's snapshot would take compressed, as servers wrote it before (they now write it uncompressed).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from sessions_graph_core import SessionsGraph
from sessions_graph_core.reconcile import erasure
from sessions_graph_core.store.falkordb.client import Connection
from sessions_graph_core.store.falkordb.server import rewrite_log
from sessions_graph_core.store.falkordb.store import FalkorDBStore

LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo10.json"
USERS = 10


def sentences() -> list[str]:
    """Every turn of LoCoMo's conversations, to be said again and again."""
    said = []
    for sample in json.loads(LOCOMO.read_text()):
        conversation = sample["conversation"]
        for key, turns in conversation.items():
            if key.startswith("session_") and isinstance(turns, list):
                said += [turn["text"] for turn in turns if turn.get("text")]
    return said


def fill(graph: SessionsGraph, turns: int, per_session: int, said: list[str]) -> list[str]:
    """Record `turns` turns in sessions of `per_session`; the session ids, in order."""
    sessions = []
    for number in range(turns // per_session):
        sid = f"bench-forget-{number:06d}"
        graph.record_session_start(sid, user_id=f"bench-user-{number % USERS}")
        start = number * per_session
        graph.record_turns(sid, [
            {"role": "user", "text": f"{said[(start + i) % len(said)]} (turn {start + i})"} for i in range(per_session)
        ], user_id=f"bench-user-{number % USERS}")
        sessions.append(sid)
    return sessions


def snapshot_with_lzf(folder: Path) -> float:
    """The log's snapshot size (MiB) had it been written with LZF, as before issue 42; left uncompressed again."""
    connection = Connection(str(folder / "falkordb.sock"))
    try:
        connection.command("CONFIG", "SET", "rdbcompression", "yes")
        rewrite_log(connection, folder)
        size = sum(f.stat().st_size for f in (folder / "appendonlydir").glob("*.base.rdb"))
        connection.command("CONFIG", "SET", "rdbcompression", "no")
        return size / 2**20
    finally:
        connection.close()


def timed(step, *args, **kwargs) -> tuple[float, object]:
    started = time.perf_counter()
    result = step(*args, **kwargs)
    return time.perf_counter() - started, result


def measure(turns: int, per_session: int, forgets: int, said: list[str]) -> dict[str, list[float] | float]:
    folder = Path(tempfile.mkdtemp(prefix="sg-bf-", dir="/tmp"))
    graph = SessionsGraph(FalkorDBStore.open(folder))
    try:
        graph.setup()
        sessions = fill(graph, turns, per_session, said)
        lzf_mib = snapshot_with_lzf(folder)
        graph.erase_history()  # start from a compacted log, as a store that ran a while would
        steps: dict[str, list[float]] = {"graph forget": [], "traces": [], "log rewrite": [], "scrub logs": [], "search disk": []}
        for sid in sessions[:forgets]:
            user = graph.get_session(sid).user_id
            seconds, traces = timed(graph.forget_traces, user, session_id=sid)
            strings = traces.strings
            steps["traces"].append(seconds)
            steps["graph forget"].append(timed(graph.forget_session, user, sid)[0])
            seconds, history = timed(graph.erase_history)
            steps["log rewrite"].append(seconds)
            steps["scrub logs"].append(timed(erasure.scrub_logs, strings)[0])
            seconds, found = timed(erasure.find_on_disk, [Path(d) for d in history.directories], strings)
            steps["search disk"].append(seconds)
            assert not found, found
        size = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
        return {**steps, "disk_mib": size / 2**20, "lzf_mib": lzf_mib}
    finally:
        graph.close()
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", default="10000,100000")
    parser.add_argument("--turns-per-session", type=int, default=50)
    parser.add_argument("--forgets", type=int, default=3)
    args = parser.parse_args()
    said = sentences()
    table = Table("turns", "disk MiB", "with LZF MiB", "graph forget s", "traces s", "log rewrite s", "scrub s", "search s", "added / graph forget")
    for turns in [int(n) for n in args.turns.split(",")]:
        result = measure(turns, args.turns_per_session, args.forgets, said)
        median = {name: statistics.median(values) for name, values in result.items() if isinstance(values, list)}
        added = median["traces"] + median["log rewrite"] + median["scrub logs"] + median["search disk"]
        table.add_row(str(turns), f"{result['disk_mib']:.1f}", f"{result['lzf_mib']:.1f}", *(f"{median[name]:.3f}" for name in
                      ("graph forget", "traces", "log rewrite", "scrub logs", "search disk")), f"{added / median['graph forget']:.2f}")
    console = Console()
    console.print(table)
    console.print(f"medians of {args.forgets} forgets of one {args.turns_per_session}-turn session; load average "
                  f"{Path('/proc/loadavg').read_text().split()[0]} on {len(__import__('os').sched_getaffinity(0))} cores")


if __name__ == "__main__":
    main()
