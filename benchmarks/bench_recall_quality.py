"""Recall quality on LoCoMo, tuned on one half and reported on the other, and on a set of long sessions.

Each of LoCoMo's ten conversations becomes one user's sessions (turn text "Speaker: text", plus
"[image: caption]" for shared photos), is reconciled and embedded with the defaults, and every
question of categories 1-4 goes through recall. Conversations 0-4 are the tuning half: recall's
ranker was fitted on them (`--fit` fits it there) and every other constant chosen on them. Conversations 5-9 are
held out and reported first; all ten after.

Measured, per retriever, in one process:
- turn R@k: the share of a question's evidence turns among the first k turns ranked;
- session R@k: the share of its evidence sessions among the first k distinct sessions of that
  ranking (how LongMemEval scores retrieval);
- found: the share of its evidence turns anywhere in what was handed back;
- tokens: the rows handed back (recall: every row; a baseline: its first 10 turns as rows);
- recall p50/p95 latency.
Retrievers: plain BM25 over the conversation's turns (k1 1.2, b 0.75, the reference baseline), the
same over the user's turns only and over every turn's passages (a turn scores as its best passage),
the dense model alone (the user's turn passages nearest the question), recall with upstream's widths
and no budget (the previous default), and recall with the defaults at budgets of 500, 1,000, 2,000
and 4,000 tokens and with none.

The long-session set (tests/data/long_sessions.json, LongMemEval's format, written by
benchmarks/make_long_sessions.py) is one more user: 44 sessions of long answers and tool output, 42
questions with their supporting sessions (and the turns that hold the answer, `has_answer`). It is
a development set: constants may be chosen on it, as on LoCoMo's tuning half.

    .venv/bin/python benchmarks/bench_recall_quality.py --data PATH [--long PATH] [--store DIR] [--budgets 500,2000]
        [--fit RANKER_TOML] [--half held-out] [--recall-only] [--answers OUT.jsonl]

`--half held-out --recall-only --sets locomo` is the quick check of the held-out figure: only
conversations 5-9 are ingested and only recall at `--budgets` is asked. `--answers` writes every
question's ranking per retriever, one JSON line each, to compare two trees question by question.
Where recall ran both at the default budget and with none (`--budgets 2000,0`, or without `--recall-only`),
a last table splits the session R@5 the default budget loses by where each missed supporting session is
in the ranking with no budget: in its first five (the budget's miss), 6th-10th, lower, or not ranked.

The data is read where it lies (CC BY-NC 4.0, evaluation only) and never copied.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sessions_graph_core import SessionsGraph  # noqa: E402
from sessions_graph_core.embeddings.models import DEFAULT_EMBEDDING_MODEL  # noqa: E402
from sessions_graph_core.embeddings.passages import split_passages  # noqa: E402
from sessions_graph_core.recall import bm25, fusion  # noqa: E402
from sessions_graph_core.recall import search as recall_search  # noqa: E402
from sessions_graph_core.recall.config import RecallConfig  # noqa: E402
from sessions_graph_core.recall.lanes import TURN_COLUMNS, Search, fact_lanes, vector_lane  # noqa: E402
from sessions_graph_core.recall.periods import mentioned_periods  # noqa: E402
from sessions_graph_core.recall.results import READING_RULES, RecalledTurn, tokens  # noqa: E402
from sessions_graph_core.recall.text_lane import text_candidates  # noqa: E402
from sessions_graph_core.sessions.longmemeval import read_longmemeval  # noqa: E402
from sessions_graph_core.store.falkordb.store import FalkorDBStore  # noqa: E402
from sessions_graph_core.text import content_words, search_terms  # noqa: E402

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo10.json"
DEFAULT_LONG = Path(__file__).resolve().parents[1] / "tests" / "data" / "long_sessions.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
LONG_USER = "long-sessions"
LONG_CATEGORIES = {1: "single-session", 2: "multi-session", 3: "knowledge-update", 4: "temporal"}
LONG_CONVERSATION = -1  # the long set's questions are in neither half of LoCoMo
TUNING = range(5)  # conversations whose questions tune; the others are held out
HALVES = {"all": range(10), "tuning": TUNING, "held-out": range(5, 10)}
BUDGETS = (500, 1000, 2000, 4000)
BASELINE_ROWS = 10
EVIDENCE = re.compile(r"D(\d+):\d+")
console = Console(width=160)


@dataclass(frozen=True)
class Item:
    user: str
    conversation: int
    question: str
    turns: frozenset[str]
    sessions: frozenset[str]
    category: int


@dataclass
class Answer:
    """What one retriever handed back for one question."""

    ranked: list[str]  # turn ids, best first
    sessions: list[str]  # session ids in the order their first turn is ranked
    returned: set[str]  # every turn id handed back
    tokens: int
    seconds: float | None = None


def session_turns(conversation: dict, sample_id: str) -> list[tuple[str, datetime, list[dict]]]:
    """(session id, start, turns) for each session of one conversation."""
    conv = conversation["conversation"]
    sessions = []
    number = 1
    while f"session_{number}" in conv:
        start = datetime.strptime(conv[f"session_{number}_date_time"], "%I:%M %p on %d %B, %Y").replace(
            tzinfo=UTC
        )
        turns = []
        for position, turn in enumerate(conv[f"session_{number}"]):
            text = f"{turn['speaker']}: {turn['text']}"
            if turn.get("blip_caption"):
                text += f" [image: {turn['blip_caption']}]"
            turns.append(
                {
                    "turn_id": f"{sample_id}:{turn['dia_id']}",
                    "text": text,
                    "speaker": turn["speaker"],
                    "role": "user" if turn["speaker"] == conv["speaker_a"] else "assistant",
                    # Turns carry no clock time; half a minute apart keeps their order.
                    "timestamp": start + timedelta(seconds=30 * position),
                }
            )
        sessions.append((f"{sample_id}-s{number}", start, turns))
        number += 1
    return sessions


def questions(data: list[dict]) -> list[Item]:
    """Every question of categories 1-4 with evidence."""
    found = []
    for number, conversation in enumerate(data):
        sample_id = conversation["sample_id"]
        for qa in conversation["qa"]:
            if qa.get("category") not in CATEGORIES:
                continue
            refs = [match for field in qa.get("evidence", []) for match in EVIDENCE.finditer(field)]
            if refs:
                found.append(Item(
                    f"locomo-{sample_id}", number, qa["question"],
                    frozenset(f"{sample_id}:{ref.group(0)}" for ref in refs),
                    frozenset(f"{sample_id}-s{ref.group(1)}" for ref in refs), qa["category"],
                ))
    return found


def ingest(graph: SessionsGraph, data: list[dict]) -> dict[str, float]:
    timings: dict[str, float] = defaultdict(float)
    all_sessions = [(c["sample_id"], s) for c in data for s in session_turns(c, c["sample_id"])]
    # An interrupted ingest resumes: sessions already embedded are done.
    finished = {
        row["sid"]
        for row in graph.store.run("MATCH (s:Session {embedding_status: 'completed'}) RETURN s.session_id AS sid")
    }
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("ingest, reconcile, embed", total=len(all_sessions))
        for sample_id, (session_id, start, turns) in all_sessions:
            if session_id in finished:
                progress.advance(task)
                continue
            started = time.perf_counter()
            graph.record_session_start(session_id, user_id=f"locomo-{sample_id}", started_at=start)
            graph.record_turns(session_id, turns, user_id=f"locomo-{sample_id}")
            timings["record"] += time.perf_counter() - started
            started = time.perf_counter()
            graph.reconcile_session(session_id)
            timings["reconcile"] += time.perf_counter() - started
            started = time.perf_counter()
            graph.embed_session(session_id)
            timings["embed"] += time.perf_counter() - started
            progress.advance(task)
    return timings


def long_turn_id(session_id: str, position: int) -> str:
    return f"{session_id}:{position}"


def long_questions(path: Path) -> list[Item]:
    """The long set's questions; a question's evidence turns are its supporting sessions' `has_answer` turns."""
    found = []
    for question in json.loads(path.read_text()):
        sessions = dict(zip(question["haystack_session_ids"], question["haystack_sessions"], strict=True))
        turns = frozenset(long_turn_id(sid, position) for sid in question["answer_session_ids"]
                          for position, message in enumerate(sessions[sid]) if message.get("has_answer"))
        kind = question["question_type"]
        category = next(number for number, name in LONG_CATEGORIES.items() if kind.startswith(name.split("-")[0]))
        found.append(Item(LONG_USER, LONG_CONVERSATION, question["question"], turns,
                          frozenset(question["answer_session_ids"]), category))
    return found


def ingest_long(graph: SessionsGraph, path: Path) -> dict[str, float]:
    """The long set's sessions as one user, recorded, reconciled and embedded as LoCoMo's are."""
    timings: dict[str, float] = defaultdict(float)
    finished = {row["sid"] for row in graph.store.run(
        "MATCH (s:Session {user_id: $user, embedding_status: 'completed'}) RETURN s.session_id AS sid", {"user": LONG_USER})}
    for session in read_longmemeval(path):
        if session.session_id in finished:
            continue
        started = time.perf_counter()
        graph.record_session_start(session.session_id, user_id=LONG_USER, started_at=session.started_at)
        graph.record_turns(session.session_id, [turn.replace(turn_id=long_turn_id(session.session_id, position))
                                                for position, turn in enumerate(session.turns)], user_id=LONG_USER)
        timings["record"] += time.perf_counter() - started
        started = time.perf_counter()
        graph.reconcile_session(session.session_id)
        timings["reconcile"] += time.perf_counter() - started
        started = time.perf_counter()
        timings["passages"] += graph.embed_session(session.session_id).passages
        timings["embed"] += time.perf_counter() - started
    return timings


# -- turns held in memory: the baselines' corpus and the tuning sweeps' TurnSource -------------


class Turns:
    """Every message of every user, read once, with the lookups the fusion asks for."""

    def __init__(self, graph: SessionsGraph) -> None:
        rows = graph.store.run(f"MATCH (t:Turn) WHERE t.text <> '' RETURN t.user_id AS user_id, {TURN_COLUMNS}")
        self.rows = {row["turn_id"]: row for row in rows if row["kind"] == "message"}
        self.at = {(row["session_id"], row["seq"]): row for row in self.rows.values()}
        self.by_user: dict[str, list[dict]] = defaultdict(list)
        for row in self.rows.values():
            self.by_user[row["user_id"]].append(row)

    def around(self, rows: Mapping[str, dict], turn_ids: Sequence[str], reach: int, *, evidence: bool) -> Iterable[dict]:
        for tid in turn_ids:
            session, seq = rows[tid]["session_id"], rows[tid]["seq"]
            for offset in range(-reach, reach + 1):
                near = self.at.get((session, seq + offset))
                if near is not None:
                    yield near

    def texts(self, turn_ids: Sequence[str]) -> Mapping[str, dict]:
        return {tid: self.rows[tid] for tid in turn_ids if tid in self.rows}

    def line(self, tid: str) -> str:
        row = self.rows[tid]
        return RecalledTurn(turn_id=tid, session_id=row["session_id"], timestamp=row["timestamp"] or "",
                            speaker=row["role"], text=row["text"]).line(RecallConfig().turn_chars)

    def answer(self, ranked: list[str]) -> Answer:
        """A baseline's answer: its ranking, its first rows handed back."""
        top = ranked[:BASELINE_ROWS]
        return Answer(ranked, sessions_of(self.rows, ranked), set(top), sum(tokens(self.line(tid)) for tid in top))


def sessions_of(rows: Mapping[str, dict], ranked: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(rows[tid]["session_id"] for tid in ranked if tid in rows))


# -- retrievers -----------------------------------------------------------------------------


def bm25_reference(turns: Turns, items: Sequence[Item], *, user_only: bool = False, passages: bool = False) -> list[Answer]:
    """The reference baseline: Okapi BM25 (k1 1.2, b 0.75) over every turn of the question's conversation;
    `user_only`: over the user's own turns (LongMemEval's baseline); `passages`: over every turn's passages,
    a turn scoring as its best."""
    corpora = {}
    for user, rows in turns.by_user.items():
        chosen = [row for row in rows if row["role"] == "user"] if user_only else rows
        docs = [(row["turn_id"], Counter(content_words(piece)))
                for row in chosen for piece in (split_passages(row["text"]) if passages else [row["text"]])]
        df = Counter(term for _, counts in docs for term in counts)
        average = sum(sum(c.values()) for _, c in docs) / len(docs)
        corpora[user] = (docs, df, average)
    answers = []
    for item in items:
        docs, df, average = corpora[item.user]
        scores: dict[str, float] = {}
        for turn_id, counts in docs:
            length = sum(counts.values())
            total = 0.0
            for term in set(content_words(item.question)):
                tf = counts.get(term, 0)
                if tf:
                    idf = math.log(1 + (len(docs) - df[term] + 0.5) / (df[term] + 0.5))
                    total += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / average))
            scores[turn_id] = max(scores.get(turn_id, 0.0), total)
        answers.append(turns.answer(sorted(scores, key=lambda tid: (-scores[tid], tid))[:50]))
    return answers


def recall_answers(graph: SessionsGraph, items: Sequence[Item], config: RecallConfig, label: str) -> list[Answer]:
    answers = []
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(label, total=len(items))
        for item in items:
            started = time.perf_counter()
            recalled = graph.recall(item.user, item.question, config=config)
            seconds = time.perf_counter() - started
            ranked = [turn.turn_id for turn in recalled.ranked_turns()]
            sessions = list(dict.fromkeys(turn.session_id for turn in recalled.ranked_turns()))
            answers.append(Answer(ranked, sessions, set(ranked), sum(tokens(line) for line in recalled.lines()), seconds))
            progress.advance(task)
    return answers


# -- the tuning cache: each question's lane candidates, read once ----------------------------


@dataclass
class Cached:
    item: Item
    text: object  # TextCandidates or None
    vector: dict[str, float]
    fact: dict[str, float]
    bm25: dict[tuple[float, float], dict[str, float]] = field(default_factory=dict)

    matched: dict[str, frozenset[str]] | None = None

    def words(self) -> dict[str, frozenset[str]]:
        if self.matched is None:
            self.matched = self.text.words()
        return self.matched

    def text_scores(self, k1: float, b: float) -> dict[str, float]:
        if self.text is None:
            return {}
        if (k1, b) not in self.bm25:
            self.bm25[(k1, b)] = self.text.scores(k1, b)
        return self.bm25[(k1, b)]


def cache_candidates(graph: SessionsGraph, items: Sequence[Item], config: RecallConfig) -> list[Cached]:
    cached = []
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("lane candidates", total=len(items))
        for item in items:
            search = Search(graph.store, item.user, item.question, config, DEFAULT_EMBEDDING_MODEL, None,
                            search_terms(item.question), mentioned_periods(item.question))
            search.embed_question()
            _, fact_scores = fact_lanes(search)
            vector_scores, _ = vector_lane(search)
            cached.append(Cached(item, text_candidates(search), vector_scores, fact_scores))
            progress.advance(task)
    return cached


def dense_alone(turns: Turns, cached: Sequence[Cached]) -> list[Answer]:
    return [turns.answer(sorted(c.vector, key=lambda tid: -c.vector[tid])) for c in cached]


def lane_candidates(turns: Turns, c: Cached, k1: float, b: float) -> tuple[fusion.Candidates, dict[str, dict]]:
    """One cached question's candidates and their rows, as recall() hands them to the fusion."""
    text = c.text_scores(k1, b)
    everything = (*(c.text.rows if c.text is not None else ()), *c.vector, *c.fact)
    rows = {tid: dict(turns.rows[tid]) for tid in everything if tid in turns.rows}
    candidates = fusion.Candidates(*({t: v for t, v in lane.items() if t in rows} for lane in (text, c.vector, c.fact)))
    if c.text is not None:
        candidates.words, candidates.idf = c.words(), c.text.idf()
    return candidates, rows


def swept(turns: Turns, cached: Sequence[Cached], ranker: fusion.Ranker, width: int,
          k1: float = bm25.K1, b: float = bm25.B) -> list[Answer]:
    """The fusion's ranking of every cached question with this ranker, without the store."""
    answers = []
    for c in cached:
        candidates, rows = lane_candidates(turns, c, k1, b)
        ranked = [tid for tid, _ in fusion.rank(candidates, rows, turns, question=c.item.question,
                                                periods=mentioned_periods(c.item.question), width=width,
                                                weights=recall_search.WEIGHTS, ranker=ranker)]
        answers.append(Answer(ranked, sessions_of(turns.rows, ranked), set(ranked), 0))
    return answers


def objective(items: Sequence[Item], answers: Sequence[Answer]) -> float:
    """What fitting chooses by: the two targets of the issue, turn R@10 and session R@5, equally."""
    result = measure(items, answers)
    return (result["turn@10"] + result["session@5"]) / 2


# -- fitting the ranker on the tuning half ------------------------------------------------------

# Products of two features the linear ranker may weigh beside the features themselves. None of
# them lowers a turn for its session's evidence: fitted freely on LoCoMo (whose sessions are short
# and on one topic), a product of strength and session evidence did, and that would undo what the
# session evidence is for, long multi-topic sessions that match in several turns.
INTERACTIONS = (
    "text*vector", "strength*coverage", "speaker*strength", "speaker*vector", "speaker*text",
    "when*strength", "period*strength", "previous*asks", "next*asks",
)
TERMS = (*fusion.FEATURES, *INTERACTIONS)
PENALTIES = (1e-5, 3e-5, 1e-4, 3e-4, 1e-3)  # L2, chosen by leave-one-conversation-out on the tuning half
# Terms made only of evidence features weigh at least 0 (fusion.EVIDENCE).
BOUNDED = np.array([all(part in fusion.EVIDENCE for part in term.split("*")) for term in TERMS])
SHARED = [TERMS.index("text"), TERMS.index("strength")]  # the turn's own text evidence (fusion.SESSION_SHARE)
SESSION = TERMS.index("session")


@dataclass
class Described:
    """One question's pool: its turn ids, their terms (one row each), and which are evidence."""

    item: Item
    turn_ids: list[str]
    terms: np.ndarray
    evidence: np.ndarray


def describe(turns: Turns, cached: Sequence[Cached], width: int) -> list[Described]:
    described = []
    for c in cached:
        candidates, rows = lane_candidates(turns, c, bm25.K1, bm25.B)
        found = fusion.features(candidates, rows, turns, question=c.item.question,
                                periods=mentioned_periods(c.item.question), width=width, weights=recall_search.WEIGHTS)
        ids = sorted(found)
        matrix = np.array([[math.prod(found[tid][part] for part in term.split("*")) for term in TERMS]
                           for tid in ids]).reshape(len(ids), len(TERMS))
        described.append(Described(c.item, ids, matrix, np.array([tid in c.item.turns for tid in ids])))
    return described


def pairs(described: Sequence[Described]) -> tuple[np.ndarray, np.ndarray]:
    """Every (evidence turn - other turn) difference of each question's pool, each question weighing the
    same. The text evidence's columns carry SESSION_SHARE of the session's, so that the session's
    weight fitted is what it gets beyond its least (see `unshared`)."""
    differences, weights = [], []
    for d in described:
        good, other = d.terms[d.evidence], d.terms[~d.evidence]
        if len(good) and len(other):
            differences.append((good[:, None, :] - other[None, :, :]).reshape(-1, len(TERMS)))
            weights.append(np.full(len(good) * len(other), 1.0 / (len(d.item.turns) * len(other))))
    shifted = np.vstack(differences)
    shifted[:, SHARED] += fusion.SESSION_SHARE * shifted[:, [SESSION]]
    return shifted, np.concatenate(weights)


def unshared(w: np.ndarray) -> np.ndarray:
    """The ranker's weights from those fitted on `pairs`' columns: the session's least weight added back."""
    result = w.copy()
    result[SESSION] += fusion.SESSION_SHARE * w[SHARED].sum()
    return result


def fit(differences: np.ndarray, weights: np.ndarray, penalty: float) -> np.ndarray:
    """Pairwise logistic regression over `pairs` (an evidence turn above another turn of its pool) by
    projected Newton steps: a bounded weight that would go below 0 stays at 0 while its gradient
    pushes it down."""
    weights = weights / weights.sum()

    def loss(w: np.ndarray) -> float:
        return float(weights @ np.logaddexp(0, -(differences @ w)) + penalty * (w @ w) / 2)

    w = np.zeros(len(TERMS))
    for _ in range(100):
        p = 1 / (1 + np.exp(-np.clip(differences @ w, -30, 30)))
        gradient = -(differences * (weights * (1 - p))[:, None]).sum(0) + penalty * w
        free = ~(BOUNDED & (w <= 0) & (gradient > 0))
        hessian = (differences[:, free] * (weights * p * (1 - p))[:, None]).T @ differences[:, free]
        step = np.zeros(len(TERMS))
        step[free] = np.linalg.solve(hessian + penalty * np.eye(int(free.sum())), gradient[free])
        size, before = 1.0, loss(w)
        while True:  # halve the step until the projected point does not lose
            moved = np.where(BOUNDED, np.maximum(w - size * step, 0.0), w - size * step)
            if loss(moved) <= before or size < 1e-4:
                break
            size /= 2
        change, w = np.abs(moved - w).max(), moved
        if change < 1e-8:
            break
    return unshared(w)


def ranked_by(turns: Turns, d: Described, w: np.ndarray, width: int) -> Answer:
    """The pool ranked by these weights (without newest-first, which is set, not fitted)."""
    scores = d.terms @ w
    ranked = [d.turn_ids[i] for i in sorted(range(len(scores)), key=lambda i: (-scores[i], d.turn_ids[i]))[:width]]
    return Answer(ranked, sessions_of(turns.rows, ranked), set(ranked), 0)


def ranker_of(w: np.ndarray) -> fusion.Ranker:
    return fusion.Ranker(1, {term: float(value) for term, value in zip(TERMS, w, strict=True)})


def fit_ranker(turns: Turns, tuning: Sequence[Cached], held_out: Sequence[Cached], width: int, out: Path) -> None:
    """Choose the penalty by leave-one-conversation-out on the tuning half, fit there, write the
    ranker, and print both halves beside the ranker shipped before (where it weighs only features
    the fusion still describes)."""
    try:
        shipped = fusion.shipped_ranker()
    except ValueError as error:
        console.print(f"the ranker shipped before is not compared: {error}")
        shipped = None
    described = describe(turns, tuning, width)
    by_conversation = {conversation: pairs([d for d in described if d.item.conversation == conversation])
                       for conversation in TUNING}
    table = Table(title="leave one tuning conversation out: objective (turn R@10 + session R@5) / 2")
    table.add_column("L2 penalty")
    table.add_column("objective", justify="right")
    scores = {}
    for penalty in PENALTIES:
        answers: dict[int, Answer] = {}
        for conversation in TUNING:
            others = [by_conversation[other] for other in TUNING if other != conversation]
            w = fit(np.vstack([x for x, _ in others]), np.concatenate([y for _, y in others]), penalty)
            for i, d in enumerate(described):
                if d.item.conversation == conversation:
                    answers[i] = ranked_by(turns, d, w, width)
        scores[penalty] = objective([c.item for c in tuning], [answers[i] for i in range(len(tuning))])
        table.add_row(f"{penalty:g}", f"{scores[penalty]:.4f}")
    console.print(table)
    penalty = max(scores, key=scores.__getitem__)
    fitted = ranker_of(fit(*pairs(described), penalty))
    lines = ["# The learned fusion of recall/fusion.py, fitted by benchmarks/bench_recall_quality.py --fit on LoCoMo's",
             f"# tuning half (conversations 0-4, {len(tuning)} questions): pairwise logistic regression, L2 {penalty:g}",
             "# chosen by leaving one conversation out; no weight of evidence below 0 (fusion.EVIDENCE), the",
             f"# session's at least {fusion.SESSION_SHARE:g} of text + strength (fusion.SESSION_SHARE).",
             "# A weight per feature, or per product of two (\"a*b\").",
             "version = 1", "", "[weights]"]
    lines += [f'"{term}" = {value:.6g}' for term, value in fitted.weights.items() if value]  # a 0 weighs nothing
    out.write_text("\n".join(lines) + "\n")
    console.print(f"L2 {penalty:g} chosen; ranker written to {out}")
    results = Table(title="turn R@10 / session R@5 (objective) of the swept fusion")
    results.add_column("ranker")
    halves = {"tuning 0-4": tuning, "held-out 5-9": held_out}
    for half in halves:
        results.add_column(half, justify="right")
    for label, ranker in (("shipped before (recall/ranker.toml)", shipped), ("fitted now", fitted)):
        if ranker is None:
            continue
        cells = []
        for part in halves.values():
            result = measure([c.item for c in part], swept(turns, part, ranker, width))
            cells.append(f"{result['turn@10']:.4f} / {result['session@5']:.4f} "
                         f"({(result['turn@10'] + result['session@5']) / 2:.4f})")
        results.add_row(label, *cells)
    console.print(results)


# -- scoring and tables -----------------------------------------------------------------------


def measure(items: Sequence[Item], answers: Sequence[Answer], category: int | None = None) -> dict[str, float]:
    totals: dict[str, list[float]] = defaultdict(list)
    for item, answer in zip(items, answers, strict=True):
        if category is not None and item.category != category:
            continue
        if not item.turns:  # a question with no evidence turn marked counts for sessions alone
            totals["session@5"].append(len(set(answer.sessions[:5]) & item.sessions) / len(item.sessions))
            totals["session@10"].append(len(set(answer.sessions[:10]) & item.sessions) / len(item.sessions))
            continue
        for k in (5, 10):
            totals[f"turn@{k}"].append(len(set(answer.ranked[:k]) & item.turns) / len(item.turns))
            totals[f"session@{k}"].append(len(set(answer.sessions[:k]) & item.sessions) / len(item.sessions))
        totals["found"].append(len(answer.returned & item.turns) / len(item.turns))
        totals["tokens"].append(answer.tokens)
    return {key: sum(values) / len(values) for key, values in totals.items() if values}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


def figure(result: Mapping[str, float], key: str, form: str = ".3f") -> str:
    """A measure as the tables show it; "-" where no question had it (a set that marks no evidence turn
    scores sessions alone)."""
    return format(result[key], form) if key in result else "-"


def report(title: str, items: Sequence[Item], runs: Mapping[str, Sequence[Answer]], chosen: Sequence[int],
           categories: Mapping[int, str] = CATEGORIES) -> None:
    picked = [items[i] for i in chosen]
    table = Table(title=f"{title}: {len(picked):,} questions")
    for column in ("retriever", "turn R@5", "turn R@10", "session R@5", "session R@10", "found", "tokens", "p50", "p95"):
        table.add_column(column, justify="left" if column == "retriever" else "right")
    by_category = Table(title=f"{title}, by category: turn R@10 / session R@5")
    by_category.add_column("retriever")
    for number, name in categories.items():
        count = sum(1 for item in picked if item.category == number)
        by_category.add_column(f"{number} {name} ({count})", justify="right")
    for name, answers in runs.items():
        mine = [answers[i] for i in chosen]
        result = measure(picked, mine)
        seconds = [a.seconds for a in mine if a.seconds is not None]
        table.add_row(
            name, *(figure(result, key) for key in ("turn@5", "turn@10", "session@5", "session@10", "found")),
            figure(result, "tokens", ".0f"),
            f"{percentile(seconds, 0.5):.0f} ms" if seconds else "-", f"{percentile(seconds, 0.95):.0f} ms" if seconds else "-",
        )
        cells = []
        for number in categories:
            part = measure(picked, mine, number)
            cells.append(f"{figure(part, 'turn@10')} / {figure(part, 'session@5')}")
        by_category.add_row(name, *cells)
    console.print(table)
    console.print(by_category)
    bounded, unbounded = runs.get(recall_label(RecallConfig().budget_tokens)), runs.get(recall_label(0))
    if bounded is not None and unbounded is not None:
        console.print(where_missed(title, picked, [bounded[i] for i in chosen], [unbounded[i] for i in chosen], categories))


# Where a supporting session missing from the default budget's first five is in the ranking with no budget.
MISS_PLACES = ("top 5 with no budget", "6th-10th", "below 10th", "not ranked")


def miss_place(session: str, unbounded: Answer) -> str:
    if session not in unbounded.sessions:
        return MISS_PLACES[3]
    place = unbounded.sessions.index(session)
    return MISS_PLACES[0] if place < 5 else MISS_PLACES[1] if place < 10 else MISS_PLACES[2]


def where_missed(title: str, items: Sequence[Item], bounded: Sequence[Answer], unbounded: Sequence[Answer],
                 categories: Mapping[int, str]) -> Table:
    """The session R@5 the default budget loses, per category, split by where each missed supporting session
    is with no budget: a miss in the first five there is the budget's (rows that did not fit); the others
    are the ranking's. Each missed session weighs 1 / the question's supporting sessions, over all questions,
    so a row sums to what session R@5 lacks of 1."""
    lost: dict[int, Counter] = defaultdict(Counter)
    for item, answer, free in zip(items, bounded, unbounded, strict=True):
        for session in item.sessions - set(answer.sessions[:5]):
            lost[item.category][miss_place(session, free)] += 1 / len(item.sessions)
    table = Table(title=f"{title}: session R@5 lost at the default budget, by where the session is with no budget")
    for column in ("category", "questions", *MISS_PLACES, "lost"):
        table.add_column(column, justify="left" if column == "category" else "right")
    count = Counter(item.category for item in items)
    for number, name in categories.items():
        if count[number]:
            share = {place: lost[number][place] / count[number] for place in MISS_PLACES}
            table.add_row(f"{number} {name}", str(count[number]), *(f"{share[place]:.3f}" for place in MISS_PLACES),
                          f"{sum(share.values()):.3f}")
    total = {place: sum(lost[number][place] for number in lost) / len(items) for place in MISS_PLACES}
    table.add_row("all", str(len(items)), *(f"{total[place]:.3f}" for place in MISS_PLACES), f"{sum(total.values()):.3f}")
    return table


def retrievers(graph: SessionsGraph, turns: Turns, items: Sequence[Item], budgets: Sequence[int],
               recall_only: bool = False) -> dict[str, list[Answer]]:
    """Every retriever's answers to `items`, in one process (`recall_only`: recall at `budgets` alone)."""
    default = RecallConfig()
    runs: dict[str, list[Answer]] = {} if recall_only else {
        "BM25 (k1 1.2, b 0.75)": bm25_reference(turns, items),
        "BM25, user turns only": bm25_reference(turns, items, user_only=True),
        "BM25 over passages": bm25_reference(turns, items, passages=True),
        f"dense alone ({DEFAULT_EMBEDDING_MODEL})": dense_alone(turns, cache_candidates(graph, items, default)),
        "recall, upstream widths, no budget": recall_answers(graph, items, RecallConfig.named("upstream"), "upstream"),
    }
    for budget in budgets if recall_only else (*budgets, 0):
        label = recall_label(budget)
        runs[label] = recall_answers(graph, items, default.model_copy(update={"budget_tokens": budget}), label)
    return runs


def recall_label(budget: int) -> str:
    label = f"recall, budget {budget}" if budget else "recall, no budget"
    return label + (" (default)" if budget == RecallConfig().budget_tokens else "")


def write_answers(path: Path, results: Mapping[str, tuple[list[Item], dict[str, list[Answer]]]]) -> None:
    """One JSON line per question and retriever: what it ranked and how it scored, for diffs between trees."""
    with path.open("w") as out:
        for name, (items, runs) in results.items():
            for retriever, answers in runs.items():
                for item, answer in zip(items, answers, strict=True):
                    scored = measure([item], [answer])
                    out.write(json.dumps({
                        "set": name, "conversation": item.conversation, "category": item.category,
                        "question": item.question, "retriever": retriever,
                        "ranked": answer.ranked[:10], "sessions": answer.sessions[:10],
                        **{key: round(value, 4) for key, value in scored.items()},
                    }) + "\n")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="locomo10.json")
    parser.add_argument("--long", type=Path, default=DEFAULT_LONG, help="the long-session set (LongMemEval's format)")
    parser.add_argument("--sets", default="locomo,long", help="which sets to measure, separated by commas: locomo, long (default both)")
    parser.add_argument("--budgets", default=",".join(map(str, BUDGETS)), help="token budgets of recall to measure (0: none)")
    parser.add_argument("--store", type=Path, help="keep the ingested store here; a later run resumes or reuses it")
    parser.add_argument("--fit", type=Path, metavar="RANKER_TOML",
                        help="fit the ranker on conversations 0-4, write it here, and print both halves")
    parser.add_argument("--half", choices=HALVES, default="all",
                        help="LoCoMo's conversations to ingest and ask: all, tuning (0-4) or held-out (5-9)")
    parser.add_argument("--recall-only", action="store_true",
                        help="measure recall at --budgets alone: no baselines, no upstream widths, no unbudgeted run")
    parser.add_argument("--answers", type=Path, metavar="OUT_JSONL",
                        help="write each question's ranking and scores per retriever here, one JSON line each")
    args = parser.parse_args(argv)
    sets = {part.strip() for part in args.sets.split(",") if part.strip()}
    if not sets or not sets <= {"locomo", "long"}:
        parser.error(f"--sets takes locomo, long or locomo,long, got {args.sets!r}")
    try:
        budgets = [int(part) for part in args.budgets.split(",") if part.strip()]
    except ValueError:
        parser.error(f"--budgets takes whole numbers separated by commas, got {args.budgets!r}")
    if args.fit and args.half != "all":
        parser.error("--fit fits on the tuning half and reports the held-out half: leave --half at all")
    if "locomo" in sets and not args.data.is_file():
        parser.error(f"{args.data} does not exist: pass --data with the path of locomo10.json")
    if "long" in sets and not args.long.is_file():
        parser.error(f"{args.long} does not exist: pass --long, or write it with benchmarks/make_long_sessions.py")
    directory = args.store or Path(tempfile.mkdtemp(prefix="sg-locomo-", dir="/tmp"))
    graph = SessionsGraph(FalkorDBStore.open(directory))
    results: dict[str, tuple[list[Item], dict[str, list[Answer]]]] = {}
    try:
        graph.setup()
        conversations = HALVES[args.half]
        locomo_done = directory / ("done" if args.half == "all" else f"done-{args.half}")
        if "locomo" in sets and not (directory / "done").exists() and not locomo_done.exists():
            data = json.loads(args.data.read_text())
            timings = ingest(graph, [data[number] for number in conversations])
            locomo_done.write_text("ingested\n")
            console.print("LoCoMo ingest: " + ", ".join(f"{name} {seconds:.0f} s" for name, seconds in timings.items()))
        if "long" in sets and not (directory / "long-done").exists():
            timings = ingest_long(graph, args.long)
            (directory / "long-done").write_text("ingested\n")
            console.print("long-session ingest: " + ", ".join(f"{name} {value:.0f}" for name, value in timings.items()))
        turns = Turns(graph)
        if args.fit:
            items = questions(json.loads(args.data.read_text()))
            cached = cache_candidates(graph, items, RecallConfig())
            fit_ranker(turns, [c for c in cached if c.item.conversation in TUNING],
                       [c for c in cached if c.item.conversation not in TUNING], RecallConfig().message_width(), args.fit)
            return
        if "locomo" in sets:
            items = [item for item in questions(json.loads(args.data.read_text())) if item.conversation in conversations]
            results["locomo"] = (items, retrievers(graph, turns, items, budgets, args.recall_only))
        if "long" in sets:
            items = long_questions(args.long)
            results["long"] = (items, retrievers(graph, turns, items, budgets, args.recall_only))
    finally:
        graph.close()
        if args.store is None:
            shutil.rmtree(directory, ignore_errors=True)
    if args.answers:
        write_answers(args.answers, results)
    if "locomo" in results:
        items, runs = results["locomo"]
        held = [i for i, item in enumerate(items) if item.conversation not in TUNING]
        tuning = [i for i, item in enumerate(items) if item.conversation in TUNING]
        if held:
            report("LoCoMo held-out half (conversations 5-9)", items, runs, held)
        if held and tuning:
            report("LoCoMo, all ten conversations", items, runs, list(range(len(items))))
        if tuning:
            report("LoCoMo tuning half (conversations 0-4)", items, runs, tuning)
    if "long" in results:
        items, runs = results["long"]
        report(f"Long sessions ({args.long.name})", items, runs, list(range(len(items))), LONG_CATEGORIES)
    console.print(f"Rows only: recall's header (reading rules) adds {tokens(READING_RULES)} tokens to every answer.")


if __name__ == "__main__":
    main()
