"""Ontology versions and entity typing under them, on the real store."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import snapshot
from seed002 import USER, FakeApi, backend, record_session

from sessions_graph_core import SessionsGraph, ValidationError
from sessions_graph_core.ontology.model import CORE_LABELS, DEFAULT_MODEL, NodeType, OntologyModel, supply

CODING = """
entity_types:
  - name: Service
    description: a running software service
  - name: Team
relation_types:
  - name: owns
    source: [Person]
    target: Service
"""


def test_version_0_is_the_default_model_and_is_not_stored(graph: SessionsGraph) -> None:
    version = graph.adopted_ontology("alice")
    assert version.version == 0 and version.source == "default"
    assert version.model.labels() == [
        "User", "Person", "Duration", "Quantity", "Money", "Date", "TimeWindow",
        "Organization", "Location", "Event", "Topic", "Artifact",
    ]
    assert len(version.model.relation_types) == 17 and DEFAULT_MODEL.problems() == []
    assert graph.store.run("MATCH (v:OntologyVersion) RETURN count(v) AS n")[0]["n"] == 0


def test_supplying_versions_moves_adopted_and_chains_next(graph: SessionsGraph, tmp_path: Path) -> None:
    schema = tmp_path / "coding.yaml"
    schema.write_text(CODING)
    first = graph.supply_ontology_file("alice", str(schema))
    assert first.version == 1 and first.derive == "extend"
    assert set(CORE_LABELS) <= set(first.model.labels()) and first.pinned == ["Service", "Team", "owns"]
    schema.write_text(CODING.replace("  - name: Team", "  - name: Team\n  - name: Person"))
    second = graph.supply_ontology_file("alice", str(schema), derive="off")
    assert second.version == 2 and "Duration" not in second.model.labels() and "Person" in second.model.labels()
    rows = graph.store.run(
        "MATCH (u:User {user_id: 'alice'})-[:ADOPTED]->(v:OntologyVersion) RETURN v.version AS version"
    )
    assert rows == [{"version": 2}]
    chain = graph.store.run(
        "MATCH (a:OntologyVersion)-[:NEXT]->(b:OntologyVersion) RETURN a.version AS a, a.status AS status, b.version AS b"
    )
    assert chain == [{"a": 1, "status": "superseded", "b": 2}]
    assert graph.adopted_ontology("bob").version == 0  # versions are per user


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("entity_types:\n  - name: 'Bad Label; DETACH DELETE n'\n", "not a safe type name"),
        ("entity_types:\n  - name: A\n  - name: A\n", "declared more than once"),
        ("entity_types: [A]\nrelation_types:\n  - {name: r, source: B, target: A}\n", "undeclared node type 'B'"),
        ("entity_types: {A: 1}\n", "must be a mapping with an 'entity_types' list"),
        ("entity_types: [\n", "not valid YAML"),
        ("entity_types:\n  - {name: A, colour: red}\n", "malformed type"),
    ],
)
def test_a_schema_that_does_not_validate_changes_nothing(graph: SessionsGraph, tmp_path: Path, text: str, message: str) -> None:
    schema = tmp_path / "bad.yaml"
    schema.write_text(text)
    before = snapshot(graph.store)
    with pytest.raises(ValidationError, match=message):
        graph.supply_ontology_file("alice", str(schema), derive="off")
    assert snapshot(graph.store) == before
    with pytest.raises(ValidationError, match="derive must be one of"):
        supply(graph.store, "alice", DEFAULT_MODEL, derive="sometimes")


def test_reconcile_records_the_adopted_version_and_types_into_it(graph: SessionsGraph, tmp_path: Path) -> None:
    schema = tmp_path / "coding.yaml"
    schema.write_text(CODING)
    graph.supply_ontology_file(USER, str(schema))
    sid = record_session(graph, 0)
    graph.reconcile_session(sid, enforce_ontology=True)  # spaCy: "orders service" has head noun "service"
    version = graph.store.run("MATCH (s:Session {session_id: $sid}) RETURN s.ontology_version AS v", {"sid": sid})
    assert version == [{"v": 1}]
    rows = graph.store.run("MATCH (n:Entity {name_key: 'orders service'}) RETURN n.type AS type, labels(n) AS labels")
    assert rows[0]["type"] == "Service" and sorted(rows[0]["labels"]) == ["Entity", "Service"]


def test_types_from_a_model_never_reach_query_text_unchecked(graph: SessionsGraph) -> None:
    hostile = {
        "entities": [{"name": "orders service", "kind": "Service`) DETACH DELETE (x"}, {"name": "Alice", "kind": "Person"}],
        "facts": [{"text": "Alice owns the orders service.", "slot": "orders service/owner", "about": ["orders service", "Alice"]}],
        "decisions": [],
    }
    text = "Alice owns the orders service. It is built for the checkout team."
    llm = backend("anthropic", FakeApi(extra={text: hostile}))
    graph.record_session_start("s", user_id=USER)
    graph.record_turns("s", [{"role": "user", "text": text}], user_id=USER)
    assert graph.reconcile_session("s", backend=llm, promote_labels=True).status == "completed"
    rows = graph.store.run("MATCH (n:Entity) RETURN n.name AS name, labels(n) AS labels, n.ontology_conformant AS ok ORDER BY name")
    assert rows == [
        {"name": "Alice", "labels": ["Entity", "Person"], "ok": True},
        {"name": "orders service", "labels": ["Entity"], "ok": False},
    ]


def test_enforce_flags_nonconformant_types_and_keeps_them_as_properties(graph: SessionsGraph) -> None:
    llm = backend("openai", FakeApi())
    graph.reconcile_session(record_session(graph, 0), backend=llm, enforce_ontology=True)
    rows = graph.store.run("MATCH (n:Entity) RETURN n.type AS type, labels(n) AS labels, n.ontology_conformant AS ok")
    # Seed 002's kinds are lowercase ("person", "service"): none is a type of the default model.
    assert {row["type"] for row in rows} == {"service", "person", "team", "technology"}
    assert all(row["labels"] == ["Entity"] and row["ok"] is False for row in rows)
    graph.reconcile_session(record_session(graph, 1), backend=llm, promote_labels=True)
    promoted = graph.store.run("MATCH (n:Entity {name_key: 'carol'}) RETURN labels(n) AS labels")
    assert sorted(promoted[0]["labels"]) == ["Entity", "person"]


def test_model_problems_are_all_listed() -> None:
    model = OntologyModel(node_types=[NodeType(label="1bad"), NodeType(label="A"), NodeType(label="A")])
    problems = model.problems()
    assert any("'1bad' is not a safe type name" in p for p in problems) and any("declared more than once" in p for p in problems)
