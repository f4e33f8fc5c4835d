"""Who a statement is about, and which slot it fills (issue 38, item 3), with the real spaCy model and store.

A slot is filled only where the clause says what that slot holds, not where one of its words merely appears,
and a slot's holder is someone or something named: never a lead-in ("FYI"), the "me" of a request ("Help me
write ..."), a count or a rank ("All three", "the other machine", "a second job"), a word that only describes
("the shared database" is no database of "shared"), nor, for a job or an employer, a thing. A wrong slot is
worse than no slot: it can supersede a true current value. The sentences are our own, written for these tests.
"""

from __future__ import annotations

import pytest
from reading_helpers import reconciled, slots

from sessions_graph_core import SessionsGraph
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a lead-in with no mark after it, before a subject the parser would take it into
        ("FYI the booking backend, which Marco wrote in 2019, runs on a single Heroku dyno.",
         [("booking backend/hosting", "single Heroku dyno")]),
        ("fyi I've gone fully vegan since january", [("me/diet", "vegan")]),
        ("btw I relocated to Porto in May.", [("me/location", "Porto")]),
    ],
)
def test_a_lead_in_is_never_the_holder(spacy: SpacyBackend, text: str, expected: list[tuple[str, str]]) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Help me write the email to Anna.",
        "Can you help me write the email to the client?",
        "Let me write the email to Anna.",
        "Make me leave firebase alone for now.",
    ],
)
def test_a_request_is_no_statement_of_the_speaker(spacy: SpacyBackend, text: str) -> None:
    assert slots(spacy, text) == []


@pytest.mark.parametrize(
    "text",
    [
        "I agreed, keep Riverpod.",  # the value is keeping's, not agreeing's
        "I agreed to keep Riverpod.",  # near "I stay in something" by the embedder, but no verb of a home
        "The enologist was not pleased.",  # an adjective is no job
        "The certificate was about to expire.",
        "I ran the full flow with the test number; it goes pending.",
        "people can join a waitlist",  # a waitlist is no employer, people no one holder
        "The query joins cook_log to get the latest date.",  # a query has no employer
        "Longer term, each job starts on a clean machine.",
        "My partner will join the trip.",  # one joins a trip, not an employer
        "Quinta do Vale replied this morning. Her name is Helena.",  # Helena is no name of the company's
        "For a project with four test files the switch is maybe twenty minutes.",  # how long, not when
        "All three are quick.",  # a count holds nothing, and an adjective is no CDN by its letters
        "Until I'm back in december.",  # when one is somewhere is no event's time
        "Links with the same target are deduplicated (the first one wins).",  # a word that describes is no name
        "The new hook isn't executable.",
        "A build error is silently lost.",  # lost, not parted with: no one's ownership ends
        "Windows to be a supported platform.",  # "supported" describes the platform, and holds none
        "The other machine will get it on pull.",
        "The image build can be a second job that depends on test.",
    ],
)
def test_no_slot_from_a_word_that_merely_appears(spacy: SpacyBackend, text: str) -> None:
    assert slots(spacy, text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I joined Stripe last week.", [("me/employer", "Stripe")]),
        ("I'm gonna stay in Galway.", [("me/location", "Galway")]),
        ("I moved again, this time to Braga", [("me/location", "Braga")]),
        ("I'm a nurse now.", [("me/occupation", "nurse")]),
        ("My brother works as a nurse.", [("my brother/occupation", "nurse")]),
        ("Retros are on Thursdays.", [("retro/schedule", "Thursdays")]),
        ("Standup is at 9:30 now.", [("standup/schedule", "9:30")]),
        ("Logs go to Papertrail.", [("@project/logs", "Papertrail")]),
        ("tasks live in clickup now", [("tasks/issue tracker", "clickup")]),
        ("The shared database is Postgres.", [("@project/database", "Postgres")]),  # not "shared"'s database
        ("I own a 2015 Honda Civic.", [("2015 honda civic/owner", "me")]),  # a year starts a name, counts nothing
        ("My partner's name is Priya.", [("partner/name", "Priya")]),
    ],
)
def test_what_the_slot_accepts_still_fills_it(spacy: SpacyBackend, text: str, expected: list[tuple[str, str]]) -> None:
    assert slots(spacy, text) == expected


def test_a_keyword_after_a_move_does_not_supersede_the_home(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    texts = {"home": "I live in Lisbon.", "agreed": "I agreed, keep Riverpod."}
    assert reconciled(graph, spacy, "keeps-home", texts, ("home", "agreed")) == []
    rows = graph.store.run(
        "MATCH (f:Fact {user_id: $user}) WHERE f.slot = 'me/location' RETURN f.value AS value", {"user": "keeps-home"}
    )
    assert [row["value"] for row in rows] == ["Lisbon"]
