"""Detached children (children.spawn_detached): their own session, stdin closed, stderr to the child log, reaped."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from sessions_graph_core.children import spawn_detached
from sessions_graph_core.config.paths import CONFIG_ENV
from sessions_graph_core.failures import LOG_DIR_ENV, child_log_path
from sessions_graph_core.priority import BACKGROUND_NICE


def finished(pid: int) -> bool:
    """Exited and not reaped yet (a zombie), read from /proc without waiting for it."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"


def wait_until(probe: Callable[[], bool], timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not probe():
        assert time.monotonic() < deadline, "the child did not finish"
        time.sleep(0.05)


@pytest.fixture
def logs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(LOG_DIR_ENV, str(tmp_path / "log"))
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "config.toml"))
    return tmp_path / "log"


def test_a_detached_child_has_its_own_session_and_writes_its_errors_to_the_child_log(logs: Path) -> None:
    pid = spawn_detached(["no-such-command"])
    assert pid is not None
    assert os.getsid(pid) == pid  # a session of its own: the harness ending the hook's group leaves it running
    wait_until(lambda: finished(pid))
    assert os.waitpid(pid, 0)[1] != 0  # click refused the command, on stderr
    assert "No such command 'no-such-command'" in child_log_path().read_text()


def group_nice(pid: int) -> int | None:
    """The nice of the process's scheduling group (`/autogroup-N nice K`), None where the kernel shows none: a
    kernel built without autogroups has no file, and the kernel prints nothing for a process still in the
    default group it booted with (the CI machine's pytest is one; a child there that starts its own session
    does get a group of its own, shown)."""
    try:
        shown = re.fullmatch(r"/autogroup-\d+ nice (-?\d+)\n?", Path(f"/proc/{pid}/autogroup").read_text())
    except FileNotFoundError:
        return None
    return int(shown[1]) if shown else None


def test_a_detached_child_runs_in_a_background_group_and_the_spawner_stays_normal(logs: Path) -> None:
    """Issue 40: a drainer or embedder started by a hook must not take the CPU from the hooks after it."""
    ours = group_nice(os.getpid())
    pid = spawn_detached(["no-such-command"])
    assert pid is not None
    try:
        child = group_nice(pid)
        if ours is not None:  # a kernel that shows our group shows the new session's group too
            assert child == BACKGROUND_NICE
        else:
            assert child in (BACKGROUND_NICE, None)
        assert group_nice(os.getpid()) == ours
        assert os.getpriority(os.PRIO_PROCESS, pid) == os.getpriority(os.PRIO_PROCESS, 0)  # its own nice: inherited
    finally:
        wait_until(lambda: finished(pid))
        os.waitpid(pid, 0)


def test_a_finished_child_is_reaped_at_the_next_spawn(logs: Path) -> None:
    """A long-running process (the MCP server) spawns many: none may stay a zombie."""
    first = spawn_detached(["no-such-command"])
    assert first is not None
    wait_until(lambda: finished(first))
    second = spawn_detached(["no-such-command"])
    assert second is not None
    with pytest.raises(ChildProcessError):  # already reaped
        os.waitpid(first, os.WNOHANG)
    os.waitpid(second, 0)


def test_a_child_that_cannot_start_is_logged_not_raised(logs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sessions_graph_core.children.sessions_graph_command", lambda: [str(logs / "missing")])
    assert spawn_detached(["store", "drain"]) is None
    assert "spawn" in (logs / "failures.jsonl").read_text()
