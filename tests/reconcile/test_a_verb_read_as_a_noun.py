"""Issue 13's fourteenth round, with the real spaCy model and the real store: "search runs on Typesense".

The small parser reads "<noun> runs on <name>" as one noun phrase ("search runs/NNS"), with no verb, so
nothing was read. Such a sentence, whose root is a plural noun that is a verb by which a thing is served,
is read again with the verb said plainly ("search does run on Typesense"), keeping its own words
(extraction/spacy._with_verb). The sentences are our own, not the labelled set's."""

from __future__ import annotations

import pytest
from reading_helpers import record, slots

from sessions_graph_core import SessionsGraph
from sessions_graph_core.ontology.model import DEFAULT_MODEL
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend, _with_verb
from sessions_graph_core.reconcile.lexicon import lexicon
from sessions_graph_core.reconcile.nlp import spacy_pipeline


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("billing runs on Stripe", [("billing/payments", "Stripe")]),
        ("search runs on Typesense these days", [("search/search engine", "Typesense")]),
        ("staging runs on AWS", [("staging/hosting", "AWS")]),
    ],
)
def test_a_verb_read_as_a_noun_is_read_as_the_verb(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "error logs in Datadog",  # "logs" are things here, and no verb of serving
        "ski runs in the Alps",  # no name served
        "test builds on CircleCI",  # "builds" names an attribute (CI)
    ],
)
def test_a_noun_that_is_a_noun_is_not_read_again_as_a_verb(spacy: SpacyBackend, text: str) -> None:
    assert slots(spacy, text) == []


def test_a_parsed_verb_is_not_read_again() -> None:
    assert _with_verb(spacy_pipeline()("The API runs on GCP."), lexicon()) == []


def test_the_reading_keeps_the_words_as_said(spacy: SpacyBackend) -> None:
    facts = [f for f in spacy.extract(["billing runs on Stripe"], DEFAULT_MODEL)[0].facts if f.slot]
    assert [f.text for f in facts] == ["billing runs on Stripe"]


@pytest.mark.parametrize("order", [("old", "new"), ("new", "old")])
def test_a_new_engine_said_so_supersedes_the_old(graph: SessionsGraph, spacy: SpacyBackend, order: tuple) -> None:
    record(graph, "vn1", {"old": "Our search is powered by Solr.", "new": "search runs on Meilisearch now"})
    for sid in order:
        graph.reconcile_session(sid, backend=spacy)
    now = [(x.value, x.replaced) for x in graph.current_facts("vn1", "search") if x.slot == "search/search engine"]
    assert now == [("Meilisearch", ["Our search is powered by Solr."])]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Our search is powered by Solr.", "billing runs on Stripe"),  # another thing
        ("Billing goes through Stripe.", "billing runs on Stripe"),  # a restatement
    ],
)
def test_a_verb_read_as_a_noun_never_supersedes_what_it_does_not_change(graph: SessionsGraph, spacy: SpacyBackend,
                                                                        old: str, new: str) -> None:
    record(graph, "vn2", {"old": old, "new": new})
    for sid in ("old", "new"):
        graph.reconcile_session(sid, backend=spacy)
    rows = graph.store.run("MATCH (:Fact {user_id: 'vn2'})-[r:SUPERSEDES]->() RETURN count(r) AS n")
    assert rows[0]["n"] == 0
