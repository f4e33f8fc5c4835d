"""scripts/main's store choice and scripts/stop, run by bash as the user runs them: whatever the main
script starts, a new shell (none of the script's environment) reaches it and stops it."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from conftest import EXAMPLES

from sessions_graph_core.store.falkordb.server import EmbeddedServer

REPO = Path(__file__).resolve().parents[2]
SG = str(Path(sys.executable).with_name("sessions-graph"))


def default_signals() -> None:
    # A full-suite run showed the stand-in starting with SIGTERM ignored as well (SigIgn 0x4005), so its
    # child survived the trap's kill and scripts/stop fell through to SIGKILL.
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, set())


def bash(script: str, cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.fixture
def checkout(short_tmp):
    """A checkout-like directory with its own home for config files, and a shell environment without
    any sessions-graph variable (what a new terminal has)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("SESSIONS_GRAPH_", "MEMGRAPH_", "DAGSTER_"))}
    env["XDG_CONFIG_HOME"] = str(short_tmp / "xdg")
    # systemctl as a container has it (this one's says the same): no user bus, so scripts/store-up must
    # start the store itself and never install a login service, wherever the suite runs.
    stand_ins = short_tmp / "bin"
    stand_ins.mkdir()
    (stand_ins / "systemctl").write_text("#!/bin/sh\necho 'Failed to connect to bus: No medium found' >&2\nexit 1\n")
    (stand_ins / "systemctl").chmod(0o755)
    env["PATH"] = f"{stand_ins}:{env['PATH']}"
    yield short_tmp, env
    EmbeddedServer(short_tmp / ".sessions-graph").stop()


def run_main_store_part(root: Path, env: dict[str, str]) -> list[str]:
    """The lines of scripts/main that choose and start the store, then the exports it would print."""
    out = bash(f'sg={SG}; source {REPO}/scripts/store-location; source {REPO}/scripts/store-up >/dev/null; '
               f'"$sg" session import {EXAMPLES}/orders-2.jsonl >/dev/null; printf "%s\\n" "${{new_shell[@]+"${{new_shell[@]}}"}}"',
               root, env)
    return [line for line in out.splitlines() if line.startswith("export ")]


def test_a_new_shell_reaches_and_stops_the_store_the_main_script_started(checkout):
    root, env = checkout
    assert run_main_store_part(root, env) == []  # nothing to export: the config names the store
    config = tomllib.loads((root / "xdg" / "sessions-graph" / "config.toml").read_text())
    assert config["store"]["data_dir"] == str(root / ".sessions-graph")
    elsewhere = root / "elsewhere"
    elsewhere.mkdir()
    status = json.loads(bash(f"{SG} store status --json", elsewhere, env))
    assert status["data_dir"] == str(root / ".sessions-graph") and status["running"]
    assert "CockroachDB" in bash(f'{SG} recall --user alice "Which database do the orders use?"', elsewhere, env)
    assert f"stopped the store in {root / '.sessions-graph'}" in bash(f"{SG} store stop", elsewhere, env)
    assert not EmbeddedServer(root / ".sessions-graph").status().running


def test_without_a_user_service_manager_the_main_script_starts_the_store_itself(checkout):
    root, env = checkout
    out = bash(f"sg={SG}; source {REPO}/scripts/store-location >/dev/null; source {REPO}/scripts/store-up", root, env)
    assert "no user service manager here (a container?): the store is started for this session" in out
    assert EmbeddedServer(root / ".sessions-graph").status().running
    assert not (root / "xdg" / "systemd").exists()  # no unit written


def test_a_config_that_names_another_store_is_left_alone_and_the_exports_are_printed(checkout):
    root, env = checkout
    bash(f"{SG} config set store.data_dir {root / 'mine'}", root, env)
    exports = run_main_store_part(root, env)
    assert exports == [f"export SESSIONS_GRAPH_DATA_DIR={root / '.sessions-graph'}"]
    config = tomllib.loads((root / "xdg" / "sessions-graph" / "config.toml").read_text())
    assert config["store"]["data_dir"] == str(root / "mine")
    found = bash("\n".join(exports) + f'\n{SG} recall --user alice "Which database do the orders use?"', root, env)
    assert "CockroachDB" in found


@pytest.mark.parametrize(
    ("stand_in", "stopped_on"),
    [
        ("trap 'kill $child; exit 0' INT; sleep 600 & child=$!; touch ready; wait", "SIGINT"),  # as dagster dev does
        ("trap '' INT TERM; sleep 600 & touch ready; wait", "SIGKILL"),  # as a dev started with SIGINT ignored did
    ],
)
def test_scripts_stop_stops_the_recorded_dagster_group_then_the_store(checkout, stand_in, stopped_on):
    root, env = checkout
    env = {**env, "SESSIONS_GRAPH_DATA_DIR": str(root / ".sessions-graph"), "DAGSTER_HOME": str(root / "home")}
    (root / "home").mkdir()
    EmbeddedServer(root / ".sessions-graph").ensure_running()
    # A stand-in for `dagster dev`: a process group of its own, with a child (the webserver, say).
    # Signals as a terminal's shell has them, as scripts/main starts dagster dev: a suite run from a background
    # shell (CI, nohup &) passes SIGINT on ignored, and bash cannot trap a signal ignored on entry; a mask of
    # blocked signals the test process holds would be inherited too.
    group = subprocess.Popen(
        ["bash", "-c", "grep -E '^Sig(Blk|Ign)' /proc/$$/status > signals; " + stand_in],
        start_new_session=True, cwd=root, preexec_fn=default_signals,
    )
    # Signalled before its trap and child are in place (a loaded machine), it would stop on the wrong signal.
    for _ in range(600):
        if (root / "ready").exists():
            break
        time.sleep(0.1)
    else:
        pytest.fail("the stand-in for dagster dev did not start within a minute")
    (root / "home" / "dagster-dev.pid").write_text(f"{group.pid}\n")
    try:
        out = bash(f"bash {REPO}/scripts/stop", root, env)
        group.wait(timeout=30)
        left = subprocess.run(["ps", "-eo", "pgid=,stat="], capture_output=True, text=True, check=True).stdout
        # Nothing of the group runs (an exited child the container's init has not reaped yet is a zombie).
        assert not [line for line in left.splitlines() if line.split()[0] == str(group.pid) and not line.split()[1].startswith("Z")]
    finally:
        if group.poll() is None:
            os.killpg(group.pid, signal.SIGKILL)
    own = [line for line in Path("/proc/thread-self/status").read_text().splitlines() if line.startswith(("SigBlk", "SigIgn"))]
    assert f"dagster dev stopped (pid {group.pid}, its process group, on {stopped_on})" in out, (
        out, (root / "signals").read_text(), own)
    assert f"stopped the store in {root / '.sessions-graph'}" in out
    assert not (root / "home" / "dagster-dev.pid").exists()


def test_the_main_install_leaves_the_heavy_extras_out_and_the_tests_install_them():
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]

    def packages(names: str) -> set[str]:
        found: set[str] = set()
        for name in names.split(","):
            for requirement in extras[name]:
                if requirement.startswith("sessions-graph["):
                    found |= packages(requirement[len("sessions-graph["):-1])
                else:
                    found.add(requirement.split("=")[0].split(">")[0].split("<")[0].strip())
        return found

    def chosen(script: str) -> str:
        line = next(line for line in (REPO / "scripts" / script).read_text().splitlines() if "SG_EXTRAS=" in line)
        return line.split("SG_EXTRAS=")[1].split()[0]

    assert not {"torch", "gliner"} & packages(chosen("main"))
    assert {"dagster", "dagster-webserver", "mcp"} <= packages(chosen("main"))
    assert {"torch", "gliner", "pytest"} <= packages(chosen("test"))
    assert "apt-get" not in (REPO / "scripts" / "install").read_text() + (REPO / "scripts" / "main").read_text()


def run_tour(root: Path, env: dict[str, str], url: str) -> subprocess.CompletedProcess:
    """scripts/main's part after Dagster has started (scripts/tour), with no Dagster at `url` to wait for."""
    script = f'sg={SG}; url={url}; source {REPO}/scripts/store-location; "$sg" store start >/dev/null; source {REPO}/scripts/tour'
    return subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=root, env={**env, "SG_WAIT_S": "2"},
                          capture_output=True, text=True, timeout=300)


def test_a_rerun_keeps_the_samples_and_always_ends_with_the_recall_and_the_hints(checkout):
    root, env = checkout
    with socket.socket() as probe:  # a port nothing listens on: the wait fails, as when Dagster did not come up
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}"
    runs = [run_tour(root, env, url) for _ in range(2)]
    for done in runs:
        assert done.returncode == 1, done.stdout + done.stderr
        assert f"Waiting for the sensors' runs stopped: no Dagster webserver at {url} after 2 s" in done.stderr
        assert "Traceback" not in done.stderr and "already exists" not in done.stderr
        recall, hints = done.stdout.split("Dagster UI:")
        assert "CockroachDB" in recall and "Re-run:" in hints
        assert "the wait for the sensors' runs ended with status 1, the recall with 0" in done.stderr
    assert "alice's /memories/projects/orders/database.md is kept as it is" in runs[1].stdout
    assert "0 new turns" in runs[1].stdout
    view = bash(f"{SG} memory view --user alice /memories/projects/orders/database.md", root,
                {**env, "SESSIONS_GRAPH_DATA_DIR": str(root / ".sessions-graph")})
    assert view.count("CockroachDB") == 1
