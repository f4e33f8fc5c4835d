"""Detached `sessions-graph` children: work a hook or connector starts and never waits for.

They are started with `os.posix_spawn`, not `subprocess`: a turn end's hook starts one, and importing
subprocess (with signal, locale and its helpers) and forking a whole interpreter to exec another cost it
several milliseconds of its budget. Only descriptors 0-2 reach the child: Python opens every other one
close-on-exec (PEP 446), which is what subprocess's close_fds did besides.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

from sessions_graph_core import priority
from sessions_graph_core.config.paths import CONFIG_ENV, config_path
from sessions_graph_core.failures import child_log_path, record_failure


def sessions_graph_command() -> list[str]:
    """The CLI of this installation: beside our interpreter first, so a venv's hooks use that venv."""
    beside = Path(sys.executable).parent / "sessions-graph"
    if beside.exists():
        return [str(beside)]
    import shutil  # only when the CLI is not beside the interpreter

    found = shutil.which("sessions-graph")
    return [found] if found else [sys.executable, "-m", "sessions_graph_core.entry"]


def spawn_env() -> dict[str, str]:
    """Our environment, naming the config file so that the child reads the one we read."""
    return {**os.environ, CONFIG_ENV: str(config_path())}


# Children this process started and has not reaped: a long-running process (the MCP server, Dagster) reaps
# the finished ones at its next spawn, as subprocess does, so none is left a zombie for long.
_unreaped: set[int] = set()


def spawn_detached(arguments: Sequence[str]) -> int | None:
    """Start `sessions-graph ARGUMENTS` in its own session; returns its pid, or None when it could not start."""
    _reap_finished()
    command = [*sessions_graph_command(), *arguments]
    try:
        log = child_log_path()
        log.parent.mkdir(parents=True, exist_ok=True)
        with open(log, "ab") as stderr:
            pid = os.posix_spawn(command[0], command, spawn_env(), setsid=True, file_actions=[
                (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
                (os.POSIX_SPAWN_DUP2, stderr.fileno(), 2),
            ])
    except OSError as exc:
        record_failure("spawn", exc, command=" ".join(command))
        return None
    priority.lower(pid)  # background work: the next hooks come first (priority.py)
    _unreaped.add(pid)
    return pid


def _reap_finished() -> None:
    for pid in list(_unreaped):
        try:
            done = os.waitpid(pid, os.WNOHANG)[0] == pid
        except ChildProcessError:  # reaped by someone else (a waitpid(-1) of the caller's)
            done = True
        if done:
            _unreaped.discard(pid)
