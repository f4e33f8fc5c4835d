"""Query expansion: a turn that answers in other words is found through the user's own words nearest the
question's, and another user's words never expand a question or reach its answer."""

from __future__ import annotations

from recall_helpers import record

from sessions_graph_core.embeddings.models import DEFAULT_EMBEDDING_MODEL
from sessions_graph_core.recall import expansion
from sessions_graph_core.recall.config import RecallConfig
from sessions_graph_core.recall.lanes import Search
from sessions_graph_core.recall.periods import mentioned_periods
from sessions_graph_core.recall.text_lane import text_candidates
from sessions_graph_core.text import search_terms, stem, stems

QUESTION = "How old are the kids now?"
ANSWER = "Both children started school this autumn, the youngest is six."
FILLER = [
    "We repainted the kitchen a pale green last weekend.",
    "The train to the coast was late again on Monday.",
    "I finally finished the novel about the lighthouse keeper.",
    "Our landlord says the boiler will be replaced in March.",
    "The garden needs watering twice a day in this heat.",
    "How old is the kitchen boiler anyway?",
]
# The text lane alone, with the question embedded (expansion needs the embedder, as the vector lanes do).
TEXT_ONLY = {"lanes": "text,turns", "turns_k": 0}


def search(graph, user: str, question: str, **widths) -> Search:
    found = Search(graph.store, user, question, RecallConfig(**widths), DEFAULT_EMBEDDING_MODEL, None,
                   search_terms(question), mentioned_periods(question))
    assert found.embed_question() is None
    return found


def test_expansion_finds_a_turn_that_shares_no_word_with_the_question(graph):
    turns = record(graph, "alice", [ANSWER, *FILLER])
    assert not set(stems(QUESTION)) & set(stems(ANSWER))
    without = graph.recall("alice", QUESTION, config=RecallConfig(**TEXT_ONLY, expansion_words=0))
    assert turns[ANSWER] not in {turn.turn_id for turn in without.turns}
    recalled = graph.recall("alice", QUESTION, config=RecallConfig(**TEXT_ONLY))
    assert turns[ANSWER] in {turn.turn_id for turn in recalled.turns}
    found = text_candidates(search(graph, "alice", QUESTION, **TEXT_ONLY))
    assert stem("children") in found.expansion
    assert 0 < found.expansion[stem("children")] <= expansion.WEIGHT < 1  # weighed below a question word
    assert stem("children") not in found.idf()  # not a question word: coverage counts the question's own


def test_a_word_in_too_many_of_the_users_turns_does_not_expand(graph):
    record(graph, "alice", [ANSWER, "The children were loud.", "The children slept.", *FILLER[:2]])
    found = text_candidates(search(graph, "alice", QUESTION, **TEXT_ONLY))
    assert found is None or stem("children") not in found.expansion


def test_another_users_words_never_expand_a_question_nor_answer_it(graph):
    mine = record(graph, "alice", FILLER)
    theirs = record(graph, "bob", [ANSWER, *FILLER])
    found = text_candidates(search(graph, "alice", QUESTION, **TEXT_ONLY))
    assert found is not None  # the filler's "old" matches
    assert stem("children") not in found.expansion
    assert set(found.rows) <= set(mine.values())
    recalled = graph.recall("alice", QUESTION)
    assert {turn.turn_id for turn in recalled.turns} <= set(mine.values())
    assert not {turn.turn_id for turn in recalled.turns} & set(theirs.values())
    # Bob's question is expanded with his own words.
    assert stem("children") in text_candidates(search(graph, "bob", QUESTION, **TEXT_ONLY)).expansion


def test_one_statement_counts_each_words_turns_for_that_user_only(graph):
    record(graph, "alice", [ANSWER, *FILLER])
    record(graph, "bob", ["The children sang.", "The children slept.", "Kitchen again."])
    from sessions_graph_core.store.schema import TURN_TEXT_INDEX

    counts = graph.store.fulltext_counts(TURN_TEXT_INDEX, "alice", ["children", "kitchen", "zebra", "boiler"])
    assert counts == {"children": 1, "kitchen": 2, "boiler": 2}
    assert graph.store.fulltext_counts(TURN_TEXT_INDEX, "bob", ["children", "kitchen"]) == {"children": 2, "kitchen": 1}
