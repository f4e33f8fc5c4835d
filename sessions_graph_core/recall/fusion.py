"""One ranking of messages out of the message lanes' scores: the fusion, with no store in it.

Each lane's scores are scaled to its best hit and summed with a weight; then a turn earns a share
of its neighbours' scores (the answer is often the reply next to the turn that names its
subject), a share of its session's evidence (a session that matches in several turns, or holds
more of the question's words, is more likely the one the question is about), and bonuses for being
said by a person the question names ("What did Caroline research?"), for the period a question
names, for saying when to a question that asks when, and for being newer to a question that asks
about a change.

The fusion reads turns only through a `TurnSource`, so the same code ranks for `recall()` (the
store) and for the benchmark's tuning sweeps (turns held in memory). Every weight was swept on
LoCoMo's tuning half only (conversations 0-4, benchmarks/bench_recall_quality.py --tune) and a
change kept only where it did not lose on the held-out half (see the README).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Protocol

from sessions_graph_core.recall.periods import Period, asks_change, asks_when, says_when
from sessions_graph_core.text import content_words

Row = dict  # a turn's place (turn_id, session_id, seq, timestamp, speaker, asks), and its text once read


@dataclass(frozen=True)
class Weights:
    text: float = 1.0
    vector: float = 0.5
    fact: float = 0.3  # for the turn a fact near the question was extracted from
    neighbours: tuple[float, ...] = (0.4, 0.25)  # share of the score one and two turns away
    answer: float = 0.5  # more for the turn right after a matching question: it likely holds the answer
    session: float = 0.35  # share of the best score times the session's evidence, scaled to the best session's
    session_turns: int = 3  # a session's evidence: the sum of its best this many turn scores
    coverage: float = 0.1  # share of the best score times the weight (idf) of the question's words the session holds
    speaker: float = 0.2  # share of the best score for a turn said by a person the question names
    period: float = 0.5  # share of the best score for a turn said within the period the question names
    follow_up: timedelta = timedelta(days=7)  # what happened on a day is often talked about in the days after
    when: float = 0.2  # share of the best score, when the question asks when, for a turn that says when
    newer: float = 0.1  # share of the best score, when the question asks about a change, for the newest turns
    spread: int = 4  # candidates, per turn wanted, whose neighbours and sessions count


@dataclass
class Candidates:
    """Each message lane's raw scores: BM25, the best passage's cosine, the nearest fact's cosine."""

    text: dict[str, float] = field(default_factory=dict)
    vector: dict[str, float] = field(default_factory=dict)
    fact: dict[str, float] = field(default_factory=dict)
    words: dict[str, frozenset[str]] = field(default_factory=dict)  # the question's stems each text candidate holds
    idf: dict[str, float] = field(default_factory=dict)  # of each of the question's stems


class TurnSource(Protocol):
    def around(self, rows: Mapping[str, Row], turn_ids: Sequence[str], reach: int) -> Iterable[Row]:
        """The place rows of the messages within `reach` turns of each of `turn_ids` in their session."""

    def texts(self, turn_ids: Sequence[str]) -> Mapping[str, Row]:
        """Rows with their text for `turn_ids`."""


def scaled(scores: Mapping[str, float], floor: float = 0.0) -> dict[str, float]:
    """Scores mapped to (0, 1], the best hit at 1 and `floor` at 0."""
    top = max(scores.values(), default=0.0)
    if top <= floor:
        return {key: 1.0 for key in scores if scores[key] >= top} if scores else {}
    return {key: (value - floor) / (top - floor) for key, value in scores.items() if value > floor}


def combined(candidates: Candidates, weights: Weights) -> dict[str, float]:
    """The weighted sum of the lanes' scaled scores."""
    total: dict[str, float] = {}
    # Cosine similarities of unrelated texts are far from 0; the weakest candidate stands for "unrelated".
    for scores, weight in (
        (scaled(candidates.text), weights.text),
        (scaled(candidates.vector, min(candidates.vector.values(), default=0.0)), weights.vector),
        (scaled(candidates.fact, min(candidates.fact.values(), default=0.0)), weights.fact),
    ):
        if weight:
            for tid, value in scores.items():
                total[tid] = total.get(tid, 0.0) + weight * value
    return total


def with_neighbours(scores: Mapping[str, float], rows: Mapping[str, Row], weights: Weights) -> dict[str, float]:
    """Each turn also earns a share of the scores of the turns next to it in its session."""
    at = {(row["session_id"], row["seq"]): tid for tid, row in rows.items()}
    fused: dict[str, float] = {}
    for tid, value in scores.items():
        fused[tid] = fused.get(tid, 0.0) + value
        session, seq = rows[tid]["session_id"], rows[tid]["seq"]
        asks = rows[tid]["asks"]
        for distance, weight in enumerate(weights.neighbours, start=1):
            reply = weight + (weights.answer if asks and distance == 1 else 0.0)
            for other, share in ((at.get((session, seq - distance)), weight), (at.get((session, seq + distance)), reply)):
                if other is not None:
                    fused[other] = fused.get(other, 0.0) + share * value
    return fused


def with_sessions(scores: Mapping[str, float], strongest: Mapping[str, float], rows: Mapping[str, Row],
                  weights: Weights) -> dict[str, float]:
    """Each turn also earns a share of its session's evidence: the sum of the session's best few
    candidate scores, scaled to the best session's."""
    if not weights.session or not strongest:
        return dict(scores)
    per_session: dict[str, list[float]] = {}
    for tid, value in strongest.items():
        per_session.setdefault(rows[tid]["session_id"], []).append(value)
    evidence = {sid: sum(sorted(values, reverse=True)[: weights.session_turns]) for sid, values in per_session.items()}
    top = max(evidence.values())
    bonus = weights.session * max(scores.values())
    return {tid: value + bonus * evidence.get(rows[tid]["session_id"], 0.0) / top for tid, value in scores.items()}


def with_coverage(scores: Mapping[str, float], rows: Mapping[str, Row], candidates: Candidates,
                  weights: Weights) -> dict[str, float]:
    """Each turn also earns a share of how much of the question its session holds: the idf of the
    question's words found in any of the session's turns, scaled to the best session's. A question
    whose words are spread over several turns of one session finds that session."""
    if not weights.coverage or not candidates.words or not scores:
        return dict(scores)
    held: dict[str, set[str]] = {}
    for tid, stems in candidates.words.items():
        if tid in rows:
            held.setdefault(rows[tid]["session_id"], set()).update(stems)
    value = {sid: sum(candidates.idf.get(stem, 0.0) for stem in stems) for sid, stems in held.items()}
    top = max(value.values(), default=0.0)
    if top <= 0:
        return dict(scores)
    bonus = weights.coverage * max(scores.values())
    return {tid: score + bonus * value.get(rows[tid]["session_id"], 0.0) / top for tid, score in scores.items()}


def boosted(scores: Mapping[str, float], share: float, favoured: Iterable[str]) -> dict[str, float]:
    """Scores with `share` of the best one added to each favoured turn."""
    bonus = share * max(scores.values())
    favoured = set(favoured)
    return {tid: value + (bonus if tid in favoured else 0.0) for tid, value in scores.items()}


def named_speaker(speaker: str | None, question_words: set[str]) -> bool:
    """Whether the question names the turn's speaker: any word of the speaker's name is one of its words."""
    return bool(speaker) and not question_words.isdisjoint(content_words(speaker))


def by_speaker(scores: Mapping[str, float], rows: Mapping[str, Row], question: str, weights: Weights) -> dict[str, float]:
    """Scores with a bonus for the turns said by a person the question names. In a conversation of
    several people a question about one of them is most often answered by what that person said;
    a turn whose transcript names no speaker gets none."""
    if not weights.speaker or not scores:
        return dict(scores)
    asked = set(content_words(question))
    return boosted(scores, weights.speaker, (tid for tid in scores if named_speaker(rows[tid].get("speaker"), asked)))


def in_period(scores: Mapping[str, float], rows: Mapping[str, Row], period: Period | None, weights: Weights) -> dict[str, float]:
    """Scores with a bonus for the turns said within the period the question names, if it names one."""
    if period is None or not weights.period:
        return dict(scores)
    start, end = period.start.isoformat(), (period.end + weights.follow_up).isoformat()
    # ISO timestamps compare as text, and their first ten characters are the day.
    return boosted(scores, weights.period, (tid for tid in scores if start <= (rows[tid]["timestamp"] or "")[:10] < end))


def best(scores: Mapping[str, float], count: int) -> list[str]:
    return sorted(scores, key=lambda tid: (-scores[tid], tid))[:count]


def telling_when(scores: Mapping[str, float], rows: dict[str, Row], source: TurnSource, question: str,
                 width: int, weights: Weights) -> dict[str, float]:
    """For a question that asks when, a bonus for the best turns that say when."""
    if not weights.when or not asks_when(question):
        return dict(scores)
    top = best(scores, 2 * width)
    rows.update(source.texts([tid for tid in top if "text" not in rows[tid]]))
    return boosted(scores, weights.when, (tid for tid in top if says_when(rows[tid].get("text", ""))))


def newest_first(scores: Mapping[str, float], rows: Mapping[str, Row], question: str, width: int,
                 weights: Weights) -> dict[str, float]:
    """For a question about a change, the best turns earn a bonus that grows with how recent they are."""
    if not weights.newer or not asks_change(question):
        return dict(scores)
    top = sorted(best(scores, 2 * width), key=lambda tid: rows[tid]["timestamp"] or "")
    bonus = weights.newer * max(scores.values())
    result = dict(scores)
    for position, tid in enumerate(top):
        result[tid] += bonus * position / max(len(top) - 1, 1)
    return result


def rank(candidates: Candidates, rows: dict[str, Row], source: TurnSource, *, question: str,
         period: Period | None, width: int, weights: Weights) -> list[tuple[str, float]]:
    """The best `width` messages with their fused scores, best first. `rows` holds every
    candidate's place; the neighbours' places (and texts, when needed) are added to it."""
    scores = combined(candidates, weights)
    if not scores or width <= 0:
        return []
    # Only the strongest candidates can lift a neighbour into the result; reading around the
    # rest would cost a lookup each for nothing.
    strongest = {tid: scores[tid] for tid in best(scores, weights.spread * width)}
    if weights.neighbours:
        for row in source.around(rows, list(strongest), len(weights.neighbours)):
            rows.setdefault(row["turn_id"], row)
    fused = with_neighbours(strongest, rows, weights)
    fused = with_sessions(fused, strongest, rows, weights)
    fused = with_coverage(fused, rows, candidates, weights)
    fused = by_speaker(fused, rows, question, weights)
    fused = in_period(fused, rows, period, weights)
    fused = telling_when(fused, rows, source, question, width, weights)
    fused = newest_first(fused, rows, question, width, weights)
    return [(tid, fused[tid]) for tid in best(fused, width)]
