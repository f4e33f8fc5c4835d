"""Detached `sessions-graph` children: work a hook or connector starts and never waits for."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from sessions_graph_core.config.paths import CONFIG_ENV, config_path
from sessions_graph_core.failures import child_log_path, record_failure


def sessions_graph_command() -> list[str]:
    """The CLI of this installation: beside our interpreter first, so a venv's hooks use that venv."""
    beside = Path(sys.executable).parent / "sessions-graph"
    if beside.exists():
        return [str(beside)]
    found = shutil.which("sessions-graph")
    return [found] if found else [sys.executable, "-m", "sessions_graph_core.entry"]


def spawn_env() -> dict[str, str]:
    """Our environment, naming the config file so that the child reads the one we read."""
    return {**os.environ, CONFIG_ENV: str(config_path())}


def spawn_detached(arguments: Sequence[str]) -> int | None:
    """Start `sessions-graph ARGUMENTS` in its own session; returns its pid, or None when it could not start."""
    command = [*sessions_graph_command(), *arguments]
    try:
        log = child_log_path()
        log.parent.mkdir(parents=True, exist_ok=True)
        with open(log, "ab") as stderr:
            process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                env=spawn_env(),
                start_new_session=True,
                close_fds=True,
            )
    except OSError as exc:
        record_failure("spawn", exc, command=" ".join(command))
        return None
    return process.pid
