"""The one statement that writes an ontology version: numbering, the ADOPTED move, NEXT links, rejections."""

from __future__ import annotations

from sessions_graph_core.ontology import model as ontology
from sessions_graph_core.ontology.versions import record_version


def test_supplied_and_derived_versions_share_one_chain(graph) -> None:
    first = ontology.supply(graph.store, "alice", ontology.DEFAULT_MODEL)
    derived = record_version(graph.store, "alice", {"source": "derived", "derive": "extend", "model": first.model.model_dump_json()}, adopt=True)
    rejected = record_version(graph.store, "alice", {"source": "derived", "derive": "extend", "model": "{}"}, adopt=False)
    assert (first.version, derived, rejected) == (1, 2, 3)
    rows = graph.store.run(
        "MATCH (v:OntologyVersion {user_id: 'alice'}) OPTIONAL MATCH (v)-[:NEXT]->(n) "
        "OPTIONAL MATCH (u:User)-[r]->(v) RETURN v.version AS version, v.status AS status, v.source AS source, "
        "n.version AS next, type(r) AS link ORDER BY version"
    )
    assert [(r["version"], r["status"], r["source"], r["next"], r["link"]) for r in rows] == [
        (1, "superseded", "supplied", 2, None),
        (2, "adopted", "derived", None, "ADOPTED"),
        (3, "rejected", "derived", None, "REJECTED"),
    ]
    assert ontology.adopted(graph.store, "alice").version == 2


def test_versions_of_other_users_do_not_share_numbers(graph) -> None:
    ontology.supply(graph.store, "alice", ontology.DEFAULT_MODEL)
    assert ontology.supply(graph.store, "bob", ontology.DEFAULT_MODEL).version == 1
