"""A question says nothing, nor does any clause inside it (issue 38: facts worth reading).

The clause reader refused a question by its first word, clause by clause, so the clause after a question's
verb came out as a statement: "could we make the backup job skip weekends?" gave "The backup job skip
weekends.". A sentence that opens as a question and ends on a question mark is asked whole; one that opens as
a statement keeps it ("I moved to Leeds, how about you?"). Our own sentences, the real model.
"""

from __future__ import annotations

import pytest

from sessions_graph_core.ontology.model import DEFAULT_MODEL
from sessions_graph_core.reconcile import statements
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend


def said(spacy: SpacyBackend, text: str) -> list[str]:
    return [fact.text for fact in spacy.extract([text], DEFAULT_MODEL)[0].facts]


@pytest.mark.parametrize(
    "text",
    [
        "could we make the backup job skip weekends? it runs at 2am now",
        "Should I let the staging cluster scale to zero at night?",
        "So how do I get the invoice service to retry failed webhooks?",
        "Can you make the nightly export include archived customers?",
    ],
)
def test_no_clause_of_a_question_is_a_statement(spacy: SpacyBackend, text: str) -> None:
    question = text.split("?")[0] + "?"
    assert not any(fact.rstrip(".").lower() in question.lower() for fact in said(spacy, text) if len(fact.split()) > 1)


def test_a_question_is_one_that_opens_as_one() -> None:
    assert statements.asked("So where does the config live?")
    assert not statements.asked("Where the config lives is in the repo.")
    assert not statements.asked("does it matter")  # no question mark: read as before, clause by clause


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("I moved to Leeds last month, how about you?", "I moved to Leeds last month"),
        ("We switched the queue to RabbitMQ, right?", "We switched the queue to RabbitMQ"),
    ],
)
def test_a_statement_with_a_question_after_it_is_kept(spacy: SpacyBackend, text: str, kept: str) -> None:
    assert not statements.asked(text)
    assert any(fact.startswith(kept) for fact in said(spacy, text))
