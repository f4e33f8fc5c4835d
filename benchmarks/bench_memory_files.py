"""Memory files: latency of each memory-tool command, and concurrent writers losing no update.

    .venv/bin/python benchmarks/bench_memory_files.py [--files 1000] [--size 2048] [--repeats 200] [--writers 8]

A fresh embedded store in a temporary directory holds one user with --files files of --size bytes.
Each command runs --repeats times against it; latencies are compared with a baseline measured in
the same process: reading one Memory node by its path, the least any command does. Then --writers
processes edit at once, first each its own file, then all one file (each bumping its own counter
line, retrying stale edits); a lost update is a counter that ended below the edits that reported
success.
"""

from __future__ import annotations

import argparse
import multiprocessing
import re
import shutil
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from rich.console import Console
from rich.progress import track
from rich.table import Table

from sessions_graph_core import SessionsGraph
from sessions_graph_core.memory.files import MemoryCommandError, MemoryStore
from sessions_graph_core.store.falkordb.server import EmbeddedServer
from sessions_graph_core.store.falkordb.store import FalkorDBStore

USER = "bench-user"
GRAPH = "bench_memory_files"
SHARED = "/memories/shared/counters.md"
console = Console()


def file_text(number: int, size: int) -> str:
    """A file of `size` bytes whose first line is unique to it."""
    line = "the orders service keeps its state in Postgres and deploys on Fridays.\n"
    return (f"# note {number}\n" + line * (size // len(line) + 1))[:size]


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def timed(repeats: int, command: Callable[[int], object]) -> list[float]:
    samples = []
    for n in range(repeats):
        started = time.perf_counter()
        command(n)
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def note(n: int) -> str:
    return f"/memories/topic-{n % 20:02d}/note-{n:04d}.md"


def latencies(graph: SessionsGraph, files: MemoryStore, count: int, size: int, repeats: int) -> dict[str, list[float]]:
    for n in track(range(count), description=f"writing {count} files of {size} bytes", console=console):
        files.create(note(n), file_text(n, size))
    path = note(0)
    read_one = "MATCH (m:Memory {user_id: $user_id, path: $path}) RETURN m.content AS content"

    return {
        "baseline: read one node": timed(repeats, lambda n: graph.store.run(read_one, {"user_id": USER, "path": path})),
        "view /memories (listing)": timed(repeats, lambda n: files.view("/memories")),
        "view a directory": timed(repeats, lambda n: files.view("/memories/topic-03")),
        "view a file": timed(repeats, lambda n: files.view(path)),
        "create (new file)": timed(repeats, lambda n: files.create(f"/memories/new/{n}.md", file_text(n, size))),
        "create (overwrite)": timed(repeats, lambda n: files.create(path, file_text(n, size))),
        "str_replace": timed(repeats, lambda n: files.str_replace(note(n + 1), f"# note {n + 1}\n", "# edited\n")),
        "insert": timed(repeats, lambda n: files.insert(path, 1, f"inserted line {n}")),
        "rename (file)": timed(repeats, lambda n: files.rename(f"/memories/new/{n}.md", f"/memories/moved/{n}.md")),
        "delete (file)": timed(repeats, lambda n: files.delete(f"/memories/moved/{n}.md")),
        "versions": timed(repeats, lambda n: files.versions(path)),
    }


def bump(files: MemoryStore, path: str, name: str) -> int:
    """Add one to this writer's counter line; how many stale attempts were refused first."""
    stale = 0
    while True:
        count = int(re.search(rf"^{name}: (\d+)$", files.read(path), re.M).group(1))
        try:
            files.str_replace(path, f"{name}: {count}\n", f"{name}: {count + 1}\n")
            return stale
        except MemoryCommandError as exc:
            if "changed while it was being edited" not in str(exc):
                raise
            stale += 1


def writer(data_dir: str, name: str, path: str, edits: int, ready: threading.Barrier) -> tuple[int, int, float, float]:
    """One process's edits: (applied, stale attempts refused, when it started, when it finished)."""
    store = FalkorDBStore(EmbeddedServer(data_dir), graph=GRAPH)
    files = MemoryStore(store, USER, session_id=f"bench-{name}")
    ready.wait()  # every writer is connected before any starts
    started = time.time()
    stale = sum(bump(files, path, name) for _ in range(edits))
    finished = time.time()
    store.close()
    return edits, stale, started, finished


def concurrent_writers(data_dir: Path, files: MemoryStore, writers: int, edits: int, *, shared: bool) -> dict[str, float]:
    names = [f"w{n}" for n in range(writers)]
    paths = {name: SHARED if shared else f"/memories/writers/{name}.md" for name in names}
    if shared:
        files.create(SHARED, "".join(f"{name}: 0\n" for name in names))
    else:
        for name in names:
            files.create(paths[name], f"{name}: 0\n")
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager, ProcessPoolExecutor(writers, mp_context=context) as pool:
        ready = manager.Barrier(writers)
        futures = [pool.submit(writer, str(data_dir), name, paths[name], edits, ready) for name in names]
        results = [future.result() for future in futures]
    elapsed = max(result[3] for result in results) - min(result[2] for result in results)
    final = {name: int(re.search(rf"^{name}: (\d+)$", files.read(paths[name]), re.M).group(1)) for name in names}
    applied = sum(result[0] for result in results)
    return {
        "edits": applied,
        "seconds": elapsed,
        "stale": sum(result[1] for result in results),
        "lost": applied - sum(final.values()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--size", type=int, default=2048)
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--edits", type=int, default=100, help="edits per writer process")
    args = parser.parse_args()
    if not 0 < args.repeats < args.files:
        parser.error("--repeats must be at least 1 and below --files: each str_replace edits a file of its own")

    data_dir = Path(tempfile.mkdtemp(prefix="sg-bench-", dir="/tmp"))
    server = EmbeddedServer(data_dir)
    server.ensure_running()
    try:
        graph = SessionsGraph(FalkorDBStore(server, graph=GRAPH))
        graph.setup()
        files = graph.memory_store(USER, session_id="bench-session")
        samples = latencies(graph, files, args.files, args.size, args.repeats)
        baseline = statistics.median(samples["baseline: read one node"])
        table = Table(title=f"memory-tool commands, one user with {args.files:,} files of {args.size:,} bytes ({args.repeats} runs each)")
        for column in ("command", "p50 ms", "p95 ms", "p50 / baseline"):
            table.add_column(column, justify="left" if column == "command" else "right")
        for name, runs in samples.items():
            p50, p95 = percentiles(runs)
            table.add_row(name, f"{p50:.2f}", f"{p95:.2f}", f"{p50 / baseline:.1f}x")
        console.print(table)

        writers = Table(title=f"{args.writers} writer processes, {args.edits} str_replace edits each")
        for column in ("files", "edits applied", "seconds", "edits/s", "stale retries", "lost updates"):
            writers.add_column(column, justify="left" if column == "files" else "right")
        for shared in (False, True):
            with console.status("writers running"):
                result = concurrent_writers(data_dir, files, args.writers, args.edits, shared=shared)
            writers.add_row(
                "one file, all writers" if shared else "one file per writer",
                str(result["edits"]), f"{result['seconds']:.1f}", f"{result['edits'] / result['seconds']:.0f}",
                str(result["stale"]), str(result["lost"]),
            )
        console.print(writers)
        graph.store.delete_all()
        graph.close()
    finally:
        server.stop()
        shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
