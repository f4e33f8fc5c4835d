"""Exact forgetting of sessions and memory files, and memory-file reconciliation."""

from __future__ import annotations

from conftest import snapshot
from seed002 import USER, FakeApi, backend, record_session
from test_reconcile import stable
from test_reconcile_llm import SEED_CURRENT_AFTER_1, current_table

from sessions_graph_core import SessionsGraph


def test_forgetting_session_2_restores_the_state_after_session_1(graph: SessionsGraph) -> None:
    llm = backend("anthropic", FakeApi())
    graph.reconcile_session(record_session(graph, 0), backend=llm)
    after_1 = stable(snapshot(graph.store))
    graph.reconcile_session(record_session(graph, 1), backend=llm)

    forgotten = graph.forget_session(USER, "session-2")
    assert forgotten.facts == 2 and forgotten.entities == 2  # Carol and CockroachDB; Postgres and Alice stay
    assert current_table(graph) == SEED_CURRENT_AFTER_1
    assert stable(snapshot(graph.store)) == after_1  # session 2, its turns and its id are gone too
    assert graph.get_session("session-2") is None


def test_forgetting_keeps_what_another_session_still_backs(graph: SessionsGraph) -> None:
    llm = backend("openai", FakeApi())
    graph.reconcile_session(record_session(graph, 0), backend=llm)
    graph.reconcile_session(record_session(graph, 0, session_id="session-again"), backend=llm)
    before = {(x.text, x.session_id) for x in graph.current_facts(USER, "orders service")}
    forgotten = graph.forget_session(USER, "session-1")
    assert forgotten.facts == 0 and forgotten.entities == 0 and forgotten.chunks == 0
    assert {x.text for x in graph.current_facts(USER, "orders service")} == {text for text, _ in before}
    assert graph.sessions_mentioning(USER, "orders service") == ["session-again"]
    # Now nothing backs them: everything derived goes.
    graph.forget_session(USER, "session-again")
    left = graph.store.run("MATCH (n) WHERE n:Fact OR n:Entity OR n:Chunk RETURN count(n) AS n")
    assert left[0]["n"] == 0


def test_forget_then_reconcile_again_gives_the_same_graph(graph: SessionsGraph) -> None:
    llm = backend("anthropic", FakeApi())
    graph.reconcile_session(record_session(graph, 0), backend=llm)
    graph.reconcile_session(record_session(graph, 1), backend=llm)
    whole = stable(snapshot(graph.store))
    graph.forget_session(USER, "session-1")
    graph.reconcile_session(record_session(graph, 0), backend=llm)  # the same session imported again
    assert stable(snapshot(graph.store)) == whole


MEMORY_TEXT = "Alice owns the orders service.\n\nWe'll use Postgres as the orders service database, because the team already runs Postgres in production."


def test_memory_file_reconciled_then_edited_then_deleted(graph: SessionsGraph) -> None:
    memory = graph.save_memory(USER, MEMORY_TEXT, path="/memories/projects/orders/notes.md")
    result = graph.reconcile_memory(memory.memory_id)
    assert result.status == "completed" and result.chunks == 1
    assert graph.get_pending_memories() == []
    texts = {x.text for x in graph.current_facts(USER, "orders service")}
    assert "Alice owns the orders service." in texts

    graph.update_memory(memory.memory_id, "Carol owns the billing service.")
    assert graph.get_pending_memories() == [memory.memory_id]
    graph.reconcile_memory(memory.memory_id)
    assert graph.current_facts(USER, "orders service") == []
    assert [x.text for x in graph.current_facts(USER, "billing service")] == ["Carol owns the billing service."]
    assert not graph.store.run("MATCH (n:Entity {name_key: 'postgres'}) RETURN n")

    graph.delete_memory(memory.memory_id)
    left = graph.store.run("MATCH (n) WHERE n:Fact OR n:Entity OR n:Chunk RETURN count(n) AS n")
    assert left[0]["n"] == 0


def test_memory_and_session_share_an_entity_and_forgetting_one_keeps_it(graph: SessionsGraph) -> None:
    graph.reconcile_session(record_session(graph, 0), backend=backend("anthropic", FakeApi()))
    memory = graph.save_memory(USER, "Alice owns the orders service.")
    graph.reconcile_memory(memory.memory_id)
    graph.forget_memory(USER, memory.memory_id)
    assert "Alice owns the orders service." in {x.text for x in graph.current_facts(USER, "orders service")}
    assert graph.store.run("MATCH (n:Entity {name_key: 'alice'}) RETURN count(n) AS n")[0]["n"] >= 1


def test_forgetting_after_the_file_node_is_gone_still_cleans_up(graph: SessionsGraph) -> None:
    memory = graph.save_memory(USER, MEMORY_TEXT)
    graph.reconcile_memory(memory.memory_id)
    graph.store.run("MATCH (m:Memory {memory_id: $m}) DETACH DELETE m", {"m": memory.memory_id})
    graph.forget_memory(USER, memory.memory_id)
    left = graph.store.run("MATCH (n) WHERE n:Fact OR n:Entity OR n:Chunk RETURN count(n) AS n")
    assert left[0]["n"] == 0


def test_missing_memory_is_reported_not_raised(graph: SessionsGraph) -> None:
    result = graph.reconcile_memory("no-such-memory")
    assert result.status == "failed" and result.error == "no such memory"


def test_a_name_only_the_forgotten_file_used_goes_even_when_another_file_backs_the_fact(graph: SessionsGraph) -> None:
    from test_forget_everything import leaks

    forgotten_file = graph.save_memory(USER, "The orders service database is PostgreSQL.", path="/memories/a.md")
    kept_file = graph.save_memory(USER, "The orders service database is Postgres.", path="/memories/b.md")
    for memory in (forgotten_file, kept_file):
        graph.reconcile_memory(memory.memory_id)
    assert leaks(graph, {"PostgreSQL"})  # one fact, worded by the first file, about an entity only it named

    forgotten = graph.forget_memory_path(USER, "/memories/a.md")
    assert forgotten.entities == 1 and forgotten.reread == 1
    assert leaks(graph, {"PostgreSQL"}) == []
    assert graph.get_pending_memories() == [kept_file.memory_id]  # read again, the fact comes back in its words
    graph.reconcile_memory(kept_file.memory_id)
    assert {x.text for x in graph.current_facts(USER, "orders service")} == {"The orders service database is Postgres."}


def test_a_session_that_backs_a_fact_the_forgotten_one_worded_is_read_again_and_words_it_itself(graph: SessionsGraph) -> None:
    from test_forget_everything import leaks

    for sid, said in (("worded-here", "The orders service database is PostgreSQL."),
                      ("said-too", "The orders service database is Postgres.")):
        graph.record_session_start(sid, user_id=USER)
        graph.record_turns(sid, [{"role": "user", "text": said}], user_id=USER)
        assert graph.reconcile_session(sid).status == "completed"

    forgotten = graph.forget_session(USER, "worded-here")
    assert forgotten.reread == 1 and leaks(graph, {"PostgreSQL"}) == []
    assert graph.get_pending_reconciliation_sessions() == ["said-too"]
    assert graph.reconcile_session("said-too").status == "completed"
    assert {x.text for x in graph.current_facts(USER, "orders service")} == {"The orders service database is Postgres."}
