"""A clause that adds a value beside the one held ("we also use Grafana", "I drive a Fiat too", "as well") is
no change of a single-valued slot; a change said with "also" still is one. Real spaCy model and store; the
sentences are our own, not the labelled set's."""

from __future__ import annotations

import pytest

from sessions_graph_core import SessionsGraph
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend
from tests.reconcile.reading_helpers import reconciled, slots


@pytest.mark.parametrize(
    ("text", "without"),
    [
        ("we also started using Grafana for a few dashboards", "we started using Grafana for monitoring"),
        ("I drive a Fiat too", "I drive a Fiat"),
        ("we use Loom as well for video", "We use Loom for video."),
    ],
)
def test_one_more_of_a_kind_fills_no_slot(spacy: SpacyBackend, text: str, without: str) -> None:
    assert slots(spacy, text) == []
    assert slots(spacy, without)  # the same clause without the word that adds fills one


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("we also moved the docs to Mintlify", ("@project/docs", "Mintlify")),  # a change it makes
        ("I also left Acme", ("me/*acme", "")),  # an ending
    ],
)
def test_a_change_said_with_also_is_still_read(spacy: SpacyBackend, text: str, slot: tuple[str, str]) -> None:
    assert slot in slots(spacy, text)


@pytest.mark.parametrize("order", [("old", "new"), ("new", "old")])
def test_one_more_of_a_kind_supersedes_nothing(graph: SessionsGraph, spacy: SpacyBackend, order: tuple[str, str]) -> None:
    texts = {"old": "We use Datadog for monitoring.", "new": "we also started using Grafana for a few dashboards"}
    assert reconciled(graph, spacy, f"m-{order[0]}", texts, order) == []
