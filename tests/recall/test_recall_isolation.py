"""Property: recall for one user never returns another user's turns, memories, facts or entities.

Two users get histories drawn from the same small vocabulary (so every question matches both)
and the same entity names; each example runs on the real store with fresh user ids.
"""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_graph_core.recall.config import RecallConfig
from tests.seed002 import FakeApi, backend, record_session

WORDS = ["redis", "cache", "orders", "Priya", "report", "violin", "deploy", "friday", "postgres", "garden"]
sentences = st.lists(st.sampled_from(WORDS), min_size=2, max_size=6).map(" ".join)
counter = itertools.count()


def seed_user(graph, user: str, texts: list[str], memory: str) -> set[str]:
    session_id = f"{user}-s"
    graph.record_session_start(session_id, user_id=user)
    graph.record_turns(session_id, [{"role": "user" if i % 2 == 0 else "assistant", "text": t} for i, t in enumerate(texts)], user_id=user)
    graph.save_memory(user, memory, path="/memories/notes/shared-name.md")
    graph.embed_session(session_id)
    return {turn.turn_id for turn in graph.get_turns(session_id)}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    mine=st.lists(sentences, min_size=1, max_size=6),
    theirs=st.lists(sentences, min_size=1, max_size=6),
    question=sentences,
)
def test_recall_reads_only_the_asking_users_history(graph, mine, theirs, question):
    n = next(counter)
    me, other = f"me-{n}", f"other-{n}"
    my_turns = seed_user(graph, me, mine, "notes about " + " ".join(mine))
    their_turns = seed_user(graph, other, theirs, "notes about " + " ".join(theirs))
    recalled = graph.recall(me, question, config=RecallConfig(turns_k=50, text_k=50, memories_k=50))
    assert {turn.turn_id for turn in recalled.turns} <= my_turns
    assert not {turn.turn_id for turn in recalled.turns} & their_turns
    mine_memories = {m.memory_id for m in graph.get_memories(me)}
    assert {note.memory_id for note in recalled.memories} <= mine_memories
    if recalled.turns:
        assert recalled.vector_lanes_off is None


def test_entities_and_facts_shared_by_name_stay_with_their_user(graph):
    llm = backend("anthropic", FakeApi())
    # Both users tell the same story: identical entity names, slots and texts.
    for user in ("team-a", "team-b"):
        for index in (0, 1):
            session_id = record_session(graph, index, user=user, session_id=f"{user}-{index}")
            graph.reconcile_session(session_id, backend=llm)
            graph.embed_session(session_id)
    a_facts = {row["id"] for row in graph.store.run("MATCH (f:Fact {user_id: 'team-a'}) RETURN f.fact_id AS id")}
    b_facts = {row["id"] for row in graph.store.run("MATCH (f:Fact {user_id: 'team-b'}) RETURN f.fact_id AS id")}
    assert a_facts and b_facts and not a_facts & b_facts
    recalled = graph.recall("team-a", "Who owns the orders service and which database does it use?")
    assert recalled.facts and {fact.fact_id for fact in recalled.facts} <= a_facts
    assert all(turn.session_id.startswith("team-a-") for turn in recalled.turns)
