"""A store a command started stays up for the next command and stops itself once idle (store.idle_seconds)."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from sessions_graph_core.children import sessions_graph_command
from sessions_graph_core.store.falkordb.client import Connection
from sessions_graph_core.store.falkordb.idle import poll_interval
from sessions_graph_core.store.falkordb.server import EmbeddedServer, _cmdline, _process_alive
from sessions_graph_core.store.falkordb.store import FalkorDBStore

WAIT_S = 120


def eventually(probe: Callable[[], object], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not probe():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} after {WAIT_S} s")
        time.sleep(0.1)


def watchers_of(data_dir: Path) -> list[int]:
    return [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()
            and "store.falkordb.idle" in _cmdline(int(entry.name)) and str(data_dir) in _cmdline(int(entry.name))]


def a_watcher_of(data_dir: Path) -> int:
    """The watcher a kept store started. It is spawned detached and shows its own command line only once its
    exec is done, which on a loaded machine can be after the call that started it returned: waited for."""
    found: list[int] = []
    eventually(lambda: found.extend(watchers_of(data_dir)) or found, "no watcher runs for the kept store")
    [watcher] = set(found)
    return watcher


def test_a_kept_store_stops_itself_once_idle(short_tmp: Path) -> None:
    store = FalkorDBStore.open(short_tmp, graph="g", keep_running=True, idle_seconds=1)
    store.run("CREATE (:Note {text: 'kept'})")
    store.close()
    server = EmbeddedServer(short_tmp)
    assert server.pid() is not None  # its watcher (which may already be gone: idle 1 s) is what stops it
    eventually(lambda: server.pid() is None, "the idle server still runs")
    eventually(lambda: not watchers_of(server.data_dir), "its watcher still runs")
    again = FalkorDBStore.open(short_tmp, graph="g")  # stopped cleanly: nothing lost
    assert again.run("MATCH (n:Note) RETURN n.text AS t") == [{"t": "kept"}]
    again.close()


def test_a_connected_client_keeps_it_up(short_tmp: Path) -> None:
    FalkorDBStore.open(short_tmp, graph="g", keep_running=True, idle_seconds=0.5).close()
    server = EmbeddedServer(short_tmp)
    pid = server.pid()
    client = Connection(str(server.socket_path))
    assert client.command("PING") == "PONG"
    time.sleep(6 * poll_interval(0.5))  # idle ten times over, but with a client connected
    assert server.pid() == pid
    client.close()
    eventually(lambda: server.pid() is None, "the server still runs after its last client left")


def test_a_watcher_ends_with_a_server_stopped_by_hand(short_tmp: Path) -> None:
    FalkorDBStore.open(short_tmp, graph="g", keep_running=True, idle_seconds=3600).close()
    server = EmbeddedServer(short_tmp)
    watcher = a_watcher_of(server.data_dir)
    assert server.stop()
    eventually(lambda: not _process_alive(watcher), "the watcher outlived its server")


def test_a_cli_call_leaves_the_store_up_for_the_next(short_tmp: Path, tmp_path: Path) -> None:
    env = {**os.environ, "SESSIONS_GRAPH_DATA_DIR": str(short_tmp), "SESSIONS_GRAPH_CONFIG": str(tmp_path / "c.toml"),
           "SESSIONS_GRAPH_STORE_IDLE_SECONDS": "3600"}
    env.pop("MEMGRAPH_URL", None)
    subprocess.run([*sessions_graph_command(), "memory", "save", "--user", "ann", "hello"], env=env, check=True,
                   capture_output=True, timeout=WAIT_S)
    server = EmbeddedServer(short_tmp)
    pid = server.pid()
    assert pid is not None
    a_watcher_of(server.data_dir)
    listed = subprocess.run([*sessions_graph_command(), "memory", "list", "--user", "ann"], env=env, check=True,
                            capture_output=True, text=True, timeout=WAIT_S)
    assert "hello" in listed.stdout
    assert "loading the store" not in listed.stderr and server.pid() == pid  # found it up, started nothing
    server.stop()
