"""Commands that take an id act only for the id's owner (issue 15, item 7)."""

from __future__ import annotations

import json

from conftest import EXAMPLES


def test_memory_delete_by_id_refuses_another_users_memory(cli):
    saved = cli("memory", "save", "--user", "alice", "--path", "/memories/a.md", "alice's secret")
    memory_id = saved.split()[1]
    cli("memory", "save", "--user", "bob", "bob's note")
    out = cli("memory", "delete", "--user", "bob", memory_id, code=1)
    assert f"no memory {memory_id} of user 'bob'" in out
    assert "alice's secret" in cli("memory", "view", "--user", "alice", "/memories/a.md")
    assert "deleted" in cli("memory", "delete", "--user", "alice", memory_id)


def test_session_show_refuses_another_users_session(cli):
    cli("session", "import", str(EXAMPLES / "orders-1.jsonl"))
    cli("memory", "save", "--user", "bob", "bob exists")
    out = cli("session", "show", "--user", "bob", "orders-1", code=1)
    assert "no session 'orders-1' of user 'bob'" in out
    assert json.loads(cli("session", "show", "--user", "alice", "--json", "orders-1"))


def test_the_library_filters_id_addressed_calls_by_the_named_user(graph):
    saved = graph.save_memory("alice", "alice's text")
    assert graph.get_memory(saved.memory_id, user_id="bob") is None
    assert graph.update_memory(saved.memory_id, "bob was here", user_id="bob") is None
    assert graph.delete_memory(saved.memory_id, user_id="bob") is False
    assert graph.get_memory(saved.memory_id, user_id="alice").content == "alice's text"


def test_the_library_reads_a_session_only_for_the_named_user(graph):
    # Issue 36.10: with user_id, another user's session reads exactly as a missing one.
    graph.record_session_start("s-bob", user_id="bob")
    graph.record_turns("s-bob", [{"role": "user", "text": "bob's words"}], user_id="bob")
    assert graph.get_session("s-bob", user_id="alice") is None is graph.get_session("s-none", user_id="alice")
    assert graph.get_turns("s-bob", user_id="alice") == [] == graph.get_turns("s-none", user_id="alice")
    assert graph.get_session("s-bob", user_id="bob").user_id == "bob"
    assert [turn.text for turn in graph.get_turns("s-bob", user_id="bob")] == ["bob's words"]
    assert graph.get_session("s-bob") is not None  # naming no user: a store-wide read, as before
