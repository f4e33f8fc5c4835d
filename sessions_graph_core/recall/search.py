"""recall(user, question): the evidence one user's own past sessions hold about a question.

Lanes, each reading only that user's history:
- memories: memory files, by vector and by full-text search;
- turns: user and assistant messages whose passages are nearest the question by vector;
- text: messages ranked by BM25 over the full-text index;
- entities: entities nearest by vector, with their current facts;
- facts: facts nearest by vector;
- user_facts: facts of the relation types (predicates) nearest the question.
The two message lanes are fused into one ranking: a weighted sum of each lane's score scaled to
its best hit, then spread to the neighbouring turns of the same session, because the answer to a
question is often the reply next to the turn that names its subject (measured on LoCoMo:
R@10 0.61 for BM25 alone, 0.63 fused with vectors, 0.72 with the neighbours). The turns the
nearest facts were extracted from join the fusion (a fact is one statement, so its vector is
sharper than a whole turn's), a question that names a day or a month favours what was said then
or in the week after, and one that asks when favours turns that say when (0.72 -> 0.75 for the
first two, 0.76 with the third).
Every search goes through an index scoped to the user (the full-text index's user token, the
user's own vector label), so its cost follows what matches, not the size of the history.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

from sessions_graph_core.recall import bm25
from sessions_graph_core import validation
from sessions_graph_core.clock import to_iso
from sessions_graph_core.embeddings.models import DEFAULT_EMBEDDING_MODEL, EmbeddingUnavailableError, load_embedder
from sessions_graph_core.embeddings.vectors import Kind, vector_index
from sessions_graph_core.embeddings.passages import best_passage, excerpt, split_passages
from sessions_graph_core.recall.periods import Period, asks_when, mentioned_period, says_when
from sessions_graph_core.store.schema import MEMORY_TEXT_INDEX, TURN_TEXT_INDEX
from sessions_graph_core.store.base import STOPWORDS, GraphStore, Row, search_terms

LANES = ("memories", "turns", "text", "entities", "facts", "user_facts")
MESSAGE_LANES = ("turns", "text")
# Fusion, tuned on LoCoMo: full-text evidence counts twice what the vector does, and a turn gets
# 0.4 of its neighbour's score and 0.25 of the score two turns away.
TEXT_WEIGHT = 1.0
VECTOR_WEIGHT = 0.5
FACT_WEIGHT = 0.3  # for the turn a fact near the question was extracted from
NEIGHBOUR_WEIGHTS = (0.4, 0.25)
ANSWER_WEIGHT = 0.5  # more for the turn right after a matching question: it likely holds the answer
PERIOD_WEIGHT = 0.5  # share of the best score added to a turn said within the period the question names
FOLLOW_UP = timedelta(days=7)  # what happened on a day is often talked about in the days after
WHEN_WEIGHT = 0.2  # share of the best score added, when the question asks when, to a turn that says when
POOL = 100  # candidates each message lane hands to the fusion
SPREAD = 4  # candidates, per turn wanted, whose neighbours are read
TERM_POOL = 100  # best postings read per query term
VECTOR_OVERFETCH = 2  # passages read per wanted source: several passages can share one source

READING_RULES = """These rows come from this user's own past conversations; each one carries the date it was written.
- Read a relative date inside a row ("yesterday", "next week") against that row's date, not today's.
- For counts, totals and intervals, first list the matching items with their dates, count repeats once, then compute.
- When rows disagree, the most recent one holds.
- For a recommendation, start from the preferences the rows show and add general knowledge.
- If the rows do not cover the question, or contradict what it assumes, say that it is not in memory."""
MEMORY_RULE = "MEMORY rows are notes kept on purpose: trust them over a TURN, unless the TURN is newer."
NOTHING = "(nothing in memory matched)"


class RecallConfig(BaseModel):
    """Which lanes run and how wide each one is; the defaults are upstream's benchmarked setup."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    lanes: tuple[str, ...] = LANES
    memories_k: int = 5
    turns_k: int = 8
    text_k: int = 8
    entities_k: int = 15
    edges_per_entity: int = 6
    facts_k: int = 15
    fact_turns_k: int = 8
    user_fact_types: int = 2
    user_facts_k: int = 30
    turn_chars: int = 1500

    @field_validator("lanes", mode="before")
    @classmethod
    def _lanes(cls, value: Any) -> tuple[str, ...]:
        items = [part.strip() for part in value.split(",")] if isinstance(value, str) else list(value)
        items = [item for item in items if item]
        unknown = [item for item in items if item not in LANES]
        if unknown:
            raise ValueError(f"unknown recall lanes {unknown}; choose from {', '.join(LANES)}")
        return tuple(dict.fromkeys(items))

    @field_validator(
        "memories_k", "turns_k", "text_k", "entities_k", "edges_per_entity", "facts_k", "fact_turns_k",
        "user_fact_types", "user_facts_k", "turn_chars",
    )
    @classmethod
    def _width(cls, value: int, info: Any) -> int:
        if value < 0:
            raise ValueError(f"recall {info.field_name} must be >= 0, got {value}")
        return value

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any]) -> RecallConfig:
        """A config from a `[recall]` section, whose values may all be strings.

        `embedding_model` belongs to the same section but chooses the embedder, not a width.
        """
        values: dict[str, Any] = {}
        for key, value in mapping.items():
            if key == "embedding_model":
                continue
            if key not in cls.model_fields:
                raise validation.ValidationError(
                    f"unknown recall setting {key!r}; use one of {', '.join(cls.model_fields)}"
                )
            if key == "lanes":
                values[key] = value
                continue
            try:
                values[key] = int(value)
            except (TypeError, ValueError):
                raise validation.ValidationError(f"recall {key} must be a whole number, got {value!r}") from None
        try:
            return cls(**values)
        except ValueError as exc:
            first = exc.errors()[0]["msg"] if hasattr(exc, "errors") else str(exc)
            raise validation.ValidationError(first.removeprefix("Value error, ")) from None


class RecalledTurn(BaseModel):
    turn_id: str
    session_id: str
    timestamp: str
    speaker: str
    text: str
    passages: list[int] = []
    rank: int = 0  # 1 is the best match; rows are shown in time order

    def line(self, chars: int) -> str:
        return f"TURN [session {self.session_id}, {self.timestamp[:16]}, {self.speaker}]: " + excerpt(
            self.text, self.passages, chars
        )


class MemoryNote(BaseModel):
    memory_id: str
    path: str
    updated_at: str
    text: str
    passages: list[int] = []

    def line(self, chars: int) -> str:
        return f"MEMORY [{self.path}, updated {self.updated_at[:10]}]: " + excerpt(self.text, self.passages, chars)


class RecalledFact(BaseModel):
    fact_id: str
    kind: str
    subject: str
    predicate: str
    object: str
    text: str
    rationale: str | None = None
    valid_at: str | None = None
    turn: str | None = None
    replaced: list[str] = []  # texts of the statements this one superseded

    def line(self) -> str:
        when = f" @ {self.valid_at[:10]}" if self.valid_at else ""
        if self.subject and self.predicate and self.object:
            row = f"FACT: {self.subject} -[{self.predicate}{when}]-> {self.object}"
            if self.text:
                row += f' -- "{self.text}"'
        else:  # a statement extraction could not split into a triple is shown as said
            row = f'FACT [{self.kind}{when}]: "{self.text}"'
        if self.kind == "decision" and self.rationale:
            row += f" (because: {self.rationale})"
        if self.replaced:
            row += " (replaces: " + "; ".join(f'"{old}"' for old in self.replaced) + ")"
        return row


@dataclass
class Recalled:
    question: str
    turns: list[RecalledTurn] = field(default_factory=list)
    facts: list[RecalledFact] = field(default_factory=list)
    memories: list[MemoryNote] = field(default_factory=list)
    vector_lanes_off: str | None = None
    turn_chars: int = 1500

    def ranked_turns(self) -> list[RecalledTurn]:
        return sorted(self.turns, key=lambda turn: turn.rank)

    def lines(self) -> list[str]:
        return (
            [memory.line(self.turn_chars) for memory in self.memories]
            + [turn.line(self.turn_chars) for turn in self.turns]
            + [fact.line() for fact in self.facts]
        )

    def render(self, today: str | None = None) -> str:
        header = [f"Memory recall for: {self.question}"]
        if today:
            header.append(f"Today is {today}.")
        header.append(READING_RULES)
        if self.memories:
            header.append(MEMORY_RULE)
        if self.vector_lanes_off:
            header.append(f"Vector search is off ({self.vector_lanes_off}); these rows come from text search only.")
        rows = self.lines()
        return "\n".join(header) + "\n\nRows:\n" + ("\n".join(rows) if rows else NOTHING)

    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "turns": [turn.model_dump() for turn in self.turns],
            "facts": [fact.model_dump() for fact in self.facts],
            "memories": [memory.model_dump() for memory in self.memories],
            "vector_lanes_off": self.vector_lanes_off,
        }


# -- the search itself -------------------------------------------------------------------------


@dataclass
class _Search:
    store: GraphStore
    user_id: str
    question: str
    config: RecallConfig
    model: str
    as_of: str | None
    terms: list[str]
    period: Period | None
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


# Where a turn sits, without its text: most candidates only need this to be fused and ranked, and
# reading every candidate's text costs more than the text of the few that are shown.
_PLACE_COLUMNS = (
    "t.turn_id AS turn_id, t.session_id AS session_id, t.seq AS seq, t.role AS role, t.kind AS kind, "
    "t.timestamp AS timestamp, t.text CONTAINS '?' AS asks"
)
_TURN_COLUMNS = _PLACE_COLUMNS + ", t.text AS text"


def _message(row: Row, search: _Search) -> bool:
    """Whether a turn row is a message (the queries read only turns with text) that counts at as_of."""
    if row["kind"] != "message" or row["role"] not in ("user", "assistant"):
        return False
    return search.as_of is None or row["timestamp"] <= search.as_of


def _load_turns(search: _Search, turn_ids: Sequence[str], columns: str = _TURN_COLUMNS) -> dict[str, Row]:
    rows = search.store.run(
        f"UNWIND $ids AS id MATCH (t:Turn {{turn_id: id}}) WHERE t.user_id = $user_id AND t.text <> '' RETURN {columns}",
        {"ids": list(dict.fromkeys(turn_ids)), "user_id": search.user_id},
    )
    return {row["turn_id"]: row for row in rows if _message(row, search)}


def _history_size(search: _Search) -> int:
    rows = search.store.run(
        "MATCH (s:Session {user_id: $user_id}) RETURN sum(coalesce(s.turn_count, 0)) AS n",
        {"user_id": search.user_id},
    )
    return int(rows[0]["n"] or 0)


@dataclass(frozen=True)
class _Sample:
    """Turns drawn from one user's history: their average length and in how many of them each word occurs."""

    size: int  # of the whole history when drawn
    turns: int
    average_length: float
    occurrences: Mapping[str, int]

    def frequency(self, stem: str, size: int) -> int:
        """The number of turns of a history of `size` turns estimated to hold `stem`."""
        return round(self.occurrences.get(stem, 0) * size / max(self.turns, 1))


# (graph, user) -> a sample of that user's history, kept until the history has grown by a tenth.
_SAMPLES: OrderedDict[tuple[str, str], _Sample] = OrderedDict()
MAX_SAMPLES = 1000
SAMPLE_SESSIONS = 50
SAMPLE_TURNS = 2000
REGROWTH = 1.1
# Reading a word's postings costs time linear in how many turns hold it, and a common word adds
# little to BM25 and no candidate that a rarer word or the vector lane would miss: the postings of
# a word the sample shows in this many turns are not read, and no more than this many of any word's.
COMMON_POSTINGS = 1000


def _sample(search: _Search, size: int) -> _Sample:
    key = (search.store.name, search.user_id)
    known = _SAMPLES.get(key)
    if known is not None and size <= known.size * REGROWTH:
        _SAMPLES.move_to_end(key)
        return known
    # Whole sessions drawn at random spread the sample over the history's time, a few lookups each.
    rows = search.store.run(
        "MATCH (s:Session {user_id: $user_id}) WITH s, rand() AS r ORDER BY r LIMIT $sessions "
        "MATCH (t:Turn {session_id: s.session_id}) WHERE t.user_id = $user_id AND t.text IS NOT NULL "
        "RETURN t.text AS text LIMIT $turns",
        {"user_id": search.user_id, "sessions": SAMPLE_SESSIONS, "turns": SAMPLE_TURNS},
    )
    occurrences: Counter[str] = Counter()
    if size >= COMMON_POSTINGS:  # a smaller history has no word that common
        for row in rows:
            occurrences.update(set(bm25.stems(row["text"])))
    average = sum(len(row["text"]) for row in rows) / len(rows) if rows else 1.0
    _SAMPLES[key] = _Sample(size, len(rows), average, occurrences)
    while len(_SAMPLES) > MAX_SAMPLES:
        _SAMPLES.popitem(last=False)
    return _SAMPLES[key]


def _text_lane(search: _Search) -> tuple[dict[str, float], dict[str, Row]]:
    """BM25 scores of the user's messages that match the question's words."""
    words: dict[str, str] = {}
    for word in search.terms:
        stemmed = bm25.stems(word)
        words.setdefault(stemmed[0] if stemmed else word, word)
    if not words:
        return {}, {}
    size = _history_size(search)
    sample = _sample(search, size)
    estimates = {stem: sample.frequency(stem, size) for stem in words}
    common = {stem for stem, estimate in estimates.items() if estimate >= COMMON_POSTINGS}
    if len(common) == len(words):  # every word is common: the rarest still finds candidates
        common.remove(min(common, key=estimates.__getitem__))
    frequencies = {stem: estimates[stem] for stem in common}
    candidates: dict[str, Row] = {}
    for stem, word in words.items():
        if stem in common:
            continue
        count, rows = search.store.fulltext_postings(
            TURN_TEXT_INDEX, search.user_id, word, limit=TERM_POOL, most=COMMON_POSTINGS,
            columns=_TURN_COLUMNS.replace("t.", "node."),
        )
        frequencies[stem] = count if count < COMMON_POSTINGS else max(count, estimates[stem])
        candidates.update((row["turn_id"], row) for row in rows if _message(row, search))
    if not candidates:
        return {}, {}
    collection = bm25.Collection(size, sample.average_length, frequencies)
    scores = {tid: bm25.score(collection, list(words), row["text"]) for tid, row in candidates.items()}
    best = sorted(scores, key=scores.__getitem__, reverse=True)[:POOL]
    return {tid: scores[tid] for tid in best if scores[tid] > 0}, candidates


def _scaled(scores: Mapping[str, float], floor: float = 0.0) -> dict[str, float]:
    """Scores mapped to (0, 1], the best hit at 1 and `floor` at 0."""
    top = max(scores.values(), default=0.0)
    if top <= floor:
        return {key: 1.0 for key in scores if scores[key] >= top} if scores else {}
    return {key: (value - floor) / (top - floor) for key, value in scores.items() if value > floor}


def _with_neighbours(search: _Search, scores: Mapping[str, float], rows: dict[str, Row]) -> dict[str, float]:
    """Each turn also earns a share of the scores of the turns next to it in its session."""
    reach = len(NEIGHBOUR_WEIGHTS)
    spans = [{"sid": rows[tid]["session_id"], "lo": rows[tid]["seq"] - reach, "hi": rows[tid]["seq"] + reach}
             for tid in scores]
    near = search.store.run(
        "UNWIND $spans AS span MATCH (t:Turn {session_id: span.sid}) "
        "WHERE t.user_id = $user_id AND t.seq >= span.lo AND t.seq <= span.hi AND t.text <> '' "
        f"RETURN DISTINCT {_PLACE_COLUMNS}",
        {"spans": spans, "user_id": search.user_id},
    )
    for row in near:
        if _message(row, search):
            rows.setdefault(row["turn_id"], row)
    at = {(row["session_id"], row["seq"]): tid for tid, row in rows.items()}
    fused: dict[str, float] = {}
    for tid, value in scores.items():
        fused[tid] = fused.get(tid, 0.0) + value
        session, seq = rows[tid]["session_id"], rows[tid]["seq"]
        asks = rows[tid]["asks"]
        for distance, weight in enumerate(NEIGHBOUR_WEIGHTS, start=1):
            reply = weight + (ANSWER_WEIGHT if asks and distance == 1 else 0.0)
            for other, share in ((at.get((session, seq - distance)), weight), (at.get((session, seq + distance)), reply)):
                if other is not None:
                    fused[other] = fused.get(other, 0.0) + share * value
    return fused


def _boosted(scores: dict[str, float], share: float, favoured: Iterable[str]) -> dict[str, float]:
    """Scores with `share` of the best one added to each favoured turn."""
    bonus = share * max(scores.values())
    favoured = set(favoured)
    return {tid: value + (bonus if tid in favoured else 0.0) for tid, value in scores.items()}


def _in_period(search: _Search, scores: dict[str, float], rows: Mapping[str, Row]) -> dict[str, float]:
    """Scores with a bonus for the turns said within the period the question names, if it names one."""
    if search.period is None or not scores:
        return scores
    start, end = search.period.start.isoformat(), (search.period.end + FOLLOW_UP).isoformat()
    # ISO timestamps compare as text, and their first ten characters are the day.
    return _boosted(scores, PERIOD_WEIGHT, (tid for tid in scores if start <= (rows[tid]["timestamp"] or "")[:10] < end))


def _telling_when(search: _Search, scores: dict[str, float], rows: dict[str, Row], width: int) -> dict[str, float]:
    """For a question that asks when, a bonus for the best turns that say when."""
    if not scores or not asks_when(search.question):
        return scores
    best = sorted(scores, key=scores.__getitem__, reverse=True)[: 2 * width]
    rows.update(_load_turns(search, [tid for tid in best if "text" not in rows[tid]]))
    return _boosted(scores, WHEN_WEIGHT, (tid for tid in best if says_when(rows[tid].get("text", ""))))


def _message_lanes(
    search: _Search, fact_scores: Mapping[str, float]
) -> tuple[list[tuple[str, float]], dict[str, Row], dict[str, list[int]]]:
    """The fused ranking of messages, their rows, and the passages the vector lane matched.

    `fact_scores` holds, for the turns the nearest facts came from, the similarity of their fact.
    """
    config = search.config
    text_scores: dict[str, float] = {}
    rows: dict[str, Row] = {}
    if "text" in config.lanes and config.text_k > 0:
        text_scores, rows = _text_lane(search)
    vector_scores: dict[str, float] = {}
    passages: dict[str, list[int]] = {}
    if "turns" in config.lanes and config.turns_k > 0:
        for source_id, position, similarity in search.nearest("turn", POOL):
            passages.setdefault(source_id, []).append(position)
            vector_scores[source_id] = max(vector_scores.get(source_id, -1.0), similarity)
    rows.update(_load_turns(search, [tid for tid in (*vector_scores, *fact_scores) if tid not in rows], _PLACE_COLUMNS))
    vector_scores = {tid: value for tid, value in vector_scores.items() if tid in rows}
    fact_scores = {tid: value for tid, value in fact_scores.items() if tid in rows}
    combined: dict[str, float] = {}
    # Cosine similarities of unrelated texts are far from 0; the weakest candidate stands for "unrelated".
    for scores, weight in (
        (_scaled(text_scores), TEXT_WEIGHT),
        (_scaled(vector_scores, min(vector_scores.values(), default=0.0)), VECTOR_WEIGHT),
        (_scaled(fact_scores, min(fact_scores.values(), default=0.0)), FACT_WEIGHT),
    ):
        for tid, value in scores.items():
            combined[tid] = combined.get(tid, 0.0) + weight * value
    if not combined:
        return [], rows, passages
    width = (config.turns_k if "turns" in config.lanes else 0) + (config.text_k if "text" in config.lanes else 0)
    # Only the strongest candidates can lift a neighbour into the result; reading around the
    # rest would cost a lookup each for nothing.
    strongest = dict(sorted(combined.items(), key=lambda item: -item[1])[: SPREAD * width])
    fused = _telling_when(search, _in_period(search, _with_neighbours(search, strongest, rows), rows), rows, width)
    ranked = sorted(fused.items(), key=lambda item: (-item[1], item[0]))[:width]
    return ranked, rows, passages


def _memories_lane(search: _Search) -> list[MemoryNote]:
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
        hits = passages.get(memory_id, []) + [best_passage(split_passages(row["text"]), search.question, STOPWORDS)]
        notes.append(MemoryNote(memory_id=memory_id, path=row["path"], updated_at=row["updated_at"] or "",
                                text=row["text"], passages=list(dict.fromkeys(hits))))
    return notes


_FACT_COLUMNS = (
    "f.fact_id AS fact_id, f.kind AS kind, f.subject AS subject, f.predicate AS predicate, f.object AS object, "
    "f.text AS text, f.rationale AS rationale, f.valid_at AS valid_at, f.superseded_at AS superseded_at"
)


def _current(search: _Search, row: Row) -> bool:
    """Whether the fact held at `as_of` (now, without one)."""
    if search.as_of is None:
        return row["superseded_at"] is None
    started = (row["valid_at"] or "") <= search.as_of
    return started and (row["superseded_at"] is None or row["superseded_at"] > search.as_of)


def _facts(search: _Search, fact_ids: Sequence[str]) -> tuple[list[RecalledFact], dict[str, list[str]]]:
    """The facts that held for each of `fact_ids` (a replaced one is shown by its successor), and
    the turns each of `fact_ids` itself was extracted from."""
    if not fact_ids:
        return [], {}
    rows = search.store.run(
        "UNWIND $ids AS id MATCH (hit:Fact {fact_id: id}) WHERE hit.user_id = $user_id "
        "OPTIONAL MATCH (later:Fact)-[:SUPERSEDES*1..20]->(hit) WHERE later.user_id = $user_id "
        "WITH hit, [hit] + collect(later) AS chain UNWIND chain AS f "
        "OPTIONAL MATCH (f)-[:SUPERSEDES]->(old:Fact) "
        "OPTIONAL MATCH (f)-[:FROM]->(src:Turn) "
        f"RETURN hit.fact_id AS hit, {_FACT_COLUMNS}, collect(DISTINCT old.text) AS replaced, "
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
                    replaced=[text for text in row["replaced"] if text],
                )
                break
    sources = {row["hit"]: row["turns"] for row in rows if row["fact_id"] == row["hit"]}
    return list(chosen.values()), sources


def _fact_lanes(search: _Search) -> tuple[list[RecalledFact], dict[str, float]]:
    """The facts of the three fact lanes, and the turns the nearest facts came from with their similarity."""
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
    turn_scores: dict[str, float] = {}
    for fact_id, similarity in nearest.items():
        for tid in sources.get(fact_id, []):
            turn_scores[tid] = max(turn_scores.get(tid, -1.0), similarity)
    return facts, turn_scores


_PREDICATE_VECTORS: dict[tuple[str, str], Any] = {}


def _predicate_vectors(store: GraphStore, model: str, predicates: Sequence[str]) -> dict[str, Any]:
    """Vectors of relation names, embedded once per process: the set of names grows slowly."""
    missing = [p for p in predicates if (model, p) not in _PREDICATE_VECTORS]
    if missing:
        for predicate, vector in zip(missing, load_embedder(model, store=store).embed([p.replace("_", " ") for p in missing])):
            _PREDICATE_VECTORS[(model, predicate)] = vector
    return {p: _PREDICATE_VECTORS[(model, p)] for p in predicates}


def _user_facts(search: _Search) -> list[str]:
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


def _question_vector(search: _Search) -> str | None:
    """Embed the question; the reason vector lanes are off, or None."""
    if not any(lane in search.config.lanes for lane in ("memories", "turns", "entities", "facts", "user_facts")):
        return None
    try:
        search.vector = load_embedder(search.model, store=search.store).embed([search.question])[0]
    except EmbeddingUnavailableError as exc:
        return str(exc)
    return None


def recall(
    store: GraphStore,
    user_id: str,
    question: str,
    *,
    config: RecallConfig | None = None,
    as_of: datetime | str | None = None,
    model: str = DEFAULT_EMBEDDING_MODEL,
) -> Recalled:
    """What the user's own past sessions hold about `question`; `as_of` answers from what held then."""
    uid = validation.user_id(user_id)
    if not isinstance(question, str) or not question.strip():
        raise validation.ValidationError("The recall question is empty: ask about something")
    config = config or RecallConfig()
    search = _Search(store, uid, question.strip(), config, model, to_iso(as_of) if as_of is not None else None,
                     search_terms(question), mentioned_period(question))
    off = _question_vector(search)
    memories = _memories_lane(search)
    facts, fact_turn_scores = _fact_lanes(search)
    ranked, rows, passages = _message_lanes(search, fact_turn_scores)
    if off is None and search.vector is not None and not search.vectors_found:
        off = f"nothing of this user is embedded with {model} yet"
    turn_ids = [tid for tid, _ in ranked]
    fact_turns = [fact.turn for fact in facts if fact.turn][: config.fact_turns_k]
    extra = [tid for tid in dict.fromkeys(fact_turns) if tid not in turn_ids]
    rows.update(_load_turns(search, [tid for tid in (*turn_ids, *extra) if "text" not in rows.get(tid, {})]))
    # A turn deleted since it was ranked has no text to show.
    turn_ids = [tid for tid in (*turn_ids, *extra) if "text" in rows.get(tid, {})]
    hints = {fact.turn: fact.text for fact in facts if fact.turn}
    turns = []
    for rank, tid in enumerate(turn_ids, start=1):
        row = rows[tid]
        pieces = split_passages(row["text"])
        hits = passages.get(tid, []) + [best_passage(pieces, hint, STOPWORDS) for hint in (hints.get(tid), search.question) if hint]
        turns.append(RecalledTurn(turn_id=tid, session_id=row["session_id"], timestamp=row["timestamp"] or "",
                                  speaker=row["role"], text=row["text"], passages=list(dict.fromkeys(hits)), rank=rank))
    turns.sort(key=lambda turn: (turn.timestamp, turn.turn_id))
    facts.sort(key=lambda fact: fact.valid_at or "")
    return Recalled(search.question, turns, facts, memories, off, config.turn_chars)

