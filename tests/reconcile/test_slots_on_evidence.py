"""A slot is filled only on evidence a reader would accept (issue 38, the eleventh round), with the real spaCy
model and, for the pipeline, the real store: a statement the reader left in no slot joins one of the
speaker's slots only where its subject names the slot's attribute (reconcile/questions.py); a group the
speaker is in ("the billing team") is no attribute of theirs; a count of things is no attribute and "the
other one" no value. A wrong slot is worse than none: it supersedes a true current value. The sentences are
our own, written for these tests."""

from __future__ import annotations

import pytest
from reading_helpers import reconciled, slots

from sessions_graph_core import SessionsGraph
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # A clause about a matter names a slot by its subject, not by a word elsewhere in it.
        ("Our CI is GitHub Actions.", "The deploy script fails on every build in Jenkins."),
        # A word that only says which one is no attribute's noun ("onboarding knowledge" is no knowledge base).
        ("Our docs are in Notion.", "The onboarding knowledge is duplicated in Confluence."),
        # A subject only near an attribute in meaning is a thing of its own: a page is no pager.
        ("We use PagerDuty for paging.", "The page would crash with Opsgenie."),
        # An attribute's word before another noun says which of that thing ("insurance days").
        ("My insurance is with Aviva.", "I know Admiral from my insurance days."),
        # A word after the value says what the value holds, not which slot it answers.
        ("My insurance is with Aviva.", "I pulled a Hiscox list of insurers."),
    ],
)
def test_a_clause_in_no_slot_takes_no_slot_without_evidence(graph: SessionsGraph, spacy: SpacyBackend, old: str, new: str) -> None:
    user = "ev-" + str(abs(hash(new)))
    assert reconciled(graph, spacy, user, {"a": old, "b": new}, ("a", "b")) == []


def test_the_true_value_stays_current(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    assert reconciled(graph, spacy, "ev-keeps", {"a": "We use PagerDuty for paging.", "b": "The page would crash with Opsgenie."},
                      ("a", "b")) == []
    rows = graph.store.run(
        "MATCH (f:Fact {user_id: $user}) WHERE f.slot ENDS WITH '/incident management' AND f.superseded_at IS NULL "
        "RETURN f.value AS value", {"user": "ev-keeps"})
    assert [row["value"] for row in rows] == ["PagerDuty"]


@pytest.mark.parametrize(
    "text",
    [
        "I'm on the billing team at Harbor Logistics.",  # a team's words say which team, not my payments
        "I'm in the payments department at Acme.",
        "The two services are `@Sendable`.",  # two things, each its own: no attribute "two services"
        "Hosting is the other team.",  # "the other team" points back, and names no host
    ],
)
def test_no_slot_from_a_group_a_count_or_a_pointer(spacy: SpacyBackend, text: str) -> None:
    assert slots(spacy, text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I work on the data team at Globex.", [("me/employer", "Globex")]),
        ("Both queues are on Redis.", [("@project/message broker", "Redis")]),
    ],
)
def test_a_group_or_a_count_that_says_its_slot_still_fills_it(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected
