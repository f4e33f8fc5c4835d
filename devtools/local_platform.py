"""A local Dagster deployment: the instance home (scripts/main makes its own with it), and the daemon
and webserver on 127.0.0.1 for the end-to-end test and the benchmark; with a profile (production), a
code server of its own that both load the code location from.

Each process starts in a session of its own, so stopping its process group also stops the code
servers and runs it spawned, and nothing else.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import dagster as dg
import yaml

from devtools.progress import wait_for_http
from sessions_graph_core.store.falkordb.server import MAX_SOCKET_PATH
from sessions_graph_dagster.pools import initialize_pools

REPO = Path(__file__).resolve().parent.parent
STOP_TIMEOUT_S = 20
# The production profile: deploy/dagster.yaml laid over the laptop template (PostgreSQL storage).
PRODUCTION = REPO / "deploy" / "dagster.yaml"
LAPTOP_WORKSPACE = REPO / "workspace.yaml"
DEFINITIONS = ("-m", "sessions_graph_dagster.definitions", "-a", "defs")
LOCATION = "sessions_graph"
CODE_SOCKET = "code.sock"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def prepare_home(dagster_home: Path, *, profile: Path | None = None) -> Path:
    """A DAGSTER_HOME holding the project's instance template, with `profile`'s settings laid over it
    when given (`laid_over`), its storage created; returns the workspace file the daemon and the
    webserver load.

    The daemon and the webserver starting together on empty storage can both stamp its schema
    version ("alembic_version has more than one head"), so the storage is made here first, and the
    pools' limits with it (sessions_graph_dagster/pools.py says why).
    """
    if profile is not None:
        code_socket(dagster_home)  # a home too deep for the code server's socket is refused before anything is made
    dagster_home.mkdir(parents=True, exist_ok=True)
    if profile is None:
        shutil.copyfile(REPO / "dagster.yaml", dagster_home / "dagster.yaml")
    else:
        settings = laid_over(yaml.safe_load((REPO / "dagster.yaml").read_text()), yaml.safe_load(profile.read_text()))
        (dagster_home / "dagster.yaml").write_text(yaml.safe_dump(settings, sort_keys=False))
    with dg.DagsterInstance.from_config(str(dagster_home)) as instance:
        initialize_pools(instance)
    return LAPTOP_WORKSPACE if profile is None else served_workspace(dagster_home)


def served_workspace(dagster_home: Path) -> Path:
    """A workspace whose code location is the code server on DAGSTER_HOME's socket (code_server_command).

    The laptop's workspace.yaml makes the daemon spawn a code server of its own and replace it every
    minute (Dagster reloads a workspace it manages that often): each one imports the definitions
    again, a few CPU-seconds a minute that a long drain pays in full. A code server that runs as a
    process of its own, as Dagster's deployment guides have it, is loaded once.
    """
    socket_path = code_socket(dagster_home)
    workspace = dagster_home / "workspace.yaml"
    entry = {"grpc_server": {"socket": str(socket_path), "location_name": LOCATION}}
    workspace.write_text(yaml.safe_dump({"load_from": [entry]}, sort_keys=False))
    return workspace


def code_socket(dagster_home: Path) -> Path:
    path = dagster_home.resolve() / CODE_SOCKET
    if len(str(path).encode()) > MAX_SOCKET_PATH:
        raise ValueError(
            f"the code server's socket {path} is longer than a Unix socket path may be ({MAX_SOCKET_PATH} bytes): "
            "use a shorter DAGSTER_HOME"
        )
    return path


def code_server_command(dagster_home: Path) -> list[str]:
    """`dagster api grpc` serving the definitions on DAGSTER_HOME's socket (a server that stops on SIGTERM),
    its runs forked from a process that has loaded them (sessions_graph_dagster/code_server.py)."""
    return [sys.executable, "-m", "sessions_graph_dagster.code_server", "-s", str(code_socket(dagster_home)),
            *DEFINITIONS, "-d", str(REPO), "--location-name", LOCATION]


def wait_for_socket(path: Path, process: subprocess.Popen, *, timeout: float) -> None:
    """Until the code server accepts connections on `path` (it listens once the definitions are loaded)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the code server exited with code {process.returncode} before it listened on {path}")
        try:
            with socket.socket(socket.AF_UNIX) as probe:
                probe.connect(str(path))
                return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"the code server did not listen on {path} within {timeout:.0f} s")


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
    logs: dict[str, Path]  # by process: daemon, webserver (and code-server)


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
    """dagster-daemon and dagster-webserver over the workspace prepare_home gives (with a profile, after the
    code server they load it from), stopped (by process group, the code server last) on exit."""
    environment = {**os.environ, **env, "DAGSTER_HOME": str(dagster_home)}
    with _environment(environment):  # the instance's `{env: ...}` settings resolve while its storage is made
        workspace = str(prepare_home(dagster_home, profile=profile))
    port = port or free_port()
    bin_dir = Path(sys.executable).parent
    commands = {
        "daemon": [str(bin_dir / "dagster-daemon"), "run", "-w", workspace],
        "webserver": [str(bin_dir / "dagster-webserver"), "-h", "127.0.0.1", "-p", str(port), "-w", workspace],
    }
    processes: list[subprocess.Popen] = []
    logs: dict[str, Path] = {}

    def start(name: str, command: list[str]) -> subprocess.Popen:
        log = logs[name] = dagster_home / f"{name}.log"
        with open(log, "wb") as out:
            processes.append(
                subprocess.Popen(command, cwd=REPO, env=environment, stdout=out, stderr=subprocess.STDOUT,
                                 start_new_session=True)
            )
        return processes[-1]

    try:
        if profile is not None:
            code_socket(dagster_home).unlink(missing_ok=True)  # a stopped server's socket would refuse the bind
            code_server = start("code-server", code_server_command(dagster_home))
            wait_for_socket(code_socket(dagster_home), code_server, timeout=start_timeout)
        for name, command in commands.items():
            start(name, command)
        url = f"http://127.0.0.1:{port}"
        wait_for_http(url, timeout=start_timeout)
        yield LocalPlatform(url=url, processes=processes, logs=logs)
    finally:
        for process in reversed(processes):
            _stop(process)
