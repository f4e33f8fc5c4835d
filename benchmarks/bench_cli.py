"""Whole-process CLI latency with the store up, the store's open time, and hooks while the store loads.

    .venv/bin/python benchmarks/bench_cli.py [--turns 10000] [--runs 10] [--before /work/main] [--store DIR]

One user's history of `--turns` synthetic turns with vectors is built as bench_recall_latency.py builds
it (kept in `--store` to reuse). Then, in one process and interleaved so both see the same load:

- each command as a person or agent runs it (a fresh `sessions-graph` process) with the store up, beside
  `python -c pass`, as p50 / p95 and the ratio of the p50 to the baseline's; with `--before TREE`, the same
  commands run from that tree (PYTHONPATH) too;
- the store's open time: the server stopped, then `EmbeddedServer.ensure_running()` timed to the first
  answer (the log loaded) and to every index built, `--opens` times;
- hook latency (`UserPromptSubmit`, a fresh process each) with the store up, and while it loads: the server
  stopped and started again in a thread, the hooks timed until it answers (they spool, integrations/spool.py).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bench_recall_latency as history  # noqa: E402

from sessions_graph_core import SessionsGraph  # noqa: E402
from sessions_graph_core.children import sessions_graph_command  # noqa: E402
from sessions_graph_core.config.model import CONFIG_ENV, set_value  # noqa: E402
from sessions_graph_core.embeddings.models import load_embedder  # noqa: E402
from sessions_graph_core.failures import LOG_DIR_ENV  # noqa: E402
from sessions_graph_core.integrations import spool  # noqa: E402
from sessions_graph_core.store.falkordb.server import EmbeddedServer  # noqa: E402
from sessions_graph_core.store.falkordb.store import FalkorDBStore  # noqa: E402

USER = history.USER
console = Console(width=160)


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[math.ceil(len(ordered) * 0.95) - 1] * 1000


def timed_process(command: list[str], env: dict[str, str], stdin: str = "") -> float:
    started = time.perf_counter()
    done = subprocess.run(command, input=stdin, capture_output=True, text=True, env=env, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return elapsed


def build(directory: Path, turns: int) -> None:
    """The history, grown to `turns` if the store holds fewer, then the store stopped with its log compacted."""
    rng = np.random.default_rng(7)
    words = history.vocabulary(rng)
    embedder = load_embedder()
    base = embedder.embed([history.sentence(words, rng, int(rng.integers(6, 20))) for _ in range(history.BASE_SENTENCES)])
    graph = SessionsGraph(FalkorDBStore.open(directory, keep_running=True, idle_seconds=0))
    try:
        graph.setup()
        have = graph.store.run("MATCH (t:Turn {user_id: $user}) RETURN count(t) AS n", {"user": USER})[0]["n"]
        started = time.perf_counter()
        history.grow(graph, words, history.Mixtures(base, rng), rng, have, turns)
        if have < turns:
            console.print(f"built {turns - have:,} turns in {time.perf_counter() - started:.0f} s")
        graph.save_memory(USER, "The orders service moved to CockroachDB.", path=f"/memories/bench-{uuid.uuid4().hex[:8]}.md")
    finally:
        graph.close()


def open_times(server: EmbeddedServer) -> tuple[float, float]:
    """Seconds from a start to the first answer and to every index built (the server stopped first)."""
    server.stop()
    started = time.perf_counter()
    answered = None
    thread = threading.Thread(target=server.ensure_running)
    thread.start()
    while answered is None:
        if server.responds(timeout=5):
            answered = time.perf_counter() - started
        else:
            time.sleep(0.01)
    thread.join()  # ensure_running creates the vector indexes a clean stop set aside only after the load
    while not server.indexed(vectors=True):
        time.sleep(0.01)
    return answered, time.perf_counter() - started


def hook_payload(directory: Path) -> str:
    transcript = directory / f"bench-{uuid.uuid4().hex}.jsonl"
    line = {"type": "user", "uuid": str(uuid.uuid4()), "timestamp": "2026-12-04T10:00:00.000Z",
            "message": {"role": "user", "content": "Which queue do the orders workers read?"}}
    transcript.write_text(json.dumps(line) + "\n")
    return json.dumps({"session_id": f"bench-hook-{uuid.uuid4().hex[:12]}", "transcript_path": str(transcript),
                       "cwd": str(directory), "hook_event_name": "UserPromptSubmit"})


def hooks_while_loading(server: EmbeddedServer, env: dict[str, str], workdir: Path, runs: int) -> list[float]:
    """Hook latencies while the store is stopped and loading; at most `runs`, as many as its load allows."""
    server.stop()
    hook = [*sessions_graph_command(), "hook", "UserPromptSubmit"]
    samples = []
    thread = threading.Thread(target=server.ensure_running)
    thread.start()
    while len(samples) < runs and not server.responds(timeout=1):
        samples.append(timed_process(hook, env, hook_payload(workdir)))
    thread.join()
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--opens", type=int, default=3)
    parser.add_argument("--before", type=Path, help="a tree to time beside this one (PYTHONPATH), e.g. main's checkout")
    parser.add_argument("--store", type=Path, help="keep the store here and reuse it (default: a temporary directory)")
    args = parser.parse_args()
    directory = args.store or Path(tempfile.mkdtemp(prefix="sg-cli-", dir="/tmp"))
    workdir = Path(tempfile.mkdtemp(prefix="sg-cli-work-"))
    env = {**os.environ, "SESSIONS_GRAPH_DATA_DIR": str(directory), CONFIG_ENV: str(workdir / "config.toml"),
           LOG_DIR_ENV: str(workdir / "log")}
    env.pop("MEMGRAPH_URL", None)
    # pip compiles an installed package's bytecode; a child told not to write it (as this machine's shells are)
    # compiles every module it imports at every start: a third of a hook's time on an idle machine.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ.update({CONFIG_ENV: env[CONFIG_ENV]})
    set_value("identity.user_id", USER)
    set_value("store.data_dir", str(directory))
    server = EmbeddedServer(directory)
    try:
        build(directory, args.turns)
        here = str(Path(__file__).resolve().parents[1])
        trees = {"after": here} | ({"before": str(args.before)} if args.before else {})
        sg = sessions_graph_command()
        commands: dict[str, list[str]] = {
            "python -c pass (baseline)": [sys.executable, "-c", "pass"],
            "--help": [*sg, "--help"],
            "memory view": [*sg, "memory", "view", "--user", USER],
            "session list": [*sg, "session", "list", "--user", USER],
            "facts": [*sg, "facts", "--user", USER, "orders service"],
            "recall": [*sg, "recall", "--user", USER, "Which database does the orders service use?"],
        }
        samples: dict[tuple[str, str], list[float]] = {}
        server.ensure_running()
        while not server.indexed(vectors=True):  # rebuilt in the background after a clean stop (vector_rebuild.py)
            time.sleep(0.5)
        for _ in range(args.runs):  # interleaved: every command and tree sees the same load
            for tree, path in trees.items():
                tree_env = {**env, "PYTHONPATH": path}
                for name, command in commands.items():
                    samples.setdefault((name, tree), []).append(timed_process(command, tree_env))
        base = statistics.median(samples[("python -c pass (baseline)", "after")])
        table = Table(title=f"whole-process latency, store up, {args.turns:,} turns, {args.runs} runs (ms)")
        for column in ("command", "tree", "p50", "p95", "p50 / python -c pass"):
            table.add_column(column, justify="right" if column not in ("command", "tree") else "left")
        for (name, tree), values in samples.items():
            p50, p95 = percentiles(values)
            table.add_row(name, tree, f"{p50:.0f}", f"{p95:.0f}", f"{p50 / (base * 1000):.1f}x")
        console.print(table)

        hook = [*sg, "hook", "UserPromptSubmit"]
        timed_process(hook, env, hook_payload(workdir))  # unmeasured: writes the bytecode of what only hooks import
        up = [timed_process(hook, env, hook_payload(workdir)) for _ in range(args.runs)]
        loading = hooks_while_loading(server, env, workdir, args.runs)
        spooled = len(spool.pending(directory))
        opens = [open_times(server) for _ in range(args.opens)]
        table = Table(title="hooks (UserPromptSubmit, ms) and the store's open time (s)")
        for column in ("what", "n", "p50", "p95"):
            table.add_column(column)
        for name, values in (("hook, store up", up), (f"hook, store loading ({spooled} left spooled)", loading)):
            if values:
                p50, p95 = percentiles(values)
                table.add_row(name, str(len(values)), f"{p50:.0f}", f"{p95:.0f}")
        for index, label in ((0, "open: first answer (log loaded)"), (1, "open: every index built, vectors too")):
            values = [pair[index] for pair in opens]
            if values:  # --opens 0: the open is timed by bench_store_open.py instead
                table.add_row(label, str(len(values)), f"{statistics.median(values):.2f}", f"{max(values):.2f}")
        size = sum(f.stat().st_size for f in (directory / "appendonlydir").glob("*")) / 2**20
        console.print(table)
        console.print("the server's own account of its last load (server.log):")
        for line in server.log_path.read_text(errors="replace").splitlines()[-40:]:
            if "DB loaded from" in line or "Done loading" in line:
                console.print(f"  {line.split(' * ', 1)[-1]}", highlight=False)
        console.print(f"store on disk: {size:.0f} MiB (appendonlydir); load average {os.getloadavg()[0]:.1f}")
    finally:
        subprocess.run([*sessions_graph_command(), "store", "drain"], env=env, capture_output=True, check=False)
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)
        if not args.store:
            shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
