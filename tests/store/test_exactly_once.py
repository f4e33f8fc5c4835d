"""Exactly-once writes: the store dies after applying a write and before its reply arrives; the
reconnect re-sends it, and the caller sees one success and one application (issue 15, item 4)."""

from __future__ import annotations

import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from crash_proxy import CrashingProxy

from sessions_graph_core import SessionsGraph
from sessions_graph_core.sessions.records import session_states
from sessions_graph_core.store.falkordb.server import EmbeddedServer
from sessions_graph_core.store.falkordb.store import FalkorDBStore


@pytest.fixture
def crash_graph() -> Iterator[tuple[SessionsGraph, EmbeddedServer]]:
    server = EmbeddedServer(tempfile.mkdtemp(prefix="sg-once-", dir="/tmp"))
    server.ensure_running()
    store = FalkorDBStore(server, graph=f"g{uuid.uuid4().hex[:8]}")
    graph = SessionsGraph(store)
    graph.setup()
    try:
        yield graph, server
    finally:
        store.close()
        server.stop()
        shutil.rmtree(server.data_dir, ignore_errors=True)


def crash_during(graph: SessionsGraph, server: EmbeddedServer, piece: str, write):
    """Run `write` with the server killed right after it applied the statement containing `piece`."""
    proxy = CrashingProxy(server)
    graph.store._connection.close()  # the next command goes through the proxy  # noqa: SLF001
    proxy.arm(piece)
    try:
        return write()
    finally:
        proxy.close()
        assert proxy.crashed.is_set(), f"no statement contained {piece!r}"
        assert Path(server.socket_path).exists()


def test_a_saved_memory_is_saved_once_and_reported_saved(crash_graph):
    graph, server = crash_graph
    saved = crash_during(graph, server, "CREATE (u)-[:HAS_MEMORY]", lambda: graph.save_memory("alice", "uses Postgres"))
    assert [m.memory_id for m in graph.get_memories("alice")] == [saved.memory_id]
    assert saved.content == "uses Postgres"


def test_memory_tool_edits_apply_once_and_report_success(crash_graph):
    graph, server = crash_graph
    files = graph.memory_store("alice")
    created = crash_during(graph, server, "MERGE (m:Memory {user_id: $user_id, path: $path})",
                           lambda: files.create("/memories/notes.md", "one\ntwo\n"))
    assert created == "File created successfully at: /memories/notes.md"
    result = crash_during(graph, server, "WHERE m.content = $expected", lambda: files.insert("/memories/notes.md", 1, "inserted"))
    assert result == "The file /memories/notes.md has been edited."
    assert files.read("/memories/notes.md") == "one\ninserted\ntwo\n"
    result = crash_during(graph, server, "WHERE m.content = $expected",
                          lambda: files.str_replace("/memories/notes.md", "two", "three"))
    assert result.startswith("The memory file has been edited.")
    assert files.read("/memories/notes.md") == "one\ninserted\nthree\n"
    assert [v.content for v in files.versions("/memories/notes.md")] == ["one\ninserted\ntwo\n", "one\ntwo\n"]


def test_a_rename_and_a_delete_apply_once_and_report_success(crash_graph):
    graph, server = crash_graph
    files = graph.memory_store("alice")
    files.create("/memories/a/notes.md", "text\n")
    result = crash_during(graph, server, "UNWIND $moves AS move", lambda: files.rename("/memories/a", "/memories/b"))
    assert result == "Successfully renamed /memories/a to /memories/b"
    assert [item.path for item in files.files()] == ["/memories/b/notes.md"]
    result = crash_during(graph, server, "DETACH DELETE m RETURN memory_id", lambda: files.delete("/memories/b"))
    assert result == "Successfully deleted /memories/b"
    assert files.files() == []
    assert [v.deleted for v in files.versions("/memories/b/notes.md")] == [True]


def test_delete_and_update_by_id_apply_once_and_report_success(crash_graph):
    graph, server = crash_graph
    saved = graph.save_memory("alice", "first")
    updated = crash_during(graph, server, "SET m.content = $content", lambda: graph.update_memory(saved.memory_id, "second"))
    assert updated is not None and updated.content == "second"
    assert [v.content for v in graph.memory_store("alice").versions(saved.path)] == ["first"]
    assert crash_during(graph, server, "DETACH DELETE m RETURN uid", lambda: graph.delete_memory(saved.memory_id)) is True
    assert graph.get_memories("alice") == []


def test_turns_are_recorded_once_and_counted_once(crash_graph):
    graph, server = crash_graph
    graph.record_session_start("s1", user_id="alice")
    added = crash_during(graph, server, "CREATE (s)-[:HAS_TURN]",
                         lambda: graph.record_turns("s1", [{"role": "user", "text": "hi"}, {"role": "assistant", "text": "yo"}], user_id="alice"))
    assert added == 2
    info = graph.get_session("s1")
    assert info is not None and info.turn_count == 2
    assert [t.text for t in graph.get_turns("s1")] == ["hi", "yo"]


def crash_twice_during(graph: SessionsGraph, server: EmbeddedServer, piece: str, write, monkeypatch):
    """Run `write` with the server killed right after it applied the statement containing `piece`, and killed
    again right after the retry, on the restarted server, applied it once more (issue 36 item 9)."""
    proxies = [CrashingProxy(server)]
    graph.store._connection.close()  # the next command goes through the proxy  # noqa: SLF001
    proxies[0].arm(piece)
    restart = server.ensure_running

    def restart_into_another_crash() -> bool:
        started = restart()
        if len(proxies) == 1:  # the retry reaches the new server through a second proxy, which kills it too
            proxies.append(CrashingProxy(server))
            proxies[1].arm(piece)
        return started

    monkeypatch.setattr(server, "ensure_running", restart_into_another_crash)
    try:
        return write()
    finally:
        for proxy in proxies:
            proxy.close()
        assert [proxy.crashed.is_set() for proxy in proxies] == [True, True], f"no second statement contained {piece!r}"


def test_a_memory_saved_while_the_server_dies_twice_is_saved_once_and_reported_saved(crash_graph, monkeypatch):
    graph, server = crash_graph
    saved = crash_twice_during(graph, server, "CREATE (u)-[:HAS_MEMORY]", lambda: graph.save_memory("alice", "uses Postgres"),
                               monkeypatch)
    assert [m.memory_id for m in graph.get_memories("alice")] == [saved.memory_id]
    assert saved.content == "uses Postgres"


def test_turns_recorded_while_the_server_dies_twice_are_recorded_once_and_counted_once(crash_graph, monkeypatch):
    graph, server = crash_graph
    graph.record_session_start("s1", user_id="alice")
    turns = [{"role": "user", "text": "hi", "turn_id": "t1"}, {"role": "assistant", "text": "yo", "turn_id": "t2"}]
    added = crash_twice_during(graph, server, "CREATE (s)-[:HAS_TURN]", lambda: graph.record_turns("s1", turns, user_id="alice"), monkeypatch)
    assert added == 2
    info = graph.get_session("s1")
    assert info is not None and info.turn_count == 2
    assert [t.text for t in graph.get_turns("s1")] == ["hi", "yo"]


def test_an_ontology_version_written_while_the_server_dies_is_written_once(crash_graph, tmp_path):
    graph, server = crash_graph
    schema = tmp_path / "schema.yaml"
    schema.write_text("entity_types:\n  - name: Service\n    description: a deployed service\n")
    version = crash_during(graph, server, "CREATE (v:OntologyVersion", lambda: graph.supply_ontology_file("alice", str(schema)))
    assert version.version == 1
    assert [v.version for v in graph.ontology_versions("alice")] == [1]


def test_a_session_ended_while_the_server_dies_moves_its_revision_once(crash_graph):
    graph, server = crash_graph
    graph.record_session_start("s1", user_id="alice")
    [before] = session_states(graph.store, ["s1"])
    assert crash_during(graph, server, "s.revision = ", lambda: graph.end_session("s1")) is True
    [after] = session_states(graph.store, ["s1"])
    assert after.revision == before.revision + 1
    assert graph.get_session("s1").reconciliation_status == "pending"
