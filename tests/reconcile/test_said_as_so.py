"""What is not said as a statement of fact (issue 38, thirteenth round): the clause's mood, as the parse reads it.

Advice in the assistant's words ("Keep the changelog to one section; the details can live in the wiki.") tells
the user what to do, not what is true; the user's own imperative is what they want done and stays. A clause that
only says when or on what condition another holds ("until the bucket is deleted in November", "when she was
12") says nothing of its own, whoever says it; one that tells when something happened says that it did, and is
written without its opener ("Lena left the company."). A clause that shares its subject with the verb before it
is written with that subject ("Marta approved the migration.", not "Approved the migration."), where its verb
agrees with it and it has no subject of its own. Our own sentences, the real model and the real store.
"""

from __future__ import annotations

import pytest
from test_tool_heavy_sessions import facts_of

from sessions_graph_core import SessionsGraph
from sessions_graph_core.ontology.model import DEFAULT_MODEL
from sessions_graph_core.reconcile import statements
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend


def kept(spacy: SpacyBackend, text: str, *, by_assistant: bool) -> list[str]:
    """The statements of `text` worth stating in the speaker's words."""
    found = spacy.extract([text], DEFAULT_MODEL)[0].facts
    return [fact.text for fact in found if statements.worth_stating(fact, by_assistant=by_assistant)]


ADVICE = [
    "Keep the changelog to one section; the details can live in the wiki.",
    "For the audit, export the invoices from Stripe rather than from the ledger; the ledger rounds every amount to the cent.",
    "Now the NAS: change the address of `nas.home.lan` to the new subnet.",
]


@pytest.mark.parametrize("text", ADVICE)
def test_the_assistants_advice_is_no_statement(spacy: SpacyBackend, text: str) -> None:
    assert kept(spacy, text, by_assistant=True) == []


@pytest.mark.parametrize("text", ADVICE)
def test_the_users_imperative_stays(spacy: SpacyBackend, text: str) -> None:
    assert kept(spacy, text, by_assistant=False) != []


def test_the_assistants_statement_beside_no_advice_stays(spacy: SpacyBackend) -> None:
    assert kept(spacy, "The nightly job writes a CSV to the billing bucket.", by_assistant=True) != []


@pytest.mark.parametrize(
    ("text", "hanging"),
    [
        ("We keep Thanos read-only until the bucket is deleted in November.", "until the bucket is deleted"),
        ("My aunt moved to Porto when she was 12.", "when she was 12"),
    ],
)
def test_a_clause_of_time_or_condition_alone_is_no_statement(spacy: SpacyBackend, text: str, hanging: str) -> None:
    for by_assistant in (True, False):
        said = kept(spacy, text, by_assistant=by_assistant)
        assert said, "the main clause stays"
        assert not any(hanging in fact.lower() and not fact.lower().startswith(("we keep", "my aunt")) for fact in said)


@pytest.mark.parametrize(
    "text",
    [
        "The demo app id thing, can we have one build that reads the app id at runtime.",
        "Can Terraform move the Frankfurt buckets over to eu-west-1.",  # read into a slot
        "The invoice template: should I move the VAT line to the footer.",
    ],
)
def test_a_question_without_its_mark_is_no_statement(spacy: SpacyBackend, text: str) -> None:
    for by_assistant in (True, False):
        assert kept(spacy, text, by_assistant=by_assistant) == []


@pytest.mark.parametrize(
    "text",
    ["So do we: we moved the staging deploy to the old runner.", "Only then did we move the exports to Snowflake.",
     "Never have we had an outage this long on the payments API."],
)
def test_an_order_that_only_looks_asked_still_says(spacy: SpacyBackend, text: str) -> None:
    assert kept(spacy, text, by_assistant=False) != []


@pytest.mark.parametrize(
    "text",
    ["That our agency hired a new art director, Lena Brandt.",  # read into slots
     "That the company moved its office to Ghent.",
     "Until Marta took over the billing team.",
     "Where this whole career change leads me."],
)
def test_a_sentence_that_is_only_a_clause_cut_from_another_is_no_statement(spacy: SpacyBackend, text: str) -> None:
    for by_assistant in (True, False):
        assert kept(spacy, text, by_assistant=by_assistant) == []


def test_a_sentence_opened_by_a_reason_or_telling_what_happened_still_says(spacy: SpacyBackend) -> None:
    assert kept(spacy, "Because the billing API changed its auth.", by_assistant=False) != []
    assert kept(spacy, "After the office had moved to Ghent.", by_assistant=False) == ["The office had moved to Ghent."]


def test_a_verb_the_tagger_took_for_a_name_is_advice(spacy: SpacyBackend) -> None:
    # "Enforce/NNP IMDSv2/VBZ": the code name made the verb, the imperative its subject
    text = "Enforce IMDSv2 on every node group, including staging."
    assert kept(spacy, text, by_assistant=True) == []
    assert kept(spacy, text, by_assistant=False) == [text]  # the user's own imperative stays
    assert kept(spacy, "Deploy freezes start on Friday.", by_assistant=True) != []  # a noun, before a verb


def test_a_question_labelled_after_a_statement_is_not_run_into_it(spacy: SpacyBackend) -> None:
    text = "We moved the staging cluster to Graviton, question: do the arm64 images build on the hosted runners"
    assert kept(spacy, text, by_assistant=False) == ["We moved the staging cluster to Graviton."]


def test_a_clause_telling_when_something_happened_says_it_did(spacy: SpacyBackend) -> None:
    found = spacy.extract(["The checkout PO role went to Marcus when Lena left the company."], DEFAULT_MODEL)[0].facts
    assert ("lena/employer", "Lena left the company.") in {(fact.slot, fact.text) for fact in found}


@pytest.mark.parametrize(
    ("text", "second"),
    [
        ("Marta reviewed the schema and approved the migration.", "Marta approved the migration."),
        ("The nightly job reads the ledger and writes a CSV to the billing bucket.",
         "The nightly job writes a CSV to the billing bucket."),
    ],
)
def test_a_clause_sharing_its_subject_is_written_with_it(spacy: SpacyBackend, text: str, second: str) -> None:
    assert second in [fact.text for fact in spacy.extract([text], DEFAULT_MODEL)[0].facts]


def test_in_a_session_the_assistants_advice_fills_no_slot(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    found = facts_of(graph, spacy, "advice", [
        {"role": "user", "text": "Where should the release notes go?"},
        {"role": "assistant", "text": "Keep the changelog to one section; the details can live in the wiki."},
        {"role": "assistant", "text": "The nightly job writes a CSV to the billing bucket."},
    ])
    assert [text for text, _ in found] == ["The nightly job writes a CSV to the billing bucket."]


@pytest.mark.parametrize(
    ("text", "unsaid"),
    [
        ("Piotr mentioned the budget and there's a reorg coming in July.", "Piotr there's a reorg coming in July."),
        ("The two exporters run nightly and is the slowest part of the pipeline.",
         "The two exporters is the slowest part of the pipeline."),
    ],
)
def test_a_clause_with_a_subject_of_its_own_or_out_of_agreement_borrows_none(spacy: SpacyBackend, text: str,
                                                                               unsaid: str) -> None:
    assert unsaid not in [fact.text for fact in spacy.extract([text], DEFAULT_MODEL)[0].facts]
