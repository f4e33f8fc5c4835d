"""A change said with its reason, with the real spaCy model and the real store.

"Our CI switched from Jenkins to Buildkite for cost": the subject names the slot (our CI) and "for cost" says
why. The reader took a bare noun after "for" for the slot ("we use Loom for screen recordings" is the screen
recordings slot), so the change went to a slot "ci/cost" and superseded nothing; and a phrase after "as" or
"for" that named no attribute ("as a cost cut") dropped the subject's own slot, leaving its holder to be read
from the subject's words ("monitoring/monitoring"). The subject's slot now stands unless the phrase names one
(reading/transitions.role_for). The sentences are our own, not the labelled set's."""

from __future__ import annotations

import pytest
from reading_helpers import reconciled, slots

from sessions_graph_core import SessionsGraph
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Our CI switched from Jenkins to Buildkite for cost.", ("@project/ci", "Buildkite")),
        ("Our team email switched to Fastmail for privacy reasons.", ("@project/email", "Fastmail")),
        ("The monitoring moved from Datadog to Grafana as a cost cut.", ("@project/monitoring", "Grafana")),
    ],
)
def test_a_reason_leaves_the_subjects_slot(spacy: SpacyBackend, text: str, expected: tuple[str, str]) -> None:
    assert expected in slots(spacy, text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We use Loom for screen recordings.", ("@project/screen recordings", "Loom")),  # no slot in the subject
        ("Our CI moved to Buildkite.", ("@project/ci", "Buildkite")),
    ],
)
def test_a_slot_said_without_a_reason_is_read_as_before(spacy: SpacyBackend, text: str, expected: tuple[str, str]) -> None:
    assert expected in slots(spacy, text)


def test_a_change_said_with_its_reason_supersedes(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    texts = {"s-jenkins": "Our CI runs on Jenkins.", "s-buildkite": "Our CI switched from Jenkins to Buildkite for cost."}
    assert reconciled(graph, spacy, "reason-user", texts, tuple(texts)) == [("Jenkins", "Buildkite")]
