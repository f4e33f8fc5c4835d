"""How long `sessions-graph doctor` takes, now and at an earlier revision, in one run.

Each variant runs as a user runs it, a new process on a store that is already up, in rounds that
rotate the order so load from other jobs falls on every variant alike:

- `sessions-graph --help`: the floor, starting Python and the CLI;
- the doctor at --baseline-rev (the package taken from git into a temporary directory);
- the doctor now, with torch importable (the install scripts/test makes: every extra);
- the doctor now with torch not importable, as in the install scripts/main makes (no gliner extra):
  spaCy's thinc imports torch whenever it can, which alone costs seconds.

    .venv/bin/python benchmarks/bench_doctor.py --rounds 5 --baseline-rev 1170d67
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from sessions_graph_core.store.falkordb.server import EmbeddedServer

REPO = Path(__file__).resolve().parents[1]
NO_TORCH = "import sys; sys.modules['torch'] = None; "  # thinc then takes the path it takes without torch
RUN_CLI = "sys.argv = ['sessions-graph', *sys.argv[1:]]; from sessions_graph_core.entry import main; main()"


def export_revision(revision: str, into: Path) -> Path:
    archive = subprocess.run(["git", "-C", str(REPO), "archive", revision, "sessions_graph_core"], check=True,
                             capture_output=True).stdout
    into.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def timed(command: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    elapsed = time.perf_counter() - started
    if "check" not in done.stdout and "Usage" not in done.stdout:
        raise RuntimeError(f"{command} printed no checks:\n{done.stdout}\n{done.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--baseline-rev", default="1170d67", help="the revision whose doctor is the baseline")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="sg-doctor-", dir="/tmp"))
    old = export_revision(args.baseline_rev, root / "old")
    server = EmbeddedServer(root / "data")
    server.ensure_running()
    env = {**os.environ, "SESSIONS_GRAPH_DATA_DIR": str(server.data_dir), "SESSIONS_GRAPH_CONFIG": str(root / "config.toml"),
           "SESSIONS_GRAPH_LOG_DIR": str(root / "logs"), "COLUMNS": "200"}
    python = sys.executable
    variants = {
        "sessions-graph --help (floor)": ([python, "-c", "import sys; " + RUN_CLI, "--help"], {"PYTHONPATH": str(REPO)}),
        f"doctor at {args.baseline_rev} (baseline)": ([python, "-c", "import sys; " + RUN_CLI, "doctor"], {"PYTHONPATH": str(old)}),
        "doctor now, torch importable": ([python, "-c", "import sys; " + RUN_CLI, "doctor"], {"PYTHONPATH": str(REPO)}),
        "doctor now, no torch (main install)": ([python, "-c", NO_TORCH + RUN_CLI, "doctor"], {"PYTHONPATH": str(REPO)}),
    }
    times: dict[str, list[float]] = {name: [] for name in variants}
    names = list(variants)
    try:
        for round_number in range(args.rounds):
            for name in names[round_number % len(names):] + names[: round_number % len(names)]:
                command, extra = variants[name]
                times[name].append(timed(command, {**env, **extra}))
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
    baseline = statistics.median(times[names[1]])
    table = Table(title=f"sessions-graph doctor, {args.rounds} rounds, load average {os.getloadavg()[0]:.1f} at the end")
    for column in ("variant", "median s", "min s", "max s", "x baseline"):
        table.add_column(column, justify="left" if column == "variant" else "right")
    for name in names:
        median = statistics.median(times[name])
        table.add_row(name, f"{median:.2f}", f"{min(times[name]):.2f}", f"{max(times[name]):.2f}", f"{median / baseline:.2f}x")
    Console().print(table)


if __name__ == "__main__":
    main()
