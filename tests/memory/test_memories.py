import uuid

import pytest
from conftest import snapshot

from sessions_graph_core.validation import ValidationError


def test_save_and_read_back(graph):
    saved = graph.save_memory("alice", "Prefers Python over TypeScript", session_id="s-abc123")
    assert saved.path == f"/memories/notes/{saved.memory_id}.md"
    assert saved.created_at == saved.updated_at
    [listed] = graph.get_memories("alice")
    assert listed.content == "Prefers Python over TypeScript"
    assert listed.session_id == "s-abc123"
    assert [m.memory_id for m in graph.get_memories_for_session("s-abc123")] == [saved.memory_id]
    rows = graph.store.run(
        "MATCH (u:User {user_id: 'alice'})-[:HAD_SESSION]->(s:Session)-[:PRODUCED_MEMORY]->(m:Memory) "
        "MATCH (u)-[:HAS_MEMORY]->(m) RETURN s.session_id AS sid, m.extraction_status AS status"
    )
    assert rows == [{"sid": "s-abc123", "status": "pending"}]


def test_memories_newest_first(graph):
    first = graph.save_memory("alice", "one")
    second = graph.save_memory("alice", "two")
    assert [m.memory_id for m in graph.get_memories("alice")] == [second.memory_id, first.memory_id]


def test_project_link(graph):
    graph.save_memory("alice", "orders notes", path="/memories/projects/orders/db/notes.md")
    graph.save_memory("alice", "not a project file", path="/memories/projects/readme.md")
    rows = graph.store.run("MATCH (m:Memory)-[:ABOUT]->(p:Project) RETURN m.path AS path, p.key AS key")
    assert rows == [{"path": "/memories/projects/orders/db/notes.md", "key": "orders"}]


def test_search_ranks_and_scopes_to_the_user(graph):
    graph.save_memory("alice", "The orders service uses Postgres for orders and more orders")
    graph.save_memory("alice", "Lunch is at noon")
    graph.save_memory("alice", "orders are shipped by the warehouse")
    graph.save_memory("bob", "bob's orders live in Postgres too")
    found = graph.search_memories("alice", "orders postgres")
    assert [m.user_id for m in found] == ["alice", "alice"]
    assert found[0].content.startswith("The orders service")
    assert graph.search_memories("alice", "orders", limit=1)[0].user_id == "alice"
    assert graph.search_memories("carol", "orders") == []


def test_search_finds_stemmed_words(graph):
    graph.save_memory("alice", "We deployed the services yesterday")
    assert len(graph.search_memories("alice", "deploy service")) == 1


@pytest.mark.parametrize(
    "query",
    ['"unterminated', "@user_key:*", "a | b -c ~d", "(((", "%fuzz%", "*", "user_id:bob", "é ñ 漢字", "", "   ", "\\", "{}[]:;'"],
)
def test_any_text_is_a_safe_query(graph, query):
    graph.save_memory("alice", "plain text about orders")
    graph.save_memory("bob", "secret of bob")
    found = graph.search_memories("alice", query)
    assert all(m.user_id == "alice" for m in found)


def test_update_keeps_the_old_text_as_a_version(graph):
    saved = graph.save_memory("alice", "first text")
    updated = graph.update_memory(saved.memory_id, "second text")
    assert updated.content == "second text" and updated.updated_at > saved.updated_at
    rows = graph.store.run("MATCH (m:Memory)-[:PREVIOUS_VERSION]->(v:MemoryVersion) RETURN v.content AS c")
    assert rows == [{"c": "first text"}]
    assert graph.update_memory("missing", "x") is None


def test_delete_keeps_a_deleted_version(graph):
    saved = graph.save_memory("alice", "to be deleted")
    assert graph.delete_memory(saved.memory_id)
    assert graph.get_memories("alice") == []
    rows = graph.store.run("MATCH (:User {user_id: 'alice'})-[:HAS_MEMORY_VERSION]->(v) RETURN v.content AS c, v.deleted AS d")
    assert rows == [{"c": "to be deleted", "d": True}]
    assert not graph.delete_memory(saved.memory_id)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"user_id": "bad user", "content": "x"}, "user_id"),
        ({"user_id": "alice", "content": "   "}, "non-empty"),
        ({"user_id": "alice", "content": "x", "path": "/memories/../etc/passwd"}, "escape"),
        ({"user_id": "alice", "content": "x", "path": "/etc/passwd"}, "start with /memories"),
        ({"user_id": "alice", "content": "x", "path": "/memories"}, "directory"),
        ({"user_id": "alice", "content": "x", "session_id": "bad\x00id"}, "control"),
    ],
)
def test_bad_input_changes_nothing(graph, kwargs, message):
    graph.save_memory("alice", "existing", path="/memories/a.md")
    before = snapshot(graph.store)
    with pytest.raises(ValidationError, match=message):
        graph.save_memory(**kwargs)
    assert snapshot(graph.store) == before


def test_conflicts_are_refused_without_changes(graph):
    graph.save_memory("alice", "existing", path="/memories/a.md", session_id="s-alice")
    before = snapshot(graph.store)
    with pytest.raises(ValidationError, match="already exists for user"):
        graph.save_memory("alice", "again", path="/memories//a.md")
    with pytest.raises(ValidationError, match="another user"):
        graph.save_memory("bob", "hijack", session_id="s-alice")
    assert snapshot(graph.store) == before
    # the same path for another user is fine
    graph.save_memory("bob", "bob's own", path="/memories/a.md")


def test_another_users_memory_id_answers_as_a_missing_one_and_cannot_be_picked(graph):
    alice = graph.save_memory("alice", "alice's note", path="/memories/a.md")
    before = snapshot(graph.store)
    for memory_id in (alice.memory_id, uuid.uuid4().hex):  # alice's, and one nobody holds
        assert graph.get_memory(memory_id, user_id="bob") is None
        assert graph.update_memory(memory_id, "bob's text", user_id="bob") is None
        assert graph.delete_memory(memory_id, user_id="bob") is False
    with pytest.raises(TypeError, match="memory_id"):  # picking an id would tell bob whether alice holds it
        graph.save_memory("bob", "bob's note", memory_id=alice.memory_id)
    assert snapshot(graph.store) == before
    assert graph.save_memory("bob", "bob's note", path="/memories/a.md").memory_id != alice.memory_id


def test_setup_is_idempotent_and_drop_removes_indexes(graph):
    def indexes():
        return sorted(repr(row) for row in graph.store.run("CALL db.indexes() YIELD label, properties RETURN label, properties"))

    first = indexes()
    graph.setup()
    assert indexes() == first
    assert any("Memory" in row for row in first)
    graph.drop()
    assert indexes() == []
    graph.setup()
    assert indexes() == first
