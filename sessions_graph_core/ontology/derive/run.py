"""Ontology derivation: grow a user's types from their own sessions at session-count milestones.

A run claims the user, samples the sessions reconciled since the last adopted run, asks the LLM
for up to three candidate models, and gates each against the current model on held-out (or, for
small deltas, the same) sessions: a candidate must not type more mentions as catch-alls and must
not type fewer user turns' relations. The best passing one is adopted; the rest are kept as
rejected versions. Every version a run stores carries that run's report.
"""

from __future__ import annotations

import json
import random
import time
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Literal

from pydantic import BaseModel, Field

from sessions_graph_core import validation
from sessions_graph_core.clock import format_utc, now_iso
from sessions_graph_core.llm import LlmClient, LlmUsage
from sessions_graph_core.ontology.model import (
    CATCH_ALL_LABELS,
    CORE_LABELS,
    NodeType,
    OntologyModel,
    OntologyVersion,
    RelationType,
    adopted,
)
from sessions_graph_core.ontology.versions import record_version
from sessions_graph_core.reconcile import facts
from sessions_graph_core.reconcile import pipeline as reconcile
from sessions_graph_core.reconcile.extraction.base import Extraction, ExtractionBackend, get_backend, normalise
from sessions_graph_core.store.base import GraphStore, user_key
from sessions_graph_core.validation import ValidationError

MILESTONES = (2, 4, 8, 16, 32, 64, 128)
EVERY = 128
MIN_USER_TURNS = 2
MIN_USER_CHARS = 1000
DELTA_BUDGET = 64
HOLDOUT_FROM = 8
HOLDOUT_SHARE = 0.25
HOLDOUT_MAX = 8
SEEDS = 3
TOLERANCE = 0.01
CLAIM = timedelta(hours=3)
CONVERSATION_BUDGET = 120_000
EXAMPLES_PER_TYPE = 40
# Subjects spaCy leaves as pronouns are the speaker: the user's own relations.
SPEAKER_WORDS = {"", "i", "we", "me", "us", "my", "our"}

Outcome = Literal["adopted", "rejected", "failed", "nothing to do", "derive off", "claimed elsewhere"]


# -- milestones ------------------------------------------------------------------------------


def next_milestone(after: int) -> int:
    """The first milestone above `after`: 2, 4, 8 ... 128, then every 128."""
    for milestone in MILESTONES:
        if milestone > after:
            return milestone
    return after - after % EVERY + EVERY


def reached(count: int) -> int:
    """The highest milestone a count of qualifying sessions has reached (0 below the first)."""
    milestone = 0
    while next_milestone(milestone) <= count:
        milestone = next_milestone(milestone)
    return milestone


def qualifying(store: GraphStore, user_id: str) -> list[dict]:
    """The user's reconciled sessions with enough of the user's own words, oldest reconciliation first."""
    return store.run(
        "MATCH (s:Session {user_id: $uid, reconciliation_status: 'completed'})-[:HAS_TURN]->(t:Turn) "
        "WHERE t.role = 'user' AND t.kind = 'message' AND t.text <> '' "
        "WITH s, count(t) AS turns, sum(size(t.text)) AS chars "
        "WHERE turns >= $min_turns AND chars >= $min_chars "
        "RETURN s.session_id AS session_id, s.reconciled_at AS reconciled_at ORDER BY reconciled_at, session_id",
        {"uid": validation.user_id(user_id), "min_turns": MIN_USER_TURNS, "min_chars": MIN_USER_CHARS},
    )


def _state(store: GraphStore, user_id: str) -> dict:
    rows = store.run(
        "MATCH (u:User {user_id: $uid}) RETURN coalesce(u.derive_milestone, 0) AS milestone, "
        "u.derive_watermark AS watermark",
        {"uid": user_id},
    )
    return rows[0] if rows else {"milestone": 0, "watermark": None}


def due(store: GraphStore, user_id: str) -> int | None:
    """The milestone a run is due for, or None: not reached yet, or the adopted version is derive off."""
    uid = validation.user_id(user_id)
    if adopted(store, uid).derive == "off":
        return None
    milestone = next_milestone(_state(store, uid)["milestone"])
    return milestone if len(qualifying(store, uid)) >= milestone else None


def due_users(store: GraphStore) -> list[tuple[str, int]]:
    """Every user a run is due for, with the milestone, for the Dagster sensor."""
    rows = store.run(
        "MATCH (s:Session {reconciliation_status: 'completed'}) RETURN DISTINCT s.user_id AS user_id ORDER BY user_id"
    )
    found = [(row["user_id"], due(store, row["user_id"])) for row in rows]
    return [(user, milestone) for user, milestone in found if milestone is not None]


# -- the claim -------------------------------------------------------------------------------


def claim(store: GraphStore, user_id: str, token: str, now: datetime) -> bool:
    """Take the user's expiring claim in one statement; False when another run holds it."""
    rows = store.run(
        "MATCH (u:User {user_id: $uid}) WHERE u.derive_claimed_until IS NULL OR u.derive_claimed_until < $now "
        "SET u.derive_claimed_until = $until, u.derive_claim = $token RETURN u.derive_claim AS token",
        {"uid": user_id, "now": format_utc(now), "until": format_utc(now + CLAIM), "token": token},
    )
    return bool(rows)


def release(store: GraphStore, user_id: str, token: str) -> None:
    # Only our own claim: one that expired and was taken by another run stays theirs.
    store.run(
        "MATCH (u:User {user_id: $uid}) WHERE u.derive_claim = $token "
        "SET u.derive_claimed_until = null, u.derive_claim = null",
        {"uid": user_id, "token": token},
    )


# -- sampling --------------------------------------------------------------------------------


class Split(BaseModel):
    sample: list[str]
    train: list[str]
    gate: list[str]
    in_sample: bool


def split(delta: Sequence[str], user_id: str, milestone: int) -> Split:
    """The sample (at most 64) and its hold-out, the same for the same user, milestone and delta."""
    rng = random.Random(f"{user_id}:{milestone}")
    picked = sorted(rng.sample(range(len(delta)), DELTA_BUDGET)) if len(delta) > DELTA_BUDGET else range(len(delta))
    sample = [delta[i] for i in picked]
    if len(sample) < HOLDOUT_FROM:
        return Split(sample=sample, train=sample, gate=sample, in_sample=True)
    size = min(HOLDOUT_MAX, max(1, round(len(sample) * HOLDOUT_SHARE)))
    held = set(rng.sample(range(len(sample)), size))
    return Split(
        sample=sample,
        train=[sid for i, sid in enumerate(sample) if i not in held],
        gate=[sid for i, sid in enumerate(sample) if i in held],
        in_sample=False,
    )


# -- measuring a model -----------------------------------------------------------------------


class Score(BaseModel):
    catch_all_share: float
    coverage: float
    mentions: int
    user_turns: int


class Message(BaseModel):
    session_id: str
    role: str
    text: str


def messages(store: GraphStore, user_id: str, session_ids: Sequence[str]) -> list[Message]:
    rows = store.run(
        "MATCH (s:Session {user_id: $uid})-[:HAS_TURN]->(t:Turn) WHERE s.session_id IN $sids "
        "AND t.kind = 'message' AND t.text <> '' "
        "RETURN s.session_id AS session_id, coalesce(t.role, 'tool') AS role, t.text AS text, t.seq AS seq "
        "ORDER BY session_id, seq",
        {"uid": user_id, "sids": list(session_ids)},
    )
    return [Message(session_id=row["session_id"], role=row["role"], text=row["text"]) for row in rows]


@cache
def _lemmas(label: str) -> str:
    """A relation label in the form spaCy gives predicates: "works_on" -> "work on"."""
    from sessions_graph_core.reconcile.extraction.base import _spacy_pipeline, lemma

    return " ".join(lemma(token) for token in _spacy_pipeline()(label.replace("_", " ")))


def _typed_relation(extraction: Extraction, model: OntologyModel) -> bool:
    """Whether a statement of the text fits one of the model's relation types, endpoints included."""
    labels = set(model.labels())
    types = {normalise(entity.name): entity.type for entity in extraction.entities}
    for fact in extraction.facts:
        if not (fact.predicate and fact.object):
            continue
        subject = normalise(fact.subject or "")
        head = "User" if subject in SPEAKER_WORDS else types.get(subject)
        tail = types.get(normalise(fact.object))
        if head not in labels or tail not in labels:
            continue
        for relation in model.relation_types:
            if _lemmas(relation.label) == fact.predicate.lower() and (
                (not relation.start_labels or head in relation.start_labels)
                and (not relation.end_labels or tail in relation.end_labels)
            ):
                return True
    return False


def _is_catch_all(kind: str, labels: set[str]) -> bool:
    # A type the model does not declare types nothing either: it counts with the catch-alls.
    return kind in CATCH_ALL_LABELS or kind not in labels


def measure(extractions: Sequence[Extraction], roles: Sequence[str], model: OntologyModel) -> Score:
    labels = set(model.labels())
    kinds = [entity.type for extraction in extractions for entity in extraction.entities]
    user = [extraction for extraction, role in zip(extractions, roles, strict=True) if role == "user"]
    typed = sum(1 for extraction in user if _typed_relation(extraction, model))
    return Score(
        catch_all_share=round(sum(_is_catch_all(kind, labels) for kind in kinds) / len(kinds), 4) if kinds else 0.0,
        coverage=round(typed / len(user), 4) if user else 0.0,
        mentions=len(kinds),
        user_turns=len(user),
    )


def passes(score: Score, base: Score) -> bool:
    return score.catch_all_share <= base.catch_all_share + TOLERANCE and score.coverage >= base.coverage - TOLERANCE


def agreement(base: Sequence[Extraction], other: Sequence[Extraction], merges: dict[str, str]) -> float:
    """The share of mentions both models type that get the same type, the base's merged types resolved."""
    same = both = 0
    for left, right in zip(base, other, strict=True):
        theirs = {normalise(entity.name): entity.type for entity in right.entities}
        for entity in left.entities:
            kind = theirs.get(normalise(entity.name))
            if kind is not None:
                both += 1
                same += merges.get(entity.type, entity.type) == kind
    return round(same / both, 4) if both else 1.0


# -- candidates ------------------------------------------------------------------------------


class ProposedNode(BaseModel):
    label: str
    description: str
    identity: Literal["global", "chunk", "span"]


class ProposedRelation(BaseModel):
    label: str
    description: str
    start_labels: list[str]
    end_labels: list[str]


class ProposedChange(BaseModel):
    kind: Literal["node", "relation"]
    label: str
    into: str = Field(description="the type it merges into; empty for a retirement")


class Proposal(BaseModel):
    """What the LLM answers: types to add, types to merge into others, types to retire."""

    add_node_types: list[ProposedNode]
    add_relation_types: list[ProposedRelation]
    merge: list[ProposedChange]
    retire: list[ProposedChange]
    rationale: str


class Change(BaseModel):
    op: Literal["add", "restore", "merge", "retire"]
    kind: Literal["node", "relation"]
    label: str
    into: str | None = None


class Candidate(BaseModel):
    model: OntologyModel
    changelog: list[Change]
    pool: OntologyModel
    refused: list[str]


def _checked_labels(proposal: Proposal) -> None:
    """Every label the answer names is safe to write into query text, or the candidate fails."""
    for node in proposal.add_node_types:
        validation.identifier(node.label)
    for relation in proposal.add_relation_types:
        for label in [relation.label, *relation.start_labels, *relation.end_labels]:
            validation.identifier(label)
    for change in proposal.merge + proposal.retire:
        validation.identifier(change.label)
        if change.into:
            validation.identifier(change.into)


def apply(current: OntologyModel, proposal: Proposal, pinned: Sequence[str], pool: OntologyModel) -> Candidate:
    """The current model changed as proposed, never touching the core, the catch-alls or pinned types."""
    _checked_labels(proposal)
    protected = set(CORE_LABELS) | set(CATCH_ALL_LABELS) | set(pinned)
    nodes = {node.label: node for node in current.node_types}
    relations = {relation.label: relation for relation in current.relation_types}
    retired_nodes = {node.label: node for node in pool.node_types}
    retired_relations = {relation.label: relation for relation in pool.relation_types}
    changelog: list[Change] = []
    refused: list[str] = []
    for node in proposal.add_node_types:
        if node.label in nodes:
            continue
        changelog.append(Change(op="restore" if node.label in retired_nodes else "add", kind="node", label=node.label))
        retired_nodes.pop(node.label, None)
        nodes[node.label] = NodeType(label=node.label, description=node.description, identity=node.identity)
    for relation in proposal.add_relation_types:
        if relation.label in relations:
            continue
        op = "restore" if relation.label in retired_relations else "add"
        changelog.append(Change(op=op, kind="relation", label=relation.label))
        retired_relations.pop(relation.label, None)
        relations[relation.label] = RelationType(**relation.model_dump())
    removals = [(change, True) for change in proposal.merge] + [(change, False) for change in proposal.retire]
    for change, merging in removals:
        table: dict = nodes if change.kind == "node" else relations
        if change.label in protected or change.label not in table or (merging and change.into not in table):
            refused.append(f"{'merge' if merging else 'retire'} {change.kind} {change.label}")
            continue
        (retired_nodes if change.kind == "node" else retired_relations)[change.label] = table.pop(change.label)
        changelog.append(
            Change(op="merge" if merging else "retire", kind=change.kind, label=change.label,
                   into=change.into if merging else None)
        )
    merged = {c.label: c.into for c in changelog if c.op == "merge" and c.kind == "node" and c.into}
    retired = {c.label for c in changelog if c.op == "retire" and c.kind == "node"}
    kept = []
    for relation in relations.values():
        remapped = _remapped(relation, merged, retired)
        if (relation.start_labels and not remapped.start_labels) or (relation.end_labels and not remapped.end_labels):
            # Every type on one side is gone: left empty, the side would admit anything.
            retired_relations[relation.label] = relation
            changelog.append(Change(op="retire", kind="relation", label=relation.label))
        else:
            kept.append(remapped)
    model = OntologyModel(node_types=list(nodes.values()), relation_types=kept)
    problems = model.problems()
    if problems:
        raise ValueError("the candidate does not validate: " + "; ".join(problems))
    return Candidate(
        model=model,
        changelog=changelog,
        pool=OntologyModel(node_types=list(retired_nodes.values()), relation_types=list(retired_relations.values())),
        refused=refused,
    )


def _remapped(relation: RelationType, merged: dict[str, str], retired: set[str]) -> RelationType:
    """Endpoints follow merged types into their targets; retired endpoints are dropped."""

    def ends(labels: list[str]) -> list[str]:
        return list(dict.fromkeys(merged.get(label, label) for label in labels if label not in retired))

    return relation.model_copy(
        update={"start_labels": ends(relation.start_labels), "end_labels": ends(relation.end_labels)}
    )


SYSTEM_PROMPT = """You design the entity and relation types for one user's memory graph, read from their \
own conversations with AI agents. Propose changes to the current model that let more of what they talk \
about be typed precisely: add node types for the kinds of things that now fall under the catch-alls \
Topic and Artifact, and relation types (snake_case verb phrases such as owns, deploys_to, depends_on) \
for how the user relates to them. Merge near-duplicate types into one, retire types nothing uses. \
Never change the protected types. Labels are identifiers: a letter or '_', then letters, digits or '_'; \
node types in PascalCase. Relation endpoints must name node types of the resulting model."""


def prompt(
    current: OntologyModel,
    conversations: Sequence[Message],
    observed: dict[str, list[str]],
    protected: Sequence[str],
    pool: OntologyModel,
    seed: int,
    seeds: int,
) -> str:
    text, used = [], 0
    session = None
    for message in conversations:
        line = (["=== conversation ==="] if message.session_id != session else []) + [f"{message.role}: {message.text}"]
        session = message.session_id
        used += sum(len(part) + 1 for part in line)
        if used > CONVERSATION_BUDGET:
            break
        text += line
    sections = [
        f"Candidate {seed + 1} of {seeds}: propose a variation of your own.",
        "Current model:\n" + current.model_dump_json(),
        "Protected types (never merge or retire): " + ", ".join(protected),
        "Retired types you may restore:\n" + pool.model_dump_json(),
        "Mentions by type in these conversations (type: count, examples):\n"
        + "\n".join(
            f"{kind}: {len(names)}, {', '.join(sorted(set(names))[:EXAMPLES_PER_TYPE])}"
            for kind, names in sorted(observed.items())
        ),
        "Conversations:\n" + "\n".join(text),
    ]
    return "\n\n".join(sections)


def observed(store: GraphStore, user_id: str, session_ids: Sequence[str]) -> dict[str, list[str]]:
    """Names of the entities the sessions mention, by their type, as reconciliation stored them."""
    rows = store.run(
        "MATCH (s:Session {user_id: $uid})-[:HAS_TURN]->(:Turn)-[:HAS_CHUNK]->(:Chunk)<-[:MENTIONED_IN]-(n:Entity) "
        "WHERE s.session_id IN $sids RETURN n.type AS type, n.name AS name ORDER BY type, name",
        {"uid": user_id, "sids": list(session_ids)},
    )
    found: dict[str, list[str]] = {}
    for row in rows:
        found.setdefault(row["type"], []).append(row["name"])
    return found


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
        if validation.IDENTIFIER_PATTERN.match(row["type"]) and row["type"] != "Entity":
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
        extractions = dict(zip(texts, backend.extract(list(texts.values()), model, facts.known_slots(store, user_id)), strict=True))
        for extraction in extractions.values():
            for entity in extraction.entities:
                if entity.type in labels and entity.type not in CATCH_ALL_LABELS:
                    loose = store.run(
                        "MATCH (n:Entity {user_id: $uid, name_key: $name}) WHERE n.type <> $type "
                        "AND (n.type IN $catch_all OR NOT n.type IN $labels) RETURN n.entity_key AS key",
                        {"uid": user_id, "name": normalise(entity.name), "type": entity.type,
                         "catch_all": list(CATCH_ALL_LABELS), "labels": sorted(labels)},
                    )
                    retype(store, user_id, [row["key"] for row in loose], entity.type)
        for digest, extraction in extractions.items():
            store.run(
                "MATCH (c:Chunk {hash: $hash, user_id: $uid}) SET c.extraction = $extraction",
                {"hash": digest, "uid": user_id, "extraction": extraction.model_dump_json()},
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
        # Statements do not depend on types and are already written: only entities are written again.
        mentions = {digest: Extraction(entities=extraction.entities) for digest, extraction in extractions.items()}
        reconcile.write_units(store, user_id, units, mentions, model, reconcile.TypingFlags(enforce_ontology=True))
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
    milestone = max(reached(len(sessions)), _state(store, uid)["milestone"])
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
    watermark = _state(store, uid)["watermark"]
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
