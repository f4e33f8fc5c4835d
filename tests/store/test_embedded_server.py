"""The embedded FalkorDB server's life cycle and durability, with real processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from sessions_graph_core import SessionsGraph
from sessions_graph_core.errors import StoreUnreachableError
from sessions_graph_core.store.falkordb.client import ReplyError
from sessions_graph_core.store.falkordb.server import EmbeddedServer, _process_alive, terminate
from sessions_graph_core.store.falkordb.store import FalkorDBStore
from sessions_graph_core.store.schema import MEMORY_TEXT_INDEX


def run_python(code: str, *args: str, wait: bool = True) -> subprocess.Popen | subprocess.CompletedProcess:
    command = [sys.executable, "-c", textwrap.dedent(code), *args]
    if wait:
        return subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
    # stdin is a pipe the test holds: a child waiting on it waits for the test, not for an EOF it reads at once.
    return subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_start_reuse_and_stop(short_tmp):
    server = EmbeddedServer(short_tmp)
    assert server.ensure_running() is True
    pid = server.pid()
    assert pid and server.responds()
    assert EmbeddedServer(short_tmp).ensure_running() is False
    assert EmbeddedServer(short_tmp).pid() == pid
    status = server.status()
    assert status.running and status.rss_bytes > 0 and status.disk_bytes > 0
    assert server.stop() is True
    assert not server.socket_path.exists() and not server.pid_path.exists()
    assert server.status().running is False
    assert server.stop() is False


def fd_links(pid: int) -> set[str]:
    """What the process's open descriptors point at; one closed while we read is simply gone
    (the server's threads open and close files all the time)."""
    links = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            links.add(os.readlink(f"/proc/{pid}/fd/{fd}"))
        except FileNotFoundError:
            continue
    return links


def test_no_tcp_listener(short_tmp):
    server = EmbeddedServer(short_tmp)
    server.ensure_running()
    try:
        listening = Path("/proc/net/tcp").read_text() + Path("/proc/net/tcp6").read_text()
        sockets = {link[8:-1] for link in fd_links(server.pid()) if link.startswith("socket:[")}
        tcp_inodes = {line.split()[9] for line in listening.splitlines()[1:] if line.split()[3] == "0A"}
        assert not sockets & tcp_inodes
    finally:
        server.stop()


def test_stale_pid_and_socket_files_are_cleaned(short_tmp):
    server = EmbeddedServer(short_tmp)
    server.pid_path.write_text("999999")
    server.socket_path.write_text("not a socket")
    assert server.pid() is None
    assert server.ensure_running() is True
    assert server.pid() != 999999 and server.responds()
    server.stop()


def test_pid_file_naming_an_unrelated_process_is_ignored(short_tmp):
    server = EmbeddedServer(short_tmp)
    server.pid_path.write_text(str(os.getpid()))
    assert server.pid() is None
    server.ensure_running()
    assert server.pid() != os.getpid()
    server.stop()
    assert Path(f"/proc/{os.getpid()}").exists()


def test_a_second_process_reuses_the_server_and_keeps_it_alive(short_tmp):
    owner = FalkorDBStore.open(short_tmp, graph="g")
    assert owner.owns_server
    SessionsGraph(owner).setup()
    owner.run("CREATE (:Note {text: 'from the owner'})")
    other = run_python(
        """
        import sys, time
        from sessions_graph_core.store.falkordb.store import FalkorDBStore
        store = FalkorDBStore.open(sys.argv[1], graph="g")
        print(store.owns_server, store.run("MATCH (n:Note) RETURN n.text AS t")[0]["t"], flush=True)
        sys.stdin.readline()
        store.run("CREATE (:Note {text: 'from the other process'})")
        store.close()
        """,
        str(short_tmp),
        wait=False,
    )
    assert other.stdout.readline().strip() == "False from the owner"
    # The other process stays connected until its stdin closes: owner.close() must see it and leave the server up.
    owner.close()
    server = EmbeddedServer(short_tmp)
    assert server.responds(timeout=60)  # a loaded machine can hold a PING past the probe's 2 s
    other.stdin.close()
    assert other.wait(timeout=60) == 0, other.stderr.read()
    reader = FalkorDBStore.open(short_tmp, graph="g")
    assert {row["t"] for row in reader.run("MATCH (n:Note) RETURN n.text AS t")} == {"from the owner", "from the other process"}
    reader.close()
    server.stop()


def test_a_live_server_slow_to_answer_is_waited_for_not_replaced(short_tmp):
    server = EmbeddedServer(short_tmp)
    server.ensure_running()
    pid = server.pid()
    os.kill(pid, signal.SIGSTOP)  # alive but silent for longer than a PING probe waits
    resume = threading.Timer(3.0, os.kill, (pid, signal.SIGCONT))
    resume.start()
    try:
        started_another = EmbeddedServer(short_tmp).ensure_running()
    finally:
        resume.cancel()
        os.kill(pid, signal.SIGCONT)
    assert not started_another
    assert EmbeddedServer(short_tmp).pid() == pid and server.socket_path.exists()
    server.stop()


def test_a_server_silent_past_the_timeout_is_reported_with_what_it_was_doing(short_tmp, monkeypatch):
    server = EmbeddedServer(short_tmp)
    server.ensure_running()
    pid = server.pid()
    monkeypatch.setattr("sessions_graph_core.store.falkordb.server.START_TIMEOUT_S", 1.0)
    os.kill(pid, signal.SIGSTOP)
    try:
        with pytest.raises(StoreUnreachableError) as raised:
            EmbeddedServer(short_tmp).ensure_running()
    finally:
        os.kill(pid, signal.SIGCONT)
    message = str(raised.value)
    assert f"(pid {pid})" in message and "process state T" in message
    assert "socket present" in message and "no reply to PING" in message and str(server.log_path) in message
    assert EmbeddedServer(short_tmp).pid() == pid  # reported, never replaced
    server.stop()


def test_a_server_that_refuses_the_first_sigterm_is_asked_again():
    """redis-server turns down a SIGTERM while it writes its first append-only file; stopping it asks
    again rather than waiting out the timeout and killing it."""
    child = run_python(
        """
        import signal, sys, time
        asked = []
        def refuse_once(number, frame):
            if asked:
                sys.exit(0)
            asked.append(number)
        signal.signal(signal.SIGTERM, refuse_once)
        print("ready", flush=True)
        while True:
            time.sleep(0.01)
        """,
        wait=False,
    )
    assert child.stdout.readline().strip() == "ready"
    terminate(child.pid, lambda: child.poll() is not None, timeout=60)
    assert child.returncode == 0  # left by its own second SIGTERM, not killed at the timeout


def test_owned_server_stops_on_close_and_restarts_on_next_use(short_tmp):
    store = FalkorDBStore.open(short_tmp, graph="g")
    store.run("CREATE (:Note {text: 'kept'})")
    store.close()
    assert not EmbeddedServer(short_tmp).responds()
    again = FalkorDBStore.open(short_tmp, graph="g")
    assert again.run("MATCH (n:Note) RETURN n.text AS t") == [{"t": "kept"}]
    again.close()


def test_keep_running_leaves_the_server_up(short_tmp):
    FalkorDBStore.open(short_tmp, keep_running=True).close()
    server = EmbeddedServer(short_tmp)
    assert server.responds()
    server.stop()


def test_unusable_data_directories_get_clear_errors(short_tmp):
    blocker = short_tmp / "file"
    blocker.write_text("x")
    with pytest.raises(StoreUnreachableError, match="Cannot create the data directory"):
        EmbeddedServer(blocker / "data").ensure_running()
    with pytest.raises(StoreUnreachableError, match="too long for a Unix socket"):
        EmbeddedServer(short_tmp / ("d" * 120)).ensure_running()


def test_a_server_still_loading_its_data_is_waited_for(short_tmp, monkeypatch, capsys):
    # A store of 100k turns takes minutes to load, rebuilding its vector indexes without answering
    # anyone; 3,000 vectors take about two seconds here, longer than the timeout the test sets.
    monkeypatch.setattr("sessions_graph_core.store.falkordb.server.COMPACT_ABOVE_BYTES", 0)  # load from a snapshot
    store = FalkorDBStore.open(short_tmp, graph="g")
    store.run("CREATE VECTOR INDEX FOR (p:P) ON (p.e) OPTIONS {dimension: 384, similarityFunction: 'cosine'}")
    store.run("UNWIND range(1, 3000) AS i CREATE (:P {e: vecf32([j IN range(1, 384) | rand()])})")
    store.close()
    monkeypatch.setattr("sessions_graph_core.store.falkordb.server.START_TIMEOUT_S", 0.5)
    monkeypatch.setattr("sessions_graph_core.store.falkordb.server.SLOW_START_S", 0.3)
    server = EmbeddedServer(short_tmp)
    started = time.monotonic()
    assert server.ensure_running()
    try:
        assert time.monotonic() - started > 0.5, "the store loaded within the timeout: the test proves nothing"
        assert capsys.readouterr().err.count(f"loading the store in {server.data_dir}") == 1
        again = FalkorDBStore(server, graph="g")
        assert again.run("MATCH (p:P) RETURN count(p) AS n") == [{"n": 3000}]
    finally:
        server.stop()


def test_a_server_that_stalls_while_starting_is_started_again(short_tmp, monkeypatch, capsys):
    # The stall is real: the first server started is SIGSTOPped while it loads 3,000 vectors (seconds
    # here), as this FalkorDB build sometimes hangs replaying its log; the second one is left alone.
    monkeypatch.setattr("sessions_graph_core.store.falkordb.server.COMPACT_ABOVE_BYTES", 0)
    store = FalkorDBStore.open(short_tmp, graph="g")
    store.run("CREATE VECTOR INDEX FOR (p:P) ON (p.e) OPTIONS {dimension: 384, similarityFunction: 'cosine'}")
    store.run("UNWIND range(1, 3000) AS i CREATE (:P {e: vecf32([j IN range(1, 384) | rand()])})")
    store.close()
    monkeypatch.setattr("sessions_graph_core.store.falkordb.server.STALL_S", 1.0)
    server = EmbeddedServer(short_tmp)
    stalled: list[int] = []

    def stall_the_first_start() -> None:
        deadline = time.monotonic() + 60
        while not stalled and time.monotonic() < deadline:
            try:
                pid = int(server.pid_path.read_text())
            except (OSError, ValueError):
                time.sleep(0.001)
                continue
            os.kill(pid, signal.SIGSTOP)
            stalled.append(pid)

    watcher = threading.Thread(target=stall_the_first_start)
    watcher.start()
    try:
        assert server.ensure_running()
    finally:
        watcher.join()
    try:
        assert server.pid() not in (None, stalled[0])
        assert f"(pid {stalled[0]}) stalled while starting (process state T" in capsys.readouterr().err
        assert FalkorDBStore(server, graph="g").run("MATCH (p:P) RETURN count(p) AS n") == [{"n": 3000}]
    finally:
        server.stop()
    assert not Path(f"/proc/{stalled[0]}").exists()


def test_a_server_that_cannot_start_reports_its_log(short_tmp):
    manifest = short_tmp / "appendonlydir" / "appendonly.aof.manifest"
    manifest.parent.mkdir()
    manifest.write_text("this is not a manifest\n")
    with pytest.raises(StoreUnreachableError, match="exited with code"):
        EmbeddedServer(short_tmp).ensure_running()
    assert not (short_tmp / "falkordb.pid").exists()


WRITER = """
import os, sys
from sessions_graph_core.store.base import user_key
from sessions_graph_core.store.falkordb.server import EmbeddedServer, _process_alive, terminate
from sessions_graph_core.store.falkordb.store import FalkorDBStore
store = FalkorDBStore(EmbeddedServer(sys.argv[1]), graph="durable")
with open(sys.argv[2], "a") as acks:
    for i in range(int(sys.argv[3]), int(sys.argv[4])):
        try:
            store.run("MERGE (m:Memory {memory_id: $id}) SET m.content = $c, m.user_key = $k, m.user_id = 'u'",
                      {"id": f"m{i}", "c": f"acknowledged write {i}", "k": user_key("u")})
        except Exception:
            break
        acks.write(f"m{i}\\n"); acks.flush(); os.fsync(acks.fileno())
"""

COUNTER = """
import sys
from sessions_graph_core.store.falkordb.server import EmbeddedServer, _process_alive, terminate
from sessions_graph_core.store.falkordb.store import FalkorDBStore
store = FalkorDBStore(EmbeddedServer(sys.argv[1]), graph="durable")
for _ in range(250):
    store.run("MERGE (c:Counter {name: 'hits'}) ON CREATE SET c.n = 0 SET c.n = c.n + 1")
"""


def kill_server(server: EmbeddedServer) -> None:
    pid = server.pid()
    os.kill(pid, signal.SIGKILL)
    while Path(f"/proc/{pid}").exists() and "zombie" not in Path(f"/proc/{pid}/status").read_text():
        time.sleep(0.01)


def test_acknowledged_writes_survive_kill_9_and_restart(short_tmp):
    """The sequence that crashed AOF replay in the reference, then kill -9 mid-write, twice."""
    server = EmbeddedServer(short_tmp)
    server.ensure_running()
    store = FalkorDBStore(server, graph="durable")
    SessionsGraph(store).setup()
    for bad in ("RETURN 1/0", "MATCH (m:Memory) SET m.x = 1/0", "CREATE (:Bad {x: $missing})"):
        with pytest.raises(ReplyError):
            store.run(bad)
    counters = [run_python(COUNTER, str(short_tmp), wait=False) for _ in range(2)]
    assert all(p.wait(timeout=120) == 0 for p in counters)

    acks = short_tmp / "acks.txt"
    writer = run_python(WRITER, str(short_tmp), str(acks), "0", "1500", wait=False)
    while not acks.exists() or len(acks.read_text().split()) < 300:
        time.sleep(0.01)
    kill_server(server)  # mid-write: the writer's store brings the server back and carries on
    assert writer.wait(timeout=120) == 0
    kill_server(server)  # right after the last acknowledged write, no clean shutdown
    acknowledged = acks.read_text().split()
    assert len(acknowledged) == 1500

    assert server.ensure_running() is True  # stale pid and socket from the killed server
    found = {row["id"] for row in store.run("MATCH (m:Memory) RETURN m.memory_id AS id")}
    assert set(acknowledged) == found
    assert store.run("MATCH (c:Counter) RETURN c.n AS n") == [{"n": 500}]
    hits = store.fulltext_search(MEMORY_TEXT_INDEX, "u", ["acknowledged"], limit=5, columns="node.memory_id AS id")
    assert len(hits) == 5

    # the replayed log must itself survive another crash and replay
    run_python(WRITER, str(short_tmp), str(acks), "1500", "1550")
    kill_server(server)
    server.ensure_running()
    assert len(store.run("MATCH (m:Memory) RETURN m.memory_id AS id")) == 1550
    SessionsGraph(store).setup()
    server.stop()


def test_the_server_keeps_no_query_log_and_writes_its_snapshot_readable(server):
    """No `telemetry{graph}` stream of queries with their parameters, and strings in the log's snapshot
    as written, so the check after a forget can see them (issue 42)."""
    from sessions_graph_core.store.falkordb.client import Connection

    connection = Connection(str(server.socket_path))
    try:
        assert connection.command("GRAPH.CONFIG", "GET", "CMD_INFO") == ["CMD_INFO", 0]
        assert connection.command("CONFIG", "GET", "rdbcompression") == ["rdbcompression", "no"]
    finally:
        connection.close()


def test_an_owner_stopped_by_sigterm_stops_its_server(short_tmp):
    """A worker stopped the way process managers stop one (SIGTERM) leaves no server of its own running."""
    owner = run_python(
        """
        import sys
        from sessions_graph_core.store.falkordb.store import FalkorDBStore
        store = FalkorDBStore.open(sys.argv[1], graph="g")
        store.run("CREATE (:Note {text: 'before the signal'})")
        print(store.owns_server, flush=True)
        sys.stdin.readline()
        """,
        str(short_tmp),
        wait=False,
    )
    server = EmbeddedServer(short_tmp)
    try:
        assert owner.stdout.readline().strip() == "True"
        pid = server.pid()
        owner.send_signal(signal.SIGTERM)
        assert owner.wait(timeout=120) == 128 + signal.SIGTERM, owner.stderr.read()
        assert server.pid() is None and not _process_alive(pid)  # a zombie not yet reaped by init counts as gone
        again = FalkorDBStore.open(short_tmp, graph="g")
        assert again.run("MATCH (n:Note) RETURN n.text AS t") == [{"t": "before the signal"}]
        again.close()
    finally:
        server.stop()  # what a failing run would leave behind


def test_a_sigterm_handler_the_program_set_is_left_alone(short_tmp):
    child = run_python(
        """
        import signal, sys
        from sessions_graph_core.store.falkordb.store import FalkorDBStore
        mine = lambda *_: None
        signal.signal(signal.SIGTERM, mine)
        store = FalkorDBStore.open(sys.argv[1], graph="g")
        print(signal.getsignal(signal.SIGTERM) is mine, flush=True)
        store.close()
        """,
        str(short_tmp),
    )
    assert child.stdout.strip() == "True"


def test_a_store_opened_off_the_main_thread_starts_and_stops_its_server(short_tmp):
    """Only the main thread may set a signal handler: a worker thread that starts the server sets none and fails
    nothing."""
    child = run_python(
        """
        import signal, sys, threading
        from sessions_graph_core.store.falkordb.store import FalkorDBStore
        opened = []
        worker = threading.Thread(target=lambda: opened.append(FalkorDBStore.open(sys.argv[1], graph="g")))
        worker.start()
        worker.join()
        print(opened[0].owns_server, signal.getsignal(signal.SIGTERM) == signal.SIG_DFL, flush=True)
        opened[0].close()
        """,
        str(short_tmp),
    )
    assert child.stdout.strip() == "True True"
    assert not EmbeddedServer(short_tmp).responds()
