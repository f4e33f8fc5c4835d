"""Issue 13's sixteenth round, with the real spaCy model and the real store: a name ending in "-ing" that the
small tagger reads as a gerund ("my bank is Starling/VBG now", "switched banks to Starling/VBG") is the value
said, as any other name there is (tokens.name_read_as_verb). The sentences are our own, not the
labelled set's."""

from __future__ import annotations

import pytest
from reading_helpers import record, slots

from sessions_graph_core import SessionsGraph
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("my bank is Starling now", [("me/bank", "Starling")]),
        ("I switched banks to Starling", [("me/bank", "Starling")]),
        ("we moved our hosting to Fleming", [("@project/hosting", "Fleming")]),
        ("my sister's bank is Starling now", [("sister/bank", "Starling")]),  # hers, not mine
    ],
)
def test_a_name_read_as_a_gerund_is_the_value(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "we are testing the new checkout now",  # a verb in lower case, with its object
        "Testing is slow on the old laptop",  # a gerund that starts the sentence
    ],
)
def test_a_gerund_is_no_name(spacy: SpacyBackend, text: str) -> None:
    assert all("testing" not in (value or "").lower() for _, value in slots(spacy, text))


def test_a_change_to_a_name_in_ing_supersedes_the_old(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    record(graph, "g1", {"old": "I bank with Barclays", "new": "I switched banks to Starling"})
    for sid in ("old", "new"):
        graph.reconcile_session(sid, backend=spacy)
    held = [(x.value, [text.rstrip(".").lower() for text in x.replaced])
            for x in graph.current_facts("g1", "me") if x.slot == "me/bank"]
    assert held == [("Starling", ["i bank with barclays"])]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I bank with Barclays", "my brother's bank is Starling now"),  # another's bank
        ("my bank is Starling", "my bank is still Starling"),  # a restatement
    ],
)
def test_what_is_not_a_change_supersedes_nothing(graph: SessionsGraph, spacy: SpacyBackend, old: str, new: str) -> None:
    record(graph, "g2", {"old": old, "new": new})
    for sid in ("old", "new"):
        graph.reconcile_session(sid, backend=spacy)
    held = [x.replaced for x in graph.current_facts("g2", "me") if x.slot == "me/bank"]
    assert len(held) == 1 and held[0] == []
