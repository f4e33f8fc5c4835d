"""Nouns the tagger took for verbs (issue 38, fifteenth round).

The small tagger reads a noun after a subject as a verb in its base form ("the Vellum solver/VB for sway"), so
a list of things became "who -[verb]-> what"; and an infinitive with a subject of its own ("The splash to also
leave a ripple", "I want Priya to lead the billing team") says what is wanted, not what is. Rows labelled junk in tests/data/junk_facts, and our own
sentences whose base form is a verb, with the real spaCy model.
"""

from __future__ import annotations

import pytest
from test_junk_gate import LABELLED, kept

from sessions_graph_core.ontology.model import DEFAULT_MODEL
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend


@pytest.mark.parametrize(
    "text",
    [
        "L-systems, and the Vellum solver for sway.",  # solver/VB
        "The GitHub Actions workflow from pip to uv.",  # workflow/VB
        "The splash to also leave a ripple.",  # an infinitive alone, read into a slot
    ],
)
def test_a_noun_taken_for_a_verb_says_nothing(spacy: SpacyBackend, text: str) -> None:
    assert LABELLED[("longmemeval", text)] == "junk"
    for by_assistant in (False, True):
        assert kept(spacy, text, by_assistant=by_assistant) == []


@pytest.mark.parametrize(
    "text",
    ["Let us use Kafka for the events.", "My parents live in York.", "The team use Jira now."],
)
def test_a_base_form_that_is_a_verb_still_says(spacy: SpacyBackend, text: str) -> None:
    assert kept(spacy, text, by_assistant=False) != []


def test_what_is_wanted_of_someone_fills_no_slot(spacy: SpacyBackend) -> None:
    found = spacy.extract(["I want Priya to lead the billing team."], DEFAULT_MODEL)[0].facts
    assert [fact.slot for fact in found if fact.slot] == []
