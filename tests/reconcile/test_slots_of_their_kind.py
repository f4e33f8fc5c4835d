"""A slot holds only a value of its kind, for a holder the clause names (issue 38, the twelfth round), with the
real spaCy model and, for the pipeline, the real store: a holder said only by pointing ("that server") is the
conversation's to name, not the clause's; a name as code spells it ("fetchRates", "retry_queue") holds only
what a thing may hold; a schedule holds a time, and an attribute whose values are names holds a name, not a
common noun phrase ("my list", "the thing", "tests", "this morning"). Where a rule refuses a slot, the
statement goes on as one in no slot (the gate decides whether it is written). The sentences are our own, written for these tests."""

from __future__ import annotations

import pytest
from reading_helpers import reconciled, slots

from sessions_graph_core import SessionsGraph
from sessions_graph_core.ontology.model import DEFAULT_MODEL
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend
from sessions_graph_core.reconcile.lexicon import holds
from sessions_graph_core.reconcile.statements import code_name, things_hold


@pytest.mark.parametrize(
    "text",
    [
        "Nobody here owns that server.",  # which server, only the conversation says
        "Priya maintains those scripts.",
        "Nobody owns this cluster anymore.",
        "It's the old ruby service that sends the invoices.",  # a service is no language
        "All modules with state have tests.",  # tests are no test framework
        "The tables are the thing being migrated.",  # a common noun said with "the" is no product's name
        "Our base images have no shell.",
        "The sidebar goes on my list.",
        "`sync_users` moved to Frankfurt.",  # a function has no home
        "parseInvoice is in Lisbon now.",
        # what the sentence describes, with no "we" in it, is no attribute of ours (sixteenth round)
        "The histogram is informative.",
        "Usually the first sprint is overconfident.",
        "The atmosphere was unreal.",
    ],
)
def test_no_slot_for_a_pointed_holder_or_a_value_of_another_kind(spacy: SpacyBackend, text: str) -> None:
    assert slots(spacy, text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Alice owns the billing service.", [("billing service/owner", "Alice")]),
        ("We moved the docs to notion.", [("@project/docs", "notion")]),  # a name said in lower case
        ("We switched to railway for hosting.", [("@project/hosting", "railway")]),
        ("Our standup is on Fridays at 9am.", [("standup/schedule", "Fridays")]),
        ("I'm a nurse.", [("me/occupation", "nurse")]),  # a job is a common word
        ("We're on the Pro plan now.", [("@project/plan", "Pro plan")]),
        ("I switched my phone to a pixel.", [("me/phone", "pixel")]),  # a listed value, said in lower case
        ("Dana McKenzie works at Globex.", [("dana mckenzie/employer", "Globex")]),  # a name, not camelCase
        ("fetchRates is owned by Maria.", [("fetchrates/owner", "Maria")]),  # what a thing may hold, code holds
        ("fetch_rates uses Redis as its cache.", [("fetch_rates/cache", "Redis")]),
        # What "a couple of" counts is the value, not the count ("couple" is no host).
        ("We host the API on a couple of Hetzner boxes.", [("api/hosting", "Hetzner boxes")]),
        # the thing we have, by its name, as "our crm is" says; and a figure of ours
        ("the crm is pipedrive now", [("@project/crm", "pipedrive")]),
        ("The frame budget is 16.6 ms.", [("@project/frame budget", "16.6 ms")]),
    ],
)
def test_a_named_holder_and_a_value_of_its_kind_still_fill_the_slot(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize(
    ("attribute", "value", "expected"),
    [
        ("schedule", "my train", False),
        ("schedule", "mornings", True),
        ("schedule", "weekly", True),
        ("schedule", "9am", True),
        ("schedule", "10", True),  # a figure is a time of day, or a model: no common word
        ("laptop", "framework 13", True),
        ("ci", "morning", False),
        ("internet provider", "versions", False),
        ("internet provider", "Comcast", True),
        ("plan", "platform team", False),
        ("language", "java service", False),
        ("analytics", "clarity", True),  # one lower-case word may be a name
        ("occupation", "sous chef", True),
        ("owner", None, True),  # an ending holds no value
        # How long is not when; how often is.
        ("schedule", "2-4 seconds", False),
        ("schedule", "about 3 years", False),
        ("schedule", "twenty minutes", False),
        ("schedule", "the last 4 weeks", False),
        ("schedule", "every 2 weeks", True),
        ("schedule", "4 days a week", True),
        ("schedule", "10:30", True),
        # A quantity, or a word that is no noun, is no product's name; a name said in lower case still is.
        ("ci", "9 min", False),
        ("version control", "2,000 minutes", False),
        ("message broker", "cheap", False),
        ("cache", "invalidated", False),
        ("language", "elm", True),
        ("package manager", "pnpm", True),
        ("password manager", "1Password", True),
        ("database", "Postgres 16", True),
    ],
)
def test_a_slot_holds_values_of_its_kind(attribute: str, value: str | None, expected: bool) -> None:
    assert holds(attribute, value) is expected


@pytest.mark.parametrize("text", [
    "CI is slow (9 min).",
    "Private repos get 2,000 minutes a month.",
    "We've got about 3 years of billing history.",
    "A small dedicated queue is cheap.",
])
def test_a_statement_whose_value_is_of_no_slots_kind_stays_in_no_slot(spacy: SpacyBackend, text: str) -> None:
    """Refusing the slot keeps the statement: it is still said, in no slot."""
    facts = spacy.extract([text], DEFAULT_MODEL)[0].facts
    assert facts and not [f.slot for f in facts if f.slot], [(f.slot, f.value) for f in facts]


@pytest.mark.parametrize(
    ("name", "expected"),
    [("render_pdf", True), ("statusURL", True), ("jest.fn", True), ("--force", True),
     ("McKenzie", False), ("GitHub", False), ("iOS", False), ("billing service", False)],
)
def test_a_code_name(name: str, expected: bool) -> None:
    assert code_name(name) is expected


def test_a_thing_holds_a_things_attributes_only() -> None:
    assert things_hold("database") and things_hold("owner")
    assert not things_hold("location") and not things_hold("plan") and not things_hold("configured base url")


@pytest.mark.parametrize(
    ("old", "new", "attribute", "value"),
    [
        # "Nobody owns that server" is of a server only the conversation names: Alice still owns hers.
        ("Alice owns the server.", "Nobody here owns that server.", "owner", "Alice"),
        # A time is no CI: "since this morning" does not replace Buildkite.
        ("Our CI is Buildkite.", "The build has been failing since this morning.", "ci", "Buildkite"),
    ],
)
def test_the_true_value_stays_current(graph: SessionsGraph, spacy: SpacyBackend, old: str, new: str,
                                      attribute: str, value: str) -> None:
    user = "kind-" + str(abs(hash(new)))
    assert reconciled(graph, spacy, user, {"a": old, "b": new}, ("a", "b")) == []
    rows = graph.store.run(
        "MATCH (f:Fact {user_id: $user}) WHERE f.slot ENDS WITH $attribute AND f.superseded_at IS NULL "
        "RETURN f.value AS value", {"user": user, "attribute": "/" + attribute})
    assert [row["value"] for row in rows] == [value]
