"""Two statements that ask one question in different words share a slot (reconcile/questions.py), on the
real store with the real spaCy model, in either order of reconciling."""

from __future__ import annotations

import pytest

from sessions_graph_core import SessionsGraph
from sessions_graph_core.embeddings.models import VectorCache
from sessions_graph_core.reconcile import questions
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend
from sessions_graph_core.text import WORDS_CACHED
from tests.reconcile.reading_helpers import reconciled


@pytest.mark.parametrize("order", [("a", "b"), ("b", "a")])
@pytest.mark.parametrize(
    ("old", "new", "values"),
    [
        # "bugs" and "issues" only name what an issue tracker holds: both are the project's issue tracker.
        ("We track issues in Jira.", "bugs get filed in Linear now", ("Jira", "Linear")),
        ("We track bugs in Jira.", "our bug tracker is Linear now", ("Jira", "Linear")),
        # "broadband" is one of the internet provider's own nouns: my internet provider, said another way.
        ("My internet provider is Virgin Media.", "our broadband comes from BT now", ("Virgin Media", "BT")),
    ],
)
def test_a_holder_that_only_names_the_attribute_is_the_speakers_slot(
    graph: SessionsGraph, spacy: SpacyBackend, old: str, new: str, values: tuple[str, str], order: tuple[str, str]
) -> None:
    user = f"q1-{order[0]}-{values[1]}"
    assert reconciled(graph, spacy, user, {"a": old, "b": new}, order) == [values]


def test_a_retried_reconcile_supersedes_once(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    assert reconciled(graph, spacy, "q2", {"a": "We track issues in Jira.", "b": "bugs get filed in Linear now"}, ("b", "a", "b", "a")) == [("Jira", "Linear")]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Our database is MySQL.", "the analytics team keeps their data in BigQuery now"),  # someone else's data
        ("Our staging environment runs on DigitalOcean.", "production runs on AWS now"),  # a holder of its own
        ("I use Gmail for email.", "our email is on Google Workspace now"),  # mine and the project's: two subjects
    ],
)
def test_holders_that_name_something_else_stay_apart(graph: SessionsGraph, spacy: SpacyBackend, old: str, new: str) -> None:
    assert reconciled(graph, spacy, "q3", {"a": old, "b": new}, ("b", "a")) == []


@pytest.mark.parametrize("order", [("a", "b"), ("b", "a")])
def test_a_clause_in_no_slot_that_names_the_speakers_attribute_answers_that_slot(
    graph: SessionsGraph, spacy: SpacyBackend, order: tuple[str, str]
) -> None:
    # "switched insurers, i'm with admiral now" fills no slot; "insurers" names my insurance (by the embedder).
    user = f"q4-{order[0]}"
    assert reconciled(graph, spacy, user, {"a": "my insurance is with aviva", "b": "switched insurers, i'm with admiral now"}, order) == [("aviva", "admiral")]


def test_a_clause_in_no_slot_is_adopted_once_when_reconciled_again(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    assert reconciled(graph, spacy, "q5", {"a": "my insurance is with aviva", "b": "switched insurers, i'm with admiral now"}, ("b", "a", "b", "a")) == [("aviva", "admiral")]
    # Answered: no slotted statement keeps the question it asked while it waited.
    asking = graph.store.run(
        "MATCH (f:Fact {user_id: $user}) WHERE f.asked_holder IS NOT NULL RETURN f.slot AS slot", {"user": "q5"})
    assert all("/" not in row["slot"] for row in asking)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I speak Spanish.", "I'm learning Portuguese now"),  # one more language, no slot named
        ("I live in Leeds.", "I'm working from a cafe in Sintra now"),  # names no attribute of mine
        ("My insurance is with Aviva.", "I also got pet insurance with Admiral"),  # one more of a kind
    ],
)
def test_clauses_in_no_slot_that_ask_no_question_of_mine_stay_apart(
    graph: SessionsGraph, spacy: SpacyBackend, old: str, new: str
) -> None:
    assert reconciled(graph, spacy, "q6", {"a": old, "b": new}, ("b", "a")) == []


@pytest.mark.parametrize("order", [("a", "b"), ("b", "a")])
@pytest.mark.parametrize(
    ("old", "new", "values"),
    [
        # "everyday phone" names my phone (an adjective before it says which one, not what).
        ("I use a OnePlus 9", "my everyday phone is an iPhone 14 now", ("OnePlus 9", "iPhone 14")),
        # No object of its own: the value is the name the clause is about.
        ("Xero handles our accounting", "we moved accounting over to QuickBooks", ("Xero", "QuickBooks")),
    ],
)
def test_one_question_said_with_other_words_of_one_speaker_is_one_slot(
    graph: SessionsGraph, spacy: SpacyBackend, old: str, new: str, values: tuple[str, str], order: tuple[str, str]
) -> None:
    user = f"q7-{order[0]}-{values[1].replace(' ', '-')}"
    assert reconciled(graph, spacy, user, {"a": old, "b": new}, order) == [values]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("My car insurance is with Direct Line.", "my home insurance is with Aviva now"),  # two kinds of insurance
        ("Our database is MySQL.", "our cache is Redis now"),  # two listed attributes
        # An attribute's word before another noun says another thing it is said of.
        ("My phone is a Pixel 7.", "my phone plan is with EE now"),
        ("My phone is a Pixel 7.", "I'm on EE for my phone plan now"),
        ("My bank is HSBC.", "my bank card is a Visa now"),
        ("Our database is Postgres.", "our database backups go to S3 now"),
        ("I drive a Honda Civic.", "my car insurance is with Admiral now"),
    ],
)
def test_two_questions_of_one_speaker_stay_apart(graph: SessionsGraph, spacy: SpacyBackend, old: str, new: str) -> None:
    assert reconciled(graph, spacy, "q8", {"a": old, "b": new}, ("b", "a")) == []


@pytest.mark.parametrize("order", [("a", "b"), ("b", "a")])
def test_a_clause_whose_subject_is_the_matter_asks_the_speakers_question(
    graph: SessionsGraph, spacy: SpacyBackend, order: tuple[str, str]
) -> None:
    # "heatmaps" is no holder of its own: it names what the project's heatmaps slot asks.
    user = f"q9-{order[0]}"
    assert reconciled(graph, spacy, user, {"a": "we're using hotjar for heatmaps", "b": "heatmaps are in clarity now"}, order) == [("hotjar", "clarity")]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I live in Leeds.", "the office moved to Canary Wharf"),  # the office names no attribute of mine
        ("Our error tracking is Sentry.", "the mobile team's crash reports are in bugsnag now"),  # someone else's
    ],
)
def test_a_clause_whose_subject_names_no_question_of_the_speaker_stays_apart(
    graph: SessionsGraph, spacy: SpacyBackend, old: str, new: str
) -> None:
    assert reconciled(graph, spacy, "q10", {"a": old, "b": new}, ("b", "a")) == []


@pytest.mark.parametrize("order", [("a", "b"), ("b", "a")])
def test_a_value_near_its_attribute_by_meaning_is_still_the_value(
    graph: SessionsGraph, spacy: SpacyBackend, order: tuple[str, str]
) -> None:
    # "t-mobile" is near "mobile carrier" by the embedder, as a carrier's name should be; only the
    # attribute's own words ("switched carriers") are no value.
    user = f"q11-{order[0]}"
    assert reconciled(graph, spacy, user, {"a": "My mobile carrier is Verizon.", "b": "switched carriers, i'm with t-mobile now"}, order) == [("Verizon", "t-mobile")]


def test_questions_answered_together_take_one_embedder_call_for_the_words_weighed(monkeypatch: pytest.MonkeyPatch) -> None:
    """answered_slots weighs every question of a batch in one embedder call, of the words it compares with an
    attribute's nouns only (not the values said, nor the nouns of a slot no question may answer), and answers
    each as it is answered alone."""
    slots = [("me/insurance", "aviva"), ("me/phone", "pixel"), ("acme/database", "mysql")]
    asked = [
        questions.Question(fact_id="a", holder="me", values=["admiral"], text="switched insurers, i'm with admiral now"),
        questions.Question(fact_id="b", holder="me", values=["Lisbon"], text="spent the weekend hiking near Lisbon"),
        questions.Question(fact_id="c", holder="me", values=["Kraken"], text="changed energy suppliers to Kraken"),
    ]
    speakers = {"me", "acme"}
    alone = [questions.answered_slots([question], slots, speakers)[0] for question in asked]
    assert alone[0] == ("me/insurance", "admiral") and alone[1] is None
    calls: list[list[str]] = []
    embedded = questions._embedded
    monkeypatch.setattr(questions, "_VECTORS", VectorCache(WORDS_CACHED))  # nothing embedded yet
    monkeypatch.setattr(questions, "_embedded", lambda words: calls.append(list(words)) or embedded(words))
    assert questions.answered_slots(asked, slots, speakers) == alone
    assert len(calls) == 1
    # The words that may name my two attributes, and those attributes' nouns: not the values said, not
    # "weekend" or "hiking" (each said of the word after it: "weekend hiking", "hiking near"), not the nouns of
    # the project's database, which no question here asks of.
    assert set(calls[0]) == {"insurers", "spent", "near", "suppliers", "insurance", "handset", "mobile", "phone", "smartphone"}
