"""The standalone FalkorDB service: TCP with a password, a replica recall reads from, and losing the
primary while a writer runs without losing anything the writer was told is done."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest
from conftest import EXAMPLES
from service_helpers import standalone_pair

from sessions_graph_core import SessionsGraph
from sessions_graph_core.store.falkordb.client import Connection
from sessions_graph_core.store.falkordb.server import server_info
from sessions_graph_core.store.falkordb.store import FalkorDBStore, StoreUnavailableError
from sessions_graph_core.store.location import StoreSettings, open_store
from sessions_graph_core.validation import ValidationError


@pytest.fixture(scope="module")
def pair():
    with standalone_pair() as servers:
        yield servers


def settings_for(pair, tmp_path, *, replica_acks: int = 1, password: str | None = None) -> StoreSettings:
    return StoreSettings(
        data_dir=tmp_path,
        graph=f"g{time.monotonic_ns()}",
        falkordb_url=pair.primary.url,
        falkordb_password=pair.password if password is None else password,
        read_url=pair.replica.url,
        replica_acks=replica_acks,
    )


def count(store: FalkorDBStore, label: str = "Item") -> int:
    return store.run(f"MATCH (n:{label}) RETURN count(n) AS n")[0]["n"]


def test_a_started_replica_is_in_step_on_both_sides():
    """start() returns once the first sync is over on both sides: no sync child left on the primary
    (statements arriving while it was reaped have hung this FalkorDB build), no first log on the replica."""
    with standalone_pair() as servers:
        primary, replica = (Connection(s.address, password=servers.password, timeout=10) for s in (servers.primary, servers.replica))
        assert "state=online" in primary.command("INFO", "replication")
        assert "rdb_bgsave_in_progress:0" in primary.command("INFO", "persistence")
        assert "aof_rewrite_in_progress:0" in replica.command("INFO", "persistence")
        assert "master_link_status:up" in replica.command("INFO", "replication")
        primary.close()
        replica.close()


def test_write_on_primary_read_on_replica(pair, tmp_path):
    settings = settings_for(pair, tmp_path)
    with SessionsGraph(open_store(settings)) as graph:
        graph.setup()
        graph.record_session_start("s1", user_id="alice", project_key="orders")
        graph.record_turns("s1", [{"role": "user", "text": "The orders service moved to CockroachDB."}], user_id="alice")
        # replica_acks=1: the write returned only once the replica held it, so the replica has it now.
        with open_store(settings.for_reads()) as replica:
            rows = replica.run("MATCH (s:Session {session_id: 's1'}) RETURN s.user_id AS user")
            assert rows == [{"user": "alice"}]
            with pytest.raises(ValidationError, match="read-only replica.*point store.url at the primary"):
                replica.run("CREATE (:Item {n: 1})")
        graph.store.delete_all()


def test_a_big_write_is_given_time_for_its_size_not_cut_off_at_the_timeout(pair, tmp_path):
    """store.timeout_s bounds a server that does not answer; a write's time grows with what it sends. Cut off at
    the timeout, a big write (record_turns of 10,000 turns, 12.6 MB) was reported failed while the server went
    on and applied it."""
    settings = settings_for(pair, tmp_path, replica_acks=0).replace(timeout_s=0.01)
    rows = [{"n": n, "text": f"turn {n} " + "word " * 2_000} for n in range(2_000)]  # 20 MB
    try:
        with open_store(settings) as store:
            made = store.run("UNWIND $rows AS r CREATE (:Item {n: r.n, text: r.text}) RETURN count(r) AS made", {"rows": rows})
        assert made == [{"made": 2_000}]
    finally:
        with open_store(settings.replace(timeout_s=60)) as store:
            assert count(store) == 2_000
            store.delete_all()


def test_a_write_fewer_replicas_confirmed_than_asked_is_not_acknowledged(pair, tmp_path):
    settings = settings_for(pair, tmp_path, replica_acks=2)  # the pair has one replica
    with open_store(settings) as store:
        with pytest.raises(StoreUnavailableError, match="only 1 of 2 replicas confirmed it"):
            store.run("CREATE (:Item {n: 1})")
        with open_store(settings.replace(replica_acks=1)) as acked:
            assert acked.run("MATCH (i:Item) RETURN count(i) AS n") == [{"n": 1}]  # applied, just not confirmed
        store.delete_all()


def waits(store: FalkorDBStore) -> int:
    """How many WAIT commands the primary has run (each server's own count, all clients)."""
    stats = server_info(store._connection, "commandstats").get("cmdstat_wait", "calls=0")
    return int(stats.split(",")[0].removeprefix("calls="))


def calls(connection: Connection, command: str) -> int:
    stats = server_info(connection, "commandstats").get(f"cmdstat_{command}", "calls=0")
    return int(stats.split(",")[0].removeprefix("calls="))


def test_writes_reach_the_replica_as_their_effects_not_as_statements_to_run_again(pair, tmp_path):
    settings = settings_for(pair, tmp_path)
    replica = Connection(pair.replica.address, password=pair.password, timeout=10)
    with open_store(settings) as store, open_store(settings.for_reads()) as reads:
        queries, effects = calls(replica, "graph.QUERY"), calls(replica, "graph.EFFECT")
        for n in range(4):
            store.run("MERGE (i:Item {n: $n}) SET i.seen = coalesce(i.seen, 0) + 1", {"n": n})
        assert calls(replica, "graph.EFFECT") - effects == 4
        assert calls(replica, "graph.QUERY") == queries
        assert reads.run("MATCH (i:Item) RETURN sum(i.seen) AS seen") == [{"seen": 4}]
        store.delete_all()
    replica.close()


def test_a_block_waits_for_the_replicas_once_at_its_end(pair, tmp_path):
    settings = settings_for(pair, tmp_path)
    with open_store(settings) as store, open_store(settings.for_reads()) as replica:
        before = waits(store)
        for n in range(3):
            store.run("CREATE (:Item {n: $n})", {"n": n})
        assert waits(store) - before == 3  # one per statement outside a block
        before = waits(store)
        with store.acknowledged_together():
            for n in range(3, 8):
                store.run("CREATE (:Item {n: $n})", {"n": n})
            assert waits(store) == before
        assert waits(store) - before == 1
        assert count(replica) == 8  # the end's WAIT returned: the replica holds every statement of the block
        store.delete_all()


def test_a_block_fewer_replicas_confirmed_than_asked_raises_at_its_end(pair, tmp_path):
    settings = settings_for(pair, tmp_path, replica_acks=2)  # the pair has one replica
    with open_store(settings) as store:
        with pytest.raises(StoreUnavailableError, match="What the block wrote is applied.*only 1 of 2 replicas"):
            with store.acknowledged_together():
                store.run("CREATE (:Item {n: 1})")  # returns: nothing is acknowledged before the end
                store.run("CREATE (:Item {n: 2})")
        before = waits(store)
        with pytest.raises(RuntimeError, match="the block failed"):
            with store.acknowledged_together():
                store.run("CREATE (:Item {n: 3})")
                raise RuntimeError("the block failed")
        assert waits(store) == before  # a block that raises waits for nothing
        store.delete_all()


def test_wrong_or_missing_password_is_a_clear_error(pair, tmp_path):
    with pytest.raises(StoreUnavailableError, match="refused the password.*SESSIONS_GRAPH_STORE_PASSWORD"):
        open_store(settings_for(pair, tmp_path, password="not-the-password")).run("RETURN 1")
    with pytest.raises(StoreUnavailableError, match="wants a password.*SESSIONS_GRAPH_STORE_PASSWORD"):
        open_store(settings_for(pair, tmp_path, password="")).run("RETURN 1")


def test_recall_command_reads_the_replica(pair, cli, monkeypatch, tmp_path):
    settings = settings_for(pair, tmp_path)
    for name, value in pair.env().items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("SESSIONS_GRAPH_STORE_REPLICA_ACKS", "1")
    cli("session", "import", str(EXAMPLES / "orders-2.jsonl"))
    cli("reconcile", "--pending")
    replica = open_store(settings.for_reads().replace(graph="sessions_graph"))
    assert count(replica, "Session") >= 1
    # The primary gone, recall still answers from the replica.
    os.kill(pair.primary.pid(), signal.SIGSTOP)
    try:
        output = cli("recall", "--user", "alice", "--json", "What database does the orders service use?")
    finally:
        os.kill(pair.primary.pid(), signal.SIGCONT)
    assert "CockroachDB" in output
    replica.close()


def test_killing_the_primary_loses_no_acknowledged_write(tmp_path):
    """A writer with replica_acks=1 runs while the primary is killed (SIGKILL): the writer gets a clear
    error, and every write it was told is done is on the replica, which then takes over as primary."""
    with standalone_pair() as servers:
        settings = settings_for(servers, tmp_path)
        writer = open_store(settings)
        acknowledged: list[int] = []
        failure: list[Exception] = []

        def write() -> None:
            n = 0
            while True:
                try:
                    writer.run("MERGE (i:Item {n: $n}) SET i.at = timestamp()", {"n": n})
                except StoreUnavailableError as exc:
                    failure.append(exc)
                    return
                acknowledged.append(n)
                n += 1

        thread = threading.Thread(target=write)
        thread.start()
        while len(acknowledged) < 200:
            time.sleep(0.01)
        os.kill(servers.primary.pid(), signal.SIGKILL)
        thread.join(timeout=120)
        assert not thread.is_alive()
        assert failure and "unreachable" in str(failure[0]) and "promote" in str(failure[0])

        servers.replica.promote(password=servers.password)
        promoted = open_store(settings.replace(falkordb_url=servers.replica.url, read_url=None, replica_acks=0))
        on_replica = {row["n"] for row in promoted.run("MATCH (i:Item) RETURN i.n AS n")}
        assert set(acknowledged) <= on_replica
        # The write in flight when the primary died may or may not have landed; sending it again
        # (what a retry does) leaves exactly one.
        in_flight = len(acknowledged)
        promoted.run("MERGE (i:Item {n: $n}) SET i.at = timestamp()", {"n": in_flight})
        assert promoted.run("MATCH (i:Item {n: $n}) RETURN count(i) AS c", {"n": in_flight}) == [{"c": 1}]
        assert count(promoted) == in_flight + 1
        promoted.close()
        writer.close()


def test_erasing_history_rewrites_the_primarys_and_the_replicas_log_and_no_query_is_kept(pair, tmp_path):
    """After a forget (issue 42) neither server's files hold a deleted string, and neither keeps a query
    log (FalkorDB's telemetry{graph} stream, with every query's parameters)."""
    settings = settings_for(pair, tmp_path)
    word = f"Xylofrabbit{time.monotonic_ns()}"
    folders = [pair.primary.data_dir, pair.replica.data_dir]
    with open_store(settings) as store:
        store.run("CREATE (:Item {text: $text})", {"text": f"{word} said this"})
        assert any(word.encode() in f.read_bytes() for folder in folders for f in folder.rglob("*") if f.is_file())
        store.run("MATCH (n:Item) WHERE n.text STARTS WITH $word DELETE n", {"word": word})
        erased = store.erase_history()
        assert set(erased.rewritten) == {pair.primary.address, pair.replica.address} and not erased.not_rewritten
        assert sorted(erased.directories) == sorted(str(folder) for folder in folders)
        assert not [f for folder in folders for f in folder.rglob("*") if f.is_file() and word.encode() in f.read_bytes()]
        for server in (pair.primary, pair.replica):
            connection = Connection(server.address, password=pair.password, timeout=10)
            assert connection.command("KEYS", "telemetry{*}") == []
            connection.close()
        store.delete_all()
