"""Issue 13's fourteenth round, with the real spaCy model and the real store: "I'm on Three for my phone plan".

The speaker on or with a name for a thing has that name as the thing's value, as "we use Zoom for video
calls" says (Reader.served_for): "I'm with Aviva for car insurance" is my car insurance. Not a person one is
with, nor a time ("for now", "for two weeks"). The sentences are our own, not the labelled set's."""

from __future__ import annotations

import pytest
from reading_helpers import record, slots

from sessions_graph_core import SessionsGraph
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm on Three for my phone plan now", [("me/phone plan", "Three")]),
        ("I'm with Aviva for car insurance", [("me/car insurance", "Aviva")]),
        ("I'm on Kaiser for health insurance", [("me/health insurance", "Kaiser")]),
        ("we're with Gusto for payroll now", [("@project/payroll", "Gusto")]),
        ("I'm with Monzo for banking", [("me/bank", "Monzo")]),  # a listed attribute's word
    ],
)
def test_on_a_name_for_a_thing_is_the_things_value(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I'm with Tom for the weekend",  # a person one is with
        "I'm on holiday for two weeks",  # no name, a time
        "I'm on Duolingo for Spanish",  # a language learnt, no thing of mine
    ],
)
def test_on_a_person_or_for_a_time_is_no_slot(spacy: SpacyBackend, text: str) -> None:
    assert slots(spacy, text) == []


def test_for_now_is_no_thing(spacy: SpacyBackend) -> None:
    assert slots(spacy, "we're on AWS for now") == [("@project/hosting", "AWS")]  # as "we're on AWS" says


@pytest.mark.parametrize("order", [("old", "new"), ("new", "old")])
def test_on_a_new_name_for_the_thing_supersedes_the_old(graph: SessionsGraph, spacy: SpacyBackend, order: tuple) -> None:
    record(graph, "of1", {"old": "My car insurance is with Direct Line.", "new": "I'm with Aviva for car insurance now."})
    for sid in order:
        graph.reconcile_session(sid, backend=spacy)
    now = [(x.value, x.replaced) for x in graph.current_facts("of1", "me") if x.slot == "me/car insurance"]
    assert now == [("Aviva", ["My car insurance is with Direct Line."])]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("My car insurance is with Direct Line.", "I'm with Aviva for home insurance now."),  # another thing
        ("My phone plan is with EE.", "My sister is on Three for her phone plan."),  # hers
        ("My phone plan is with EE.", "I'm still with EE for my phone plan."),  # a restatement
    ],
)
def test_on_a_name_for_a_thing_never_supersedes_what_it_does_not_change(graph: SessionsGraph, spacy: SpacyBackend,
                                                                         old: str, new: str) -> None:
    record(graph, "of2", {"old": old, "new": new})
    for sid in ("old", "new"):
        graph.reconcile_session(sid, backend=spacy)
    rows = graph.store.run("MATCH (:Fact {user_id: 'of2'})-[r:SUPERSEDES]->() RETURN count(r) AS n")
    assert rows[0]["n"] == 0
