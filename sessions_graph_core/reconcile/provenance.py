"""Per-session provenance (seed 004): which sessions mentioned an entity or stated a fact, and back.

`(:Session)-[:DISCOVERED]->(:Entity|:Fact)` is written for every session whose turns mention
the entity or state the fact, restatements included; a session that contradicted a fact
states the new one, not the old.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from sessions_graph_core import validation
from sessions_graph_core.reconcile.facts import FACT_COLUMNS, FactView
from sessions_graph_core.store.base import GraphStore
from sessions_graph_core.text import comparable


class EntityView(BaseModel):
    entity_key: str
    name: str
    type: str


def sessions_for_entity(store: GraphStore, user_id: str, name: str) -> list[str]:
    """Sessions that mentioned an entity of this name (any type)."""
    rows = store.run(
        "MATCH (s:Session)-[:DISCOVERED]->(n:Entity {user_id: $user_id, name_key: $name}) "
        "WHERE s.user_id = $user_id RETURN DISTINCT s.session_id AS sid ORDER BY sid",
        {"user_id": validation.user_id(user_id), "name": comparable(name)},
    )
    return [row["sid"] for row in rows]


def sessions_for_fact(store: GraphStore, user_id: str, fact_id: str) -> list[str]:
    rows = store.run(
        "MATCH (s:Session)-[:DISCOVERED]->(x:Fact {fact_id: $fact_id, user_id: $user_id}) "
        "WHERE s.user_id = $user_id RETURN s.session_id AS sid ORDER BY sid",
        {"user_id": validation.user_id(user_id), "fact_id": fact_id},
    )
    return [row["sid"] for row in rows]


def session_entities(store: GraphStore, session_id: str) -> list[EntityView]:
    """Every entity the session touched, already known ones included."""
    rows = store.run(
        "MATCH (s:Session {session_id: $sid})-[:DISCOVERED]->(n:Entity) WHERE n.user_id = s.user_id "
        "RETURN n.entity_key AS entity_key, n.name AS name, n.type AS type ORDER BY entity_key",
        {"sid": validation.session_id(session_id)},
    )
    return [EntityView.model_validate(row) for row in rows]


def session_facts(store: GraphStore, session_id: str) -> list[FactView]:
    """Every fact and decision the session stated, restatements of known ones included."""
    rows = store.run(
        "MATCH (s:Session {session_id: $sid})-[:DISCOVERED]->(x:Fact) WHERE x.user_id = s.user_id "
        f"RETURN {FACT_COLUMNS} ORDER BY valid_at, text",
        {"sid": validation.session_id(session_id)},
    )
    return [FactView.model_validate(row) for row in rows]


def orphans(store: GraphStore, user_ids: Sequence[str]) -> dict[str, int]:
    """What lost its source, for these users: chunks no turn holds, entities nothing mentions, facts from nothing."""
    params = {"users": list(user_ids)}
    queries = {
        "chunks": "MATCH (c:Chunk) WHERE c.user_id IN $users AND NOT ()-[:HAS_CHUNK]->(c) RETURN count(c) AS n",
        "entities": "MATCH (e:Entity) WHERE e.user_id IN $users AND NOT (e)-[:MENTIONED_IN]->() "
        "AND NOT ()-[:ABOUT]->(e) RETURN count(e) AS n",
        "facts": "MATCH (f:Fact) WHERE f.user_id IN $users AND NOT (f)-[:FROM]->() RETURN count(f) AS n",
    }
    return {kind: store.run(query, params)[0]["n"] for kind, query in queries.items()}
