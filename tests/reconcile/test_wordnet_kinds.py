"""Issue 13's tenth round, with WordNet, the real spaCy model and the real store: what a word means places
a value the lists and the embedder do not. attributes.toml declares an attribute's kinds as WordNet senses
("city.n.01", "worker.n.01"); a value whose most frequent sense climbs to one is of that attribute ("a
welder", "a sous chef" by its head "chef", "utrecht" typed in lower case). A job word WordNet does not
know ("barista") is read by the embedder's margin alone; two words of no attribute that WordNet calls
synonyms ("flat", "apartment") name one slot of their holder."""

from __future__ import annotations

import pytest
from reading_helpers import record, slots

from sessions_graph_core import SessionsGraph
from sessions_graph_core.reconcile import lexicon, senses
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend

KINDS = lexicon.lexicon().kinds


@pytest.mark.parametrize(
    ("phrase", "kind"),
    [
        ("welder", "occupation"),
        ("sous chef", "occupation"),
        ("dental hygienist", "occupation"),
        ("utrecht", "location"),
        ("Cardiff", "location"),
        ("jeep", "car"),
        ("rust", None),  # its most frequent sense is the oxide, not the language
        ("vegetarian", None),
        ("barista", None),
        ("hubspot", None),
    ],
)
def test_a_value_is_of_the_kind_its_most_frequent_sense_climbs_to(phrase: str, kind: str | None) -> None:
    assert senses.kind(phrase, KINDS.items()) == kind


def test_a_declared_sense_names_one_synset_and_an_odd_one_is_refused() -> None:
    assert senses.declared("city.n.01") is not None
    assert senses.declared("city.n.99") is None
    with pytest.raises(lexicon.AttributeFileError, match="'city' is no WordNet sense"):
        lexicon.parse_attributes("[x]\nkinds = ['city']", "my-attributes.toml")


def test_synonyms_are_one_sense_and_a_sense_under_another_is_not() -> None:
    assert senses.same_sense("flat", "apartment") and senses.same_sense("bike", "bicycle")
    assert not senses.same_sense("staging", "production")  # a staging is a (theatrical) production
    assert not senses.same_sense("frontend", "backend")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("now i'm a sous chef", [("me/occupation", "sous chef")]),
        ("I'm a welder these days", [("me/occupation", "welder")]),
        ("I became a pastry chef", [("me/occupation", "pastry chef")]),
        ("I'm a dental hygienist now", [("me/occupation", "dental hygienist")]),
        ("i'm a barista", [("me/occupation", "barista")]),  # no WordNet word: the embedder leans to a job
        ("we moved to utrecht last month", [("me/location", "utrecht")]),
        ("i'm in bordeaux these days", [("me/location", "bordeaux")]),
    ],
)
def test_a_value_wordnet_places_fills_its_slot(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize("text", ["I'm a good cook", "I'm a foodie", "I'm a night owl", "I'm a gym rat"])
def test_what_one_is_that_is_no_job_fills_no_occupation(spacy: SpacyBackend, text: str) -> None:
    assert not [slot for slot, _ in slots(spacy, text) if slot.endswith("/occupation")]


@pytest.mark.parametrize("order", [("old", "new"), ("new", "old")])
@pytest.mark.parametrize(
    ("old", "new", "named", "value"),
    [
        ("I work as a barista", "now I'm a sous chef", {"me/occupation"}, "sous chef"),
        ("i live in Lyon", "we moved to utrecht last month", {"me/location"}, "utrecht"),
        # one slot, named by whichever word was reconciled first
        ("my flat is in Leith", "my apartment is in Morningside now", {"me/flat", "me/apartment"}, "Morningside"),
    ],
)
def test_a_change_wordnet_reads_supersedes_in_either_order(
    graph: SessionsGraph, spacy: SpacyBackend, order: tuple, old: str, new: str, named: set, value: str
) -> None:
    record(graph, "wk1", {"old": old, "new": new})
    for sid in order:
        assert graph.reconcile_session(sid, backend=spacy).status == "completed"
    now = [x for x in graph.current_facts("wk1", "me") if x.slot in named]
    assert [(x.value, [r.lower().rstrip(".") for r in x.replaced]) for x in now] == [(value, [old.lower()])]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I'm a welder now", "my sister is a nurse"),  # the same attribute, someone else's
        ("my flat is in Leith", "my office is in Morningside"),  # words WordNet does not call synonyms
        ("I'm a pastry chef", "I'm a good cook"),  # what one is besides one's job
    ],
)
def test_what_wordnet_reads_keeps_other_things_apart(
    graph: SessionsGraph, spacy: SpacyBackend, old: str, new: str
) -> None:
    record(graph, "wk2", {"old": old, "new": new})
    for sid in ("new", "old"):
        assert graph.reconcile_session(sid, backend=spacy).status == "completed"
    assert graph.store.run("MATCH (:Fact {user_id: 'wk2'})-[r:SUPERSEDES]->() RETURN count(r) AS n")[0]["n"] == 0
