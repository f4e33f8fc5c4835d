"""Reconciliation: turn a session's turns, or a memory file, into entities, facts and decisions.

Everything is extracted before anything is written, so a backend failure leaves the graph as it
was. Then each unit of text is written by idempotent statements ending with the source's
`HAS_CHUNK` link, which marks the unit done: a re-run after a crash redoes only the unfinished
units and converges on the graph a clean run makes. A chunk keeps its extraction and who read it
(read_by), so text seen before (in any source of the user) is not extracted twice by the same reader.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel

from sessions_graph_core import package_version, prose, validation
from sessions_graph_core.clock import now_iso
from sessions_graph_core.llm import MAX_ATTEMPTS
from sessions_graph_core.memory.tool_calls import is_memory_tool
from sessions_graph_core.ontology import model as ontology
from sessions_graph_core.ontology.derive import milestones
from sessions_graph_core.ontology.model import OntologyModel
from sessions_graph_core.reconcile import entities, facts, forgetting, learned_gate, questions, statements
from sessions_graph_core.reconcile.entities import MERGE_ENTITY, EntityRow
from sessions_graph_core.reconcile.extraction.base import ExtractedEntity, Extraction, ExtractionBackend
from sessions_graph_core.reconcile.extraction.registry import get_backend
from sessions_graph_core.reconcile.facts import Source
from sessions_graph_core.store.base import GraphStore, user_key
from sessions_graph_core.text import comparable
from sessions_graph_core.validation import ValidationError

MAX_UNIT_CHARS = 8000
# Before the hash in what a unit's extraction is kept under when only its entities are read.
ENTITIES_ONLY = "entities:"
# Entities the model could not type but a statement is about.
FALLBACK_TYPE = "Topic"


def chunk_hash(user_id: str, text: str) -> str:
    # The user is part of the hash so two users' identical text never shares a chunk.
    return hashlib.sha256(f"{user_id}\0{text}".encode()).hexdigest()


class Unit(BaseModel):
    source: Source
    text: str
    hash: str
    from_tool: bool = False  # a tool's arguments or output (a test run, a file, a log): entities, but no statements
    by_assistant: bool = False  # the assistant's words: its "I" is the assistant, not the user
    # Every unit of this text in the session is a tool's: its statements would never be written, so they
    # are not read (the reader's work and its second parses are most of a tool-heavy session's cost).
    entities_only: bool = False

    @property
    def key(self) -> str:
        """What the unit's extraction is kept under: its hash, or apart when only its entities are read, so
        that a message with the same text never takes an extraction without statements."""
        return ENTITIES_ONLY + self.hash if self.entities_only else self.hash


class ReconcileSummary(BaseModel):
    session_id: str
    status: Literal["completed", "failed"]
    texts_considered: int = 0
    texts_deduped: int = 0
    texts_extracted: int = 0
    texts_failed: int = 0  # texts whose model reply could not be used: left unreconciled, asked again next run
    # Texts whose reply failed on the last of llm.max_attempts runs: kept with the reading made without the model.
    texts_given_up: int = 0
    entities: int = 0
    facts: int = 0
    error: str | None = None


class MemoryReconciliation(BaseModel):
    memory_id: str
    path: str | None = None
    status: Literal["completed", "failed"]
    chunks: int = 0
    entities: int = 0
    facts: int = 0
    texts_failed: int = 0
    texts_given_up: int = 0
    error: str | None = None


class TypingFlags(BaseModel):
    """How entity types become labels (seed 000, entity typing)."""

    enforce_ontology: bool = False
    promote_labels: bool = False


# -- reading what to reconcile -------------------------------------------------------------


def _unit_text(text: str | None) -> str:
    return (text or "").strip()[:MAX_UNIT_CHARS]


def session_units(store: GraphStore, session_id: str, user_id: str) -> list[Unit]:
    """The session's turns that are not reconciled yet, in order, without memory-tool traffic."""
    rows = store.run(
        "MATCH (s:Session {session_id: $sid})-[:HAS_TURN]->(t:Turn) WHERE NOT (t)-[:HAS_CHUNK]->() "
        "RETURN t.turn_id AS turn_id, t.seq AS seq, t.kind AS kind, t.role AS role, t.text AS text, t.tool_name AS tool_name, "
        "t.tool_input AS tool_input, t.timestamp AS timestamp, s.project_key AS project ORDER BY seq",
        {"sid": session_id},
    )
    units = []
    for row in rows:
        if row["tool_name"] and is_memory_tool(row["tool_name"]):
            continue
        tool_call = row["kind"] == "tool_call" and bool(row["tool_input"])
        text = _unit_text(row["tool_input"] if tool_call else row["text"])
        if not text:
            continue
        source = Source(
            kind="Turn",
            source_id=row["turn_id"],
            user_id=user_id,
            user_key=user_key(user_id),
            session_id=session_id,
            valid_at=row["timestamp"],
            order=row["seq"],
            project=row["project"],
        )
        units.append(Unit(source=source, text=text, hash=chunk_hash(user_id, text), from_tool=row["kind"] != "message",
                          by_assistant=row["role"] == "assistant"))
    said = {unit.hash for unit in units if not unit.from_tool}
    return [unit.model_copy(update={"entities_only": True}) if unit.from_tool and unit.hash not in said else unit
            for unit in units]


def memory_units(memory_id: str, user_id: str, content: str, valid_at: str) -> list[Unit]:
    """A memory file's text in paragraphs packed up to the unit size, so nothing is cut off."""
    pieces: list[str] = []
    for paragraph in (part.strip() for part in content.split("\n\n")):
        while paragraph:
            head, paragraph = paragraph[:MAX_UNIT_CHARS], paragraph[MAX_UNIT_CHARS:]
            if pieces and len(pieces[-1]) + 2 + len(head) <= MAX_UNIT_CHARS:
                pieces[-1] += "\n\n" + head
            else:
                pieces.append(head)
    return [
        Unit(
            source=Source(
                kind="Memory",
                source_id=memory_id,
                user_id=user_id,
                user_key=user_key(user_id),
                session_id=None,
                valid_at=valid_at,
                order=index,
            ),
            text=text,
            hash=chunk_hash(user_id, text),
        )
        for index, text in enumerate(pieces)
    ]


# -- extracting ----------------------------------------------------------------------------


def read_by(backend: ExtractionBackend) -> str:
    """Who reads a text, as the chunk keeping its extraction records it (`c.read_by`): the backend, the model it
    asks (an LLM client's provider and model, GLiNER's weights) and the package's version, whose rules and
    prompts every backend reads with. Another reader's extraction is not served (cached): a switched backend,
    model or upgraded package reads the text again."""
    llm = getattr(backend, "llm", None)  # the llm and spacy+llm backends carry their client as `llm`
    model = f"{llm.provider}/{llm.model}" if llm is not None else getattr(backend, "model", None)
    return " ".join(filter(None, [backend.name, model, package_version()]))


def cached(store: GraphStore, user_id: str, units: Sequence[Unit],
           reader: str) -> tuple[dict[str, Extraction], dict[str, str]]:
    """The units' extractions the user's chunks already hold from `reader` (read_by), by key (Unit.key), and
    the texts still to extract. A chunk that holds only entities serves a unit that needs only those; a chunk
    another reader read (or one written before chunks said who read them) serves none."""
    unique = {unit.key: unit for unit in units}
    stored = store.run(
        "MATCH (c:Chunk) WHERE c.hash IN $hashes AND c.user_id = $user_id AND c.extraction IS NOT NULL "
        "AND c.read_by = $reader "
        "RETURN c.hash AS hash, c.extraction AS extraction, coalesce(c.entities_only, false) AS entities_only",
        {"hashes": list({unit.hash for unit in units}), "user_id": user_id, "reader": reader},
    )
    rows = {row["hash"]: row for row in stored}
    found = {key: Extraction.model_validate_json(rows[unit.hash]["extraction"]) for key, unit in unique.items()
             if unit.hash in rows and (unit.entities_only or not rows[unit.hash]["entities_only"])}
    return found, {key: unit.text for key, unit in unique.items() if key not in found}


def extract_texts(
    backend: ExtractionBackend, todo: dict[str, str], model: OntologyModel, known_slots: Sequence[str]
) -> dict[str, Extraction]:
    """The backend's extraction of each text still to extract, by key (Unit.key). Texts of which only the
    entities are wanted go to the backend's `extract_entities` where it has one. Of a whole text the backend
    reads only the prose (prose.split), each piece on its own: the tool output pasted or quoted in it (a test
    run, a `git log`, a stack trace) goes with the texts read for entities only."""
    split = {key: prose.split(text) for key, text in todo.items() if not key.startswith(ENTITIES_ONLY)}
    whole = {(key, n): piece for key, part in split.items() for n, piece in enumerate(part.prose)}
    named = {(key, 0): text for key, text in todo.items() if key.startswith(ENTITIES_ONLY)}
    entities = getattr(backend, "extract_entities", None)
    pasted = {(key, len(part.prose)): part.output for key, part in split.items() if part.output and entities}
    pieces: dict[str, list[Extraction]] = {key: [] for key in todo}
    for batch, only_entities in ((whole, False), (named, True), (pasted, True)):
        if not batch:
            continue
        texts = list(batch.values())
        results = entities(texts, model) if only_entities and entities else backend.extract(texts, model, known_slots)
        if len(results) != len(batch):
            raise RuntimeError(f"backend {backend.name} returned {len(results)} extractions for {len(batch)} texts")
        for (key, _), result in zip(batch, results, strict=True):
            pieces[key].append(result)
    return {key: _joined(found) for key, found in pieces.items()}


def _joined(pieces: Sequence[Extraction]) -> Extraction:
    """One text's extraction from those of its pieces, in order: each entity once (by its comparable name)."""
    if len(pieces) == 1:
        return pieces[0]
    named: dict[str, ExtractedEntity] = {}
    for piece in pieces:
        for entity in piece.entities:
            named.setdefault(comparable(entity.name), entity)
    return Extraction(entities=list(named.values()), facts=[fact for piece in pieces for fact in piece.facts],
                      failed=any(piece.failed for piece in pieces))


def extract(
    store: GraphStore, user_id: str, units: Sequence[Unit], backend: ExtractionBackend, model: OntologyModel
) -> tuple[dict[str, Extraction], int]:
    """The extraction of every unit's text by hash, and how many texts the backend was asked for."""
    found, todo = cached(store, user_id, units, read_by(backend))
    found.update(extract_texts(backend, todo, model, _known_slots(store, user_id, backend) if todo else ()))
    return found, len(todo)


# -- bounding the model's failures ---------------------------------------------------------


def max_attempts(backend: ExtractionBackend | None) -> int:
    """How many runs ask the backend about a text whose reading failed (llm.max_attempts for a backend that asks
    a model: the llm and spacy+llm backends carry their client as `llm`)."""
    llm = getattr(backend, "llm", None)
    return llm.max_attempts if llm is not None else MAX_ATTEMPTS


def give_up(found: dict[str, Extraction], attempts: dict[str, int], limit: int) -> tuple[int, int]:
    """Of the failed readings (key: the runs that asked about it), those asked `limit` times are given up
    in `found`: they keep the reading made without the model (hybrid: the rules'; LLM: empty) and are
    written as read, so nobody asks again. Returns the texts still failed and those given up."""
    done = [key for key, count in attempts.items() if count >= limit]
    for key in done:
        found[key] = found[key].model_copy(update={"failed": False})
    return len(attempts) - len(done), len(done)


def count_turn_failures(store: GraphStore, user_id: str, session_id: str, units: Sequence[Unit],
                        found: dict[str, Extraction]) -> dict[str, int]:
    """Counts this run's failed readings on their turns (`t.llm_attempts`); the runs that asked about each
    failed text, by key."""
    keys = {unit.source.source_id: unit.key for unit in units if found[unit.key].failed}
    if not keys:
        return {}
    rows = store.run(
        "MATCH (:Session {session_id: $sid, user_id: $user_id})-[:HAS_TURN]->(t:Turn) WHERE t.turn_id IN $turns "
        "SET t.llm_attempts = coalesce(t.llm_attempts, 0) + 1 RETURN t.turn_id AS turn_id, t.llm_attempts AS attempts",
        {"sid": session_id, "user_id": user_id, "turns": list(keys)},
    )
    attempts: dict[str, int] = {}
    for row in rows:  # a text in several turns counts its most asked one
        key = keys[row["turn_id"]]
        attempts[key] = max(attempts.get(key, 0), row["attempts"])
    return attempts


def count_memory_failures(store: GraphStore, user_id: str, memory_id: str, units: Sequence[Unit],
                          found: dict[str, Extraction]) -> dict[str, int]:
    """Counts a run in which a piece of the file failed on the Memory (`m.llm_attempts`, cleared once the
    file is read whole); the runs that asked about each failed piece, by key."""
    keys = {unit.key for unit in units if found[unit.key].failed}
    if not keys:
        return {}
    rows = store.run(
        "MATCH (m:Memory {memory_id: $mid, user_id: $user_id}) SET m.llm_attempts = coalesce(m.llm_attempts, 0) + 1 "
        "RETURN m.llm_attempts AS attempts",
        {"mid": memory_id, "user_id": user_id},
    )
    return dict.fromkeys(keys, rows[0]["attempts"] if rows else 1)


# -- writing -------------------------------------------------------------------------------

BATCH_UNITS = 256

_UPSERT_ENTITIES = "UNWIND $entities AS e " + MERGE_ENTITY

# One row per chunk, so no row depends on another row's writes in the same statement.
_WRITE_CHUNKS = (
    "UNWIND $chunks AS u "
    "MERGE (c:Chunk {hash: u.hash}) "
    "ON CREATE SET c.user_id = $user_id, c.user_key = $user_key, c.text = u.text, c.extraction = u.extraction, "
    "  c.entities_only = u.entities_only, c.read_by = $read_by "
    # Another reader's chunk takes this reader's extraction, whole or of entities only; a chunk of this reader
    # that held only entities takes the whole extraction of a unit that needed it. read_by is set last: the
    # CASEs before it read the reader the chunk had.
    "ON MATCH SET c.extraction = CASE WHEN coalesce(c.read_by <> $read_by, true) "
    "  OR (c.entities_only AND u.entities_only IS NULL) THEN u.extraction ELSE c.extraction END, "
    "  c.entities_only = CASE WHEN coalesce(c.read_by <> $read_by, true) OR u.entities_only IS NULL "
    "  THEN u.entities_only ELSE c.entities_only END, c.read_by = $read_by "
    "FOREACH (key IN u.entities | MERGE (n:Entity {user_id: $user_id, entity_key: key}) "
    "  MERGE (n)-[m:MENTIONED_IN]->(c) "
    "  SET m.sources = coalesce(m.sources, []) + [s IN u.source_ids WHERE NOT s IN coalesce(m.sources, [])] "
    "  FOREACH (sid IN u.session_ids | MERGE (s:Session {session_id: sid}) MERGE (s)-[:DISCOVERED]->(n))) "
    # Last, because it marks the units done.
    "WITH c, u UNWIND u.source_ids AS sid {source} MERGE (src)-[:HAS_CHUNK]->(c)"
)


class Plan(BaseModel):
    """What one batch of units writes, grouped so each statement has one row per node it sets."""

    entities: dict[str, EntityRow] = {}
    aliases: dict[str, list[str]] = {}
    slotted: list[facts.Statement] = []
    claims: list[facts.Statement] = []
    chunks: dict[str, dict] = {}
    project: str | None = None  # the sessions' project_key: whose slots "we" fill


def plan(units: Sequence[Unit], extractions: dict[str, Extraction], types: dict[str, str], model: OntologyModel,
         context: statements.Context | None = None) -> Plan:
    """What the units write. `context` carries what earlier turns talked about: an extraction is cached
    per text, so a pronoun whose referent is in an earlier turn is resolved here, not in the reading."""
    batch = Plan()
    context = context if context is not None else statements.Context()
    for unit in units:
        batch.project = batch.project or unit.source.project
        extraction = extractions[unit.key]
        said = [] if unit.from_tool else [
            fact for fact in extraction.facts if statements.worth_stating(fact, by_assistant=unit.by_assistant)
        ]
        stated = context.resolve([statements.placed(fact, unit.source.project) for fact in said])
        if not unit.from_tool:
            context.notice(extraction.entities, stated)
        stated = statements.one_row_each(stated, by_assistant=unit.by_assistant)
        # What a failed reading holds (hybrid: the rules' statements; LLM: nothing) is written, but no chunk
        # or HAS_CHUNK link: the turn stays unreconciled, so the next run asks the model again, and the
        # statements written again converge on these (a slotted statement's id is its source's).
        listed = [*extraction.entities]
        for fact in stated:
            listed += [ExtractedEntity(name=name, type=FALLBACK_TYPE) for name in fact.about]
        rows = entities.resolve(listed, types, model)
        by_name = {row.name_key: row for row in rows}
        for row in rows:
            batch.entities.setdefault(row.key, row)
            batch.aliases.setdefault(row.key, [])
            if row.name not in batch.aliases[row.key]:
                batch.aliases[row.key].append(row.name)
        for index, fact in enumerate(stated):
            about = list(dict.fromkeys(by_name[comparable(name)].key for name in fact.about if comparable(name) in by_name))
            item = facts.statement(unit.source, fact, about, index)
            (batch.slotted if fact.slot else batch.claims).append(item)
        if extraction.failed:
            continue
        chunk = batch.chunks.setdefault(
            unit.hash,
            {"hash": unit.hash, "text": unit.text, "extraction": extraction.model_dump_json(),
             "entities_only": True if unit.entities_only else None,  # null: chunks that hold all stay as they were
             "entities": [], "source_ids": [], "session_ids": []},
        )
        chunk["entities"] = list(dict.fromkeys(chunk["entities"] + [row.key for row in rows]))
        chunk["source_ids"] = list(dict.fromkeys(chunk["source_ids"] + [unit.source.source_id]))
        if unit.source.session_id and unit.source.session_id not in chunk["session_ids"]:
            chunk["session_ids"].append(unit.source.session_id)
    return batch


def write_batch(store: GraphStore, kind: facts.SourceKind, user_id: str, batch: Plan, flags: TypingFlags,
                reader: str) -> None:
    """Entities and their labels, then statements, then chunks (read by `reader`, read_by) with the HAS_CHUNK
    links that mark the units done: a run killed before those links redoes the whole batch, labels included."""
    params = {"user_id": user_id, "user_key": user_key(user_id)}
    rows = [row.model_dump() | {"names": batch.aliases[key]} for key, row in batch.entities.items()]
    store.run(_UPSERT_ENTITIES, params | {"entities": rows})
    promote(store, user_id, list(batch.entities.values()), flags)
    answers, claims, asked = questions.answered(store, user_id, batch.project, batch.claims)
    slotted = facts.same_holders(store, user_id, [*batch.slotted, *answers])
    slotted = questions.same_questions(store, user_id, batch.project, slotted)
    slotted = facts.said_again(store, user_id, facts.same_things(store, user_id, facts.same_kinds(store, user_id, slotted)))
    # Only statements in no slot: one in a slot may be the change of what it holds ("we relocated to bologna"),
    # and hiding it would hide the slot's value. A memory file holds what someone chose to keep: all shown.
    if kind == "Turn":
        claims = _held_back(claims, batch.entities)
    written = [facts.record(store, kind, user_id, params["user_key"], item) for item in slotted]
    facts.adopt(store, user_id, slotted)
    facts.adopt_waiting(store, user_id, slotted)
    questions.adopt_questions(store, user_id, batch.project, slotted)
    facts.record_claims(store, kind, user_id, params["user_key"], claims)
    questions.keep_questions(store, user_id, asked)
    facts.promote_stated_again(store, user_id, [*written, *(item.fact_id for item in claims)])
    if claims or any(statements.waits(item.slot) for item in slotted):
        facts.hold_said(store, user_id)
    store.run(_WRITE_CHUNKS.replace("{source}", facts.SOURCE_BY_ID[kind]),
              params | {"chunks": list(batch.chunks.values()), "read_by": reader})


# Entity types that are names of their own (a person, an organisation, a place): a statement about one names
# something in particular, wherever the name stands ("Bob is on the checkout team."). In lower case: a backend
# that asks a model may type outside the ontology ("person").
NAMED_TYPES = {"person", "organization", "location"}


def _held_back(items: Sequence[facts.Statement], written: dict[str, EntityRow]) -> list[facts.Statement]:
    """The statements, those the learned gate is not sure of marked as candidates: written like any other (so
    no supersession changes, and a later statement in a slot may still take one into its slot), but not shown
    until confirmed."""
    held = learned_gate.held_back(items, {key for key, row in written.items() if row.type.lower() in NAMED_TYPES})
    return [item.model_copy(update={"candidate": True}) if item.fact_id in held else item for item in items]


def promote(store: GraphStore, user_id: str, rows: Sequence[EntityRow], flags: TypingFlags) -> None:
    """Give entities their type as a label where the flags ask for it; unsafe names stay properties."""
    if not (flags.enforce_ontology or flags.promote_labels):
        return
    by_type: dict[str, list[str]] = {}
    for row in rows:
        if (row.conformant or flags.promote_labels) and validation.is_identifier(row.type):
            by_type.setdefault(row.type, []).append(row.key)
    for kind, keys in sorted(by_type.items()):
        store.run(
            f"MATCH (n:Entity {{user_id: $user_id}}) WHERE n.entity_key IN $keys SET n:{validation.identifier(kind)}",
            {"user_id": user_id, "keys": keys},
        )


def write_units(
    store: GraphStore,
    user_id: str,
    units: Sequence[Unit],
    extractions: dict[str, Extraction],
    model: OntologyModel,
    flags: TypingFlags,
    reader: str,
) -> tuple[int, int]:
    """Write the units in order, a batch at a time, their chunks as read by `reader` (read_by); returns the
    distinct entities and the statements written."""
    names = [entity.name for extraction in extractions.values() for entity in extraction.entities]
    types = entities.known_types(store, user_id, names)
    touched: dict[str, EntityRow] = {}
    statements_written = 0
    # One per source: its turns are units in order.
    context = statements.Context(known=lambda: facts.known_slots(store, user_id))
    for start in range(0, len(units), BATCH_UNITS):
        batch = plan(units[start : start + BATCH_UNITS], extractions, types, model, context)
        write_batch(store, units[start].source.kind, user_id, batch, flags, reader)
        touched.update(batch.entities)
        statements_written += len(batch.slotted) + len(batch.claims)
    return len(touched), statements_written


# -- sessions ------------------------------------------------------------------------------


@dataclass
class _Reading:
    """A session as reconciliation found it: its units, their extractions, and what is still to extract."""

    session_id: str
    user_id: str
    revision: int
    backend: ExtractionBackend | None = None
    version: ontology.OntologyVersion | None = None
    units: list[Unit] = field(default_factory=list)
    found: dict[str, Extraction] = field(default_factory=dict)
    todo: dict[str, str] = field(default_factory=dict)  # the texts this session has the backend extract
    extracting: Future[dict[str, Extraction]] | None = None  # begun ahead: todo's extractions, maybe others'
    # Texts a session read ahead of this one extracts (by hash): its call's results, taken from there.
    borrowed: dict[str, Future[dict[str, Extraction]]] = field(default_factory=dict)
    error: str | None = None


def _failure(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}"


def _read_session(store: GraphStore, session_id: str, backend: ExtractionBackend | None,
                  extracted: dict[str, Extraction]) -> _Reading:
    """The session's unreconciled units and the extractions the user's chunks (or `extracted`, held in
    memory) already have. An unknown session is bad input (ValidationError); any other failure is kept
    for the session's record."""
    sid = validation.session_id(session_id)
    rows = store.run(
        "MATCH (s:Session {session_id: $sid}) RETURN s.user_id AS user_id, coalesce(s.revision, 0) AS revision",
        {"sid": sid},
    )
    if not rows:
        raise ValidationError(f"Session {sid!r} does not exist: record its start and turns first")
    reading = _Reading(session_id=sid, user_id=rows[0]["user_id"], revision=rows[0]["revision"])
    try:
        reading.backend = backend or get_backend()
        reading.version = ontology.adopted(store, reading.user_id)
        reading.units = session_units(store, sid, reading.user_id)
        reading.found, reading.todo = cached(store, reading.user_id, reading.units, read_by(reading.backend))
        for digest in [digest for digest in reading.todo if digest in extracted]:
            reading.found[digest] = extracted[digest]
            del reading.todo[digest]
    except Exception as exc:  # noqa: BLE001 - any failure is the session's outcome, recorded for the sweep
        reading.error = _failure(exc)
    return reading


def _reads_known_slots(backend: ExtractionBackend | None) -> bool:
    # A backend that does not say is taken to read them, which only costs it the overlap.
    return getattr(backend, "reads_known_slots", True)


def _known_slots(store: GraphStore, user_id: str, backend: ExtractionBackend | None) -> Sequence[str]:
    """The user's known slots for a backend that reads them; none are read for one that does not."""
    return facts.known_slots(store, user_id) if _reads_known_slots(backend) else ()


def _extraction_args(store: GraphStore, reading: _Reading) -> tuple:
    """The backend call for what the session has to extract; the known slots are read here, on the
    caller's connection."""
    assert reading.backend is not None and reading.version is not None
    return reading.backend, reading.todo, reading.version.model, _known_slots(store, reading.user_id, reading.backend)


def _finish_extraction(store: GraphStore, reading: _Reading) -> None:
    """Every unit's extraction in `found`: from the calls begun ahead, else the backend's now (a failure is
    the session's error). A call begun ahead for several sessions that failed is made again for this
    session's texts alone, so one session's bad text fails that session only. Called once per reading."""
    if reading.error is not None:
        return
    try:
        if reading.extracting is None and not reading.borrowed:
            reading.found.update(extract_texts(*_extraction_args(store, reading)))
            return
        try:
            reading.found.update(_extracted_ahead(reading))
        except Exception:  # noqa: BLE001 - the texts are extracted alone, below
            texts = {unit.key: unit.text for unit in reading.units}
            reading.todo.update((digest, texts[digest]) for digest in reading.borrowed)
            reading.found.update(extract_texts(*_extraction_args(store, reading)))
    except Exception as exc:  # noqa: BLE001 - any failure is the session's outcome, recorded for the sweep
        reading.error = _failure(exc)


def _extracted_ahead(reading: _Reading) -> dict[str, Extraction]:
    """What the calls begun ahead extracted of the reading's texts (raising what a call raised)."""
    found = {digest: call.result()[digest] for digest, call in reading.borrowed.items()}
    if reading.extracting is not None:
        results = reading.extracting.result()
        found.update((digest, results[digest]) for digest in reading.todo)
    return found


def _write_session(store: GraphStore, reading: _Reading, flags: TypingFlags) -> ReconcileSummary:
    """Write what the session's extractions say and record the outcome on the Session, acknowledged
    together (one wait for the replicas, after the outcome is recorded)."""
    with store.acknowledged_together():
        summary = _write_and_record(store, reading, flags)
        milestones.recount(store, reading.session_id)  # completed or failed, whether it counts for derivation
        return summary


def _write_and_record(store: GraphStore, reading: _Reading, flags: TypingFlags) -> ReconcileSummary:
    sid = reading.session_id
    considered, deduped = len(reading.units), len({unit.hash for unit in reading.units})
    touched = statements_written = 0
    error = reading.error
    failed = given_up = 0
    if error is None:
        assert reading.version is not None
        try:
            attempts = count_turn_failures(store, reading.user_id, sid, reading.units, reading.found)
            failed, given_up = give_up(reading.found, attempts, max_attempts(reading.backend))
            touched, statements_written = write_units(
                store, reading.user_id, reading.units, reading.found, reading.version.model, flags, read_by(reading.backend)
            )
        except Exception as exc:  # noqa: BLE001 - any failure is the session's outcome, recorded for the sweep
            error = _failure(exc)
    if error is not None:
        store.run(
            "MATCH (s:Session {session_id: $sid}) SET s.reconciliation_status = 'failed', "
            "s.reconciliation_error = $error",
            {"sid": sid, "error": error},
        )
        return ReconcileSummary(session_id=sid, status="failed", texts_considered=considered, error=error)
    assert reading.backend is not None and reading.version is not None
    # A turn recorded while this ran bumped the revision, or a text's reading failed: leave the session
    # pending for the next sweep, which reads those turns again.
    store.run(
        "MATCH (s:Session {session_id: $sid}) "
        "SET s.reconciliation_status = CASE WHEN $failed > 0 THEN 'pending' "
        "WHEN coalesce(s.revision, 0) = $revision THEN 'completed' ELSE s.reconciliation_status END, "
        # A new pending_since is a new work version (records.work_version), so a sensor's run key asks again.
        "s.pending_since = CASE WHEN $failed > 0 THEN $now ELSE s.pending_since END, "
        "s.texts_given_up = coalesce(s.texts_given_up, 0) + $given_up, "
        "s.reconciliation_error = null, s.reconciled_at = $now, s.ontology_version = $version, s.extraction_backend = $backend",
        {"sid": sid, "revision": reading.revision, "failed": failed, "given_up": given_up, "now": now_iso(), "version": reading.version.version,
         "backend": reading.backend.name},
    )
    return ReconcileSummary(
        session_id=sid,
        status="completed",
        texts_considered=considered,
        texts_deduped=deduped,
        texts_extracted=len(reading.todo),
        texts_failed=failed,
        texts_given_up=given_up,
        entities=touched,
        facts=statements_written,
    )


def reconcile_session(
    store: GraphStore,
    session_id: str,
    *,
    backend: ExtractionBackend | None = None,
    enforce_ontology: bool = False,
    promote_labels: bool = False,
) -> ReconcileSummary:
    """Extract the session's new turns under its user's adopted ontology and record the outcome.

    A failure is recorded on the Session (`reconciliation_status = 'failed'`) and returned, never raised;
    a session that does not exist is bad input (ValidationError).
    """
    reading = _read_session(store, session_id, backend, {})
    _finish_extraction(store, reading)
    return _write_session(store, reading, TypingFlags(enforce_ontology=enforce_ontology, promote_labels=promote_labels))


def reconcile_sessions(
    store: GraphStore,
    session_ids: Sequence[str],
    *,
    backend: ExtractionBackend | None = None,
    enforce_ontology: bool = False,
    promote_labels: bool = False,
) -> Iterator[ReconcileSummary]:
    """reconcile_session's summary of each session in order, leaving the graph that reconciling them one
    by one leaves; a session that does not exist gets a failed summary instead of an error.

    While a session's statements are written, the sessions after it are read and their texts extracted on
    a thread of its own, a group of them in one call (`_read_ahead`): extraction is CPU, the writes mostly
    wait on the store, so the two overlap. A text is extracted once, whichever sessions hold it. A backend
    that reads the user's known slots (`reads_known_slots`) is given one session at a time, and starts on a
    session of the same user only once the one before is written, since those writes may add slots.
    """
    flags = TypingFlags(enforce_ontology=enforce_ontology, promote_labels=promote_labels)
    ids = list(dict.fromkeys(session_ids))
    ahead = _Ahead()
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="extract") as extractor:
        for index, session_id in enumerate(ids):
            reading = ahead.readings.pop(session_id, None) or _read_or_invalid(store, session_id, backend, {})
            if isinstance(reading, ValidationError):
                yield ReconcileSummary(session_id=session_id, status="failed", error=str(reading))
                continue
            _finish_extraction(store, reading)
            _read_ahead(store, extractor, reading, ids[index + 1 :], ahead)
            yield _write_session(store, reading, flags)


def _read_or_invalid(store: GraphStore, session_id: str, backend: ExtractionBackend | None,
                     extracted: dict[str, Extraction]) -> _Reading | ValidationError:
    try:
        return _read_session(store, session_id, backend, extracted)
    except ValidationError as error:
        return error


# How many sessions a backend that reads no known slots extracts ahead, in one call: spaCy parses a few
# dozen short texts at once for about four fifths of the CPU it spends on them six at a time (a session's
# turns), and the call runs beside the writes of the sessions before them.
EXTRACT_AHEAD = 8


@dataclass
class _Ahead:
    """Sessions read before their turn, by id, and the call extracting each text begun so far, by hash."""

    readings: dict[str, _Reading | ValidationError] = field(default_factory=dict)
    extracting: dict[str, Future[dict[str, Extraction]]] = field(default_factory=dict)


def _read_ahead(store: GraphStore, extractor: ThreadPoolExecutor, writing: _Reading, upcoming: Sequence[str],
                ahead: _Ahead) -> None:
    """While `writing` is written: once fewer than a group of the sessions after it are read, read the next
    group and begin extracting what it has to extract, in one call on the extractor's thread. A group is
    EXTRACT_AHEAD sessions, or one for a backend that reads known slots, which begins only on another
    user's session (the writes before may add the user's slots). A text a session before it extracts
    (in this call or an earlier one) is taken from that call, not extracted twice."""
    size = 1 if _reads_known_slots(writing.backend) else EXTRACT_AHEAD
    if not upcoming or all(sid in ahead.readings for sid in upcoming[:size]):
        return
    group = [sid for sid in upcoming if sid not in ahead.readings][:size]
    readings = [_read_or_invalid(store, sid, writing.backend, writing.found) for sid in group]
    ahead.readings.update(zip(group, readings, strict=True))
    starting = [r for r in readings if isinstance(r, _Reading) and _may_extract_ahead(writing, r)]
    todo: dict[str, str] = {}
    from_this_call: list[tuple[_Reading, str]] = []
    for reading in starting:
        for digest in list(reading.todo):
            if digest in ahead.extracting:
                reading.borrowed[digest] = ahead.extracting[digest]
            elif digest in todo:
                from_this_call.append((reading, digest))
            else:
                todo[digest] = reading.todo[digest]
                continue
            del reading.todo[digest]
    if not todo:
        return
    first = starting[0]
    assert first.backend is not None and first.version is not None
    call = extractor.submit(
        extract_texts, first.backend, todo, first.version.model, _known_slots(store, first.user_id, first.backend)
    )
    ahead.extracting.update(dict.fromkeys(todo, call))
    for reading in starting:
        reading.extracting = call if reading.todo else None
    for reading, digest in from_this_call:
        reading.borrowed[digest] = call


def _may_extract_ahead(writing: _Reading, upcoming: _Reading) -> bool:
    if upcoming.error is not None or not upcoming.todo:
        return False
    return upcoming.user_id != writing.user_id or not _reads_known_slots(upcoming.backend)


def pending_memories(store: GraphStore, *, limit: int = 100) -> list[str]:
    rows = store.run(
        "MATCH (m:Memory {extraction_status: 'pending'}) RETURN m.memory_id AS memory_id "
        "ORDER BY m.updated_at, memory_id LIMIT $limit",
        {"limit": int(limit)},
    )
    return [row["memory_id"] for row in rows]


# -- memory files --------------------------------------------------------------------------


def reconcile_memory(
    store: GraphStore,
    memory_id: str,
    *,
    backend: ExtractionBackend | None = None,
    enforce_ontology: bool = True,
    promote_labels: bool = False,
) -> MemoryReconciliation:
    """Replace what the file's previous text produced with what its current text says."""
    mid = validation.memory_id(memory_id)
    rows = store.run(
        "MATCH (m:Memory {memory_id: $mid}) RETURN m.user_id AS user_id, m.path AS path, m.content AS content, "
        "m.updated_at AS updated_at",
        {"mid": mid},
    )
    if not rows:
        return MemoryReconciliation(memory_id=mid, status="failed", error="no such memory")
    row = rows[0]
    user_id = row["user_id"]
    try:
        chosen = backend or get_backend()
        version = ontology.adopted(store, user_id)
        units = memory_units(mid, user_id, row["content"], row["updated_at"])
        extractions, _ = extract(store, user_id, units, chosen, version.model)
        attempts = count_memory_failures(store, user_id, mid, units, extractions)
        failed, given_up = give_up(extractions, attempts, max_attempts(chosen))
        forgetting.forget_memory(store, user_id, mid)
        flags = TypingFlags(enforce_ontology=enforce_ontology, promote_labels=promote_labels)
        touched, statements = write_units(store, user_id, units, extractions, version.model, flags, read_by(chosen))
    except Exception as exc:  # noqa: BLE001 - recorded on the memory for the sweep
        error = f"{type(exc).__name__}: {exc}"
        store.run(
            "MATCH (m:Memory {memory_id: $mid, user_id: $user_id}) SET m.extraction_status = 'failed', m.extraction_error = $error",
            {"mid": mid, "user_id": user_id, "error": error},
        )
        return MemoryReconciliation(memory_id=mid, path=row["path"], status="failed", error=error)
    # An edit while this ran changed updated_at, or a piece's reading failed (not written): the file stays
    # pending, and the next sweep asks again for what failed (the rest comes from the chunks).
    store.run(
        "MATCH (m:Memory {memory_id: $mid, user_id: $user_id}) "
        "SET m.extraction_status = CASE WHEN m.updated_at = $seen AND $failed = 0 THEN 'completed' "
        "ELSE 'pending' END, m.extracted_at = $now, m.extraction_error = null, "
        "m.llm_attempts = CASE WHEN $failed = 0 THEN null ELSE m.llm_attempts END",
        {"mid": mid, "user_id": user_id, "seen": row["updated_at"], "failed": failed, "now": now_iso()},
    )
    return MemoryReconciliation(
        memory_id=mid, path=row["path"], status="completed", chunks=len(units), entities=touched, facts=statements,
        texts_failed=failed, texts_given_up=given_up,
    )

