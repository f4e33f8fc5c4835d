"""What gets a vector, where vectors live, and which sessions still need them.

Every vector is a `(:Passage)` node: one passage of a turn or memory file, or the text of an
entity or fact. Besides `Passage` it carries a label of its own user, kind and dimension
(`Vec_turn_384_u…`) with a vector index on it, so a nearest-neighbour search reads one user's
vectors of one kind only, whatever the size of everyone else's history. The source records
which model and passage scheme its vectors came from; a source whose record differs from the
current model counts as missing and its passages are replaced, so two models never mix.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel

from sessions_graph_core import validation
from sessions_graph_core.clock import now_iso
from sessions_graph_core.embeddings.models import (
    DEFAULT_EMBEDDING_MODEL,
    Embedder,
    EmbeddingUnavailableError,
    load_embedder,
)
from sessions_graph_core.embeddings.passages import PASSAGE_SCHEME, split_passages
from sessions_graph_core.store.base import GraphStore, VectorIndex, user_key

Kind = Literal["turn", "memory", "entity", "fact"]
KINDS: tuple[Kind, ...] = ("turn", "memory", "entity", "fact")
# Sources whose vectors one statement writes, and sources whose passages go to the model in one call
# (their vectors, about 1.5 KB a passage, are held until written).
WRITE_BATCH = 256
EMBED_GROUP = 2048

# How each kind's source node is found by its key, and which text of it is embedded.
SOURCE = {
    "turn": ("Turn", "turn_id", "t.text"),
    "memory": ("Memory", "memory_id", "t.content"),
    "entity": ("Entity", "entity_key", "t.name"),
    "fact": (
        "Fact",
        "fact_id",
        "CASE WHEN t.subject <> '' AND t.predicate <> '' AND t.object <> '' "
        "THEN t.subject + ' ' + t.predicate + ' ' + t.object + '. ' + t.text ELSE t.text END",
    ),
}

class Embedded(BaseModel):
    """What one embedding run wrote."""

    session_id: str | None = None
    model: str
    turns: int = 0
    memories: int = 0
    entities: int = 0
    facts: int = 0
    passages: int = 0


def vector_index(user_id: str, kind: Kind, dimension: int) -> VectorIndex:
    return VectorIndex(validation.identifier(f"Vec_{kind}_{int(dimension)}_{user_key(user_id)}"), "embedding", dimension)


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _ensured(store: GraphStore, index: VectorIndex) -> None:
    made: set[VectorIndex] = store.__dict__.setdefault("_vector_indexes_made", set())
    if index not in made:
        store.ensure_vector_index(index)
        made.add(index)


def _stale_sources(store: GraphStore, kind: Kind, match: str, params: dict[str, Any], model: str,
                   by: str = "") -> list[dict]:
    """(key, user_id, text) of the sources `match` binds to `t` that lack current vectors; with `by` (a
    variable `match` binds beside `t`), each row carries it as `by` too, and a source counts once per value."""
    label, key, text = SOURCE[kind]
    bound = f"{by}, t" if by else "t"
    carried = f"{by} AS by, " if by else ""
    rows = store.run(
        f"{match} WITH DISTINCT {bound} WHERE t:{label} RETURN {carried}t.{key} AS key, t.user_id AS user_id, "
        f"{text} AS text, t.embedding_model AS model, t.embedding_scheme AS scheme, t.embedding_hash AS hash",
        params,
    )
    stale = []
    for row in rows:
        if not row["text"] or not row["user_id"]:
            continue
        current = row["model"] == model and row["scheme"] == PASSAGE_SCHEME and row["hash"] == text_hash(row["text"])
        if not current:
            stale.append(row)
    return stale


def _passages(kind: Kind, text: str) -> list[str]:
    # Entities and facts are one short text each; turns and memory files can be long.
    return split_passages(text) if kind in ("turn", "memory") else [text]


def write_vectors(store: GraphStore, embedder: Embedder, kind: Kind, sources: Sequence[dict]) -> int:
    """Embed the sources' passages and replace their old vectors; returns the passages written.

    Up to EMBED_GROUP sources, whatever their user or session, go to the model in one call, so texts of
    like length share batches; the writes then go a user's WRITE_BATCH sources at a time."""
    written = 0
    for start in range(0, len(sources), EMBED_GROUP):
        group = sources[start : start + EMBED_GROUP]
        passages = [_passages(kind, source["text"]) for source in group]
        vectors = iter(embedder.embed([text for texts in passages for text in texts]))
        by_user: dict[str, list[tuple[dict, list[Any]]]] = {}
        for source, texts in zip(group, passages, strict=True):
            by_user.setdefault(source["user_id"], []).append((source, [next(vectors) for _ in texts]))
        for user_id, owned in by_user.items():
            for first in range(0, len(owned), WRITE_BATCH):
                written += _write_batch(store, embedder, kind, user_id, owned[first : first + WRITE_BATCH])
    return written


def _write_batch(store: GraphStore, embedder: Embedder, kind: Kind, user_id: str,
                 batch: Sequence[tuple[dict, list[Any]]]) -> int:
    """Replace the vectors of one user's sources with those given (one per passage, in order)."""
    label, key, _ = SOURCE[kind]
    rows = [
        {"id": f"{kind}:{user_key(user_id)}:{source['key']}:{position}", "source_id": source["key"],
         "position": position, "vector": vector}
        for source, vectors in batch
        for position, vector in enumerate(vectors)
    ]
    params = {"kind": kind, "user_id": user_id, "model": embedder.model}
    # Old vectors go first; the source is marked current only after its new ones are in, so a
    # crash in between leaves it stale and the next run converges.
    store.run(
        "UNWIND $keys AS k MATCH (p:Passage {user_id: $user_id, kind: $kind, source_id: k}) DETACH DELETE p",
        {**params, "keys": [source["key"] for source, _ in batch]},
    )
    index = vector_index(user_id, kind, embedder.dimension)
    _ensured(store, index)
    store.run(
        f"UNWIND $rows AS r MERGE (p:Passage {{passage_id: r.id}}) "
        f"SET p:{index.label}, p.kind = $kind, p.source_id = r.source_id, p.position = r.position, "
        f"p.user_id = $user_id, p.user_key = $user_key, p.embedding_model = $model, "
        f"p.embedding = {store.vector_value('r.vector')}",
        {**params, "rows": rows, "user_key": user_key(user_id)},
    )
    store.run(
        f"UNWIND $sources AS s MATCH (t:{label} {{{key}: s.key, user_id: $user_id}}) "
        "SET t.embedding_model = $model, t.embedding_scheme = $scheme, t.embedding_hash = s.hash",
        {
            **params,
            "sources": [{"key": source["key"], "hash": text_hash(source["text"])} for source, _ in batch],
            "scheme": PASSAGE_SCHEME,
        },
    )
    return len(rows)


# What of a session gets embedded: its user and assistant messages, and the entities and facts
# reconciliation found in it. Each binds `sid`, one of the sessions `$sids` names, beside `t`: one
# statement reads a kind's sources of every session embedded together.
SESSION_UNITS: dict[Kind, tuple[str, str]] = {
    "turn": (
        "turns",
        # The filter after WITH: inside the MATCH it makes FalkorDB scan every Turn of the graph and
        # walk back to the session (115 ms at 10,000 sessions) instead of starting from the session (0.3 ms).
        "UNWIND $sids AS sid MATCH (:Session {session_id: sid})-[:HAS_TURN]->(t:Turn) "
        "WITH sid, t WHERE t.kind = 'message' AND (t.role = 'user' OR t.role = 'assistant')",
    ),
    "entity": (
        "entities",
        "UNWIND $sids AS sid MATCH (s:Session {session_id: sid})-[:DISCOVERED]->(x) WHERE x:Entity OR x:Fact "
        "OPTIONAL MATCH (x)-[:ABOUT]->(e:Entity) "
        "WITH sid, [y IN [x, e] WHERE y IS NOT NULL AND y:Entity] AS found UNWIND found AS t",
    ),
    "fact": ("facts", "UNWIND $sids AS sid MATCH (:Session {session_id: sid})-[:DISCOVERED]->(t:Fact)"),
}


def _session_users(store: GraphStore, session_ids: Sequence[str]) -> dict[str, str]:
    rows = store.run(
        "MATCH (s:Session) WHERE s.session_id IN $sids RETURN s.session_id AS sid, s.user_id AS user_id",
        {"sids": list(session_ids)},
    )
    return {row["sid"]: row["user_id"] for row in rows}


def _missing(session_id: str) -> validation.ValidationError:
    return validation.ValidationError(f"Session {session_id!r} does not exist: record its start and turns before embedding it")


def _record_status(store: GraphStore, session_ids: Sequence[str], model: str, error: str | None) -> None:
    # `embedding_failures` counts failures in a row with one model, so that whoever retries them can
    # back off and give up; a success or another model starts the count again. One statement for all
    # the sessions embedded together.
    store.run(
        "UNWIND $sids AS sid MATCH (s:Session {session_id: sid}) "
        "WITH s, CASE WHEN $error IS NULL THEN 0 WHEN s.embedding_status = 'failed' AND s.embedding_model = $model "
        "THEN coalesce(s.embedding_failures, 1) + 1 ELSE 1 END AS failures "
        "SET s.embedding_status = $status, s.embedding_model = $model, s.embedding_scheme = $scheme, "
        "s.embedding_error = $error, s.embedded_at = $now, s.embedding_failures = failures",
        {
            "sids": list(session_ids),
            "status": "failed" if error else "completed",
            "model": model,
            "scheme": PASSAGE_SCHEME,
            "error": error,
            "now": now_iso(),
        },
    )


# What embedding one session came to: what it wrote, or the error embed_session raises for it.
Outcome = Embedded | EmbeddingUnavailableError | validation.ValidationError


def embed_session(store: GraphStore, session_id: str, *, model: str = DEFAULT_EMBEDDING_MODEL) -> Embedded:
    """Embed what the session holds that lacks a vector from `model`, and the user's stale memory files.

    The outcome is recorded on the Session (`embedding_status` completed or failed with
    `embedding_error` and `embedding_failures`, the failures in a row with this model); a failure is
    raised as EmbeddingUnavailableError after it is recorded.
    """
    sid = validation.session_id(session_id)
    outcome = embed_sessions(store, [sid], model=model)[sid]
    if isinstance(outcome, Exception):
        raise outcome
    return outcome


def embed_sessions(
    store: GraphStore, session_ids: Sequence[str], *, model: str = DEFAULT_EMBEDDING_MODEL
) -> dict[str, Outcome]:
    """Each session's outcome of embed_session (what it wrote, or the error it would raise), embedding
    the sessions together: the model runs on full batches of texts of similar length, and the store
    takes a few writes per WRITE_BATCH sources rather than a few per session and kind.

    What the graph ends with, and what each session records and counts, is what embedding them one at
    a time in this order gives (a source two sessions share counts for the first). If the joint pass
    fails, the sessions are embedded one at a time, so that each failure is recorded on its own session.
    """
    outcomes: dict[str, Outcome] = {}
    ids: list[str] = []
    for session_id in dict.fromkeys(session_ids):
        try:
            ids.append(validation.session_id(session_id))
        except validation.ValidationError as error:
            outcomes[session_id] = error
    users = _session_users(store, ids)
    outcomes |= {sid: _missing(sid) for sid in ids if sid not in users}
    found = [sid for sid in ids if sid in users]
    if len(found) > 1:
        try:
            return outcomes | _embed_together(store, found, users, model)
        except Exception:  # noqa: BLE001 - each session is tried on its own below, which records its own failure
            pass
    return outcomes | {sid: _embed_alone(store, sid, users[sid], model) for sid in found}


def _embed_together(store: GraphStore, session_ids: Sequence[str], users: dict[str, str], model: str) -> dict[str, Outcome]:
    embedder = load_embedder(model, store=store)
    with store.acknowledged_together():  # one wait for the replicas, once every session is recorded
        counts = _embed_sources(store, session_ids, users, embedder)
        _record_status(store, session_ids, embedder.model, None)
    return dict(counts)


def _embed_alone(store: GraphStore, session_id: str, user_id: str, model: str) -> Outcome:
    try:
        embedder = load_embedder(model, store=store)
        counts = _embed_sources(store, [session_id], {session_id: user_id}, embedder)[session_id]
    except EmbeddingUnavailableError as exc:
        _record_status(store, [session_id], model, str(exc))
        return exc
    except Exception as exc:  # noqa: BLE001 - recorded on the session, then handed back as its outcome
        _record_status(store, [session_id], model, f"{type(exc).__name__}: {exc}")
        error = EmbeddingUnavailableError(f"embedding session {session_id!r} failed: {exc}")
        error.__cause__ = exc
        return error
    _record_status(store, [session_id], embedder.model, None)
    return counts


def _embed_sources(
    store: GraphStore, session_ids: Sequence[str], users: dict[str, str], embedder: Embedder
) -> dict[str, Embedded]:
    """Write every kind's stale sources of the sessions, then their users' stale memory files."""
    counts = _embed_session_sources(store, session_ids, embedder)
    first_of_user: dict[str, str] = {}
    for sid in session_ids:
        first_of_user.setdefault(users[sid], sid)
    for user_id, sid in first_of_user.items():
        memories = embed_memories(store, user_id, embedder=embedder)
        counts[sid].memories += memories.memories
        counts[sid].passages += memories.passages
    return counts


def embed_ahead(store: GraphStore, session_ids: Sequence[str], embedder: Embedder) -> dict[str, int]:
    """Write the vectors the sessions' turns, entities and facts lack, and record nothing on the sessions;
    returns the passages written for each. What embeds sessions while later ones are still reconciled
    (embeddings/alongside.py): embed_sessions, run after, records each session's outcome and embeds
    again only what reconcile changed since, so the graph ends as embed_sessions alone leaves it."""
    users = _session_users(store, session_ids)
    found = [sid for sid in dict.fromkeys(session_ids) if sid in users]
    return {sid: counts.passages for sid, counts in _embed_session_sources(store, found, embedder).items()}


def _embed_session_sources(store: GraphStore, session_ids: Sequence[str], embedder: Embedder) -> dict[str, Embedded]:
    """Write every kind's stale sources of the sessions (not memory files); what each session counts."""
    counts = {sid: Embedded(session_id=sid, model=embedder.model) for sid in session_ids}
    for kind, (count, match) in SESSION_UNITS.items():
        owners: dict[tuple[str, str], str] = {}  # (user, source key) -> the first session that holds it
        stale: list[dict] = []
        found: dict[str, list[dict]] = {}
        for source in _stale_sources(store, kind, match, {"sids": list(session_ids)}, embedder.model, by="sid"):
            found.setdefault(source["by"], []).append(source)
        for sid in session_ids:  # in the order given, so a source two sessions share counts for the first
            for source in found.get(sid, []):
                if owners.setdefault((source["user_id"], source["key"]), sid) == sid:
                    stale.append(source)
                    setattr(counts[sid], count, getattr(counts[sid], count) + 1)
                    counts[sid].passages += len(_passages(kind, source["text"]))
        write_vectors(store, embedder, kind, stale)
    return counts


def embed_memories(store: GraphStore, user_id: str, *, embedder: Embedder | None = None) -> Embedded:
    """Embed the user's memory files whose vectors are missing, stale or from another model."""
    uid = validation.user_id(user_id)
    embedder = embedder or load_embedder(store=store)
    stale = _stale_sources(store, "memory", "MATCH (t:Memory {user_id: $uid})", {"uid": uid}, embedder.model)
    passages = write_vectors(store, embedder, "memory", stale)
    return Embedded(model=embedder.model, memories=len(stale), passages=passages)


def pending_memory_users(store: GraphStore, *, model: str = DEFAULT_EMBEDDING_MODEL) -> list[str]:
    """Users with memory files that lack current vectors from `model`: never embedded, edited
    since, or embedded by another model (written from the CLI or an app, with no session to embed)."""
    stale = _stale_sources(store, "memory", "MATCH (t:Memory)", {}, model)
    return sorted({row["user_id"] for row in stale})


def pending_embeddings(store: GraphStore, *, model: str = DEFAULT_EMBEDDING_MODEL, limit: int = 100) -> list[str]:
    """Sessions whose embedding failed, never ran, or used another model or passage scheme.

    Turns added later are embedded by the run their turn end or session end asks for (seed 000).
    """
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise validation.ValidationError(f"limit must be a positive integer, got {limit!r}")
    rows = store.run(
        "MATCH (s:Session) WHERE s.embedding_status IS NULL OR s.embedding_status <> 'completed' "
        "OR s.embedding_model <> $model OR coalesce(s.embedding_scheme, '') <> $scheme "
        "RETURN s.session_id AS sid ORDER BY sid LIMIT $limit",
        {"model": model, "scheme": PASSAGE_SCHEME, "limit": limit},
    )
    return [row["sid"] for row in rows]


class UserBacklog(BaseModel):
    """One user's sessions whose work is not done: waiting (for reconciliation or vectors) and failed,
    with the session that has waited longest since it went pending."""

    user_id: str
    pending: int
    failed: int
    oldest: str | None = None
    oldest_since: str | None = None


def unfinished_by_user(store: GraphStore, *, model: str = DEFAULT_EMBEDDING_MODEL) -> list[UserBacklog]:
    """Per user with unfinished sessions: how many wait, how many failed, and which waits longest.

    A failed session is counted apart: it waits for a retry or a person, not for a run to reach it.
    """
    rows = store.run(
        "MATCH (s:Session) WHERE s.reconciliation_status IN ['pending', 'failed'] "
        "OR s.embedding_status IS NULL OR s.embedding_status <> 'completed' "
        "OR s.embedding_model <> $model OR coalesce(s.embedding_scheme, '') <> $scheme "
        "WITH s, (s.reconciliation_status = 'failed' OR s.embedding_status = 'failed') AS failed "
        "ORDER BY s.pending_since, s.session_id "
        "WITH s.user_id AS user_id, sum(CASE WHEN failed THEN 1 ELSE 0 END) AS failed, "
        "sum(CASE WHEN failed THEN 0 ELSE 1 END) AS pending, "
        "collect(CASE WHEN failed OR s.pending_since IS NULL THEN null ELSE s END) AS waiting "
        "RETURN user_id, pending, failed, waiting[0].session_id AS oldest, waiting[0].pending_since AS oldest_since "
        "ORDER BY user_id",
        {"model": model, "scheme": PASSAGE_SCHEME},
    )
    return [UserBacklog(**row) for row in rows]


def off_model(store: GraphStore, user_ids: Sequence[str], model: str) -> tuple[list[str], dict[str, int]]:
    """These users' embedded sessions and vectors that another model made: (session ids, vectors per model)."""
    params = {"users": list(user_ids), "model": model}
    sessions = store.run(
        "MATCH (s:Session {embedding_status: 'completed'}) WHERE s.user_id IN $users AND s.embedding_model <> $model "
        "RETURN s.session_id AS session_id ORDER BY session_id",
        params,
    )
    passages = store.run(
        "MATCH (p:Passage) WHERE p.user_id IN $users AND p.embedding_model <> $model "
        "RETURN p.embedding_model AS model, count(p) AS n ORDER BY model",
        params,
    )
    return [row["session_id"] for row in sessions], {row["model"]: row["n"] for row in passages}
