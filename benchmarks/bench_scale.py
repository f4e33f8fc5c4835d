"""Past one machine, measured: the production profile (Dagster on PostgreSQL, the graph on a standalone
FalkorDB primary with a replica) and the per-user partition scheme, beside today's per-session scheme.

    .venv/bin/python benchmarks/bench_scale.py [--tick-sizes 1000,10000,100000] [--drain-sessions 1000]
        [--drain-users 100] [--runs 1,2,4] [--page-sessions 100000] [--sessions-per-user 100] [--plot PNG]

1. Sensor tick time (pending_sessions_sensor, through Dagster's build_sensor_context) on a PostgreSQL
   instance that holds what N known sessions leave behind: a partition per session under today's scheme
   (the package at --baseline, run from git in a process of its own), a partition per user
   (N / --sessions-per-user) under the new one; four runs unfinished; 100 pending sessions of 10 users.
2. Drain: --drain-sessions sessions of 6 turns over --drain-users users (default: --sessions-per-user
   each, the issue's 100), pending at once, drained by the
   real daemon and runs (max_concurrent_runs = each of --runs), writes acknowledged by the replica
   (store.replica_acks=1); sessions/min, the first and the last thousand's time, store size and RSS;
   recall p50 on the replica while the first drain writes, beside recall p50 with no writes.
3. Asset page: the reconciled_session partitions page in headless chromium, and the GraphQL partition
   query behind it, with --page-sessions known sessions under each scheme.
Every size is an argument; 0 skips a part. The machine's load is printed with the results. With --plot
PNG, the tick time against the known sessions goes to PNG's name with -ticks, and each drain's thousands
to its name with -drain.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import yaml
from bench_dagster import add_pending
from plots import curves, run_note
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from devtools.local_platform import PRODUCTION, REPO, _environment, free_port, laid_over, prepare_home, running_platform
from devtools.progress import graphql, runs, wait_for_http, wait_until_drained
from sessions_graph_core import SessionsGraph
from sessions_graph_core.store.base import GraphStore
from sessions_graph_core.store.falkordb.server import EmbeddedServer, _rss_bytes
from sessions_graph_core.store.falkordb.service import StandaloneServer
from sessions_graph_core.store.location import StoreSettings, open_store

BASELINE = "1170d67"  # main before per-user partitions: today's per-session scheme
# Recall p50 with no writes needs no more queries than this, however long the drain ran.
IDLE_PROBES = 500
# A recall a second on the replica: a steady reader beside the drain, not a workload of its own competing
# with the drain for the two cores.
PROBE_INTERVAL_S = 1.0
QUESTION = "Which database does the orders service use?"
CHROMIUM = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--window-size=1400,900", "--virtual-time-budget=20000", "--dump-dom"]
console = Console(width=170)


# -- servers --------------------------------------------------------------------------------------

@contextmanager
def postgres(root: Path) -> Iterator[dict[str, str]]:
    directory = root / "postgres"
    subprocess.run(["bash", str(REPO / "scripts" / "postgres"), "start", str(directory)], check=True, capture_output=True)
    env = {}
    for line in (directory / "env").read_text().splitlines():
        name, _, value = line.removeprefix("export ").partition("=")
        env[name] = value.strip("'")
    try:
        yield env
    finally:
        subprocess.run(["bash", str(REPO / "scripts" / "postgres"), "stop", str(directory)], check=False, capture_output=True)


def database(pg: dict[str, str], name: str) -> dict[str, str]:
    """A fresh database on the server; the variables that point the instance at it."""
    createdb = sorted(Path("/usr/lib/postgresql").glob("*/bin/createdb"))[-1]
    subprocess.run(
        [str(createdb), "-h", pg["DAGSTER_PG_HOST"], "-p", pg["DAGSTER_PG_PORT"], "-U", pg["DAGSTER_PG_USER"], name],
        env={**os.environ, "PGPASSWORD": pg["DAGSTER_PG_PASSWORD"]}, check=True, capture_output=True,
    )
    return {**pg, "DAGSTER_PG_DB": name}


@contextmanager
def standalone(root: Path) -> Iterator[tuple[StandaloneServer, StandaloneServer, str]]:
    password = secrets.token_urlsafe(16)
    primary, replica = StandaloneServer(root / "primary"), StandaloneServer(root / "replica")
    primary.start(password=password, port=free_port())
    replica.start(password=password, port=free_port(), replica_of=primary.address)
    try:
        yield primary, replica, password
    finally:
        replica.stop()
        primary.stop()


def baseline_tree(root: Path, commit: str) -> Path:
    tree = root / "baseline"
    tree.mkdir()
    archive = subprocess.run(["git", "-C", str(REPO), "archive", commit], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return tree


def python_in(tree: Path, args: list[str], env: dict[str, str]) -> str:
    return subprocess.run(
        [sys.executable, *args], cwd=tree, env={**os.environ, **env, "PYTHONPATH": str(tree)},
        check=True, capture_output=True, text=True,
    ).stdout


# -- 1. sensor ticks ------------------------------------------------------------------------------

def tick_times(root: Path, pg: dict[str, str], sizes: list[int], per_user: int, old: Path, ticks: int) -> list[tuple]:
    graph_dir = root / "tick-graph"
    server = EmbeddedServer(graph_dir)
    server.ensure_running()
    with SessionsGraph(open_store(StoreSettings(data_dir=graph_dir))) as graph:
        graph.setup()
        for index in range(100):
            add_pending(graph, index, "tick")  # users user-00 .. user-24
    rows = []
    try:
        for size in sizes:
            for scheme, tree in (("per session (today)", old), ("per user (new)", REPO)):
                env = database(pg, f"tick_{'old' if tree == old else 'new'}_{size}")
                home = root / f"home-{env['DAGSTER_PG_DB']}"
                with _environment(env):
                    prepare_home(home, profile=PRODUCTION)
                worker = [str(REPO / "benchmarks" / "scale_tick.py"), str(graph_dir), str(size), str(per_user), str(ticks)]
                result = json.loads(python_in(tree, worker, {**env, "DAGSTER_HOME": str(home)}).splitlines()[-1])
                rows.append((size, scheme, result["median"], max(result["ticks"]), result["runs"]))
                console.print(f"  {size:>7} known sessions, {scheme}: tick p50 {result['median'] * 1000:.0f} ms")
    finally:
        server.stop()
    return rows


# -- 2. drains ------------------------------------------------------------------------------------

def profile_with(root: Path, concurrent: int) -> Path:
    """The production profile with max_concurrent_runs changed, nothing else."""
    profile = laid_over(yaml.safe_load(PRODUCTION.read_text()), {"concurrency": {"runs": {"max_concurrent_runs": concurrent}}})
    path = root / f"profile-{concurrent}.yaml"
    path.write_text(yaml.safe_dump(profile))
    return path


def recall_latencies(
    settings: StoreSettings, users: int, stop: threading.Event, out: list[float], limit: int = 0, pause: float = PROBE_INTERVAL_S
) -> None:
    with SessionsGraph(open_store(settings.for_reads())) as replica:
        index = 0
        while not stop.is_set() and (not limit or len(out) < limit):
            started = time.perf_counter()
            replica.recall(f"user-{index % users:02d}", QUESTION)
            out.append(time.perf_counter() - started)
            index += 1
            time.sleep(pause)


class CpuTally:
    """CPU-seconds the drain's processes use, by kind, sampled from /proc while it runs: this process's
    descendants (the store's servers, Dagster's daemon, webserver, code servers and run workers) and
    PostgreSQL's (its postmaster is not our child). A process that ends between samples loses at most
    its last second; one that was running when the tally started counts from then. A PostgreSQL backend
    that serves one connection lives a few milliseconds and is seldom sampled: what the postmaster's
    reaped children used beyond what the samples saw of them is added to PostgreSQL. The machine's own
    busy time (/proc/stat) is kept beside the sum; on a machine otherwise quiet the two agree."""

    def __init__(self, postmaster_pid_file: Path) -> None:
        self._postmaster = postmaster_pid_file
        self._since = _uptime()
        self._first: dict[tuple[int, int], float] = {}
        self._last: dict[tuple[int, int], tuple[str, float]] = {}
        self._backends: set[tuple[int, int]] = set()  # the postmaster's children seen in a sample
        self._unseen_backends = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample_until_stopped, daemon=True)

    def __enter__(self) -> CpuTally:
        self._machine_busy = _machine_busy()
        self._reaped_at_start = _reaped_cpu(self._postmaster_pid())
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.seconds = _uptime() - self._since
        self.machine = _machine_busy() - self._machine_busy
        alive = _process_stats()
        seen_then_reaped = sum(self._last[key][1] - self._first[key] for key in self._backends if key[0] not in alive)
        reaped = _reaped_cpu(self._postmaster_pid()) - self._reaped_at_start
        self._unseen_backends = max(0.0, reaped - seen_then_reaped)

    def _postmaster_pid(self) -> int | None:
        return int(self._postmaster.read_text().split()[0]) if self._postmaster.exists() else None

    def by_kind(self) -> dict[str, tuple[int, float]]:
        """kind -> (processes, CPU-seconds)."""
        tally: dict[str, tuple[int, float]] = {}
        for key, (kind, cpu) in self._last.items():
            count, total = tally.get(kind, (0, 0.0))
            tally[kind] = (count + 1, total + cpu - self._first[key])
        if self._unseen_backends:
            count, total = tally.get("PostgreSQL", (0, 0.0))
            tally["PostgreSQL"] = (count, total + self._unseen_backends)
        return dict(sorted(tally.items(), key=lambda item: -item[1][1]))

    def _sample_until_stopped(self) -> None:
        while True:
            self._sample()
            if self._stop.wait(1.0):
                return

    def _sample(self) -> None:
        stats = _process_stats()
        postmaster = self._postmaster_pid()
        roots = [os.getpid()] + ([postmaster] if postmaster else [])
        for pid in _descendants(roots, {pid: stat[0] for pid, stat in stats.items()}):
            parent, started, cpu = stats[pid]
            key = (pid, started)
            if parent == postmaster:
                self._backends.add(key)
            # Started after the tally began: all of its CPU is the drain's.
            self._first.setdefault(key, 0.0 if started / TICKS > self._since else cpu)
            kind = _kind(pid)
            if kind == "other" and key in self._last:  # an exited process, not yet reaped, has no command line
                kind = self._last[key][0]
            self._last[key] = (kind, cpu)


TICKS = os.sysconf("SC_CLK_TCK")


def _uptime() -> float:
    return float(Path("/proc/uptime").read_text().split()[0])


def _machine_busy() -> float:
    """CPU-seconds all cores have spent busy since boot (every /proc/stat state but idle and iowait)."""
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(v) for v in Path("/proc/stat").read_text().split()[1:9])
    return (user + nice + system + irq + softirq + steal) / TICKS


def _reaped_cpu(pid: int | None) -> float:
    """CPU-seconds of the process's children it has reaped (cutime + cstime); 0 without one."""
    if pid is None:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[13]) + int(fields[14])) / TICKS


def _process_stats() -> dict[int, tuple[int, int, float]]:
    """pid -> (parent pid, start time in clock ticks since boot, own user + system CPU-seconds)."""
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:  # ended while we looked
                continue
            stats[int(entry.name)] = (int(fields[1]), int(fields[19]), (int(fields[11]) + int(fields[12])) / TICKS)
    return stats


def _descendants(roots: list[int], parents: dict[int, int]) -> list[int]:
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    found, todo = [], [pid for pid in roots if pid in parents]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


PROCESS_KINDS = (  # (a word of the command line, what the process is); the first that matches
    ("multiprocessing", "run workers"), ("execute_run", "run workers"), ("sessions_graph_dagster.code_server", "code servers"),
    ("dagster-daemon", "daemon"), ("dagster-webserver", "webserver"), ("postgres", "PostgreSQL"),
    ("bench_scale", "benchmark (backlog, recall probe, progress)"),
)


def _kind(pid: int) -> str:
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        if "redis-" in command:  # redis-server, and its rewrite and module forks
            return f"FalkorDB {Path(os.readlink(f'/proc/{pid}/cwd')).name}"  # the primary's or the replica's directory
    except OSError:
        return "other"
    return next((kind for word, kind in PROCESS_KINDS if word in command), "other")


def thousands(stamps: list[float], started: float) -> list[float]:
    """Seconds each full thousand of drained sessions took, in order (the first from the drain's start)."""
    ends = [started] + [stamps[end - 1] for end in range(1000, len(stamps) + 1, 1000)]
    return [after - before for before, after in itertools.pairwise(ends)]


def embedded_times(store: GraphStore) -> list[float]:
    """When each drained session was embedded (epoch seconds), in order."""
    from datetime import datetime

    rows = store.run("MATCH (s:Session {embedding_status: 'completed'}) RETURN s.embedded_at AS at")
    return sorted(datetime.fromisoformat(row["at"]).timestamp() for row in rows)


def report_progress(settings: StoreSettings, sessions: int, started: float, stop: threading.Event) -> None:
    """A line a minute (sessions drained, the rate so far, the load) and one per thousand drained, with the time
    that thousand took beside the first's: a run stopped early has still said how fast it went."""
    said = 0
    with open_store(settings.for_reads()) as replica:
        while not stop.wait(60):
            stamps = embedded_times(replica)
            elapsed = time.time() - started
            console.print(f"  {elapsed:6.0f} s: {len(stamps)}/{sessions} sessions drained, "
                          f"{len(stamps) / elapsed * 60:.0f}/min so far, load {os.getloadavg()[0]:.1f}")
            spans = thousands(stamps, started)
            for index in range(said, len(spans)):
                console.print(f"  thousand {index + 1}: {spans[index]:.0f} s ({1000 / spans[index] * 60:.0f} sessions/min), "
                              f"x{spans[index] / spans[0]:.2f} the first's, load {os.getloadavg()[0]:.1f}")
            said = len(spans)


def backlog(settings: StoreSettings, sessions: int, prefix: str, users: int, writers: int = 3) -> None:
    """`sessions` pending sessions, written by a few connections at once (one waits on the server while another
    builds its next statement), with progress."""
    with SessionsGraph(open_store(settings)) as graph:
        graph.setup()

    def write(start: int) -> None:
        with SessionsGraph(open_store(settings)) as graph:
            for index in range(start, sessions, writers):
                add_pending(graph, index, prefix, users=users)
                done.update(task, advance=1)

    with Progress(console=console) as done:
        task = done.add_task(f"{sessions} pending sessions", total=sessions)
        with ThreadPoolExecutor(writers) as pool:
            list(pool.map(write, range(writers)))


def drain(root: Path, pg: dict[str, str], sessions: int, users: int, concurrent: int, probe: bool) -> dict:
    work = root / f"drain-{concurrent}"
    with standalone(work) as (primary, replica, password):
        settings = StoreSettings(
            data_dir=work / "unused", falkordb_url=primary.url, falkordb_password=password,
            read_url=replica.url, replica_acks=1,
        )
        backlog(settings.replace(replica_acks=0), sessions, f"d{concurrent}", users)
        env = {
            **database(pg, f"drain_{concurrent}"), "SESSIONS_GRAPH_BATCH_SIZE": "100",
            "SESSIONS_GRAPH_STORE_URL": primary.url, "SESSIONS_GRAPH_STORE_READ_URL": replica.url,
            "SESSIONS_GRAPH_STORE_PASSWORD": password, "SESSIONS_GRAPH_STORE_REPLICA_ACKS": "1",
        }
        during: list[float] = []
        stop = threading.Event()
        tally = CpuTally(root / "postgres" / "data" / "postmaster.pid")
        with tally, running_platform(work / "home", env, profile=profile_with(root, concurrent)) as platform:
            started = time.time()
            prober = threading.Thread(target=recall_latencies, args=(settings, users, stop, during)) if probe else None
            reporter = threading.Thread(target=report_progress, args=(settings, sessions, started, stop))
            try:
                for thread in filter(None, (prober, reporter)):
                    thread.start()
                with open_store(settings) as store:
                    took = wait_until_drained(platform.url, store, timeout=4 * 3600, poll=2.0)
                    stop.set()
                    reporter.join()
                    done = embedded_times(store)
                    memory = store._connection.command("INFO", "memory")
                made = runs(platform.url)
                phases = run_phases(platform.url)
            finally:  # interrupted too: the threads end, so the servers' context managers can stop them
                stop.set()
                for thread in filter(None, (prober, reporter)):
                    if thread.ident is not None:
                        thread.join()
        idle: list[float] = []
        if probe:
            recall_latencies(settings, users, threading.Event(), idle, limit=max(20, min(len(during), IDLE_PROBES)), pause=0)
        used = next(int(line.split(":")[1]) for line in memory.splitlines() if line.startswith("used_memory:"))
        result = {
            "sessions": sessions, "concurrent": concurrent, "seconds": took, "runs": len(made),
            "failed_runs": sum(1 for run in made if run.status != "SUCCESS"),
            "first_1000_s": done[min(1000, len(done)) - 1] - started,
            "last_1000_s": done[-1] - done[-min(1000, len(done)) - 1] if len(done) > 1000 else done[-1] - started,
            "thousands_s": thousands(done, started),
            "used_memory": used, "rss": _rss_bytes(primary.pid()) or 0,
            "disk": sum(f.stat().st_size for f in primary.data_dir.rglob("*") if f.is_file()),
            "recall_p50_during": statistics.median(during) if during else None,
            "recall_p50_idle": statistics.median(idle) if idle else None,
            "recall_samples": (len(during), len(idle)),
            "phases": phases, "wall": took, "cpu": tally.by_kind(), "cpu_wall": tally.seconds, "cpu_machine": tally.machine,
        }
    console.print(f"  {sessions} sessions, {concurrent} concurrent runs: {took:.0f} s, {sessions / took * 60:.0f} sessions/min")
    return result


STEPS = """query { runsOrError { ... on Runs { results { runId creationTime startTime endTime
  stepStats { stepKey startTime endTime } } } } }"""


def run_phases(url: str) -> dict[str, list[float]]:
    """Where each run's time went: created to started (the queue, then the process and its imports), starting (run start to
    its first step), each step, and finishing (last step to run end); step seconds summed per step key."""
    phases: dict[str, list[float]] = {"queued + process start": [], "start-up": [], "finishing": []}
    for run in graphql(url, STEPS)["runsOrError"]["results"]:
        steps = [step for step in run["stepStats"] if step["startTime"] and step["endTime"]]
        if not (run["startTime"] and run["endTime"] and steps):
            continue
        phases["queued + process start"].append(run["startTime"] - run["creationTime"])
        phases["start-up"].append(min(step["startTime"] for step in steps) - run["startTime"])
        phases["finishing"].append(run["endTime"] - max(step["endTime"] for step in steps))
        for step in steps:
            phases.setdefault(step["stepKey"], []).append(step["endTime"] - step["startTime"])
    return phases


# -- 3. the asset page ----------------------------------------------------------------------------

PARTITIONS = """query { assetNodes(assetKeys: [{path: ["reconciled_session"]}]) {
  partitionStats { numPartitions numMaterialized } } }"""


def page_loads(root: Path, pg: dict[str, str], known: int, per_user: int, old: Path) -> list[tuple]:
    rows = []
    for scheme, tree in (("per session (today)", old), ("per user (new)", REPO)):
        env = database(pg, f"page_{'old' if tree == old else 'new'}")
        home = root / f"home-{env['DAGSTER_PG_DB']}"
        with _environment(env):
            prepare_home(home, profile=PRODUCTION)
        environment = {**env, "DAGSTER_HOME": str(home)}
        python_in(tree, [str(REPO / "benchmarks" / "scale_tick.py"), str(root / "none"), str(known), str(per_user), "0"], environment)
        port = free_port()
        server = subprocess.Popen(
            [str(Path(sys.executable).parent / "dagster-webserver"), "-h", "127.0.0.1", "-p", str(port), "-w", "workspace.yaml"],
            cwd=tree, env={**os.environ, **environment, "PYTHONPATH": str(tree)},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        try:
            url = f"http://127.0.0.1:{port}"
            wait_for_http(url, timeout=300)
            query_s, page_s = [], []
            for attempt in range(3):
                started = time.perf_counter()
                stats = graphql(url, PARTITIONS, timeout=600)["assetNodes"][0]["partitionStats"]
                query_s.append(time.perf_counter() - started)
                started = time.perf_counter()
                subprocess.run([*CHROMIUM, f"--user-data-dir={root / f'chromium-{port}-{attempt}'}",
                                f"{url}/assets/reconciled_session?view=partitions"],
                               check=True, capture_output=True, timeout=900)
                page_s.append(time.perf_counter() - started)
            rows.append((scheme, stats["numPartitions"], statistics.median(query_s), statistics.median(page_s)))
            console.print(f"  {scheme}: {stats['numPartitions']} partitions, page {statistics.median(page_s):.1f} s")
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=60)
    return rows


# -- report ---------------------------------------------------------------------------------------

def report(ticks: list[tuple], drains: list[dict], pages: list[tuple], load: str) -> None:
    if ticks:
        table = Table(title="pending_sessions_sensor tick (PostgreSQL instance; 100 pending sessions, 4 runs unfinished)")
        for column in ("known sessions", "scheme", "tick p50 ms", "tick max ms", "runs asked", "x at smallest size"):
            table.add_column(column, justify="right")
        smallest = {scheme: p50 for size, scheme, p50, *_ in ticks if size == ticks[0][0]}
        for size, scheme, p50, worst, asked in ticks:
            table.add_row(f"{size:,}", scheme, f"{p50 * 1000:.0f}", f"{worst * 1000:.0f}", str(asked), f"{p50 / smallest[scheme]:.2f}")
        console.print(table)
    if drains:
        table = Table(title="Drain through the daemon (6-turn sessions, batches of 100, replica_acks=1)")
        for column in ("sessions", "concurrent runs", "runs", "failed", "seconds", "sessions/min", "first 1000 s", "last 1000 s",
                       "last / first", "primary used_memory MiB", "primary RSS MiB", "primary disk MiB"):
            table.add_column(column, justify="right")
        for d in drains:
            table.add_row(str(d["sessions"]), str(d["concurrent"]), str(d["runs"]), str(d["failed_runs"]), f"{d['seconds']:.0f}",
                          f"{d['sessions'] / d['seconds'] * 60:.0f}", f"{d['first_1000_s']:.0f}", f"{d['last_1000_s']:.0f}",
                          f"{d['last_1000_s'] / d['first_1000_s']:.2f}",
                          f"{d['used_memory'] / 2**20:.0f}", f"{d['rss'] / 2**20:.0f}", f"{d['disk'] / 2**20:.0f}")
        console.print(table)
        for d in drains:
            if d["thousands_s"]:
                console.print(f"Each thousand's seconds ({d['concurrent']} concurrent runs): "
                              + ", ".join(f"{seconds:.0f}" for seconds in d["thousands_s"]))
            phases = Table(title=f"Where the drain's time went ({d['concurrent']} concurrent runs, {d['wall']:.0f} s wall)")
            for column in ("phase", "runs", "median s", "max s", "sum s", "sum / wall"):
                phases.add_column(column, justify="right")
            for name, seconds in d["phases"].items():
                if seconds:
                    phases.add_row(name, str(len(seconds)), f"{statistics.median(seconds):.1f}", f"{max(seconds):.1f}",
                                   f"{sum(seconds):.0f}", f"{sum(seconds) / d['wall']:.2f}")
            console.print(phases)
        for d in drains:
            cpu = Table(title=f"CPU by process while {d['sessions']} sessions drained ({d['concurrent']} concurrent runs; "
                              f"{d['cpu_wall']:.0f} s from the platform's start to its stop, {os.cpu_count()} cores)")
            for column in ("process", "processes", "CPU-s", "CPU-s per 100 sessions", "cores busy on average"):
                cpu.add_column(column, justify="right")
            rows = [*d["cpu"].items(), ("all", (sum(c for c, _ in d["cpu"].values()), sum(t for _, t in d["cpu"].values()))),
                    ("the machine (/proc/stat, every process)", ("", d["cpu_machine"]))]
            for kind, (count, seconds) in rows:
                cpu.add_row(kind, str(count), f"{seconds:.0f}", f"{seconds / d['sessions'] * 100:.1f}", f"{seconds / d['cpu_wall']:.2f}")
            console.print(cpu)
        probed = [d for d in drains if d["recall_p50_during"]]
        for d in probed:
            during, idle = d["recall_p50_during"], d["recall_p50_idle"]
            console.print(f"Recall on the replica: p50 {during * 1000:.0f} ms while the drain wrote "
                          f"({d['recall_samples'][0]} queries), {idle * 1000:.0f} ms with no writes "
                          f"({d['recall_samples'][1]} queries): x{during / idle:.2f}")
    if pages:
        table = Table(title="reconciled_session partitions page (headless chromium) and its GraphQL partition query")
        for column in ("scheme", "partitions", "GraphQL s", "page s"):
            table.add_column(column, justify="right")
        for scheme, count, query_s, page_s in pages:
            table.add_row(scheme, f"{count:,}", f"{query_s:.2f}", f"{page_s:.1f}")
        console.print(table)
    console.print(f"Load when this part ended: {load}")


def plot(path: Path, ticks: list[tuple], drains: list[dict]) -> None:
    """The curves of the tables: tick p50 by known sessions per scheme, and each drain's thousands."""
    if ticks:
        sizes = sorted({size for size, *_ in ticks})
        by_scheme = {f"{scheme}: tick p50": [p50 * 1000 for size in sizes for s, sc, p50, *_ in ticks
                                             if s == size and sc == scheme]
                     for scheme in dict.fromkeys(scheme for _, scheme, *_ in ticks)}
        curves(path.with_name(f"{path.stem}-ticks{path.suffix}"), sizes, by_scheme, title="pending_sessions_sensor tick",
               xlabel="known sessions", ylabel="ms", note=run_note())
    measured = [d for d in drains if d["thousands_s"]]
    if measured:
        longest = max(len(d["thousands_s"]) for d in measured)
        series = {f"{d['concurrent']} concurrent runs": d["thousands_s"] + [float("nan")] * (longest - len(d["thousands_s"]))
                  for d in measured}
        curves(path.with_name(f"{path.stem}-drain{path.suffix}"), list(range(1, longest + 1)), series, log_x=False,
               title="Drain: seconds per thousand sessions", xlabel="thousand", ylabel="seconds", note=run_note())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    numbers = lambda text: [int(part) for part in text.split(",") if part and int(part)]  # noqa: E731
    parser.add_argument("--tick-sizes", type=numbers, default=[1000, 10000, 100000])
    parser.add_argument("--ticks", type=int, default=5, help="ticks measured per size and scheme")
    parser.add_argument("--sessions-per-user", type=int, default=100)
    parser.add_argument("--drain-sessions", type=int, default=1000)
    parser.add_argument("--drain-users", type=int, default=0, help="default: drain sessions / sessions per user")
    parser.add_argument("--runs", type=numbers, default=[1, 2, 4], help="max_concurrent_runs of each drain")
    parser.add_argument("--page-sessions", type=int, default=100000)
    parser.add_argument("--baseline", default=BASELINE, help="the commit with today's per-session scheme")
    parser.add_argument("--plot", type=Path, help="also draw the tick times and the drains' thousands as PNGs")
    args = parser.parse_args()
    # SIGTERM (a timeout, kill PID) unwinds like Ctrl-C, so every server this benchmark started is stopped.
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    root = Path(tempfile.mkdtemp(prefix="sg-scale-", dir="/tmp"))
    root.chmod(0o711)  # PostgreSQL runs as its own user and must reach its directory inside
    console.print(f"Working directory: {root}")
    load = lambda: f"{os.getloadavg()[0]:.1f} (1-min load average, {os.cpu_count()} cores)"  # noqa: E731
    try:
        with postgres(root) as pg:
            old = baseline_tree(root, args.baseline) if args.tick_sizes or args.page_sessions else REPO
            ticks = tick_times(root, pg, args.tick_sizes, args.sessions_per_user, old, args.ticks) if args.tick_sizes else []
            if ticks:  # each part prints its table as soon as it is done
                report(ticks, [], [], load())
            if args.page_sessions:
                report([], [], page_loads(root, pg, args.page_sessions, args.sessions_per_user, old), load())
            users = args.drain_users or max(1, args.drain_sessions // args.sessions_per_user)
            drains = []
            for index, concurrent in enumerate(args.runs if args.drain_sessions else []):
                drains.append(drain(root, pg, args.drain_sessions, users, concurrent, probe=index == 0))
                report([], drains[-1:], [], load())
            if args.plot:
                plot(args.plot, ticks, drains)
    finally:
        shutil.rmtree(root, ignore_errors=True)

if __name__ == "__main__":
    main()
