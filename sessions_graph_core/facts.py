"""Facts and decisions: statements in slots, superseded rather than deleted (seed 002).

A slot names what a statement is about ("orders service/owner"). Statements of one user, kind
and slot form one chain ordered by `rank` (valid_at, then source order, then id), whatever
order they were reconciled in: each one SUPERSEDES the one before it, which gets
`superseded_at`. A statement equal to the one that held the slot at its time is a
restatement: it links to the existing node instead of making a new one. Statements without a slot never supersede;
equal ones are one node.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel

from . import entities, validation
from .clock import to_iso
from .entities import MERGE_ENTITY, EntityRow
from .extraction import ExtractedFact, normalise
from .store import GraphStore

SourceKind = Literal["Turn", "Memory"]
SOURCE_MATCH = {
    "Turn": "MATCH (src:Turn {turn_id: $source_id})",
    "Memory": "MATCH (src:Memory {memory_id: $source_id})",
}


class Source(BaseModel):
    """Where statements come from: a turn of a session, or a memory file."""

    kind: SourceKind
    source_id: str
    user_id: str
    user_key: str
    session_id: str | None
    valid_at: str
    order: int


def claim(fact: ExtractedFact) -> str:
    """What a statement asserts, for telling restatements apart from changes."""
    if fact.subject and fact.predicate and fact.object:
        return normalise(f"{fact.subject} | {fact.predicate} | {fact.object}")
    return normalise(fact.text)


def fact_id(source: Source, fact: ExtractedFact) -> str:
    # A slotted statement is one event (its source is part of it); a slotless one is the claim itself.
    parts = [source.user_id, fact.kind, fact.slot, claim(fact)] + ([source.source_id] if fact.slot else [])
    return "f-" + hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24]


_RECORD = (
    " OPTIONAL MATCH (p:Fact {user_id: $user_id, kind: $kind, slot: $slot}) "
    "WHERE $slot <> '' AND p.valid_at <= $valid_at AND p.fact_id <> $fact_id "
    "WITH src, p ORDER BY p.rank DESC "
    "WITH src, collect(p)[0] AS prev "
    "WITH src, CASE WHEN prev IS NOT NULL AND prev.claim = $claim THEN prev.fact_id ELSE $fact_id END AS target "
    "MERGE (f:Fact {fact_id: target}) "
    "ON CREATE SET f.user_id = $user_id, f.user_key = $user_key, f.text = $text, f.claim = $claim, "
    "f.subject = $subject, f.predicate = $predicate, f.object = $object, f.slot = $slot, f.kind = $kind, "
    "f.rationale = $rationale, f.confidence = $confidence, f.valid_at = $valid_at, f.rank = $rank, "
    "f.session_id = $session_id, f.source_id = $source_id "
    # A slotless claim holds from its earliest statement, whichever was reconciled first.
    "ON MATCH SET f.valid_at = CASE WHEN f.slot = '' AND $valid_at < f.valid_at THEN $valid_at ELSE f.valid_at END "
    "MERGE (f)-[:FROM]->(src) "
    "FOREACH (sid IN $session_ids | MERGE (s:Session {session_id: sid}) MERGE (s)-[:DISCOVERED]->(f)) "
    "FOREACH (e IN $about | " + MERGE_ENTITY + " MERGE (f)-[:ABOUT]->(n)) "
    "RETURN f.fact_id AS fact_id"
)

# Put the new statement between the one before it and the one after it in its slot's chain.
_CHAIN = (
    "MATCH (f:Fact {fact_id: $fact_id}) "
    "OPTIONAL MATCH (p:Fact {user_id: $user_id, kind: $kind, slot: $slot}) WHERE p.rank < f.rank "
    "WITH f, p ORDER BY p.rank DESC WITH f, collect(p)[0] AS prev "
    "OPTIONAL MATCH (n:Fact {user_id: $user_id, kind: $kind, slot: $slot}) WHERE n.rank > f.rank "
    "WITH f, prev, n ORDER BY n.rank WITH f, prev, collect(n)[0] AS next "
    # By id, not by variable: FalkorDB rejects a pattern whose bound end is null.
    "OPTIONAL MATCH (:Fact {fact_id: next.fact_id})-[skipped:SUPERSEDES]->(:Fact {fact_id: prev.fact_id}) "
    "DELETE skipped "
    "FOREACH (x IN CASE WHEN prev IS NULL THEN [] ELSE [prev] END | "
    "  MERGE (f)-[:SUPERSEDES]->(x) SET x.superseded_at = f.valid_at) "
    "FOREACH (x IN CASE WHEN next IS NULL THEN [] ELSE [next] END | "
    "  MERGE (x)-[:SUPERSEDES]->(f) SET f.superseded_at = x.valid_at) "
    "RETURN f.fact_id AS fact_id"
)


def record(store: GraphStore, source: Source, fact: ExtractedFact, about: Sequence[EntityRow], index: int) -> str:
    """Write one statement from one source; returns the id of the node that holds it.

    Two idempotent statements, so a re-run after a crash between them converges.
    """
    fid = fact_id(source, fact)
    params = {
        "source_id": source.source_id,
        "user_id": source.user_id,
        "user_key": source.user_key,
        "session_id": source.session_id,
        "session_ids": [source.session_id] if source.session_id else [],
        "fact_id": fid,
        "kind": fact.kind,
        "slot": fact.slot,
        "claim": claim(fact),
        "text": fact.text,
        "subject": fact.subject,
        "predicate": fact.predicate,
        "object": fact.object,
        "rationale": fact.rationale,
        "confidence": fact.confidence,
        "valid_at": source.valid_at,
        "rank": f"{source.valid_at}|{source.order:09d}|{index:04d}|{fid}",
        "about": [row.model_dump() for row in about],
    }
    rows = store.run(SOURCE_MATCH[source.kind] + _RECORD, params)
    if not rows:
        raise LookupError(f"{source.kind} {source.source_id!r} is gone; its statements were not written")
    target = rows[0]["fact_id"]
    if fact.slot and target == fid:
        store.run(_CHAIN, params)
    return target


# -- reading -------------------------------------------------------------------------------


class FactView(BaseModel):
    fact_id: str
    kind: str
    text: str
    slot: str
    rationale: str | None = None
    session_id: str | None = None
    valid_at: str
    superseded_at: str | None = None
    replaced: list[str] = []


_VIEW = (
    "x.fact_id AS fact_id, x.kind AS kind, x.text AS text, x.slot AS slot, x.rationale AS rationale, "
    "x.session_id AS session_id, x.valid_at AS valid_at, x.superseded_at AS superseded_at"
)
_ABOUT = "MATCH (:Entity {user_id: $user_id, name_key: $name})<-[:ABOUT]-(x:Fact) "


def _about_name(store: GraphStore, user_id: str, about: str) -> str:
    validation.user_id(user_id)
    return entities.find(store, user_id, about) or normalise(about)


def current(store: GraphStore, user_id: str, about: str) -> list[FactView]:
    """What is true now about the entity `about` names, each with what it replaced (newest first)."""
    rows = store.run(
        _ABOUT + "WHERE x.superseded_at IS NULL WITH DISTINCT x "
        "OPTIONAL MATCH (x)-[:SUPERSEDES*1..5]->(old:Fact) "
        "WITH x, old ORDER BY old.rank DESC "
        f"WITH x, collect(old.text) AS replaced RETURN {_VIEW}, replaced ORDER BY valid_at, text",
        {"user_id": user_id, "name": _about_name(store, user_id, about)},
    )
    return [FactView.model_validate(row) for row in rows]


def history(store: GraphStore, user_id: str, about: str) -> list[FactView]:
    """Statements about the entity that something later replaced."""
    rows = store.run(
        _ABOUT + f"WHERE x.superseded_at IS NOT NULL WITH DISTINCT x RETURN {_VIEW} ORDER BY valid_at, text",
        {"user_id": user_id, "name": _about_name(store, user_id, about)},
    )
    return [FactView.model_validate(row) for row in rows]


def as_of(store: GraphStore, user_id: str, about: str, moment: str) -> list[FactView]:
    """What was true about the entity at `moment` (an ISO-8601 UTC string)."""
    rows = store.run(
        _ABOUT + "WHERE x.valid_at <= $at AND (x.superseded_at IS NULL OR x.superseded_at > $at) "
        f"WITH DISTINCT x RETURN {_VIEW} ORDER BY valid_at, text",
        {"user_id": user_id, "name": _about_name(store, user_id, about), "at": to_iso(moment)},
    )
    return [FactView.model_validate(row) for row in rows]


class NearbyFact(BaseModel):
    via: str
    fact: str


def nearby(store: GraphStore, user_id: str, about: str) -> list[NearbyFact]:
    """Current facts two hops away: about an entity that shares a current statement with this one."""
    rows = store.run(
        _ABOUT + "WHERE x.superseded_at IS NULL "
        "MATCH (x)-[:ABOUT]->(o:Entity) WHERE o.name_key <> $name "
        "MATCH (o)<-[:ABOUT]-(f:Fact {kind: 'fact'}) WHERE f.superseded_at IS NULL "
        "AND NOT (f)-[:ABOUT]->(:Entity {user_id: $user_id, name_key: $name}) "
        "RETURN DISTINCT o.name AS via, f.text AS fact ORDER BY via, fact",
        {"user_id": user_id, "name": _about_name(store, user_id, about)},
    )
    return [NearbyFact.model_validate(row) for row in rows]


def known_slots(store: GraphStore, user_id: str) -> list[str]:
    """Slots that hold a current statement, for backends that can reuse them."""
    rows = store.run(
        "MATCH (x:Fact {user_id: $user_id}) WHERE x.slot <> '' AND x.superseded_at IS NULL "
        "RETURN DISTINCT x.slot AS slot ORDER BY slot",
        {"user_id": validation.user_id(user_id)},
    )
    return [row["slot"] for row in rows]
