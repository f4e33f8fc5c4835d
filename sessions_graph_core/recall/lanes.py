"""The lanes of recall other than full-text search, and what every lane shares: the search's
context (whose history, the question, its vector, `as_of`) and the reading of turns.

- memories: memory files, by vector and by full-text search;
- turns: messages whose passages are nearest the question by vector;
- entities: entities nearest by vector, with their current facts;
- facts: facts nearest by vector (the turns they came from join the message ranking);
- user_facts: facts of the relation types (predicates) nearest the question.
Every search goes through an index scoped to the user (the full-text index's user token, the
user's own vector label), so its cost follows what matches, not the size of the history.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sessions_graph_core.embeddings.models import (
    EmbeddingUnavailableError,
    VectorCache,
    load_embedder,
)
from sessions_graph_core.embeddings.passages import best_passage, split_passages
from sessions_graph_core.embeddings.vectors import Kind, vector_index
from sessions_graph_core.recall.config import VECTOR_LANES, RecallConfig
from sessions_graph_core.recall.periods import Period
from sessions_graph_core.recall.results import MemoryNote, RecalledFact
from sessions_graph_core.store.base import GraphStore, Row
from sessions_graph_core.store.schema import MEMORY_TEXT_INDEX
from sessions_graph_core.text import WORDS_CACHED

VECTOR_OVERFETCH = 2  # passages read per wanted source: several passages can share one source
POOL = 100  # candidates each message lane hands to the fusion


@dataclass
class Search:
    store: GraphStore
    user_id: str
    question: str
    config: RecallConfig
    model: str
    as_of: str | None
    terms: list[str]
    periods: tuple[Period, ...]
    vector: Any = None  # the question's embedding, None when vector lanes are off
    vectors_found: bool = False

    def nearest(self, kind: Kind, k: int) -> list[tuple[str, int, float]]:
        """(source id, passage, similarity) of the user's passages of `kind` nearest the question."""
        if self.vector is None or k <= 0:
            return []
        index = vector_index(self.user_id, kind, len(self.vector))
        rows = self.store.vector_search(
            index,
            self.vector,
            k=k * VECTOR_OVERFETCH,
            columns="node.source_id AS source_id, node.position AS position, node.user_id AS user_id, "
            "node.embedding_model AS model, similarity",
        )
        # The label is the user's own; checking the owner again costs nothing and guards the rule.
        hits = [(r["source_id"], int(r["position"]), float(r["similarity"])) for r in rows
                if r["user_id"] == self.user_id and r["model"] == self.model]
        self.vectors_found = self.vectors_found or bool(hits)
        return hits

    def no_vectors_reason(self) -> str:
        """Why the vector lanes found nothing: an index still being built after the store started
        (store/falkordb/vector_rebuild.py), or nothing embedded."""
        index = vector_index(self.user_id, "turn", len(self.vector))
        if self.store.vector_index_building(index):
            return "the store started moments ago and is still rebuilding its vector index; try again in a minute"
        return f"nothing of this user is embedded with {self.model} yet"

    def embed_question(self) -> str | None:
        """Embed the question for the vector lanes; the reason they are off, or None."""
        if not any(lane in self.config.lanes for lane in VECTOR_LANES):
            return None
        try:
            self.vector = load_embedder(self.model, store=self.store).embed([self.question])[0]
        except EmbeddingUnavailableError as exc:
            return str(exc)
        return None


# Where a turn sits, without its text: most candidates only need this to be fused and ranked, and
# reading every candidate's text costs more than the text of the few that are shown.
PLACE_COLUMNS = (
    "t.turn_id AS turn_id, t.session_id AS session_id, t.seq AS seq, t.role AS role, t.kind AS kind, "
    "t.timestamp AS timestamp, t.speaker AS speaker, t.text CONTAINS '?' AS asks"
)
TURN_COLUMNS = PLACE_COLUMNS + ", t.text AS text"
# A place with what recall reads of the text (recall/evidence.py): the properties written at ingest, and
# the text only for a turn recorded before them (null otherwise, and dropped from the row).
EVIDENCE_COLUMNS = (
    PLACE_COLUMNS + ", t.concept_words AS concept_words, t.says_when AS says_when, "
    "CASE WHEN t.concept_words IS NULL OR t.says_when IS NULL THEN t.text ELSE NULL END AS text"
)


def is_message(row: Row, search: Search) -> bool:
    """Whether a turn row is a message (the queries read only turns with text) that counts at as_of."""
    if row["kind"] != "message" or row["role"] not in ("user", "assistant"):
        return False
    return search.as_of is None or row["timestamp"] <= search.as_of


def load_turns(search: Search, turn_ids: Sequence[str], columns: str = TURN_COLUMNS) -> dict[str, Row]:
    if not turn_ids:  # often so (every turn shown already read): no round trip for nothing
        return {}
    rows = search.store.run(
        f"UNWIND $ids AS id MATCH (t:Turn {{turn_id: id}}) WHERE t.user_id = $user_id AND t.text <> '' RETURN {columns}",
        {"ids": list(dict.fromkeys(turn_ids)), "user_id": search.user_id},
    )
    return {row["turn_id"]: row for row in rows if is_message(row, search)}


@dataclass
class StoreTurns:
    """The fusion's view of the user's turns, read from the store."""

    search: Search

    def around(self, rows: Mapping[str, Row], turn_ids: Sequence[str], reach: int, *, evidence: bool) -> Iterable[Row]:
        spans = [{"sid": rows[tid]["session_id"], "lo": rows[tid]["seq"] - reach, "hi": rows[tid]["seq"] + reach}
                 for tid in turn_ids]
        # The span's bounds first, on their own: of the session's turns the index finds, most lie outside
        # the span, and comparing two integers is cheaper than reading the user and the text of each.
        near = self.search.store.run(
            "UNWIND $spans AS span MATCH (t:Turn {session_id: span.sid}) "
            "WITH span, t WHERE t.seq >= span.lo AND t.seq <= span.hi "
            "WITH t WHERE t.user_id = $user_id AND t.text <> '' "
            f"RETURN DISTINCT {EVIDENCE_COLUMNS if evidence else PLACE_COLUMNS}",
            {"spans": spans, "user_id": self.search.user_id},
        )
        found = [row for row in near if is_message(row, self.search)]
        for row in found if evidence else ():
            if row["text"] is None:  # the turn has its evidence properties: no text was read
                del row["text"]
        return found

    def texts(self, turn_ids: Sequence[str]) -> Mapping[str, Row]:
        return load_turns(self.search, turn_ids)


def vector_lane(search: Search) -> tuple[dict[str, float], dict[str, list[int]]]:
    """The turns whose passages are nearest the question: their best similarity, and the passages."""
    scores: dict[str, float] = {}
    passages: dict[str, list[int]] = {}
    if search.config.runs("turns", search.config.turns_k):
        for source_id, position, similarity in search.nearest("turn", POOL):
            passages.setdefault(source_id, []).append(position)
            scores[source_id] = max(scores.get(source_id, -1.0), similarity)
    return scores, passages


def memories_lane(search: Search) -> list[MemoryNote]:
    k = search.config.memories_k
    if "memories" not in search.config.lanes or k <= 0:
        return []
    passages: dict[str, list[int]] = {}
    for source_id, position, _ in search.nearest("memory", k):
        passages.setdefault(source_id, []).append(position)
    ids = list(passages)
    for row in search.store.fulltext_search(
        MEMORY_TEXT_INDEX, search.user_id, search.terms, limit=k, columns="node.memory_id AS memory_id, score"
    ):
        ids.append(row["memory_id"])
    ids = list(dict.fromkeys(ids))[:k]
    if not ids:
        return []
    rows = search.store.run(
        "UNWIND $ids AS id MATCH (m:Memory {memory_id: id}) WHERE m.user_id = $user_id "
        "RETURN m.memory_id AS memory_id, m.path AS path, m.updated_at AS updated_at, m.content AS text",
        {"ids": ids, "user_id": search.user_id},
    )
    found = {row["memory_id"]: row for row in rows if search.as_of is None or (row["updated_at"] or "") <= search.as_of}
    notes = []
    for memory_id in ids:
        if memory_id not in found:
            continue
        row = found[memory_id]
        hits = passages.get(memory_id, []) + [best_passage(split_passages(row["text"]), search.question)]
        notes.append(MemoryNote(memory_id=memory_id, path=row["path"], updated_at=row["updated_at"] or "",
                                text=row["text"], passages=list(dict.fromkeys(hits))))
    return notes


_FACT_COLUMNS = (
    "f.fact_id AS fact_id, f.kind AS kind, f.subject AS subject, f.predicate AS predicate, f.object AS object, "
    "f.text AS text, f.rationale AS rationale, f.valid_at AS valid_at, f.superseded_at AS superseded_at, "
    "f.slot AS slot, f.value AS value"
)


def _current(search: Search, row: Row) -> bool:
    """Whether the fact held at `as_of` (now, without one)."""
    if search.as_of is None:
        return row["superseded_at"] is None
    started = (row["valid_at"] or "") <= search.as_of
    return started and (row["superseded_at"] is None or row["superseded_at"] > search.as_of)


def _facts(search: Search, fact_ids: Sequence[str]) -> tuple[list[RecalledFact], dict[str, list[str]]]:
    """The facts that held for each of `fact_ids` (a replaced one is shown by its successor), and
    the turns each of `fact_ids` itself was extracted from."""
    if not fact_ids:
        return [], {}
    rows = search.store.run(
        "UNWIND $ids AS id MATCH (hit:Fact {fact_id: id}) WHERE hit.user_id = $user_id "
        "OPTIONAL MATCH (later:Fact)-[:SUPERSEDES*1..20]->(hit) WHERE later.user_id = $user_id "
        "WITH hit, [hit] + collect(later) AS chain UNWIND chain AS f "
        # What it replaced, newest first, as far back as current_facts reads (seed 002: five).
        "OPTIONAL MATCH (f)-[:SUPERSEDES*1..5]->(old:Fact) "
        "WITH hit, f, old ORDER BY old.rank DESC "
        "WITH hit, f, collect(CASE WHEN old IS NULL THEN NULL "
        "  ELSE {text: old.text, value: old.value} END) AS replaced "
        "OPTIONAL MATCH (f)-[:FROM]->(src:Turn) "
        f"RETURN hit.fact_id AS hit, {_FACT_COLUMNS}, f.candidate IS NOT NULL AS candidate, replaced, "
        "collect(DISTINCT src.turn_id) AS turns",
        {"ids": list(fact_ids), "user_id": search.user_id},
    )
    chosen: dict[str, RecalledFact] = {}
    for hit in fact_ids:
        for row in rows:
            if row["hit"] == hit and _current(search, row) and row["fact_id"] not in chosen:
                chosen[row["fact_id"]] = RecalledFact(
                    fact_id=row["fact_id"], kind=row["kind"] or "fact", subject=row["subject"] or "",
                    predicate=row["predicate"] or "", object=row["object"] or "", text=row["text"] or "",
                    rationale=row["rationale"], valid_at=row["valid_at"], turn=(row["turns"] or [None])[0],
                    slot=row["slot"] or "", held="current" if search.as_of is None else f"as of {search.as_of[:10]}",
                    replaced=[old["text"] for old in row["replaced"] if old["text"]],
                    was=[old["value"] or "(none)" for old in row["replaced"] if old["value"] is not None],
                    candidate=row["candidate"],
                )
                break
    sources = {row["hit"]: row["turns"] for row in rows if row["fact_id"] == row["hit"]}
    return list(chosen.values()), sources


def fact_lanes(search: Search) -> tuple[list[RecalledFact], dict[str, float]]:
    """The facts of the three fact lanes, and the turns the nearest facts came from with their similarity.
    Candidates are among them (RecalledFact.candidate): recall shows them only when asked, but their turns count."""
    config = search.config
    nearest: dict[str, float] = {}
    if "facts" in config.lanes:
        for source_id, _, similarity in search.nearest("fact", config.facts_k):
            if len(nearest) < config.facts_k:
                nearest.setdefault(source_id, similarity)
    ids = list(nearest)
    if "entities" in config.lanes and config.entities_k > 0:
        entity_keys = list(dict.fromkeys(s for s, _, _ in search.nearest("entity", config.entities_k)))[: config.entities_k]
        if entity_keys:
            rows = search.store.run(
                "UNWIND $keys AS key MATCH (e:Entity {entity_key: key, user_id: $user_id})<-[:ABOUT]-(f:Fact) "
                "WHERE f.user_id = $user_id AND f.superseded_at IS NULL "
                "WITH e, f ORDER BY coalesce(f.confidence, 0) DESC, f.valid_at DESC "
                "WITH e, collect(f.fact_id)[0..$per] AS facts UNWIND facts AS id RETURN id",
                {"keys": entity_keys, "user_id": search.user_id, "per": config.edges_per_entity},
            )
            ids += [row["id"] for row in rows]
    if "user_facts" in config.lanes and config.user_fact_types > 0 and config.user_facts_k > 0 and search.vector is not None:
        ids += _user_facts(search)
    facts, sources = _facts(search, list(dict.fromkeys(ids)))
    for fact in facts:
        if fact.fact_id in nearest:
            fact.score = round(nearest[fact.fact_id], 4)
    turn_scores: dict[str, float] = {}
    for fact_id, similarity in nearest.items():
        for tid in sources.get(fact_id, []):
            turn_scores[tid] = max(turn_scores.get(tid, -1.0), similarity)
    return facts, turn_scores


# Relation names per model, each embedded once while among the last WORDS_CACHED asked for.
_PREDICATE_VECTORS = VectorCache(WORDS_CACHED)


def _predicate_vectors(store: GraphStore, model: str, predicates: Sequence[str]) -> dict[str, Any]:
    """Vectors of relation names, those not kept embedded in one call."""

    def embed(missing: list[tuple[str, str]]) -> Any:
        return load_embedder(model, store=store).embed([p.replace("_", " ") for _, p in missing])

    found = _PREDICATE_VECTORS.get([(model, p) for p in predicates], embed)
    return {p: found[(model, p)] for p in predicates}


def _user_facts(search: Search) -> list[str]:
    """Facts whose predicate is among the relation types nearest the question."""
    predicates = [row["p"] for row in search.store.run(
        "MATCH (f:Fact {user_id: $user_id}) WHERE f.predicate IS NOT NULL AND f.predicate <> '' "
        "RETURN DISTINCT f.predicate AS p ORDER BY p", {"user_id": search.user_id})]
    if not predicates:
        return []
    try:
        vectors = _predicate_vectors(search.store, search.model, predicates)
    except EmbeddingUnavailableError:  # the question was embedded, the names now cannot be: no such lane
        return []
    ranked = sorted(range(len(predicates)), key=lambda i: -float(vectors[predicates[i]] @ search.vector))
    chosen = [predicates[i] for i in ranked[: search.config.user_fact_types]]
    rows = search.store.run(
        "MATCH (f:Fact {user_id: $user_id}) WHERE f.predicate IN $predicates AND f.superseded_at IS NULL "
        "RETURN f.fact_id AS id ORDER BY f.valid_at DESC LIMIT $k",
        {"user_id": search.user_id, "predicates": chosen, "k": search.config.user_facts_k},
    )
    return [row["id"] for row in rows]
