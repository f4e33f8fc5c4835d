"""Issue 13's fifteenth round, with the real spaCy model and the real store: the old statement of a state,
said as chat says it, fills its slot.

- A contracted "is" the small parser read as a possessive ("Manchester's where I live", "energy's with
  Octopus", "the backend's written in ruby"): a sentence with no verb whose "'s" no noun follows is read again
  with "is" said in full (extraction/spacy._with_is).
- A note with a colon ("bank: Monzo"): a verbless noun an attribute names, a colon and a value beside it, is
  read as "bank is Monzo" (extraction/spacy._with_colon).
- A role's listed phrase said with "be" ("Tom's in charge of the billing service", "Ana is responsible for the
  wiki"): attributes.toml lists them as inverse verbs, which no copula read (reading/copula.Copulas.role_said).
- A thing said bare after "for", words of its own kind before it ("we use vimeo for product demos"), names
  the slot, as "for dashboards" did (reading/transitions.Transitions.role_for).
- A home said as what it is and where ("home is a little flat in Leeds"): the place the thing is in is the
  home's, as "moved into a flat in San Jose" already read (reading/values.Values.place_in).
The sentences are our own, not the labelled set's."""

from __future__ import annotations

import pytest
from reading_helpers import record, slots

from sessions_graph_core import SessionsGraph
from sessions_graph_core.ontology.model import DEFAULT_MODEL
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend, _with_colon, _with_is
from sessions_graph_core.reconcile.lexicon import lexicon
from sessions_graph_core.reconcile.nlp import spacy_pipeline


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Valencia's where I live", [("me/location", "Valencia")]),
        ("the frontend's written in elm", [("frontend/language", "elm")]),
        ("Render's our host for the API", [("api/hosting", "Render")]),
        ("Kim's our manager now", [("@project/manager", "Kim")]),
    ],
)
def test_a_contracted_is_is_read_as_is(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Tom's car is red.",  # a possessive with its noun, and the sentence has its verb
        "Dana's laptop",  # a possessive with its noun, no verb
        "the kids' school is Oakfield Primary",  # the plural possessive, with its verb
    ],
)
def test_a_possessive_is_not_read_again(text: str) -> None:
    assert _with_is(spacy_pipeline()(text)) == []


def test_the_reading_keeps_the_words_as_said(spacy: SpacyBackend) -> None:
    facts = [f for f in spacy.extract(["Valencia's where I live"], DEFAULT_MODEL)[0].facts if f.slot]
    assert [f.text for f in facts] == ["Valencia's where I live"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("bank: Nationwide", [("me/bank", "Nationwide")]),
        ("dentist: Dr. Osei", [("me/dentist", "Dr. Osei")]),
        ("ci: buildkite", [("@project/ci", "buildkite")]),
    ],
)
def test_a_note_with_a_colon_names_the_value(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize("text", ["Note: Nationwide", "Tip: Postgres", "We moved: Porto is home."])
def test_a_colon_after_no_attribute_or_after_a_verb_is_no_note(text: str) -> None:
    assert _with_colon(spacy_pipeline()(text), lexicon()) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Tom's in charge of the payments service", [("payments service/owner", "Tom")]),
        ("Ana is responsible for the wiki", [("wiki/owner", "Ana")]),
        ("Tom is no longer in charge of billing", [("billing/owner", "")]),
    ],
)
def test_a_role_said_with_be_is_the_role(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize("text", ["Tom is in the office", "Bob is in charge", "I'm responsible"])
def test_be_with_no_role_phrase_and_its_object_is_no_role(spacy: SpacyBackend, text: str) -> None:
    assert slots(spacy, text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("home is a little flat in Ghent", [("me/location", "Ghent")]),
        ("my home is a houseboat in Utrecht these days", [("me/location", "Utrecht")]),
        ("my sister's home is a flat in Leeds", [("sister/location", "Leeds")]),  # hers, not mine
    ],
)
def test_a_home_said_as_what_it_is_and_where_is_the_place(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


def test_a_home_said_as_what_it_is_with_no_place_is_no_home(spacy: SpacyBackend) -> None:
    assert slots(spacy, "home is a little flat") == []


@pytest.mark.parametrize("order", [("old", "new"), ("new", "old")])
@pytest.mark.parametrize(
    ("old", "new", "slot", "subject", "now"),
    [
        ("Valencia's where I live", "I live in Seville now", "me/location", "me", "Seville"),
        ("bank: Nationwide", "I bank with Starling now", "me/bank", "me", "Starling"),
        ("home is a little flat in Ghent", "we moved to Antwerp last month", "me/location", "me", "Antwerp"),
        ("Tom's in charge of the payments service", "Priya owns the payments service now",
         "payments service/owner", "payments service", "Priya"),
    ],
)
def test_the_plain_old_statement_is_superseded(graph: SessionsGraph, spacy: SpacyBackend, order: tuple, old: str,
                                               new: str, slot: str, subject: str, now: str) -> None:
    record(graph, "sp1", {"old": old, "new": new})
    for sid in order:
        graph.reconcile_session(sid, backend=spacy)
    held = [(x.value, [text.rstrip(".").lower() for text in x.replaced])
            for x in graph.current_facts("sp1", subject) if x.slot == slot]
    assert held == [(now, [old.lower()])]  # the stored text is the sentence as the store writes it


@pytest.mark.parametrize(
    ("old", "new", "subject", "slot"),
    [
        ("Tom's in charge of the payments service", "Tom's also in charge of the search service",
         "payments service", "payments service/owner"),  # a second service of one owner
        ("Valencia's where I live", "my sister's where the kids are", "me", "me/location"),  # no place of mine
        ("bank: Nationwide", "my brother banks with Barclays", "me", "me/bank"),  # another's bank
        ("home is a little flat in Ghent", "my parents' home is a farm in Bruges", "me", "me/location"),  # theirs
    ],
)
def test_what_is_not_a_change_supersedes_nothing(graph: SessionsGraph, spacy: SpacyBackend, old: str, new: str,
                                                 subject: str, slot: str) -> None:
    record(graph, "sp2", {"old": old, "new": new})
    for sid in ("old", "new"):
        graph.reconcile_session(sid, backend=spacy)
    held = [(x.value, x.replaced) for x in graph.current_facts("sp2", subject) if x.slot == slot]
    assert len(held) == 1 and held[0][1] == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("we use vimeo for product demos", [("@project/product demos", "vimeo")]),
        ("we use Grafana for dashboards", [("@project/dashboards", "Grafana")]),
        ("we use Postgres for the orders service", [("orders service/database", "Postgres")]),  # a thing of ours
    ],
)
def test_a_thing_said_bare_after_for_names_the_slot(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected
