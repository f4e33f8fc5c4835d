"""A local Dagster deployment: the instance home (scripts/main makes its own with it), and the daemon
and webserver on 127.0.0.1 for the end-to-end test and the benchmark.

Each process starts in a session of its own, so stopping its process group also stops the code
servers it spawned, and nothing else.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import dagster as dg
import yaml

from devtools.progress import wait_for_http
from sessions_graph_dagster.pools import initialize_pools

REPO = Path(__file__).resolve().parent.parent
STOP_TIMEOUT_S = 20
# The production profile: deploy/dagster.yaml laid over the laptop template (PostgreSQL storage).
PRODUCTION = REPO / "deploy" / "dagster.yaml"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def prepare_home(dagster_home: Path, *, profile: Path | None = None) -> None:
    """A DAGSTER_HOME holding the project's instance template, with `profile`'s settings laid over it
    when given (`laid_over`), its storage created.

    The daemon and the webserver starting together on empty storage can both stamp its schema
    version ("alembic_version has more than one head"), so the storage is made here first, and the
    pools' limits with it (sessions_graph_dagster/pools.py says why).
    """
    dagster_home.mkdir(parents=True, exist_ok=True)
    if profile is None:
        shutil.copyfile(REPO / "dagster.yaml", dagster_home / "dagster.yaml")
    else:
        settings = laid_over(yaml.safe_load((REPO / "dagster.yaml").read_text()), yaml.safe_load(profile.read_text()))
        (dagster_home / "dagster.yaml").write_text(yaml.safe_dump(settings, sort_keys=False))
    with dg.DagsterInstance.from_config(str(dagster_home)) as instance:
        initialize_pools(instance)


def laid_over(base: Mapping, top: Mapping) -> dict:
    """`base` with `top`'s settings: a mapping in both is merged key by key, anything else is `top`'s."""
    merged = dict(base)
    for key, value in top.items():
        below = merged.get(key)
        merged[key] = laid_over(below, value) if isinstance(below, Mapping) and isinstance(value, Mapping) else value
    return merged


@contextmanager
def _environment(values: Mapping[str, str]) -> Iterator[None]:
    saved = dict(os.environ)
    os.environ.update(values)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


@dataclass
class LocalPlatform:
    url: str
    processes: list[subprocess.Popen]
    logs: list[Path]


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            pass
    # The group outlives its leader when a code server lingers: end what is left of it.
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


@contextmanager
def running_platform(
    dagster_home: Path,
    env: Mapping[str, str],
    *,
    port: int | None = None,
    start_timeout: float = 180,
    profile: Path | None = None,
) -> Iterator[LocalPlatform]:
    """dagster-daemon and dagster-webserver over workspace.yaml, stopped (by process group) on exit."""
    environment = {**os.environ, **env, "DAGSTER_HOME": str(dagster_home)}
    with _environment(environment):  # the instance's `{env: ...}` settings resolve while its storage is made
        prepare_home(dagster_home, profile=profile)
    port = port or free_port()
    bin_dir = Path(sys.executable).parent
    commands = {
        "daemon": [str(bin_dir / "dagster-daemon"), "run", "-w", "workspace.yaml"],
        "webserver": [str(bin_dir / "dagster-webserver"), "-h", "127.0.0.1", "-p", str(port), "-w", "workspace.yaml"],
    }
    processes: list[subprocess.Popen] = []
    logs: list[Path] = []
    try:
        for name, command in commands.items():
            log = dagster_home / f"{name}.log"
            logs.append(log)
            with open(log, "wb") as out:
                processes.append(
                    subprocess.Popen(
                        command, cwd=REPO, env=environment, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
                    )
                )
        url = f"http://127.0.0.1:{port}"
        wait_for_http(url, timeout=start_timeout)
        yield LocalPlatform(url=url, processes=processes, logs=logs)
    finally:
        for process in processes:
            _stop(process)
