"""The spaCy backend (the real en_core_web_sm): entities, facts, decisions, slots, rationale."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from sessions_graph_core.ontology.model import DEFAULT_MODEL, NodeType, OntologyModel
from sessions_graph_core.reconcile.extraction.base import Extraction
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend
from sessions_graph_core.reconcile.statements import THING_REF
from sessions_graph_core.text import comparable


@pytest.fixture(scope="module")
def spacy_backend() -> SpacyBackend:
    return SpacyBackend()


def one(backend: SpacyBackend, text: str, model: OntologyModel = DEFAULT_MODEL) -> Extraction:
    return backend.extract([text], model)[0]


def test_one_extraction_per_text_in_order(spacy_backend: SpacyBackend) -> None:
    texts = ["Alice owns the orders service.", "", "Carol owns the billing service."]
    results = spacy_backend.extract(texts, DEFAULT_MODEL)
    assert len(results) == 3 and results[1] == Extraction()
    assert [(f.subject, f.slot, f.value) for f in results[2].facts] == [("Carol", "billing service/owner", "Carol")]


def test_entities_from_ner_and_noun_chunks_typed_into_the_model(spacy_backend: SpacyBackend) -> None:
    result = one(spacy_backend, "Alice owns the orders service. It is built for the checkout team.")
    types = {e.name: e.type for e in result.entities}
    assert types["Alice"] == "Person"
    assert types["orders service"] == "Topic" and types["checkout team"] == "Topic"
    assert "It" not in types and "the orders service" not in types  # pronouns and determiners go


def test_a_custom_type_named_like_the_head_noun_wins(spacy_backend: SpacyBackend) -> None:
    model = OntologyModel(node_types=[*DEFAULT_MODEL.node_types, NodeType(label="Service"), NodeType(label="Team")])
    types = {e.name: e.type for e in one(spacy_backend, "Alice owns the orders service and the checkout team.", model).entities}
    assert types["orders service"] == "Service" and types["checkout team"] == "Team"


def test_ownership_is_a_slotted_fact_either_way_round(spacy_backend: SpacyBackend) -> None:
    owns = one(spacy_backend, "Alice owns the orders service.").facts
    belongs = one(spacy_backend, "The orders service belongs to Alice.").facts
    # The triple is as said; the slot and its value are what both sentences say.
    assert [(f.kind, f.slot, f.value, f.subject, f.predicate, f.object) for f in owns] == [
        ("fact", "orders service/owner", "Alice", "Alice", "own", "orders service")
    ]
    assert [(f.slot, f.value) for f in belongs] == [("orders service/owner", "Alice")]
    assert set(owns[0].about) == {"Alice", "orders service"}


def test_coordinated_clauses_are_separate_facts_with_their_own_text(spacy_backend: SpacyBackend) -> None:
    facts = one(
        spacy_backend,
        "The orders service publishes OrderPlaced events to Kafka, and the billing service consumes OrderPlaced events from the orders service.",
    ).facts
    assert [f.text for f in facts] == [
        "The orders service publishes OrderPlaced events to Kafka.",
        "The billing service consumes OrderPlaced events from the orders service.",
    ]
    assert all(f.slot == "" for f in facts)  # not single-valued: nothing to supersede


def test_decisions_fill_a_role_and_keep_their_rationale(spacy_backend: SpacyBackend) -> None:
    use = one(spacy_backend, "We'll use Postgres as the orders service database, because the team already runs Postgres in production.").facts
    assert [(f.kind, f.slot, f.rationale) for f in use] == [
        ("decision", "orders service/database", "the team already runs Postgres in production")
    ]
    assert "orders service" in use[0].about and "production" not in use[0].about
    switch = one(spacy_backend, "We're switching the orders service database to CockroachDB.").facts
    assert [(f.kind, f.slot) for f in switch] == [("decision", "orders service/database")]


@pytest.mark.parametrize(("text", "kind"), [
    ("We picked the blue one.", "decision"),
    ("Let us pick the blue one.", "decision"),  # the clause reader and the backend know one set of deciders
    ("They picked the blue one.", "fact"),
])
def test_a_choice_no_slot_names_is_a_decision_when_we_make_it(spacy_backend: SpacyBackend, text: str, kind: str) -> None:
    assert [(f.kind, f.slot) for f in one(spacy_backend, text).facts] == [(kind, "")]


@pytest.mark.parametrize(("text", "said"), [
    ("Let's use Postgres for the orders service.", "Let's use Postgres for the orders service."),
    ("Ok, let's go with Kafka for events.", "Let's go with Kafka for events."),
    ("Let us switch CI to GitHub Actions.", "Let us switch CI to GitHub Actions."),
])
def test_a_choice_said_with_let_keeps_its_let(spacy_backend: SpacyBackend, text: str, said: str) -> None:
    # The parser hangs "use" on "let", so the verb's own subtree starts at "'s": "'s use Postgres ..." read as junk.
    assert [(f.kind, f.text) for f in one(spacy_backend, text).facts] == [("decision", said)]


def test_unresolved_pronoun_subjects_are_left_to_the_session(spacy_backend: SpacyBackend) -> None:
    # No bare pronoun as a subject: one the text does not resolve is the stand-in the pipeline fills
    # from earlier turns, or drops (tests/reconcile/test_supersession.py).
    facts = one(spacy_backend, "It runs on Kubernetes. They use it daily.").facts
    assert [(f.subject, f.slot, f.value) for f in facts] == [(THING_REF, f"{THING_REF}/hosting", "Kubernetes")]


def test_normalise_ignores_case_spacing_and_end_punctuation() -> None:
    assert comparable("  Orders   Service. ") == "orders service"


@pytest.mark.parametrize(
    ("text", "junk"),
    [
        # A message's label is no subject.
        ("Decision noted: Postgres for the orders service, since it already runs in production.", ("Decision", "note")),
        # "billing" tagged a verb and "consumes" its object: a verb is no object.
        ("Understood: orders publishes OrderPlaced to Kafka and billing consumes them.", ("orders", "bill")),
    ],
)
def test_labels_and_verbs_state_no_facts(spacy_backend: SpacyBackend, text: str, junk: tuple[str, str]) -> None:
    facts = one(spacy_backend, text).facts
    assert not any((f.subject, f.predicate) == junk for f in facts), [(f.subject, f.predicate, f.object) for f in facts]


def test_loading_spacy_leaves_torch_unloaded_and_still_importable() -> None:
    # In a process of its own: this one may have loaded spaCy or torch already.
    probe = (
        "import importlib.util, sys\n"
        "from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend\n"
        "from sessions_graph_core.ontology.model import DEFAULT_MODEL\n"
        "facts = SpacyBackend().extract(['Alice owns the orders service.'], DEFAULT_MODEL)[0].facts\n"
        "assert [f.slot for f in facts] == ['orders service/owner'], facts\n"
        "print('torch' in sys.modules)\n"
        "if importlib.util.find_spec('torch') is not None:\n"
        "    import torch\n"
        "    print(torch.tensor([1.0]).sum().item())\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "False", done.stdout
    if importlib.util.find_spec("torch") is not None:  # the GLiNER extra, which CI installs
        assert done.stdout.split()[1] == "1.0", done.stdout
