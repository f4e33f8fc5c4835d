"""Fact and entity lanes over facts written by the real reconciliation (seed 002's story).

The LLM extractor runs through the real anthropic client against a fake HTTP transport
(tests/seed002.py), the only fake: everything after the network boundary is the product's code.
"""

from __future__ import annotations

from sessions_graph_core.recall.config import RecallConfig
from tests.seed002 import USER, FakeApi, backend, record_session

FACT_LANES = RecallConfig(lanes=("entities", "facts", "user_facts"))


def story(graph):
    llm = backend("anthropic", FakeApi())
    for index in (0, 1):
        session_id = graph.reconcile_session(record_session(graph, index), backend=llm).session_id
        graph.embed_session(session_id)


def test_embedding_covers_the_sessions_entities_and_facts(graph, store):
    story(graph)
    kinds = {row["kind"]: row["n"] for row in store.run("MATCH (p:Passage) RETURN p.kind AS kind, count(p) AS n")}
    facts = store.run("MATCH (f:Fact) RETURN count(f) AS n")[0]["n"]
    entities = store.run("MATCH (e:Entity) RETURN count(e) AS n")[0]["n"]
    assert kinds["fact"] == facts > 0 and kinds["entity"] == entities > 0
    assert store.run("MATCH (f:Fact) WHERE f.embedding_model IS NULL RETURN count(f) AS n")[0]["n"] == 0


def test_current_fact_first_with_what_it_replaced(graph):
    story(graph)
    recalled = graph.recall(USER, "Who owns the orders service?", config=FACT_LANES)
    owners = [fact for fact in recalled.facts if "owner" in fact.text.lower() or "owns" in fact.text.lower()]
    assert owners, recalled.lines()
    assert all("Alice owns the orders service." != fact.text for fact in recalled.facts)
    carol = next(fact for fact in owners if "Carol" in fact.text)
    assert carol.replaced == ["Alice owns the orders service."]
    assert '(replaces: "Alice owns the orders service.")' in carol.line()
    # Every slot's current value comes before the statements in no slot, and says it is current.
    slotted = [bool(fact.slot) for fact in recalled.facts]
    assert slotted == sorted(slotted, reverse=True) and not all(slotted), recalled.lines()
    assert carol.line().startswith("FACT (current)")


def test_decisions_carry_their_rationale(graph):
    story(graph)
    recalled = graph.recall(USER, "Which database does the orders service use?", config=FACT_LANES)
    decision = next(fact for fact in recalled.facts if fact.kind == "decision")
    assert "CockroachDB" in decision.text
    assert "because: Postgres failover was too slow" in decision.line()


def test_as_of_shows_what_held_then(graph):
    story(graph)
    then = graph.recall(USER, "Who owns the orders service?", config=FACT_LANES, as_of="2026-03-10T00:00:00Z")
    texts = [fact.text for fact in then.facts]
    assert "Alice owns the orders service." in texts
    assert not any("Carol" in text for text in texts)
    assert not any("CockroachDB" in text for text in texts)


def test_fact_source_turns_join_the_turns(graph):
    story(graph)
    recalled = graph.recall(USER, "Who owns the orders service?", config=RecallConfig(lanes=("facts",)))
    assert recalled.facts and recalled.turns
    turn_ids = {turn.turn_id for turn in recalled.turns}
    assert {fact.turn for fact in recalled.facts if fact.turn} <= turn_ids
    assert all(line.startswith(("TURN [", "FACT")) for line in recalled.lines())
    assert 'FACT (current) [fact @ 2026-03-16]: "Carol owns the orders service." (replaces: ' in recalled.render()
