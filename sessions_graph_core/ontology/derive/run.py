"""Ontology derivation: grow a user's types from their own sessions at session-count milestones.

A run claims the user, samples the sessions reconciled since the last adopted run, asks the LLM
for up to three candidate models, and gates each against the current model on held-out (or, for
small deltas, the same) sessions: a candidate must not type more mentions as catch-alls and must
not type fewer user turns' relations. The best passing one is adopted; the rest are kept as
rejected versions. Every version a run stores carries that run's report.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, Field

from sessions_graph_core import validation
from sessions_graph_core.clock import now_iso
from sessions_graph_core.llm import LlmClient, LlmUsage
from sessions_graph_core.ontology.derive.candidates import Candidate, Change, Proposal, apply
from sessions_graph_core.ontology.derive.gate import Score, agreement, measure, messages, passes, split
from sessions_graph_core.ontology.derive.milestones import (
    SEEDS,
    claim,
    derivation_state,
    due,
    qualifying,
    reached,
    release,
)
from sessions_graph_core.ontology.derive.prompt import SYSTEM_PROMPT, observed, prompt
from sessions_graph_core.ontology.model import (
    CATCH_ALL_LABELS,
    CORE_LABELS,
    OntologyModel,
    OntologyVersion,
    adopted,
)
from sessions_graph_core.ontology.versions import record_version
from sessions_graph_core.reconcile import facts
from sessions_graph_core.reconcile import pipeline as reconcile
from sessions_graph_core.reconcile.extraction.base import Extraction, ExtractionBackend
from sessions_graph_core.reconcile.extraction.registry import get_backend
from sessions_graph_core.store.base import GraphStore, user_key
from sessions_graph_core.text import comparable
from sessions_graph_core.validation import ValidationError

Outcome = Literal["adopted", "rejected", "failed", "nothing to do", "derive off", "claimed elsewhere"]


# -- the run report --------------------------------------------------------------------------


class CandidateReport(BaseModel):
    seed: int
    score: Score | None = None
    passed: bool = False
    agreement: float | None = None
    added: int = 0
    merged: int = 0
    retired: int = 0
    refused: list[str] = Field(default_factory=list)
    version: int | None = None
    error: str | None = None
    seconds: float = 0.0


class RunReport(BaseModel):
    user_id: str
    milestone: int
    outcome: Outcome
    delta: int = 0
    sampled: int = 0
    held_out: int = 0
    in_sample: bool = False
    base_version: int | None = None
    base: Score | None = None
    candidates: list[CandidateReport] = Field(default_factory=list)
    adopted_version: int | None = None
    rejected_versions: list[int] = Field(default_factory=list)
    relabelled: int = 0
    reextracted: int = 0
    llm: LlmUsage | None = None
    seconds: float = 0.0


# -- storing versions ------------------------------------------------------------------------

def _version_fields(base: OntologyVersion, candidate: Candidate, report: RunReport, seed: int) -> dict:
    return {
        "source": "derived",
        "derive": base.derive,
        "model": candidate.model.model_dump_json(),
        "pinned": base.pinned,
        "source_hash": base.source_hash,
        "created_at": now_iso(),
        "based_on": base.version,
        "milestone": report.milestone,
        "seed": seed,
        "changelog": json.dumps([change.model_dump() for change in candidate.changelog]),
        "pool": candidate.pool.model_dump_json(),
        "report": report.model_copy(
            update={"candidates": [c for c in report.candidates if c.seed == seed]}
        ).model_dump_json(),
    }


def store_adopted(
    store: GraphStore, user_id: str, base: OntologyVersion, candidate: Candidate, report: RunReport, seed: int
) -> int:
    return record_version(store, user_id, _version_fields(base, candidate, report, seed), adopt=True)


def store_rejected(
    store: GraphStore, user_id: str, base: OntologyVersion, candidate: Candidate, report: RunReport, seed: int
) -> int:
    return record_version(store, user_id, _version_fields(base, candidate, report, seed), adopt=False)


def _pool(store: GraphStore, user_id: str) -> OntologyModel:
    rows = store.run(
        "MATCH (:User {user_id: $uid})-[:ADOPTED]->(v:OntologyVersion) RETURN v.pool AS pool", {"uid": user_id}
    )
    if not rows or not rows[0]["pool"]:
        return OntologyModel(node_types=[])
    # Pool relations may name endpoints the pool does not hold: it is parsed, never checked with problems().
    return OntologyModel.model_validate_json(rows[0]["pool"])


# -- changing the graph after adoption -------------------------------------------------------


def retype(store: GraphStore, user_id: str, entity_keys: Sequence[str], target: str) -> int:
    """Give the user's entities a new type in place; one that meets its namesake of that type joins it."""
    target = validation.identifier(target)
    rows = store.run(
        "MATCH (n:Entity {user_id: $uid}) WHERE n.entity_key IN $keys "
        "RETURN n.entity_key AS key, n.name_key AS name_key, n.type AS type",
        {"uid": user_id, "keys": list(entity_keys)},
    )
    for row in rows:
        old, new = row["key"], f"{row['name_key']}|{target}"
        keys = {"uid": user_id, "old": old, "new": new}
        if store.run("MATCH (t:Entity {user_id: $uid, entity_key: $new}) RETURN t.entity_key AS key", keys):
            _join(store, keys)
        else:
            store.run(
                "MATCH (n:Entity {user_id: $uid, entity_key: $old}) "
                "SET n.type = $target, n.entity_key = $new, n.ontology_conformant = true",
                keys | {"target": target},
            )
        if validation.is_identifier(row["type"]) and row["type"] != "Entity":
            # The type label was promoted only when reconciliation enforced the ontology; it follows the type.
            store.run(
                f"MATCH (n:Entity:{row['type']} {{user_id: $uid, entity_key: $new}}) REMOVE n:{row['type']} SET n:{target}",
                keys,
            )
    return len(rows)


def _join(store: GraphStore, keys: dict) -> None:
    """Move an entity's mentions, statements and sessions onto the entity it becomes, then remove it."""
    pair = "MATCH (n:Entity {user_id: $uid, entity_key: $old}), (t:Entity {user_id: $uid, entity_key: $new}) "
    store.run(
        pair + "MATCH (n)-[m:MENTIONED_IN]->(c:Chunk) MERGE (t)-[k:MENTIONED_IN]->(c) "
        "SET k.sources = coalesce(k.sources, []) + [x IN coalesce(m.sources, []) WHERE NOT x IN coalesce(k.sources, [])]",
        keys,
    )
    store.run(pair + "MATCH (f:Fact)-[:ABOUT]->(n) MERGE (f)-[:ABOUT]->(t)", keys)
    store.run(pair + "MATCH (s:Session)-[:DISCOVERED]->(n) MERGE (s)-[:DISCOVERED]->(t)", keys)
    store.run(
        pair + "SET t.aliases = t.aliases + [a IN coalesce(n.aliases, []) + n.name WHERE NOT a IN t.aliases AND a <> t.name] "
        "DETACH DELETE n",
        keys,
    )


def relabel_merges(store: GraphStore, user_id: str, changelog: Sequence[Change]) -> int:
    count = 0
    for change in changelog:
        if change.op == "merge" and change.kind == "node" and change.into:
            rows = store.run(
                "MATCH (n:Entity {user_id: $uid, type: $source}) RETURN n.entity_key AS key",
                {"uid": user_id, "source": validation.identifier(change.label)},
            )
            count += retype(store, user_id, [row["key"] for row in rows], change.into)
    return count


def reextract(
    store: GraphStore,
    user_id: str,
    session_ids: Sequence[str],
    model: OntologyModel,
    version: int,
    backend: ExtractionBackend,
) -> int:
    """Extract the sessions' text again under the new model: entities it now types precisely are retyped."""
    labels = set(model.labels())
    for sid in session_ids:
        rows = store.run(
            "MATCH (s:Session {session_id: $sid, user_id: $uid})-[:HAS_TURN]->(t:Turn)-[:HAS_CHUNK]->(c:Chunk) "
            "RETURN t.turn_id AS turn_id, t.seq AS seq, t.timestamp AS timestamp, c.hash AS hash, c.text AS text "
            "ORDER BY seq",
            {"sid": sid, "uid": user_id},
        )
        texts = {row["hash"]: row["text"] for row in rows}
        # The reader's own way in (prose apart from pasted output), so the chunk's kept extraction is the one a
        # reconcile run would have made.
        extractions = reconcile.extract_texts(backend, texts, model, facts.known_slots(store, user_id))
        for extraction in extractions.values():
            for entity in extraction.entities:
                if entity.type in labels and entity.type not in CATCH_ALL_LABELS:
                    loose = store.run(
                        "MATCH (n:Entity {user_id: $uid, name_key: $name}) WHERE n.type <> $type "
                        "AND (n.type IN $catch_all OR NOT n.type IN $labels) RETURN n.entity_key AS key",
                        {"uid": user_id, "name": comparable(entity.name), "type": entity.type,
                         "catch_all": list(CATCH_ALL_LABELS), "labels": sorted(labels)},
                    )
                    retype(store, user_id, [row["key"] for row in loose], entity.type)
        reader = reconcile.read_by(backend)
        for digest, extraction in extractions.items():
            store.run(
                "MATCH (c:Chunk {hash: $hash, user_id: $uid}) SET c.extraction = $extraction, c.read_by = $reader",
                {"hash": digest, "uid": user_id, "extraction": extraction.model_dump_json(), "reader": reader},
            )
        units = [
            reconcile.Unit(
                source=facts.Source(kind="Turn", source_id=row["turn_id"], user_id=user_id, user_key=user_key(user_id),
                                    session_id=sid, valid_at=row["timestamp"], order=row["seq"]),
                text=row["text"],
                hash=row["hash"],
            )
            for row in rows
        ]
        # Statements do not depend on types and are already written: only entities are written again (the
        # chunks, read by this reader, keep the whole extraction set above).
        mentions = {digest: Extraction(entities=extraction.entities) for digest, extraction in extractions.items()}
        reconcile.write_units(store, user_id, units, mentions, model, reconcile.TypingFlags(enforce_ontology=True), reader)
        store.run(
            "MATCH (s:Session {session_id: $sid, user_id: $uid}) SET s.ontology_version = $version",
            {"sid": sid, "uid": user_id, "version": version},
        )
    return len(session_ids)


# -- one run ---------------------------------------------------------------------------------


def _mark(store: GraphStore, user_id: str, milestone: int, watermark: str | None) -> None:
    store.run(
        "MATCH (u:User {user_id: $uid}) SET u.derive_milestone = $milestone, "
        "u.derive_watermark = coalesce($watermark, u.derive_watermark)",
        {"uid": user_id, "milestone": milestone, "watermark": watermark},
    )


def derive(
    store: GraphStore,
    user_id: str,
    *,
    llm: LlmClient | None = None,
    backend: ExtractionBackend | None = None,
    force: bool = False,
    seeds: int = SEEDS,
    now: datetime | None = None,
) -> RunReport:
    """One derivation run for the user. Without an LLM configured it raises NoLlmConfiguredError first."""
    uid = validation.user_id(user_id)
    if not 1 <= seeds <= SEEDS:
        raise ValidationError(f"seeds must be between 1 and {SEEDS}, got {seeds}")
    llm = llm or LlmClient.from_config()
    started = time.perf_counter()
    sessions = qualifying(store, uid)
    milestone = max(reached(len(sessions)), derivation_state(store, uid)["milestone"])
    report = RunReport(user_id=uid, milestone=milestone, outcome="nothing to do", llm=LlmUsage(provider=llm.provider, model=llm.model))
    current = adopted(store, uid)
    if current.derive == "off":
        return report.model_copy(update={"outcome": "derive off"})
    if not force and due(store, uid) is None:
        return report
    token = uuid.uuid4().hex
    if not claim(store, uid, token, now or datetime.now(UTC)):
        return report.model_copy(update={"outcome": "claimed elsewhere"})
    try:
        _run(store, uid, current, sessions, report, llm, backend or get_backend(), seeds)
    finally:
        release(store, uid, token)
    report.seconds = round(time.perf_counter() - started, 3)
    return report


class Gate(BaseModel):
    """The gate sessions' messages and how the current model reads them."""

    texts: list[str]
    roles: list[str]
    base: list[Extraction]
    score: Score


def _gate(
    store: GraphStore, uid: str, session_ids: Sequence[str], model: OntologyModel, backend: ExtractionBackend
) -> Gate:
    found = messages(store, uid, session_ids)
    texts, roles = [m.text for m in found], [m.role for m in found]
    base = backend.extract(texts, model, ())
    return Gate(texts=texts, roles=roles, base=base, score=measure(base, roles, model))


def _evaluate(entry: CandidateReport, candidate: Candidate, gate: Gate, backend: ExtractionBackend) -> None:
    extractions = backend.extract(gate.texts, candidate.model, ())
    entry.score = measure(extractions, gate.roles, candidate.model)
    entry.passed = passes(entry.score, gate.score)
    merges = {c.label: c.into for c in candidate.changelog if c.op == "merge" and c.kind == "node" and c.into}
    entry.agreement = agreement(gate.base, extractions, merges)
    entry.added = sum(c.op in ("add", "restore") for c in candidate.changelog)
    entry.merged = sum(c.op == "merge" for c in candidate.changelog)
    entry.retired = sum(c.op == "retire" for c in candidate.changelog)
    entry.refused = candidate.refused


def _best(report: RunReport) -> CandidateReport | None:
    passing = [c for c in report.candidates if c.passed and c.score is not None]
    return max(passing, key=lambda c: c.score.coverage - c.score.catch_all_share) if passing else None  # type: ignore[union-attr]


def _run(
    store: GraphStore,
    uid: str,
    current: OntologyVersion,
    sessions: list[dict],
    report: RunReport,
    llm: LlmClient,
    backend: ExtractionBackend,
    seeds: int,
) -> None:
    watermark = derivation_state(store, uid)["watermark"]
    delta = [row["session_id"] for row in sessions if watermark is None or row["reconciled_at"] > watermark]
    report.delta = len(delta)
    if not delta:
        _mark(store, uid, report.milestone, None)
        return
    chosen = split(delta, uid, report.milestone)
    report.sampled, report.in_sample = len(chosen.sample), chosen.in_sample
    report.held_out = 0 if chosen.in_sample else len(chosen.gate)
    report.base_version = current.version
    gate = _gate(store, uid, chosen.gate, current.model, backend)
    report.base = gate.score
    pool = _pool(store, uid)
    protected = sorted(set(CORE_LABELS) | set(CATCH_ALL_LABELS) | set(current.pinned))
    conversations, seen = messages(store, uid, chosen.train), observed(store, uid, chosen.train)
    candidates: dict[int, Candidate] = {}
    before = llm.usage.model_copy()
    for seed in range(seeds):
        started = time.perf_counter()
        entry = CandidateReport(seed=seed)
        report.candidates.append(entry)
        try:
            asked = prompt(current.model, conversations, seen, protected, pool, seed, seeds)
            candidates[seed] = apply(current.model, llm.ask(SYSTEM_PROMPT, asked, Proposal), current.pinned, pool)
        except Exception as exc:  # noqa: BLE001 - a bad answer or a failed call fails this seed only
            entry.error = f"{type(exc).__name__}: {exc}"
        else:
            _evaluate(entry, candidates[seed], gate, backend)
        entry.seconds = round(time.perf_counter() - started, 3)
    report.llm = llm.usage.since(before)
    best = _best(report)
    report.outcome = "adopted" if best else "rejected" if candidates else "failed"
    if best is not None:
        adopted_version = store_adopted(store, uid, current, candidates[best.seed], report, best.seed)
        best.version = report.adopted_version = adopted_version
    for seed, candidate in candidates.items():
        if best is None or seed != best.seed:
            report.candidates[seed].version = store_rejected(store, uid, current, candidate, report, seed)
            report.rejected_versions.append(report.candidates[seed].version)  # type: ignore[arg-type]
    if best is None:
        # The watermark stays, so these sessions are part of the next run's delta.
        _mark(store, uid, report.milestone, None)
        return
    _after_adoption(store, uid, candidates[best.seed], delta, report, backend)
    _mark(store, uid, report.milestone, max(row["reconciled_at"] for row in sessions))


def _after_adoption(
    store: GraphStore, uid: str, candidate: Candidate, delta: list[str], report: RunReport, backend: ExtractionBackend
) -> None:
    version = report.adopted_version
    assert version is not None
    report.relabelled = relabel_merges(store, uid, candidate.changelog)
    if any(change.op in ("add", "restore") for change in candidate.changelog):
        report.reextracted = reextract(store, uid, delta, candidate.model, version, backend)
    # The version was stored before its relabelling and re-extraction: its report gets their counts.
    store.run(
        "MATCH (v:OntologyVersion {user_id: $uid, version: $version}) SET v.report = $report",
        {"uid": uid, "version": version, "report": report.model_dump_json()},
    )


# -- the version chain, for `ontology show` ----------------------------------------------------


class VersionSummary(BaseModel):
    version: int
    status: str
    source: str
    derive: str
    created_at: str | None
    node_types: int
    relation_types: int
    based_on: int | None = None
    seed: int | None = None
    changelog: list[Change] = Field(default_factory=list)
    report: RunReport | None = None


def chain(store: GraphStore, user_id: str) -> list[VersionSummary]:
    """Every stored version of the user with where it came from and, for derived ones, its run."""
    rows = store.run(
        "MATCH (v:OntologyVersion {user_id: $uid}) RETURN properties(v) AS v ORDER BY v.version",
        {"uid": validation.user_id(user_id)},
    )
    found = []
    for row in rows:
        props = row["v"]
        model = json.loads(props["model"])
        found.append(
            VersionSummary(
                version=props["version"],
                status=props["status"],
                source=props["source"],
                derive=props["derive"],
                created_at=props.get("created_at"),
                node_types=len(model["node_types"]),
                relation_types=len(model.get("relation_types", [])),
                based_on=props.get("based_on"),
                seed=props.get("seed"),
                changelog=json.loads(props["changelog"]) if props.get("changelog") else [],
                report=RunReport.model_validate_json(props["report"]) if props.get("report") else None,
            )
        )
    return found
