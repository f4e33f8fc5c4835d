"""Misspelt question words: a word no turn holds and the dictionary lacks is read as the dictionary's word one
edit away that the user's turns hold, the likeliest edit first; a word a turn holds, or one only another user's
turns would fix, is not."""

from __future__ import annotations

import pytest
from recall_helpers import record

from sessions_graph_core.embeddings.models import DEFAULT_EMBEDDING_MODEL
from sessions_graph_core.recall.config import RecallConfig
from sessions_graph_core.recall.lanes import Search
from sessions_graph_core.recall.periods import mentioned_periods
from sessions_graph_core.recall.spelling import LIKELY, likelihood, one_edit, respellings
from sessions_graph_core.recall.text_lane import text_candidates
from sessions_graph_core.text import search_terms, stem

QUESTION = "Which torunament did Nate win?"
ANSWER = "Nate: I won the regional chess tournament last weekend!"
FILLER = [
    "Nate: We repainted the kitchen a pale green.",
    "Joanna: The train to the coast was late again.",
    "Nate: I finally finished the novel about the lighthouse keeper.",
    "Joanna: Our landlord says the boiler will be replaced in March.",
]
TEXT_ONLY = {"lanes": "text", "expansion_words": 0}


def query(graph, user: str, question: str) -> list[str]:
    found = text_candidates(Search(graph.store, user, question, RecallConfig(**TEXT_ONLY), DEFAULT_EMBEDDING_MODEL,
                                   None, search_terms(question), mentioned_periods(question)))
    return found.query if found is not None else []


@pytest.mark.parametrize(("typed", "meant"), [
    ("torunament", "tournament"),  # two letters swapped
    ("funraiser", "fundraiser"),  # a letter left out
    ("fesetival", "festival"),  # a letter added
    ("tournamant", "tournament"),  # a letter changed
])
def test_each_kind_of_edit_is_one_edit(typed, meant):
    assert meant in one_edit(typed)
    assert meant in respellings(typed)


def test_a_known_word_a_short_one_or_a_number_is_never_respelt():
    assert respellings("tournament") == []
    assert respellings("hikr") == []  # under five letters: too many words are one edit away
    assert respellings("2022") == []


def test_a_misspelt_word_no_turn_holds_finds_the_turn_that_holds_the_word_meant(graph):
    turns = record(graph, "alice", [ANSWER, *FILLER])
    assert set(query(graph, "alice", QUESTION)) == {stem("nate"), stem("win"), stem("tournament")}
    recalled = graph.recall("alice", QUESTION, config=RecallConfig(**TEXT_ONLY))
    assert recalled.ranked_turns()[0].turn_id == turns[ANSWER]


def test_a_word_some_turn_holds_is_kept_as_typed(graph):
    record(graph, "alice", ["Nate: The torunament poster has a typo on it.", ANSWER])
    assert stem("torunament") in query(graph, "alice", QUESTION)
    assert stem("tournament") not in query(graph, "alice", QUESTION)


def test_only_the_users_own_turns_choose_the_word_meant(graph):
    record(graph, "alice", FILLER)
    record(graph, "bob", [ANSWER])
    # Alice's turns hold no word one edit from "torunament": the word stays as typed and finds nothing.
    assert set(query(graph, "alice", QUESTION)) == {stem("nate"), stem("win"), stem("torunament")}
    assert stem("tournament") in query(graph, "bob", QUESTION)
    recalled = graph.recall("alice", QUESTION, config=RecallConfig(**TEXT_ONLY))
    assert "tournament" not in " ".join(turn.text for turn in recalled.turns)


@pytest.mark.parametrize(("typed", "meant", "likely"), [
    ("recieved", "received", True),  # two neighbours swapped
    ("funraiser", "fundraiser", True),  # a letter left out
    ("tournamrnt", "tournament", True),  # r is beside e on the keyboard
    ("tournamant", "tournament", True),  # a vowel for a vowel
    ("fesetival", "festival", True),  # e added beside s, whose key it touches
    ("recieved", "relieved", False),  # c for l: keys far apart, neither a vowel
    ("festpival", "festival", False),  # p added between t and i, far from both
])
def test_how_likely_an_edit_is(typed, meant, likely):
    assert (likelihood(typed, meant) == LIKELY) is likely


def test_the_likeliest_edit_wins_however_many_turns_hold_a_less_likely_word(graph):
    record(graph, "alice", ["Joanna: I was relieved when it ended.", "Joanna: So relieved, honestly.",
                            "Joanna: Relieved to be home.", "Joanna: We received the parcel.", *FILLER])
    assert respellings("recieved") == ["received", "relieved"]
    assert set(query(graph, "alice", "Which parcel has Joanna recieved?")) == {
        stem("parcel"), stem("joanna"), stem("received")}
    # Only what the user's turns hold is offered: without "received" in any, the less likely edit is read.
    record(graph, "bob", ["Joanna: I was relieved when it ended.", *FILLER])
    assert stem("relieved") in query(graph, "bob", "Was Joanna recieved?")


def test_of_two_equally_likely_words_the_one_more_turns_hold_wins(graph):
    record(graph, "alice", ["Nate: The wired keyboard broke.", "Nate: Such a weird day.", "Nate: A weird dream.",
                            *FILLER])
    assert respellings("wierd") == ["weird", "wired"]  # both a swap
    assert stem("weird") in query(graph, "alice", "What was wierd for Nate?")


def test_a_misspelt_stopword_is_not_read_as_a_rarer_word(graph):
    record(graph, "alice", ["Nate: The abbot of the monastery came by.", *FILLER])
    assert respellings("abuot") == []  # "about" (a swap) before "abbot" (u for b)
    assert stem("abbot") not in query(graph, "alice", "What did Nate say abuot the kitchen?")
