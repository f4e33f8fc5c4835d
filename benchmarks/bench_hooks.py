"""Hook latency per event, and the MCP recall round trip, with the embedded store running.

    .venv/bin/python benchmarks/bench_hooks.py [--runs 15] [--turns 400] [--plot docs/benchmarks/hooks.png]
    .venv/bin/python benchmarks/bench_hooks.py --store /tmp/h40-100k --loads 3 --no-mcp

Each hook is what a harness runs: a fresh `sessions-graph hook EVENT` process fed the event's JSON,
against a Claude Code transcript that grows between events. Harnesses time hooks out, so p95 is
the figure to watch (issue 40: p95 under 100 ms on an idle machine). Baselines, measured in the same process and way:
`python -c pass` (interpreter start) and the hook given `{}` (every import, no store work), so
the ratio columns show what the store work and the imports cost on top of starting Python; a Stop
run inside the benchmark process shows the store work alone.
The detached embed a Stop or SessionEnd starts is waited for before the next run, so one event's
child does not slow the next measurement.
A hook validates the config in full (pydantic) only when the file or environment changed since the
last hook: one unmeasured hook warms that cache first, and a row of its own measures the hook that
finds it cold (a log directory of its own per sample, where the cache lives).

`--loads N` times the hooks while the store loads: the server is stopped and started again in a thread,
and `UserPromptSubmit` hooks (each after a `python -c pass`, so both see the same load) run back to back
until it answers. Each is spooled (integrations/spool.py); the first of each load also starts the drainer.
The spool is drained after each load and must be empty. `--store DIR` runs all of it against a store
built before (e.g. bench_cli.py's 100k-turn one) instead of a new empty one. `--not-ready` times the
spooling hook alone (bench_not_ready). `--before TREE` runs that tree's hooks (PYTHONPATH) beside these,
each tree with a log directory, and so a settings cache, of its own (two versions whose cache keys differ
would otherwise each find the other's and check the config in full, 100 ms more per hook),
in the same rounds: a session of every event with the store up, and the loading and not-ready rows.

The MCP part starts `sessions-graph mcp` once with the real MCP client and times `recall` calls
over a user with `--turns` stored turns, against a `memory view` call as the round-trip baseline.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from plots import distributions, run_note
from rich.console import Console
from rich.table import Table

from sessions_graph_core import SessionsGraph
from sessions_graph_core.children import sessions_graph_command
from sessions_graph_core.config.model import CONFIG_ENV, set_value
from sessions_graph_core.failures import FAILURE_LOG, LOG_DIR_ENV, failure_log_path, recent_failures
from sessions_graph_core.integrations import spool
from sessions_graph_core.integrations.hooks import run_hook
from sessions_graph_core.store.falkordb.server import EmbeddedServer
from sessions_graph_core.store.falkordb.store import FalkorDBStore

WORDS = (
    "orders service postgres kafka billing checkout deploy release migration schema index latency region "
    "failover owner decision python typescript cache redis queue worker retry alert dashboard metric trace"
).split()
console = Console()


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[math.ceil(len(ordered) * 0.95) - 1] * 1000  # nearest rank


def sentence(rng: random.Random, words: int = 14) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


class Transcript:
    """A Claude Code transcript that the benchmark appends to between hooks."""

    def __init__(self, path: Path, session_id: str, cwd: Path) -> None:
        self.path, self.session_id, self.cwd = path, session_id, cwd
        self.turn = 0
        path.write_text("")

    def exchange(self, rng: random.Random) -> None:
        self.turn += 1
        stamp = f"2026-11-20T10:{self.turn // 60 % 60:02d}:{self.turn % 60:02d}.000Z"
        entries = [
            {"type": "user", "uuid": str(uuid.uuid4()), "timestamp": stamp, "message": {"role": "user", "content": sentence(rng)}},
            {"type": "assistant", "uuid": str(uuid.uuid4()), "timestamp": stamp,
             "message": {"role": "assistant", "content": [{"type": "text", "text": sentence(rng, 30)}]}},
        ]
        with open(self.path, "a") as file:
            file.write("".join(json.dumps(entry) + "\n" for entry in entries))

    def payload(self, event: str, **extra: object) -> str:
        return json.dumps({"session_id": self.session_id, "transcript_path": str(self.path), "cwd": str(self.cwd),
                           "hook_event_name": event, **extra})


class Timed(float):
    """A process's wall time in seconds, with its CPU time (user + system) beside it: on this shared machine the
    wall time mostly measures the wait for a core, the CPU time what the process itself did."""

    cpu: float


def run_process(command: list[str], stdin: str, env: dict[str, str]) -> Timed:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, input=stdin, capture_output=True, text=True, env=env, check=True)
    timed = Timed(time.perf_counter() - started)
    done = resource.getrusage(resource.RUSAGE_CHILDREN)  # a detached child of the hook is not ours: not counted
    timed.cpu = done.ru_utime + done.ru_stime - used.ru_utime - used.ru_stime
    return timed


def wait_for_children(session_prefix: str) -> None:
    """Until no detached `sessions-graph embed` of ours is left running."""
    while True:
        running = False
        for entry in Path("/proc").iterdir():
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if b"embed\x00--session\x00" + session_prefix.encode() in cmdline:
                running = True
                break
        if not running:
            return
        time.sleep(0.05)


def reap_exited_children() -> None:
    """Collect the children this process started and that have exited (the in-process Stop's detached embed):
    left to subprocess, one is collected inside a later run_process, and its CPU counted as that hook's."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:  # none left
            return
        if pid == 0:  # the rest still run (the store's server)
            return


def before_env(env: dict[str, str], before: Path) -> dict[str, str]:
    """The environment of the --before tree's hooks: its code, and its own log directory (settings cache)."""
    return {**env, "PYTHONPATH": str(before), LOG_DIR_ENV: f"{env[LOG_DIR_ENV]}-before"}


def bench_hooks(
    runs: int, env: dict[str, str], workdir: Path, rng: random.Random, before: Path | None = None
) -> list[tuple[str, list[float]]]:
    """Each event's hook in a fresh process; with `before`, each run's session is followed by one of that tree's
    (PYTHONPATH), event by event, so the two are compared in the same rounds."""
    hook = [*sessions_graph_command(), "hook"]
    results = [
        ("python -c pass (baseline)", [run_process([sys.executable, "-c", "pass"], "", env) for _ in range(runs)]),
        ("hook given {} (imports only)", [run_process([*hook, "Stop"], "{}", env) for _ in range(runs)]),
    ]
    failure_log_path().unlink()  # the baseline's refusals; the events below must log none
    cold = "UserPromptSubmit, config changed (full check)"
    trees = {"": env} | ({f", from {before}": before_env(env, before)} if before else {})
    samples: dict[str, list[float]] = {
        f"{event}{suffix}": [] for event in ("SessionStart", "UserPromptSubmit", "PostToolUse", "Stop", "SessionEnd") for suffix in trees}
    samples |= {cold: [], "Stop, in-process (store work only)": []}
    for suffix, tree_env in trees.items():  # each tree's bytecode and settings cache written before the timing
        warm_up = Transcript(workdir / f"warm-up{len(suffix)}.jsonl", f"bench-{uuid.uuid4()}", workdir)
        run_process([*hook, "SessionStart"], warm_up.payload("SessionStart", source="startup"), tree_env)
    for run in range(runs):
        for suffix, tree_env in trees.items():
            transcript = Transcript(workdir / f"t{run}{len(suffix)}.jsonl", f"bench-{uuid.uuid4()}", workdir)

            def timed(event: str, payload: str, tree_env: dict[str, str] = tree_env, suffix: str = suffix) -> None:
                samples[f"{event}{suffix}"].append(run_process([*hook, event], payload, tree_env))

            timed("SessionStart", transcript.payload("SessionStart", source="startup"))
            transcript.exchange(rng)
            timed("UserPromptSubmit", transcript.payload("UserPromptSubmit"))
            tool = {"command": "create", "path": f"/memories/bench/{run}{len(suffix)}.md", "file_text": sentence(rng)}
            timed("PostToolUse", transcript.payload("PostToolUse", tool_name="mcp__sessions-graph__memory", tool_input=tool))
            transcript.exchange(rng)
            timed("Stop", transcript.payload("Stop"))
            wait_for_children("bench-")
            transcript.exchange(rng)
            timed("SessionEnd", transcript.payload("SessionEnd", reason="exit"))
            wait_for_children("bench-")
            if not suffix:
                ours = transcript
        transcript = ours  # this tree's session again, ended, as before
        cold_log = workdir / f"cold-log-{run}"
        samples[cold].append(run_process([*hook, "UserPromptSubmit"], transcript.payload("UserPromptSubmit"), {**env, LOG_DIR_ENV: str(cold_log)}))
        if (cold_log / FAILURE_LOG).exists():
            raise SystemExit(f"a cold hook logged failures: {(cold_log / FAILURE_LOG).read_text()}")
        # The same turn end inside this process: the store work alone, without starting Python and importing.
        transcript.exchange(rng)
        started = time.perf_counter()
        run_hook("Stop", transcript.payload("Stop"))
        samples["Stop, in-process (store work only)"].append(time.perf_counter() - started)
        wait_for_children("bench-")
        reap_exited_children()
    return results + list(samples.items())


def bench_loading(
    loads: int, server: EmbeddedServer, env: dict[str, str], workdir: Path, rng: random.Random, before: Path | None = None
) -> list[tuple[str, list[float]]]:
    """UserPromptSubmit hooks while the store loads, each after a `python -c pass` run in the same window;
    with `before`, each also followed by the same hook from that tree (PYTHONPATH), e.g. main's checkout."""
    hook = [*sessions_graph_command(), "hook", "UserPromptSubmit"]
    baseline: list[float] = []
    first: list[float] = []
    later: list[float] = []
    theirs: list[float] = []
    for load in range(loads):
        server.stop()
        starting = threading.Thread(target=server.ensure_running)
        starting.start()
        timed: list[float] = []
        while not server.responds(timeout=1):
            baseline.append(run_process([sys.executable, "-c", "pass"], "", env))
            transcript = Transcript(workdir / f"load-{load}-{len(timed)}.jsonl", f"bench-{uuid.uuid4()}", workdir)
            transcript.exchange(rng)
            timed.append(run_process(hook, transcript.payload("UserPromptSubmit"), env))
            if before is not None:
                transcript.exchange(rng)
                theirs.append(run_process(hook, transcript.payload("UserPromptSubmit"), before_env(env, before)))
        starting.join()
        first += timed[:1]
        later += timed[1:]
        subprocess.run([*sessions_graph_command(), "store", "drain"], env=env, capture_output=True, check=True)
        left = spool.pending(server.data_dir)  # with a --before tree's files from before the log
        if left:
            raise SystemExit(f"{len(left)} spooled hook events were left after the drain, in {spool.spool_dir(server.data_dir)}")
    return [
        ("python -c pass, while the store loads", baseline),
        ("UserPromptSubmit, store loading (spooled)", first + later),
        ("  the first of each load (starts the drainer)", first),
        (f"UserPromptSubmit, store loading, from {before}", theirs),
    ]


def bench_not_ready(runs: int, env: dict[str, str], workdir: Path, rng: random.Random, before: Path | None) -> list[tuple[str, list[float]]]:
    """The spooling hook on its own, the spool empty and a drainer marked as on its way (so none starts), for two
    stores that are not ready: none started (no socket), and one that accepts and never replies, as the 100k-turn
    server did for minutes while it re-created its vector index. Each hook after a `python -c pass`."""
    hook = [*sessions_graph_command(), "hook", "UserPromptSubmit"]
    trees = {"": env} | ({f", from {before}": before_env(env, before)} if before else {})
    found: dict[str, list[float]] = {"python -c pass, same rounds": []}
    for number, state in enumerate(("no server", "a server that never replies")):
        data_dir = workdir / f"not-ready-{number}"
        spooled = spool.spool_dir(data_dir)
        spooled.mkdir(parents=True)
        with socket.socket(socket.AF_UNIX) as silent:
            if state != "no server":
                silent.bind(str(data_dir / "falkordb.sock"))
                silent.listen(4 * runs + 8)
            for run in range(runs + 1):  # the first round unmeasured: it writes the new config's cache
                baseline = run_process([sys.executable, "-c", "pass"], "", env)
                for suffix, tree_env in trees.items():
                    spool.drain(data_dir, lambda item: None)  # the last round's event, dropped
                    (spooled / spool.STARTING).touch()
                    transcript = Transcript(workdir / f"not-ready-{run}.jsonl", f"bench-{uuid.uuid4()}", workdir)
                    transcript.exchange(rng)
                    took = run_process(hook, transcript.payload("UserPromptSubmit"), {**tree_env, "SESSIONS_GRAPH_DATA_DIR": str(data_dir)})
                    if len(spool.pending(data_dir)) != 1:
                        raise SystemExit(f"the hook did not spool ({state})")
                    if run:
                        found.setdefault(f"UserPromptSubmit spooled, {state}{suffix}", []).append(took)
                if run:
                    found["python -c pass, same rounds"].append(baseline)
    return list(found.items())


def seed_history(data_dir: Path, user: str, turns: int, rng: random.Random) -> None:
    store = FalkorDBStore(EmbeddedServer(data_dir), graph="sessions_graph")
    graph = SessionsGraph(store)
    graph.setup()
    per_session = 20
    for number in range(max(1, turns // per_session)):
        sid = f"history-{number}"
        graph.record_session_start(sid, user_id=user, project_key="orders")
        graph.record_turns(sid, [{"role": "user" if i % 2 == 0 else "assistant", "text": sentence(rng, 20)} for i in range(per_session)], user_id=user)
        graph.embed_session(sid)
    store.close()


def bench_mcp(runs: int, env: dict[str, str]) -> list[tuple[str, list[float]]]:
    command, *arguments = sessions_graph_command()
    parameters = StdioServerParameters(command=command, args=[*arguments, "mcp"], env=env)
    questions = ["Which database did we pick for orders?", "What retry backoff did we set?", "Who owns the billing alerts?"]
    found: dict[str, list[float]] = {"MCP memory view (baseline)": [], "MCP recall": []}

    async def timed(label: str, call: Callable[[], object]) -> None:
        started = time.perf_counter()
        result = await call()  # type: ignore[misc]
        if result.is_error:
            raise RuntimeError(result.content[0].text)
        found[label].append(time.perf_counter() - started)

    async def main() -> None:
        async with Client(parameters) as client:
            await client.call_tool("recall", {"question": "warm up"})  # opens the store and loads the model once
            for run in range(runs):
                await timed("MCP memory view (baseline)", lambda: client.call_tool("memory", {"command": "view", "path": "/memories"}))
                await timed("MCP recall", lambda run=run: client.call_tool("recall", {"question": questions[run % len(questions)]}))

    anyio.run(main)
    return list(found.items())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15, help="samples per event")
    parser.add_argument("--turns", type=int, default=400, help="stored turns that recall searches")
    parser.add_argument("--plot", type=Path, help="also write each row's distribution as a PNG here")
    parser.add_argument("--store", type=Path, help="a store built before (kept), instead of a new empty one")
    parser.add_argument("--loads", type=int, default=0, help="times to stop and start the store, timing hooks while it loads")
    parser.add_argument("--before", type=Path, help="a tree whose UserPromptSubmit hooks run beside these")
    parser.add_argument("--not-ready", action="store_true", help="also time the spooling hook alone: no server, and one that never replies")
    parser.add_argument("--no-mcp", action="store_true", help="leave out the MCP round trip (and its seeded history)")
    options = parser.parse_args()
    rng = random.Random(7)
    with tempfile.TemporaryDirectory(prefix="sg-bench-", dir="/tmp") as root:
        root_path = Path(root)
        data_dir = options.store or root_path / "data"
        server = EmbeddedServer(data_dir)
        server.ensure_running()
        while not server.indexed(vectors=True):  # a store stopped cleanly rebuilds its vector index in the background
            time.sleep(0.5)
        try:
            os.environ[CONFIG_ENV] = str(root_path / "config.toml")
            os.environ[LOG_DIR_ENV] = str(root_path / "log")
            os.environ.pop("SESSIONS_GRAPH_DATA_DIR", None)
            set_value("identity.user_id", "bench")
            set_value("store.data_dir", str(data_dir))
            env = dict(os.environ)
            env.pop("PYTHONDONTWRITEBYTECODE", None)  # as bench_cli.py: an installed package has its bytecode
            subprocess.run(["git", "init", "-q", root], check=True)
            subprocess.run(["git", "-C", root, "remote", "add", "origin", "https://github.com/acme/orders.git"], check=True)
            hook_results = bench_hooks(options.runs, env, root_path, rng, options.before)
            loading_results = bench_loading(options.loads, server, env, root_path, rng, options.before) if options.loads else []
            not_ready_results = bench_not_ready(options.runs, env, root_path, rng, options.before) if options.not_ready else []
            failures = recent_failures()
            if failures:
                raise SystemExit(f"hooks logged failures: {failures[-1]['error']}")
            theirs = Path(f"{env[LOG_DIR_ENV]}-before") / FAILURE_LOG
            if theirs.exists():
                raise SystemExit(f"the --before tree's hooks logged failures: {theirs.read_text()[-2000:]}")
            mcp_results = []
            if not options.no_mcp:
                seed_history(data_dir, "bench", options.turns, rng)
                mcp_results = bench_mcp(options.runs, env)
        finally:
            server.stop()
    report(hook_results, "Hook latency (fresh process per event, embedded store running)", options.runs)
    if loading_results:
        report(loading_results, f"Hook latency while the store loads ({options.loads} loads)", options.runs)
    if not_ready_results:
        report(not_ready_results, "The spooling hook alone (spool empty, no drainer started)", options.runs)
    if mcp_results:
        report(mcp_results, f"MCP round trip over stdio ({options.turns} stored turns)", options.runs)
    console.print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    if options.plot:
        samples = {label: [second * 1000 for second in seconds] for label, seconds in hook_results + loading_results + not_ready_results + mcp_results}
        distributions(options.plot, samples, title=f"Hook and MCP latency, {options.runs} runs each", ylabel="ms",
                      note=run_note())


def cpu_p50(samples: list[float]) -> float | None:
    """The median CPU milliseconds of samples timed as processes (Timed); None for those timed in-process."""
    if not all(isinstance(sample, Timed) for sample in samples):
        return None
    return statistics.median(sample.cpu for sample in samples) * 1000  # type: ignore[attr-defined]


def report(results: list[tuple[str, list[float]]], title: str, runs: int) -> None:
    baseline_p50 = percentiles(results[0][1])[0]
    baseline_cpu = cpu_p50(results[0][1])
    table = Table("what", "n", "p50 ms", "p95 ms", "p50 / baseline", "CPU p50 ms", "CPU / baseline",
                  title=f"{title}, {runs} runs each")
    for label, samples in results:
        if not samples:  # the first load's hook, say, when no --before tree ran beside it
            continue
        p50, p95 = percentiles(samples)
        cpu = cpu_p50(samples)
        cpu_columns = (f"{cpu:.0f}", f"{cpu / baseline_cpu:.1f}x") if cpu is not None and baseline_cpu else ("-", "-")
        table.add_row(label, str(len(samples)), f"{p50:.0f}", f"{p95:.0f}", f"{p50 / baseline_p50:.1f}x", *cpu_columns)
    console.print(table)


if __name__ == "__main__":
    main()
