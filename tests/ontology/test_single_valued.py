"""Relation types marked single-valued extend the attribute lexicon; unsafe or malformed ones are refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from sessions_graph_core import SessionsGraph, ValidationError
from sessions_graph_core.ontology.model import (
    DEFAULT_MODEL,
    OntologyModel,
    RelationType,
)
from sessions_graph_core.reconcile import lexicon
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend


def with_relation(label: str) -> OntologyModel:
    relation = RelationType(label=label, single_valued=True)
    return OntologyModel(node_types=DEFAULT_MODEL.node_types, relation_types=[*DEFAULT_MODEL.relation_types, relation])


def test_a_single_valued_relation_gives_its_verb_a_slot() -> None:
    texts = ["I support Arsenal.", "I support Chelsea now."]
    plain = SpacyBackend().extract(texts, DEFAULT_MODEL)
    assert [f.slot for e in plain for f in e.facts] == ["", ""]  # supporting is multi-valued by default
    marked = SpacyBackend().extract(texts, with_relation("SUPPORTS"))
    assert [(f.slot, f.value) for e in marked for f in e.facts] == [("me/supports", "Arsenal"), ("me/supports", "Chelsea")]


def test_an_unsafe_single_valued_name_is_named_in_the_problems() -> None:
    problems = with_relation("lives in; DROP").problems()
    assert any("'lives in; DROP' is marked single_valued" in line for line in problems)


def test_a_schema_file_with_an_unsafe_single_valued_relation_changes_nothing(graph: SessionsGraph, tmp_path: Path) -> None:
    schema = tmp_path / "schema.yaml"
    schema.write_text("entity_types: [Person, City]\nrelation_types:\n  - {name: 'home town', single_valued: true}\n")
    with pytest.raises(ValidationError, match="home town"):
        graph.supply_ontology_file("u", str(schema))
    assert graph.adopted_ontology("u").version == 0


@pytest.mark.parametrize(
    ("text", "message"),
    [("[location\nnouns = 1", "not valid TOML"), ("[x]\nnouns = 'home'", "x.nouns must be a list"),
     ("[x]\nsynonyms = ['a']", "unknown key 'synonyms'"), ("x = 1", "must be a table")],
)
def test_an_attribute_file_that_does_not_parse_is_refused_by_name(text: str, message: str) -> None:
    with pytest.raises(lexicon.AttributeFileError, match=message) as raised:
        lexicon.parse_attributes(text, "my-attributes.toml")
    assert "my-attributes.toml" in str(raised.value)
