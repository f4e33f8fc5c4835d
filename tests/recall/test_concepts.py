"""Concept evidence (recall/concepts.py): a turn that names a kind of what the question asks about counts
for it, through WordNet's hypernyms, where the question and the turn share no word."""

from __future__ import annotations

import pytest

from sessions_graph_core.recall import concepts, fusion
from sessions_graph_core.recall.evidence import concept_words

QUESTION = "What activities does Melanie partake in?"
SPEAKERS = ("Melanie", "Caroline")


def scores_of(question: str, texts: dict[str, str], speakers) -> dict[str, float]:
    """The concept scores of turns with these texts, their words found as recall finds them."""
    return concepts.concept_scores(question, {tid: concept_words({"text": text}) for tid, text in texts.items()}, speakers)


def test_a_kind_of_activity_matches_and_a_speakers_name_does_not() -> None:
    scores = scores_of(
        QUESTION,
        {
            "swim": "I'm off to go swimming with the kids.",
            "name": "Melanie, how have you been lately?",
            "said": "Caroline said the weather was grey.",
        },
        SPEAKERS,
    )
    assert scores["swim"] == 1.0
    assert "name" not in scores and "said" not in scores


def test_a_turn_holding_the_word_itself_is_left_to_the_text_lane() -> None:
    scores = scores_of(
        "What sports does she do?",
        {
            "swim": "She went swimming.",
            "word": "The sports news is on.",
            "lunch": "We had soup for lunch.",
        },
        (),
    )
    assert set(scores) == {"swim"}


def test_a_broad_concept_weighs_less_than_a_specific_one() -> None:
    # An activity is named by all three turns, a sport by one: log(1 + 3/3) against log(1 + 3/1).
    scores = scores_of(
        "Which activities and sports?",
        {
            "swim": "She goes swimming.",
            "work": "He has a lot of work.",
            "job": "She had a job at the mill.",
        },
        (),
    )
    assert scores["swim"] == 1.0
    assert scores["work"] == scores["job"] == pytest.approx(1 / 3)


SWIMMING = "I'm off to go swimming with the kids."
# What Caroline said, one session a day: no turn shares a word with the question.
OTHERS = [
    "The invoice for the van is due on Friday.",
    "Our printer ran out of toner again.",
    "The quarterly tax form is on the desk.",
]


def test_recall_ranks_a_kind_of_activity_first_where_no_turn_shares_a_word_with_the_question(
    graph, monkeypatch
) -> None:
    said = [("Caroline", text) for text in OTHERS] + [("Melanie", SWIMMING)]
    for day, (speaker, text) in enumerate(said, start=1):
        graph.record_session_start(f"s-{day}", user_id="alice", started_at=f"2026-02-0{day}T12:00:00Z")
        graph.record_turns(
            f"s-{day}", [{"role": "user", "speaker": speaker, "text": text, "timestamp": f"2026-02-0{day}T12:00:00Z"}],
            user_id="alice",
        )
        graph.embed_session(f"s-{day}")

    def first() -> str:
        return graph.recall("alice", QUESTION).ranked_turns()[0].text

    assert first() == SWIMMING
    # The same ranker without its concept weight puts the turn the dense lane finds nearest first, though
    # Melanie said the swimming: the concept is what moves it.
    shipped = fusion.shipped_ranker()
    without = fusion.Ranker(shipped.version, {term: w for term, w in shipped.weights.items() if "concept" not in term})
    monkeypatch.setattr(fusion, "shipped_ranker", lambda: without)
    assert first() in OTHERS


@pytest.mark.parametrize("word", ["Melanie", "12", "s"])
def test_names_numbers_and_single_letters_name_no_concept(word: str) -> None:
    assert concepts.named(f"{word} went", frozenset({"melanie"})) == ["went"]


def test_a_question_asks_about_kinds_when_any_of_its_words_has_a_sense_speakers_names_or_not() -> None:
    assert concepts.asks_about_kinds(QUESTION)
    assert not concepts.asks_about_kinds("Zorblat quaxes 12?")
