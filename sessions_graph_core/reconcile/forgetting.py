"""Exact forgetting: remove what a source produced and nothing another source still backs.

Every step is an idempotent statement and the sweeps at the end look for orphans rather than
remembering what they touched, so a forget that crashed half-way finishes on the next run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from sessions_graph_core import validation
from sessions_graph_core.store.base import GraphStore

_SOURCE_ID = "coalesce(src.turn_id, src.memory_id)"


@dataclass(frozen=True)
class Forgotten:
    facts: int = 0
    mentions: int = 0
    chunks: int = 0
    entities: int = 0


def _count(rows: list[dict]) -> int:
    return int(rows[0]["n"]) if rows else 0


def forget_sources(store: GraphStore, user_id: str, source_ids: Sequence[str]) -> Forgotten:
    """Remove what the turns or memory files `source_ids` produced (they may already be deleted)."""
    params = {"user_id": user_id, "ids": list(source_ids)}
    store.run(
        f"MATCH (f:Fact {{user_id: $user_id}})-[r:FROM]->(src) WHERE {_SOURCE_ID} IN $ids DELETE r", params
    )
    store.run(
        "MATCH (:Entity {user_id: $user_id})-[m:MENTIONED_IN]->(:Chunk) WHERE any(s IN m.sources WHERE s IN $ids) "
        "SET m.sources = [s IN m.sources WHERE NOT s IN $ids]",
        params,
    )
    mentions = _count(
        store.run(
            "MATCH (:Entity {user_id: $user_id})-[m:MENTIONED_IN]->(:Chunk) WHERE size(m.sources) = 0 "
            "DELETE m RETURN count(m) AS n",
            params,
        )
    )
    store.run(f"MATCH (src)-[r:HAS_CHUNK]->(:Chunk {{user_id: $user_id}}) WHERE {_SOURCE_ID} IN $ids DELETE r", params)
    return replace(sweep(store, user_id), mentions=mentions)


def sweep(store: GraphStore, user_id: str) -> Forgotten:
    """Delete the user's facts, chunks and entities that nothing backs any more."""
    orphans = store.run(
        "MATCH (f:Fact {user_id: $user_id}) WHERE NOT (f)-[:FROM]->() RETURN f.fact_id AS fact_id ORDER BY f.rank",
        {"user_id": user_id},
    )
    for row in orphans:
        _drop_fact(store, row["fact_id"])
    chunks = _count(
        store.run(
            "MATCH (c:Chunk {user_id: $user_id}) WHERE NOT ()-[:HAS_CHUNK]->(c) DETACH DELETE c RETURN count(c) AS n",
            {"user_id": user_id},
        )
    )
    entities = _count(
        store.run(
            "MATCH (n:Entity {user_id: $user_id}) WHERE NOT (n)-[:MENTIONED_IN]->() AND NOT ()-[:ABOUT]->(n) "
            "DETACH DELETE n RETURN count(n) AS n",
            {"user_id": user_id},
        )
    )
    return Forgotten(facts=len(orphans), chunks=chunks, entities=entities)


def _drop_fact(store: GraphStore, fact_id: str) -> None:
    """Delete a statement and close the gap it leaves in its slot's chain."""
    store.run(
        "MATCH (f:Fact {fact_id: $fact_id}) WHERE NOT (f)-[:FROM]->() "
        "OPTIONAL MATCH (f)-[:SUPERSEDES]->(prev:Fact) "
        "OPTIONAL MATCH (next:Fact)-[:SUPERSEDES]->(f) "
        "FOREACH (p IN CASE WHEN prev IS NULL THEN [] ELSE [prev] END | "
        "  SET p.superseded_at = next.valid_at "
        "  FOREACH (n IN CASE WHEN next IS NULL THEN [] ELSE [next] END | MERGE (n)-[:SUPERSEDES]->(p))) "
        "DETACH DELETE f",
        {"fact_id": fact_id},
    )


def forget_session(store: GraphStore, session_id: str) -> Forgotten:
    """Remove what reconciling the session produced; its turns stay, marked for nobody to reconcile."""
    sid = validation.session_id(session_id)
    rows = store.run(
        "MATCH (s:Session {session_id: $sid}) OPTIONAL MATCH (s)-[:HAS_TURN]->(t:Turn) "
        "RETURN s.user_id AS user_id, collect(t.turn_id) AS turn_ids",
        {"sid": sid},
    )
    if not rows:
        raise validation.ValidationError(f"Session {sid!r} does not exist; nothing to forget")
    store.run("MATCH (:Session {session_id: $sid})-[d:DISCOVERED]->() DELETE d", {"sid": sid})
    forgotten = forget_sources(store, rows[0]["user_id"], rows[0]["turn_ids"])
    store.run(
        "MATCH (s:Session {session_id: $sid}) SET s.reconciliation_status = 'forgotten', s.reconciled_at = null",
        {"sid": sid},
    )
    return forgotten


def forget_memory(store: GraphStore, user_id: str, memory_id: str) -> Forgotten:
    """Remove what a memory file's text produced; works before or after the file is deleted."""
    return forget_sources(store, validation.user_id(user_id), [validation.memory_id(memory_id)])
