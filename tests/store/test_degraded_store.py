"""The production store under faults (issue 41): a standalone FalkorDB primary and its replica, killed,
stopped and restarted while the CLI reads and writes. Reads fall back to the primary when the replica is
down and say so once; replica_acks holds back writes only; a server still loading its data is waited
for within a bound, then reported as loading; every message names the server that failed."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time

import pytest
from conftest import EXAMPLES
from service_helpers import standalone_pair

from devtools.faults import READ_BOUND_S, Plan, fault_run
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
    """SIGSTOP: the primary accepts connections and never replies. Recall reads the replica as always; a command
    that reads the primary (session list) gives way to the replica and says so; a write fails after
    store.timeout_s, naming the primary (before, each waited for the connection's 60 s)."""
    os.kill(pair.primary.pid(), signal.SIGSTOP)
    try:
        recalled = cli("recall", "--user", "alice", QUESTION)
        listed = cli("session", "list", "--user", "alice")
        refused = cli("memory", "save", "--user", "alice", "Orders moved again.", code=1)
    finally:
        os.kill(pair.primary.pid(), signal.SIGCONT)
    assert "CockroachDB" in recalled and "Reading from the primary" not in recalled
    assert "orders-2" in listed
    assert listed.count(f"The FalkorDB primary at {pair.primary.address} is unreachable") == 1
    assert f"Reading from the replica at {pair.replica.url} instead." in listed
    again = cli("session", "list", "--user", "alice")  # the primary answers again: read there, no note
    assert "orders-2" in again and "Reading from" not in again
    assert f"The FalkorDB primary at {pair.primary.address} is unreachable" in refused
    assert f"{pair.primary.address} did not answer within 5 s" in refused


@pytest.mark.parametrize("primary_first", [True, False], ids=["session-list-reads-primary", "recall-reads-replica"])
def test_a_server_stopped_after_the_probe_gives_its_read_to_the_other_one(pair, tmp_path, primary_first):
    """The fault run's race, made certain: the server chosen for reads answers the probe, then stops (SIGSTOP)
    before the command's first read. That read goes to the other server, once, with the note; before, it failed
    after store.timeout_s."""
    settings = primary_only(pair, tmp_path).replace(read_url=pair.replica.url, timeout_s=1.5)
    chosen, other = (pair.primary, pair.replica) if primary_first else (pair.replica, pair.primary)
    notes: list[str] = []
    store = open_reads(settings, primary_first=primary_first, on_switch=notes.append)
    assert notes == []  # the chosen server answered the probe
    os.kill(chosen.pid(), signal.SIGSTOP)
    try:
        rows = store.run("MATCH (s:Session {session_id: 'orders-2'}) RETURN s.user_id AS user")
        again = store.run("MATCH (s:Session) RETURN count(s) AS n")  # the rest of the command reads there too
    finally:
        os.kill(chosen.pid(), signal.SIGCONT)
        store.close()
    assert rows == [{"user": "alice"}] and again == [{"n": 1}]
    role = "replica" if primary_first else "primary"
    assert len(notes) == 1 and f"{chosen.address} did not answer within 1.5 s" in notes[0]
    assert notes[0].endswith(f"Reading from the {role} at {other.url} instead.")


def test_a_write_is_never_moved_to_the_other_server(pair, tmp_path):
    settings = primary_only(pair, tmp_path).replace(read_url=pair.replica.url, timeout_s=1.5)
    notes: list[str] = []
    store = open_reads(settings, primary_first=True, on_switch=notes.append)
    os.kill(pair.primary.pid(), signal.SIGSTOP)
    try:
        with pytest.raises(StoreUnavailableError, match="did not answer within 1.5 s"):
            store.run("MERGE (i:Item {n: 1})")
    finally:
        os.kill(pair.primary.pid(), signal.SIGCONT)
        store.close()
    assert notes == []


def test_a_read_on_a_stopped_primary_fails_within_the_timeout_naming_it(pair, tmp_path):
    """No replica to fall back to: the read fails once store.timeout_s has passed, naming the primary, and the
    store answers again once the primary does."""
    settings = primary_only(pair, tmp_path).replace(timeout_s=1.5)
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
    settings = primary_only(pair, tmp_path).replace(replica_acks=1, timeout_s=1.0)
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


def test_a_fault_run_loses_no_acknowledged_write_and_every_read_answers_or_names_the_server(tmp_path):
    """The fault run of devtools/faults.py, short: kill the replica, kill the primary, stop the primary for 12 s,
    under a writer of whole sessions and a reader (benchmarks/bench_faults.py runs it long, with Dagster)."""
    with standalone_pair() as servers:
        settings = StoreSettings(data_dir=tmp_path, falkordb_url=servers.primary.url, falkordb_password=servers.password,
                                 read_url=servers.replica.url, replica_acks=1)
        outcome = fault_run(servers.primary, servers.replica, settings, Plan(writes_between=10, down_s=2, stop_s=12))
        primary = servers.primary.address
    assert len(outcome.acknowledged) >= 40 and outcome.missing == [], outcome.missing[:10]
    assert outcome.unnamed == [], outcome.unnamed[:3]
    stopped = outcome.phases[-1]
    assert stopped.name == "primary stopped 12 s"
    # Writes sent to the stopped primary failed, saying it did not answer; no read failed: recall's went to the
    # replica, and session list's gave way to it.
    assert stopped.refused and all(f"{primary} did not answer within" in error for error in stopped.refused), stopped.refused
    assert stopped.from_replica and not stopped.read_errors and not stopped.primary_read_errors
    print("\n".join(" | ".join(row) for row in outcome.rows()))
    assert outcome.slowest_read <= READ_BOUND_S, f"a read took {outcome.slowest_read:.1f} s"
