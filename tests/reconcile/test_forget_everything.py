"""Forgetting forgets: after `forget` no string of the session or user is left anywhere in the store
(every property of every node and edge is scanned), and what other sources back survives (issue 15, item 10)."""

from __future__ import annotations

import json

import pytest
from conftest import snapshot
from seed002 import STORY, USER, FakeApi, backend, record_session
from test_reconcile import stable

from sessions_graph_core import SessionsGraph
from sessions_graph_core.store.base import user_key
from sessions_graph_core.validation import ValidationError


def strings_in(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in strings_in(item)]
    if isinstance(value, list):
        return [text for item in value for text in strings_in(item)]
    return []


def every_string(graph: SessionsGraph) -> list[str]:
    nodes = graph.store.run("MATCH (n) RETURN properties(n) AS props")
    edges = graph.store.run("MATCH ()-[r]->() RETURN properties(r) AS props")
    return [text for row in nodes + edges for text in strings_in(row["props"])]


def leaks(graph: SessionsGraph, marks: set[str]) -> list[str]:
    return sorted({text for text in every_string(graph) for mark in marks if mark in text})


def reconciled_and_embedded(graph: SessionsGraph, *sessions: tuple[int, str, str]) -> None:
    llm = backend("anthropic", FakeApi())
    for index, session_id, user in sessions:
        record_session(graph, index, user=user, session_id=session_id)
        graph.reconcile_session(session_id, backend=llm)
        graph.embed_session(session_id)


def test_a_forgotten_session_leaves_no_string_of_its_own(graph: SessionsGraph) -> None:
    reconciled_and_embedded(graph, (0, "session-1", USER))
    after_1 = stable(snapshot(graph.store))
    reconciled_and_embedded(graph, (1, "session-2", USER))
    own_texts = {m["text"] for m in STORY["sessions"][1]["messages"]} - {m["text"] for m in STORY["sessions"][0]["messages"]}
    assert leaks(graph, {"session-2"} | own_texts)  # the scan does see them before

    forgotten = graph.forget_session(USER, "session-2")
    assert forgotten.sessions == 1 and forgotten.turns == len(STORY["sessions"][1]["messages"])
    assert forgotten.passages >= forgotten.turns
    assert leaks(graph, {"session-2"} | own_texts) == []
    assert stable(snapshot(graph.store)) == after_1  # exactly the graph before session 2 came
    recalled = json.dumps(graph.recall(USER, "which database do we use? who owns it?").to_json())
    assert "session-2" not in recalled and not [text for text in own_texts if text in recalled]
    assert graph.get_session("session-2") is None


def test_a_fact_both_sessions_back_survives_without_the_forgotten_session(graph: SessionsGraph) -> None:
    reconciled_and_embedded(graph, (0, "session-a", USER), (0, "session-b", USER))
    before = {fact.text for fact in graph.current_facts(USER, "orders service")}
    graph.forget_session(USER, "session-a")
    assert {fact.text for fact in graph.current_facts(USER, "orders service")} == before
    assert leaks(graph, {"session-a"}) == []
    graph.forget_session(USER, "session-b")
    assert graph.store.run("MATCH (n) WHERE n:Fact OR n:Entity OR n:Chunk OR n:Turn OR n:Passage RETURN count(n) AS n")[0]["n"] == 0


def test_a_forgotten_user_leaves_no_node_or_string_and_others_keep_theirs(graph: SessionsGraph) -> None:
    reconciled_and_embedded(graph, (0, "erased-1", "erased-user"), (0, "bob-1", "bob"))
    files = graph.memory_store("erased-user", session_id="erased-1")
    files.create("/memories/projects/erased-repo/notes.md", "erased keeps a secret here\n")
    files.str_replace("/memories/projects/erased-repo/notes.md", "secret", "private thing")
    bob_before = [item for item in stable(snapshot(graph.store)) if "erased" not in repr(item)]

    counts = graph.forget_user("erased-user")
    assert counts["User"] == 1 and counts["Turn"] == len(STORY["sessions"][0]["messages"]) and counts["Memory"] == 1
    assert leaks(graph, {"erased", user_key("erased-user")}) == []
    assert stable(snapshot(graph.store)) == bob_before
    assert graph.forget_user("erased-user") == {}  # again: nothing left, no error


def test_forget_memory_erases_the_file_and_its_history(graph: SessionsGraph) -> None:
    files = graph.memory_store("alice")
    files.create("/memories/diary.md", "first private line\n")
    files.str_replace("/memories/diary.md", "first", "second")
    files.create("/memories/keep.md", "keep\n")
    forgotten = graph.forget_memory_path("alice", "/memories/diary.md")
    assert (forgotten.memories, forgotten.versions) == (1, 1)
    assert leaks(graph, {"private line"}) == []
    assert [item.path for item in files.files()] == ["/memories/keep.md"]


def test_the_cli_asks_then_prints_counts_and_a_rerun_is_harmless(cli, short_tmp):
    from conftest import EXAMPLES

    cli("session", "import", str(EXAMPLES / "orders-1.jsonl"))
    cli("config", "set", "identity.user_id", "alice")  # --session and --memory fall back to it
    assert "Aborted" in cli("forget", "--session", "orders-1", code=1)  # no answer to the question: nothing
    out = cli("forget", "--session", "orders-1", "--yes")
    assert "forgot session orders-1 of user alice:" in out and "8 turns" in out and "1 sessions" in out
    assert "no session 'orders-1'" in cli("forget", "--session", "orders-1", "--yes", code=1)
    cli("memory", "create", "--user", "alice", "/memories/a.md", "text")
    assert "1 memories" in cli("forget", "--memory", "/memories/a.md", "--yes")
    assert "1 User" in cli("forget", "--user", "alice", "--yes")


def test_forgetting_another_users_session_is_refused_and_changes_nothing(cli, short_tmp) -> None:
    from conftest import EXAMPLES

    cli("session", "import", "--user", "bob", str(EXAMPLES / "orders-1.jsonl"))
    cli("config", "set", "identity.user_id", "alice")
    refused = cli("forget", "--session", "orders-1", "--yes", code=1)
    assert "no session 'orders-1' of user 'alice'" in refused
    assert "of user 'alice'" in cli("forget", "--session", "orders-1", "--user", "alice", "--yes", code=1)
    assert "forgot session orders-1 of user bob:" in cli("forget", "--session", "orders-1", "--user", "bob", "--yes")


def test_the_library_forgets_a_session_only_for_its_owner(graph: SessionsGraph) -> None:
    reconciled_and_embedded(graph, (0, "session-1", USER))
    before = stable(snapshot(graph.store))
    with pytest.raises(ValidationError, match="no session 'session-1' of user 'mallory'"):
        graph.forget_session("mallory", "session-1")
    assert stable(snapshot(graph.store)) == before
    graph.forget_session(USER, "session-1")
    with pytest.raises(ValidationError, match="no session 'session-1'"):  # already forgotten: said, not silent
        graph.forget_session(USER, "session-1")


def test_forgetting_a_user_leaves_the_projects_other_users_share(graph: SessionsGraph) -> None:
    # Issue 36.3: the sweep removed every Project no file was about, whoever's it was.
    shared = graph.memory_store("alice")
    shared.create("/memories/projects/orders/a.md", "uses Postgres")
    shared.delete("/memories/projects/orders/a.md")  # the Project stays, shared by name
    graph.memory_store("carol").create("/memories/projects/garden/c.md", "tomatoes")
    before = stable(snapshot(graph.store))
    assert graph.forget_user("nobody") == {}
    assert stable(snapshot(graph.store)) == before
    assert graph.forget_user("carol")["Project"] == 1  # her own project, about nothing any more, goes
    assert graph.store.run("MATCH (p:Project) RETURN p.key AS key") == [{"key": "orders"}]
