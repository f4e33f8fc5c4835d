"""`sessions-graph service` writes a systemd user unit or a launchd agent that runs `store serve`, which keeps
the store up; the files are checked as the managers read them, without a running systemd or launchd."""

from __future__ import annotations

import os
import plistlib
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from sessions_graph_core.children import sessions_graph_command
from sessions_graph_core.cli.doctor import service_state
from sessions_graph_core.cli.main import main
from sessions_graph_core.config.model import load_config
from sessions_graph_core.integrations import service
from sessions_graph_core.store.falkordb.server import EmbeddedServer, _process_alive
from sessions_graph_core.validation import ValidationError

WAIT_S = 120


@pytest.fixture
def home(tmp_path: Path, short_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home of its own (where launchd agents go) and an XDG config folder (where systemd user units go)."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("SESSIONS_GRAPH_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("SESSIONS_GRAPH_DATA_DIR", str(short_tmp))
    monkeypatch.delenv("MEMGRAPH_URL", raising=False)
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    return tmp_path


def invoke(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


def unit_entries(path: Path) -> dict[str, list[str]]:
    """A unit file's settings as systemd reads them: KEY=VALUE lines, a key given more than once kept in order."""
    entries: dict[str, list[str]] = {}
    for line in path.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            entries.setdefault(key, []).append(value)
    return entries


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a systemd unit is installed on Linux only")
def test_install_writes_a_unit_that_serves_the_store_and_uninstall_removes_it(home: Path) -> None:
    said = invoke("service", "install", "--no-start")
    unit = home / "xdg" / "systemd" / "user" / "sessions-graph-store.service"
    assert f"wrote {unit}" in said
    entries = unit_entries(unit)
    assert entries["ExecStart"] == [" ".join([*sessions_graph_command(), "store", "serve"])]
    assert f"SESSIONS_GRAPH_CONFIG={home / 'config.toml'}" in entries["Environment"]
    assert entries["WantedBy"] == ["default.target"]
    if shutil.which("systemd-analyze"):
        verified = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
        assert verified.returncode == 0, verified.stderr
    assert f"installed: {unit}" in invoke("service", "status")
    assert "login service installed" in service_state(load_config())  # running only where a systemd user manager runs
    assert f"removed {unit}" in invoke("service", "uninstall", "--no-stop")
    assert not unit.exists()
    assert "installed: no" in invoke("service", "status")
    assert "no login service" in service_state(load_config())


def test_a_launchd_agent_runs_the_store_at_load_and_again_after_a_crash(home: Path) -> None:
    [agent] = service.service_files("launchd")
    assert agent.path == home / "Library" / "LaunchAgents" / "dev.sessions-graph.store.plist"
    read = plistlib.loads(agent.content)
    assert read["Label"] == "dev.sessions-graph.store"
    assert read["ProgramArguments"] == [*sessions_graph_command(), "store", "serve"]
    assert read["EnvironmentVariables"]["SESSIONS_GRAPH_DATA_DIR"] == os.environ["SESSIONS_GRAPH_DATA_DIR"]
    assert read["RunAtLoad"] is True and read["KeepAlive"] == {"SuccessfulExit": False}


def test_dagster_without_an_instance_is_refused_and_writes_nothing(home: Path) -> None:
    refused = CliRunner().invoke(main, ["service", "install", "--with-dagster", "--no-start"])
    assert refused.exit_code == 2
    assert "DAGSTER_HOME" in refused.output
    assert not (home / "xdg").exists()


def test_dagster_runs_after_the_store(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (home / "dh").mkdir()
    (home / "dh" / "dagster.yaml").write_text("{}\n")
    monkeypatch.setenv("DAGSTER_HOME", str(home / "dh"))
    store, dagster = service.service_files("systemd", with_dagster=True)
    text = dagster.content.decode()
    assert "After=sessions-graph-store.service" in text and f"DAGSTER_HOME={home / 'dh'}" in text
    assert f"-w {service.CHECKOUT / 'workspace.yaml'}" in text


def test_the_unit_quotes_what_systemd_would_split() -> None:
    unit = service.systemd_unit("d", ["/opt/my tools/sessions-graph", "store", "serve"], {"A": "b c"}).decode()
    assert 'ExecStart="/opt/my tools/sessions-graph" store serve' in unit
    assert 'Environment="A=b c"' in unit


@pytest.mark.parametrize("variable", ["SESSIONS_GRAPH_DATA_DIR", "PATH"])
def test_a_line_end_passed_on_to_the_unit_is_refused_and_writes_nothing(home: Path, variable: str) -> None:
    """A line end inside a value would end the Environment= line and start an ExecStartPre= of its own."""
    injected = f"{os.environ[variable]}\nExecStartPre=/bin/touch {home / 'pwned'}"
    refused = CliRunner().invoke(main, ["service", "install", "--no-start"], env={variable: injected})
    assert refused.exit_code == 2, refused.output
    assert "control character" in refused.output and "Traceback" not in refused.output
    assert not (home / "xdg").exists()
    with pytest.raises(ValidationError, match="control character"):
        service.systemd_unit("d", ["sessions-graph", "store", "serve"], {"A": "b\rExecStartPre=/bin/sh"})


@pytest.fixture
def serving(short_tmp: Path) -> Iterator[subprocess.Popen[bytes]]:
    env = {**os.environ, "SESSIONS_GRAPH_DATA_DIR": str(short_tmp)}
    env.pop("MEMGRAPH_URL", None)
    process = subprocess.Popen([*sessions_graph_command(), "store", "serve"], env=env, start_new_session=True)
    yield process
    if process.poll() is None:
        process.kill()
        process.wait()
    EmbeddedServer(short_tmp).stop()


def wait_for_pid(server: EmbeddedServer, serving: subprocess.Popen[bytes], unlike: int | None = None) -> int:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        assert serving.poll() is None, f"store serve exited with code {serving.returncode}"
        pid = server.pid()
        if pid is not None and pid != unlike and server.responds():
            return pid
        time.sleep(0.1)
    raise AssertionError(f"no server answered in {server.data_dir} within {WAIT_S} s")


def kill_next_start(server: EmbeddedServer, serving: subprocess.Popen[bytes], unlike: int) -> int:
    """SIGKILL the next server `store serve` starts as soon as its pid is written, before it can answer."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        assert serving.poll() is None, f"store serve exited with code {serving.returncode}"
        try:
            pid = int(server.pid_path.read_text())
        except (OSError, ValueError):  # not written yet, or written halfway
            pid = unlike
        if pid != unlike:
            os.kill(pid, signal.SIGKILL)
            return pid
        time.sleep(0.001)
    raise AssertionError(f"store serve started no server in {server.data_dir} within {WAIT_S} s")


@pytest.mark.parametrize("killed_while_starting", [False, True], ids=["once", "and-again-while-starting"])
def test_store_serve_starts_the_store_again_after_a_crash_and_stops_it_on_sigterm(
    serving: subprocess.Popen[bytes], short_tmp: Path, killed_while_starting: bool
) -> None:
    server = EmbeddedServer(short_tmp)
    first = wait_for_pid(server, serving)
    os.kill(first, signal.SIGKILL)
    killed = kill_next_start(server, serving, unlike=first) if killed_while_starting else first
    last = wait_for_pid(server, serving, unlike=killed)
    serving.send_signal(signal.SIGTERM)
    assert serving.wait(timeout=WAIT_S) == 0
    assert not _process_alive(last) and server.pid() is None
