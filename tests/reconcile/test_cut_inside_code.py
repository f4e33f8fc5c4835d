"""Statements cut inside code (issue 38, fifteenth round).

The tokenizer splits a dotted name at its dots, and the parser ended a sentence there, so a statement of
developer chat began inside a span of code ("Rebuild()` is 12 ms per frame"); a clause's words can also stop
before a span's closing backtick. Our own sentences, with the real spaCy model.
"""

from __future__ import annotations

import pytest
from test_junk_gate import kept

from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend
from sessions_graph_core.reconcile.nlp import spacy_pipeline


def test_a_dotted_name_in_code_ends_no_sentence() -> None:
    text = "- `PaymentGateway.Charge()` takes 40 ms per batch on the staging box. We ship on Friday."
    sentences = [sentence.text for sentence in spacy_pipeline()(text).sents]
    assert sentences == ["- `PaymentGateway.Charge()` takes 40 ms per batch on the staging box.", "We ship on Friday."]


@pytest.mark.parametrize("by_assistant", [False, True])
def test_a_statement_is_never_half_a_span_of_code(spacy: SpacyBackend, by_assistant: bool) -> None:
    said = kept(spacy, "Profiling shows `Inventory.Rebuild()` is 12 ms per frame on the handheld.", by_assistant=by_assistant)
    assert said == ["Profiling shows `Inventory.Rebuild()` is 12 ms per frame on the handheld."]


def test_a_statement_left_open_inside_code_is_refused(spacy: SpacyBackend) -> None:
    # the clause's words stop before the closing backtick: "... with `pytest-xdist."
    text = ("The other half is the 4 minutes of tests: `pytest -n auto` with `pytest-xdist` runs them in parallel "
            "on the runner's cores (2 on the standard runner).")
    for by_assistant in (False, True):
        assert kept(spacy, text, by_assistant=by_assistant) == []
