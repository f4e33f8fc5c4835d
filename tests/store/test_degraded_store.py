"""The production store under faults (issue 41): a standalone FalkorDB primary and its replica, killed,
stopped and restarted while the CLI reads and writes. Reads fall back to the primary when the replica is
down and say so once; replica_acks holds back writes only; a server still loading its data is waited
for within a bound, then reported as loading; every message names the server that failed."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import threading
import time
from dataclasses import replace

import pytest
from conftest import EXAMPLES
from service_helpers import standalone_pair

from sessions_graph_core.store.falkordb.client import Connection
from sessions_graph_core.store.falkordb.server import server_arguments, server_info
from sessions_graph_core.store.falkordb.service import MODULE_OPTIONS, StandaloneServer
from sessions_graph_core.store.falkordb.store import LOADING_WAIT_S, StoreUnavailableError
from sessions_graph_core.store.location import StoreSettings, open_reads, open_store

QUESTION = "What database does the orders service use?"


@pytest.fixture
def pair(cli, monkeypatch):
    """A fresh primary and replica (the tests kill them) with alice's orders session reconciled, and the
    CLI's environment pointing at them with replica_acks=1."""
    with standalone_pair() as servers:
        for name, value in servers.env(replica_acks=1).items():
            monkeypatch.setenv(name, value)
        cli("session", "import", str(EXAMPLES / "orders-2.jsonl"))
        cli("reconcile", "--pending")
        yield servers


def test_reads_fall_back_to_the_primary_when_the_replica_is_down_and_say_so_once(pair, cli):
    os.kill(pair.replica.pid(), signal.SIGKILL)
    output = cli("recall", "--user", "alice", QUESTION)
    assert "CockroachDB" in output
    note = f"The FalkorDB replica at {pair.replica.address} (store.read_url) is unreachable"
    assert output.count(note) == 1
    assert f"Reading from the primary at {pair.primary.url} instead." in output
    assert "promote" not in output  # nothing is wrong with the primary


def test_a_stopped_replica_gives_way_to_the_primary(pair, cli):
    os.kill(pair.replica.pid(), signal.SIGSTOP)  # accepts connections, never answers
    try:
        output = cli("recall", "--user", "alice", QUESTION)
    finally:
        os.kill(pair.replica.pid(), signal.SIGCONT)
    assert "CockroachDB" in output and f"Reading from the primary at {pair.primary.url} instead." in output


def test_replica_acks_hold_back_writes_only(pair, cli):
    os.kill(pair.replica.pid(), signal.SIGKILL)
    assert "orders-2" in cli("session", "list", "--user", "alice")  # a read waits for no replica
    refused = cli("memory", "save", "--user", "alice", "Orders moved again.", code=1)
    assert f"applied on the primary {pair.primary.address}, but only 0 of 1 replicas confirmed it" in refused


def test_a_stopped_primary_leaves_reads_to_the_replica_and_fails_writes_naming_itself(pair, cli):
    """SIGSTOP: the primary accepts connections and never replies. Recall reads the replica as always; a write
    fails after store.timeout_s, naming the primary (before, it waited for the connection's 60 s)."""
    os.kill(pair.primary.pid(), signal.SIGSTOP)
    try:
        recalled = cli("recall", "--user", "alice", QUESTION)
        refused = cli("memory", "save", "--user", "alice", "Orders moved again.", code=1)
    finally:
        os.kill(pair.primary.pid(), signal.SIGCONT)
    assert "CockroachDB" in recalled and "Reading from the primary" not in recalled
    assert f"The FalkorDB primary at {pair.primary.address} is unreachable" in refused
    assert f"{pair.primary.address} did not answer within 5 s" in refused


def test_a_read_on_a_stopped_primary_fails_within_the_timeout_naming_it(pair, tmp_path):
    """No replica to fall back to: the read fails once store.timeout_s has passed, naming the primary, and the
    store answers again once the primary does."""
    settings = replace(primary_only(pair, tmp_path), timeout_s=1.5)
    with open_store(settings) as store:
        os.kill(pair.primary.pid(), signal.SIGSTOP)
        try:
            with pytest.raises(StoreUnavailableError) as raised:
                store.run("MATCH (s:Session) RETURN count(s) AS n")
        finally:
            os.kill(pair.primary.pid(), signal.SIGCONT)
        assert f"The FalkorDB primary at {pair.primary.address} is unreachable" in str(raised.value)
        assert f"{pair.primary.address} did not answer within 1.5 s (stopped, or overloaded)" in str(raised.value)
        assert store.run("MATCH (s:Session {session_id: 'orders-2'}) RETURN s.user_id AS user") == [{"user": "alice"}]


def test_a_write_waiting_for_its_replica_is_given_the_replicas_wait_on_top_of_the_timeout(pair, tmp_path):
    """WAIT holds the reply for up to REPLICA_ACK_TIMEOUT_MS: a timeout shorter than that must not cut it off, or
    a write the replica confirmed late would be reported as a server that does not answer."""
    settings = replace(primary_only(pair, tmp_path), replica_acks=1, timeout_s=1.0)
    os.kill(pair.replica.pid(), signal.SIGSTOP)  # the replica confirms nothing: WAIT runs its full 5 s
    try:
        with open_store(settings) as store, pytest.raises(StoreUnavailableError) as raised:
            store.run("MERGE (i:Item {n: 1})")
    finally:
        os.kill(pair.replica.pid(), signal.SIGCONT)
    assert f"applied on the primary {pair.primary.address}, but only 0 of 1 replicas confirmed it" in str(raised.value)


def restart_loading_slowly(server: StandaloneServer, *, keys: int, delay_us: int) -> None:
    """Restart the server as service.py starts it, with redis-server's key-load-delay: it answers LOADING
    for about keys * delay_us while it reads its data back, as a large store does after a restart."""
    connection = Connection(server.address, password=os.environ["SESSIONS_GRAPH_STORE_PASSWORD"], timeout=30)
    for start in range(0, keys, 500):
        connection.commands(*[("SET", f"filler:{n}", "x") for n in range(start, min(keys, start + 500))])
    rewrites = int(server_info(connection, "persistence")["aof_rewrites"])
    connection.command("BGREWRITEAOF")  # the delay applies to the snapshot the rewrite makes
    while not rewritten(server_info(connection, "persistence"), rewrites):
        time.sleep(0.2)
    connection.close()
    host, _, port = server.address.rpartition(":")
    server.stop()
    command = [*server_arguments(server.data_dir, server.log_path, module_options=MODULE_OPTIONS),
               "--bind", host, "--port", port, "--key-load-delay", str(delay_us),
               # Answer (LOADING) between every kilobyte read: by default it answers every 2 MB, and this store is smaller.
               "--loading-process-events-interval-bytes", "1024"]
    command.insert(1, str(server.config_path))
    child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True, cwd=server.data_dir)
    server.pid_path.write_text(str(child.pid))
    listening(server.address)


def rewritten(info: dict[str, str], before: int) -> bool:
    return int(info["aof_rewrites"]) > before and info["aof_rewrite_in_progress"] == info["aof_rewrite_scheduled"] == "0"


def listening(address: str) -> None:
    """Returns once the server accepts connections (answering or not)."""
    host, _, port = address.rpartition(":")
    for _ in range(600):
        try:
            socket.create_connection((host, int(port)), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    pytest.fail(f"nothing listens at {address} after a minute")


def primary_only(pair, tmp_path) -> StoreSettings:
    return StoreSettings(data_dir=tmp_path, falkordb_url=pair.primary.url, falkordb_password=pair.password)


def test_a_primary_that_loads_briefly_is_waited_for(pair, tmp_path):
    restart_loading_slowly(pair.primary, keys=1000, delay_us=1000)  # about a second of LOADING
    with open_store(primary_only(pair, tmp_path)) as store:
        assert store.run("MATCH (s:Session {session_id: 'orders-2'}) RETURN s.user_id AS user") == [{"user": "alice"}]
        # The server answered LOADING first (its own count of the error replies it sent).
        assert "count=" in server_info(store._connection, "errorstats").get("errorstat_LOADING", "")


def test_a_primary_still_loading_after_the_bound_is_reported_as_loading(pair, tmp_path):
    restart_loading_slowly(pair.primary, keys=4000, delay_us=5000)  # about 20 s of LOADING
    with open_store(primary_only(pair, tmp_path)) as store, pytest.raises(StoreUnavailableError) as raised:
        store.run("MATCH (s:Session) RETURN count(s) AS n")
    message = str(raised.value)
    assert f"The FalkorDB primary at {pair.primary.address} is still loading its data after {LOADING_WAIT_S:.0f} s" in message
    assert "nothing was run; retry in a moment" in message


class Traffic:
    """A writer and a reader running until stopped, as the hooks and recall do against the production store:
    the writer's acknowledged items, and each read's seconds and outcome."""

    def __init__(self, settings: StoreSettings) -> None:
        self.settings = settings
        self.acknowledged: list[int] = []
        self.write_errors: list[str] = []
        self.reads: list[tuple[float, str | None, str | None]] = []  # seconds, error, fallback note
        self.stopping = threading.Event()
        self.threads = [threading.Thread(target=self._write), threading.Thread(target=self._read)]
        for thread in self.threads:
            thread.start()

    def _write(self) -> None:
        store, n = open_store(self.settings), 0
        while not self.stopping.is_set():
            try:
                store.run("MERGE (i:Item {n: $n}) SET i.at = timestamp()", {"n": n})
            except StoreUnavailableError as exc:
                self.write_errors.append(str(exc))
                time.sleep(0.2)
                continue
            self.acknowledged.append(n)
            n += 1
        store.close()

    def _read(self) -> None:
        while not self.stopping.is_set():
            started, error, note = time.monotonic(), None, None
            try:
                store, note = open_reads(self.settings)
                try:
                    store.run("MATCH (i:Item) RETURN count(i) AS n")
                finally:
                    store.close()
            except StoreUnavailableError as exc:
                error = str(exc)
            self.reads.append((time.monotonic() - started, error, note))
            time.sleep(0.1)

    def writes_after(self, count: int) -> None:
        """Returns once `count` more writes were acknowledged (within two minutes)."""
        target = len(self.acknowledged) + count
        for _ in range(1200):
            if len(self.acknowledged) >= target:
                return
            time.sleep(0.1)
        pytest.fail(f"no {count} writes acknowledged in two minutes: {self.write_errors[-3:]}")

    def stop(self) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=120)


def test_a_fault_run_loses_no_acknowledged_write_and_every_read_answers_or_names_the_server(tmp_path):
    """Kill the replica, kill the primary, stop the primary for 20 s, under a writer and a reader."""
    with standalone_pair() as servers:
        settings = StoreSettings(data_dir=tmp_path, falkordb_url=servers.primary.url, falkordb_password=servers.password,
                                 read_url=servers.replica.url, replica_acks=1)
        traffic = Traffic(settings)
        try:
            traffic.writes_after(50)
            os.kill(servers.replica.pid(), signal.SIGKILL)
            time.sleep(3)
            servers.replica.start(password=servers.password, port=int(servers.replica.address.rpartition(":")[2]),
                                  replica_of=servers.primary.address)
            traffic.writes_after(50)
            os.kill(servers.primary.pid(), signal.SIGKILL)
            time.sleep(3)
            servers.primary.start(password=servers.password, port=int(servers.primary.address.rpartition(":")[2]))
            traffic.writes_after(50)
            os.kill(servers.primary.pid(), signal.SIGSTOP)
            time.sleep(20)
            os.kill(servers.primary.pid(), signal.SIGCONT)
            traffic.writes_after(50)
        finally:
            traffic.stop()
        with open_store(replace(settings, read_url=None, replica_acks=0)) as primary:
            on_primary = {row["n"] for row in primary.run("MATCH (i:Item) RETURN i.n AS n")}
        addresses = (servers.primary.address, servers.replica.address)
    assert set(traffic.acknowledged) <= on_primary, sorted(set(traffic.acknowledged) - on_primary)[:10]
    failed = [error for _, error, _ in traffic.reads if error]
    assert all(any(address in error for address in addresses) for error in failed), failed[:3]
    assert all(any(address in error for address in addresses) for error in traffic.write_errors), traffic.write_errors[:3]
    slowest = max(seconds for seconds, _, _ in traffic.reads)
    fallbacks = sum(1 for _, _, note in traffic.reads if note)
    print(f"fault run: {len(traffic.acknowledged)} writes acknowledged, all kept; {len(traffic.write_errors)} refused; "
          f"{len(traffic.reads)} reads, {len(failed)} failed, {fallbacks} read from the primary; slowest read {slowest:.1f} s")
    assert slowest <= 10, f"a read took {slowest:.1f} s"
