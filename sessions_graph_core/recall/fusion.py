"""One ranking of messages out of the message lanes' scores: the fusion, with no store in it.

Each lane's scores are scaled to its best hit and summed with a weight; the strongest of these
candidates and the turns next to them make the pool. Each turn of the pool is then described by
what may make it evidence: its lanes' scores and ranks, its neighbours' scores (the answer is often
the reply next to the turn that names its subject, most of all the reply to a question), its
session's evidence (a session that matches in several turns, or holds more of the question's
words, is more likely the one the question is about), whether a person the question names said it
("What did Caroline research?"), whether it falls in a period the question names or talks about one
("last month", said in January, is December), whether it
says when to a question that asks when, whether it names a kind of what the question asks about
(recall/concepts.py: "swimming" for "activities", through WordNet); and a learned linear ranker (recall/ranker.toml) scores each
turn from these features. A question about a change finally favours the newest turns.

The fusion reads turns only through a `TurnSource`, so the same code ranks for `recall()` (the
store) and for the benchmark (turns held in memory). The ranker was fitted on LoCoMo's tuning half
only (conversations 0-4, benchmarks/bench_recall_quality.py --fit) under two constraints that keep
it from learning what is only true of LoCoMo: more evidence never lowers a turn (`EVIDENCE`), and a
session's evidence weighs at least `SESSION_SHARE` of the turn's own text evidence (LoCoMo's sessions
are short and on one topic, so it cannot teach what a long session that matches in several turns is
worth). It was kept because it won on the held-out half (see docs/benchmarks/recall-quality.md).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import cache
from importlib import resources
from typing import Protocol

import numpy as np

from sessions_graph_core.recall.concepts import asks_about_kinds, concept_scores
from sessions_graph_core.recall.evidence import concept_words, has_evidence, said_when
from sessions_graph_core.recall.periods import Period, asks_change, asks_when, talked_about
from sessions_graph_core.text import content_words

Row = dict  # a turn's place (turn_id, session_id, seq, timestamp, speaker, asks), its evidence or text once read


@dataclass(frozen=True)
class Weights:
    """The constants around the learned ranker: how the pool is drawn, and newest-first."""

    text: float = 1.0
    vector: float = 0.5
    fact: float = 0.3  # for the turn a fact near the question was extracted from
    reach: int = 2  # turns either side whose scores a turn's features read
    session_turns: int = 3  # a session's evidence: the sum of its best this many turn scores
    follow_up: timedelta = timedelta(days=7)  # what happened on a day is often talked about in the days after
    newer: float = 0.1  # share of the best score, when the question asks about a change, for the newest turns
    spread: int = 4  # candidates, per turn wanted, in the pool with their neighbours


# What the ranker reads of each turn of the pool, each in [0, 1]. No rank within a lane: a rank turns a
# near-tie of two scores into a gap as wide as any, so it would outweigh the session's evidence.
FEATURES = (
    "strength",  # the lanes' weighted sum, scaled to the strongest candidate's (0 for a neighbour only)
    "text", "vector", "fact",  # each lane's score, scaled to its best hit
    "previous", "next", "previous2", "next2",  # the strength of the turns one and two places away
    "after_question",  # the previous turn's strength when it asks something: this turn may answer it
    "session",  # the session's evidence (its best few strengths), scaled to the best session's
    "coverage",  # the idf of the question's words the session's best few text candidates hold, scaled to the best session's
    "speaker", "period", "when",  # said by a person the question names (the user, to a question about the asker where
    # the transcript names no speakers) / in its period (else, for a candidate, the
    # share of the time it talks about that is) / says when, asked when
    "concept",  # names a kind of what the question asks about (WordNet), scaled to the pool's best
    "asks",  # the turn itself asks something
    "strong",  # the turn is a candidate, not only a neighbour
)

# The features that are evidence for a turn: a ranker gives no term made only of them a weight below 0,
# so more evidence never lowers a turn. A freely fitted product such as text x vector lowered turns
# that both lanes found, which is what LoCoMo's fit rewarded, not what evidence means.
EVIDENCE = frozenset(FEATURES) - {"asks", "strong"}
# The least weight on the session's evidence, as a share of the weight on the turn's own text evidence
# (text + strength): the share the hand-set fusion gave it (0.35, chosen on LoCoMo 0-4 by coordinate
# ascent). LoCoMo's sessions are short and on one topic, so a fit to it alone gives a session that
# matches in several turns almost nothing; on long multi-topic sessions that is the evidence that counts.
SESSION_SHARE = 0.35


@dataclass(frozen=True)
class Ranker:
    """A linear ranker: a weight per feature or per product of two features ("a*b")."""

    version: int
    weights: Mapping[str, float]
    # Each term's weight and the features it multiplies, split once: score runs for every candidate.
    _terms: tuple[tuple[float, tuple[str, ...]], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        terms = tuple((weight, tuple(name.split("*"))) for name, weight in self.weights.items())
        unknown = [name for name, (_, parts) in zip(self.weights, terms, strict=True) if any(p not in FEATURES for p in parts)]
        if unknown:
            raise ValueError(f"the ranker names unknown features {unknown}; known: {', '.join(FEATURES)}")
        object.__setattr__(self, "_terms", terms)  # frozen: set once, here

    def scores(self, described: Mapping[str, Mapping[str, float]]) -> dict[str, float]:
        """Each turn's score from its features. A term at a time over all turns at once: the same
        products and sums, in the same order, as turn by turn (so the same floats), without a
        Python loop per turn and term."""
        ids = list(described)
        named = {part for _, parts in self._terms for part in parts}
        columns = {name: np.array([described[tid][name] for tid in ids], dtype=np.float64) for name in named}
        total = np.zeros(len(ids))
        for weight, parts in self._terms:
            term = np.full(len(ids), weight)
            for part in parts:
                term *= columns[part]
            total += term
        return dict(zip(ids, total.tolist(), strict=True))


@cache
def shipped_ranker() -> Ranker:
    """The ranker that ships with the package (recall/ranker.toml)."""
    data = tomllib.loads(resources.files("sessions_graph_core.recall").joinpath("ranker.toml").read_text())
    return Ranker(int(data["version"]), {name: float(value) for name, value in data["weights"].items()})


@dataclass
class Candidates:
    """Each message lane's raw scores: BM25, the best passage's cosine, the nearest fact's cosine."""

    text: dict[str, float] = field(default_factory=dict)
    vector: dict[str, float] = field(default_factory=dict)
    fact: dict[str, float] = field(default_factory=dict)
    words: dict[str, frozenset[str]] = field(default_factory=dict)  # the question's stems each text candidate holds
    idf: dict[str, float] = field(default_factory=dict)  # of each of the question's stems


class TurnSource(Protocol):
    def around(self, rows: Mapping[str, Row], turn_ids: Sequence[str], reach: int, *, evidence: bool) -> Iterable[Row]:
        """The rows of the messages within `reach` turns of each of `turn_ids` in their session; with `evidence`,
        each with what recall/evidence.py reads (the stored properties, or the text where they are missing)."""

    def texts(self, turn_ids: Sequence[str]) -> Mapping[str, Row]:
        """Rows with their text for `turn_ids`."""


def scaled(scores: Mapping[str, float], floor: float = 0.0) -> dict[str, float]:
    """Scores mapped to (0, 1], the best hit at 1 and `floor` at 0."""
    top = max(scores.values(), default=0.0)
    if top <= floor:
        return {key: 1.0 for key in scores if scores[key] >= top} if scores else {}
    return {key: (value - floor) / (top - floor) for key, value in scores.items() if value > floor}


def lanes_scaled(candidates: Candidates) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
    """Each lane's scores scaled; cosine similarities of unrelated texts are far from 0, so the
    weakest candidate stands for "unrelated"."""
    return (scaled(candidates.text), scaled(candidates.vector, min(candidates.vector.values(), default=0.0)),
            scaled(candidates.fact, min(candidates.fact.values(), default=0.0)))


def combined(lanes: Sequence[Mapping[str, float]], weights: Weights) -> dict[str, float]:
    """The weighted sum of the lanes' scaled scores."""
    total: dict[str, float] = {}
    for scores, weight in zip(lanes, (weights.text, weights.vector, weights.fact), strict=True):
        if weight:
            for tid, value in scores.items():
                total[tid] = total.get(tid, 0.0) + weight * value
    return total


def by_session(values: Mapping[str, float], rows: Mapping[str, Row], keep: int) -> dict[str, float]:
    """Each session's sum of its best `keep` values, scaled to the best session's."""
    per_session: dict[str, list[float]] = {}
    for tid, value in values.items():
        per_session.setdefault(rows[tid]["session_id"], []).append(value)
    summed = {sid: sum(sorted(found, reverse=True)[:keep]) for sid, found in per_session.items()}
    top = max(summed.values(), default=0.0)
    return {sid: value / top for sid, value in summed.items()} if top > 0 else {}


def coverage(rows: Mapping[str, Row], candidates: Candidates, keep: int) -> dict[str, float]:
    """How much of the question each session holds: the idf of the question's words found in its best
    `keep` text candidates (by BM25), scaled to the best session's. A question whose words are spread
    over several turns of one session finds that session; a long session does not gather them from
    many weak matches only for having more turns."""
    per_session: dict[str, list[tuple[float, frozenset[str]]]] = {}
    for tid, stems in candidates.words.items():
        if tid in rows:
            per_session.setdefault(rows[tid]["session_id"], []).append((candidates.text.get(tid, 0.0), stems))
    value = {}
    for sid, found in per_session.items():
        best = sorted(found, key=lambda pair: -pair[0])[:keep]
        value[sid] = sum(candidates.idf.get(stem, 0.0) for stem in frozenset().union(*(stems for _, stems in best)))
    top = max(value.values(), default=0.0)
    return {sid: found / top for sid, found in value.items()} if top > 0 else {}


def named_speaker(speaker: str | None, question_words: set[str]) -> bool:
    """Whether the question names the turn's speaker: any word of the speaker's name is one of its words."""
    return bool(speaker) and not question_words.isdisjoint(content_words(speaker))


# "I", "me", "my": the person asking, who in a transcript that names no speakers is its user; and "the user",
# as an agent asks on the user's behalf ("Which city does the user live in?").
_FIRST_PERSON = re.compile(r"\b(?:i|me|my|mine|myself|the user)\b", re.IGNORECASE)


def asks_about_asker(question: str) -> bool:
    """Whether the question speaks of the person asking it ("Which team am I on now?"), or of the user, as an
    agent asking for them does ("Which team is the user on now?")."""
    return _FIRST_PERSON.search(question) is not None


# "we", "us", "our": the person asking and their team.
_FIRST_PLURAL = re.compile(r"\b(?:we|us|our|ours)\b", re.IGNORECASE)


def asks_about_us(question: str) -> bool:
    """Whether the question speaks of the asker's team ("Which orchestrator do we use now?")."""
    return _FIRST_PLURAL.search(question) is not None


def speaker_named(row: Row, speaks: Mapping[str | None, float], about_asker: bool) -> float:
    """Whether the question names who said the turn: its speaker by name, or, where the transcript names
    no speakers (an agent's session: the user and the assistant), the user, when the question speaks
    of the person asking ("Where do I live now?" is answered by what the user said of themselves)."""
    if row.get("speaker"):
        return speaks[row["speaker"]]
    return float(about_asker and row["role"] == "user")


def within(row: Row, periods: tuple[Period, ...], weights: Weights) -> bool:
    """Whether the turn was said within any period the question names (and the days after)."""
    # ISO timestamps compare as text, and their first ten characters are the day.
    day = (row["timestamp"] or "")[:10]
    for period in periods:
        # A period open to the future ends on the last day a date can name, which no days can follow.
        last = min(period.end, date.max - weights.follow_up) + weights.follow_up
        if period.start.isoformat() <= day < last.isoformat():
            return True
    return False


def talks_within(row: Row, periods: tuple[Period, ...]) -> float:
    """The largest share of a time the turn talks about in words its day grounds that falls within a period
    the question names ("last month", said in January, is all December; "this year" is a twelfth of it): a
    turn that talks about a wide time says little about any one month or day of it."""
    if not periods:
        return 0.0
    try:
        said_on = date.fromisoformat((row["timestamp"] or "")[:10])
    except ValueError:  # no timestamp, or one before year 1000, which is not written with four digits
        return 0.0
    talked = talked_about(row.get("text") or "", said_on)
    return max((period.shared_days(other) / other.days() for period in periods for other in talked), default=0.0)


def features(candidates: Candidates, rows: dict[str, Row], source: TurnSource, *, question: str,
             periods: tuple[Period, ...], width: int, weights: Weights) -> dict[str, dict[str, float]]:
    """The features of each turn of the pool. `rows` holds every candidate's place; the
    neighbours' places (and evidence, when needed) are added to it."""
    lanes = lanes_scaled(candidates)
    scores = combined(lanes, weights)
    if not scores or width <= 0:
        return {}
    # Only the strongest candidates can lift a neighbour into the result; reading around the
    # rest would cost a lookup each for nothing.
    ranked = sorted(scores, key=lambda tid: (-scores[tid], tid))[: weights.spread * width]
    top = scores[ranked[0]]
    strength = {tid: scores[tid] / top for tid in ranked}
    # What the pool's texts hold (their words that may name a concept, whether they say when) is read only
    # for a question it can answer: one that asks when or names a concept. It comes with the places, in
    # the one read, as each turn's evidence properties written at ingest (recall/evidence.py), or as its
    # text for a turn recorded before them; a question that needs neither skips its transfer.
    asks, kinds_asked = asks_when(question), asks_about_kinds(question)
    wanted = asks or kinds_asked
    for row in source.around(rows, ranked, weights.reach, evidence=wanted):
        rows.setdefault(row["turn_id"], {}).update(row)
    at = {(row["session_id"], row["seq"]): tid for tid, row in rows.items()}
    pool = {neighbour for tid in ranked for offset in range(-weights.reach, weights.reach + 1)
            if (neighbour := at.get((rows[tid]["session_id"], rows[tid]["seq"] + offset))) is not None}
    if wanted and (missing := [tid for tid in pool if not has_evidence(rows[tid])]):
        rows.update(source.texts(missing))
    # The time a turn talks about is read from its text at rank time, for a question that names a period,
    # and only for the candidates: reading their neighbours' texts too (four in five of the pool) cost about
    # 25 ms a question, and a turn the lanes did not find says little by the time it talks about.
    if periods and (untold := [tid for tid in strength if "text" not in rows[tid]]):
        for tid, row in source.texts(untold).items():
            rows[tid].update(row)
    concept: dict[str, float] = {}
    if kinds_asked:
        speakers = {rows[tid].get("speaker") or "" for tid in pool}
        concept = concept_scores(question, {tid: concept_words(rows[tid]) for tid in pool}, speakers)
    session = by_session(strength, rows, weights.session_turns)
    held = coverage(rows, candidates, weights.session_turns)
    asked = set(content_words(question))
    # A pool's turns share a few speakers: whether the question names each is decided once.
    speaks = {speaker: float(named_speaker(speaker, asked)) for speaker in {rows[tid].get("speaker") for tid in pool}}
    about_asker = asks_about_asker(question)
    found: dict[str, dict[str, float]] = {}
    for tid in pool:
        row = rows[tid]
        sid, seq = row["session_id"], row["seq"]
        before = at.get((sid, seq - 1))
        previous = strength.get(before, 0.0)
        found[tid] = {
            "strength": strength.get(tid, 0.0),
            "text": lanes[0].get(tid, 0.0), "vector": lanes[1].get(tid, 0.0), "fact": lanes[2].get(tid, 0.0),
            "previous": previous, "next": strength.get(at.get((sid, seq + 1)), 0.0),
            "previous2": strength.get(at.get((sid, seq - 2)), 0.0), "next2": strength.get(at.get((sid, seq + 2)), 0.0),
            "after_question": previous if before is not None and rows[before]["asks"] else 0.0,
            "session": session.get(sid, 0.0), "coverage": held.get(sid, 0.0),
            "speaker": speaker_named(row, speaks, about_asker),
            "period": 1.0 if within(row, periods, weights) else talks_within(row, periods) if tid in strength else 0.0,
            "when": float(asks and said_when(row)),
            "concept": concept.get(tid, 0.0),
            "asks": float(bool(row["asks"])),
            "strong": float(tid in strength),
        }
    return found


def best(scores: Mapping[str, float], count: int) -> list[str]:
    return sorted(scores, key=lambda tid: (-scores[tid], tid))[:count]


def newest_first(scores: Mapping[str, float], rows: Mapping[str, Row], question: str, width: int,
                 weights: Weights) -> dict[str, float]:
    """For a question about a change, the best turns earn a bonus that grows with how recent they
    are. LoCoMo hardly asks about changes, so this is set, not learned: a share of the best score
    (a turn with no evidence at all scores 0)."""
    if not weights.newer or not asks_change(question):
        return dict(scores)
    top = sorted(best(scores, 2 * width), key=lambda tid: rows[tid]["timestamp"] or "")
    bonus = weights.newer * abs(max(scores.values()))
    result = dict(scores)
    for position, tid in enumerate(top):
        result[tid] += bonus * position / max(len(top) - 1, 1)
    return result


def rank(candidates: Candidates, rows: dict[str, Row], source: TurnSource, *, question: str,
         periods: tuple[Period, ...], width: int, weights: Weights, ranker: Ranker | None = None) -> list[tuple[str, float]]:
    """The best `width` messages with their scores, best first (see `features` for `rows`)."""
    described = features(candidates, rows, source, question=question, periods=periods, width=width, weights=weights)
    if not described:
        return []
    ranker = ranker or shipped_ranker()
    scores = newest_first(ranker.scores(described), rows, question, width, weights)
    return [(tid, scores[tid]) for tid in best(scores, width)]
