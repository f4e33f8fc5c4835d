"""A statement keeps its words in the order they were said (issue 38: facts worth reading).

Where the small parser's tree crosses itself (an apposition at the end of the sentence hung on the subject or
the object: "My aunt Rosa bought a house last month (in June), a cottage near Porto."), a clause's subtree is
not in the text's order; joining it as it came wrote "My aunt Rosa bought a house a cottage near Portolast
month (in June).", a sentence nobody said, with two words run together. Our own sentences, the real model.
"""

from __future__ import annotations

import pytest

from sessions_graph_core.ontology.model import DEFAULT_MODEL
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend
from sessions_graph_core.reconcile.nlp import spacy_pipeline
from sessions_graph_core.reconcile.tokens import as_said


@pytest.mark.parametrize(
    "text",
    [
        "My aunt Rosa bought a house last month (in June), a cottage near Porto.",
        "My cousin Ana adopted a dog on Saturday, a terrier named Biscuit.",
    ],
)
def test_a_crossing_parse_keeps_the_sentence_as_said(spacy: SpacyBackend, text: str) -> None:
    assert [fact.text for fact in spacy.extract([text], DEFAULT_MODEL)[0].facts] == [text]


def test_a_word_left_out_leaves_a_space_not_two_words_run_together() -> None:
    doc = spacy_pipeline()("Ops rebuilt a staging cluster, third one since March.")
    assert as_said(t for t in doc if t.text != ",") == "Ops rebuilt a staging cluster third one since March."
    assert as_said(reversed(doc[:5])) == "Ops rebuilt a staging cluster"
