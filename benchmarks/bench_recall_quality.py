"""Recall quality on LoCoMo: does `recall` return the turns that hold each answer?

Each of LoCoMo's ten conversations becomes one user's sessions (turn text "Speaker: text", plus
"[image: caption]" for shared photos), is reconciled and embedded with the defaults, and every
question of categories 1-4 goes through `SessionsGraph.recall`. R@k is the share of a question's
evidence turns among the first k turns recall ranks, averaged over questions. Plain BM25 over the
same turns (k1 1.2, b 0.75, stopwords removed, the reference's baseline) runs in the same process.

    .venv/bin/python benchmarks/bench_recall_quality.py [--data PATH] [--store DIR] [--no-reconcile]

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
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sessions_graph_core import SessionsGraph  # noqa: E402
from sessions_graph_core.recall.config import RecallConfig  # noqa: E402
from sessions_graph_core.store.falkordb.store import FalkorDBStore  # noqa: E402
from sessions_graph_core.text import STOPWORDS  # noqa: E402

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo10.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
KS = (5, 10, 20)
EVIDENCE = re.compile(r"D\d+:\d+")
WORD = re.compile(r"[^\W_]+")
console = Console(width=150)


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
                    "role": "user" if turn["speaker"] == conv["speaker_a"] else "assistant",
                    # Turns carry no clock time; half a minute apart keeps their order.
                    "timestamp": start + timedelta(seconds=30 * position),
                }
            )
        sessions.append((f"{sample_id}-s{number}", start, turns))
        number += 1
    return sessions


def questions(data: list[dict]) -> list[tuple[str, str, set[str], int]]:
    """(user, question, evidence turn ids, category) for categories 1-4 with evidence."""
    found = []
    for conversation in data:
        sample_id = conversation["sample_id"]
        for item in conversation["qa"]:
            if item.get("category") not in CATEGORIES:
                continue
            gold = {f"{sample_id}:{ref}" for field in item.get("evidence", []) for ref in EVIDENCE.findall(field)}
            if gold:
                found.append((f"locomo-{sample_id}", item["question"], gold, item["category"]))
    return found


def ingest(graph: SessionsGraph, data: list[dict], *, reconcile: bool) -> dict[str, float]:
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
            graph.record_turns(session_id, turns)
            timings["record"] += time.perf_counter() - started
            if reconcile:
                started = time.perf_counter()
                graph.reconcile_session(session_id)
                timings["reconcile"] += time.perf_counter() - started
            started = time.perf_counter()
            graph.embed_session(session_id)
            timings["embed"] += time.perf_counter() - started
            progress.advance(task)
    return timings


def bm25_rankings(data: list[dict], items: Sequence[tuple[str, str, set[str], int]]) -> list[list[str]]:
    """The reference baseline: Okapi BM25 over every turn of the question's conversation."""

    def tokens(text: str) -> list[str]:
        return [w for w in WORD.findall(text.lower()) if w not in STOPWORDS]

    corpora = {}
    for conversation in data:
        docs = [(t["turn_id"], Counter(tokens(t["text"]))) for _, _, turns in session_turns(conversation, conversation["sample_id"]) for t in turns]
        df = Counter(term for _, counts in docs for term in counts)
        average = sum(sum(c.values()) for _, c in docs) / len(docs)
        corpora[f"locomo-{conversation['sample_id']}"] = (docs, df, average)
    rankings = []
    for user, question, _, _ in items:
        docs, df, average = corpora[user]
        scores = []
        for turn_id, counts in docs:
            length = sum(counts.values())
            total = 0.0
            for term in set(tokens(question)):
                tf = counts.get(term, 0)
                if tf:
                    idf = math.log(1 + (len(docs) - df[term] + 0.5) / (df[term] + 0.5))
                    total += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / average))
            scores.append((total, turn_id))
        rankings.append([turn_id for _, turn_id in sorted(scores, key=lambda s: -s[0])[: max(KS)]])
    return rankings


def recall_rankings(graph: SessionsGraph, items: Sequence[tuple[str, str, set[str], int]]) -> tuple[list[list[str]], list[float]]:
    # Twenty turns from the two message lanes, so R@20 is measured on recall's own ranking.
    config = RecallConfig(turns_k=10, text_k=10)
    rankings, seconds = [], []
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("recall", total=len(items))
        for user, question, _, _ in items:
            started = time.perf_counter()
            recalled = graph.recall(user, question, config=config)
            seconds.append(time.perf_counter() - started)
            rankings.append([turn.turn_id for turn in recalled.ranked_turns()])
            progress.advance(task)
    return rankings, seconds


def scores(items: Sequence[tuple[str, str, set[str], int]], rankings: Sequence[list[str]]) -> dict:
    totals: dict = defaultdict(list)
    for (_, _, gold, category), ranked in zip(items, rankings, strict=True):
        for k in KS:
            value = len(set(ranked[:k]) & gold) / len(gold)
            totals[k].append(value)
            totals[(k, category)].append(value)
    return {key: sum(values) / len(values) for key, values in totals.items()}


def report(items: Sequence, results: dict[str, dict]) -> None:
    table = Table(title=f"LoCoMo turn recall, categories 1-4 ({len(items):,} questions)")
    table.add_column("retriever")
    for k in KS:
        table.add_column(f"R@{k}", justify="right")
    for number, name in CATEGORIES.items():
        count = sum(1 for item in items if item[3] == number)
        table.add_column(f"R@10 {number} {name} ({count})", justify="right")
    for name, result in results.items():
        table.add_row(
            name,
            *(f"{result[k]:.3f}" for k in KS),
            *(f"{result[(10, number)]:.3f}" for number in CATEGORIES),
        )
    console.print(table)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="locomo10.json")
    parser.add_argument("--store", type=Path, help="keep the ingested store here; a later run resumes or reuses it")
    parser.add_argument("--no-reconcile", action="store_true", help="skip entity and fact extraction")
    args = parser.parse_args(argv)
    if not args.data.is_file():
        parser.error(f"{args.data} does not exist: pass --data with the path of locomo10.json")
    data = json.loads(args.data.read_text())
    items = questions(data)
    directory = args.store or Path(tempfile.mkdtemp(prefix="sg-locomo-", dir="/tmp"))
    fresh = not (directory / "done").exists()
    graph = SessionsGraph(FalkorDBStore.open(directory))
    try:
        graph.setup()
        if fresh:
            timings = ingest(graph, data, reconcile=not args.no_reconcile)
            (directory / "done").write_text("ingested\n")
            console.print("ingest: " + ", ".join(f"{name} {seconds:.0f} s" for name, seconds in timings.items()))
        rankings, seconds = recall_rankings(graph, items)
    finally:
        graph.close()
        if args.store is None:
            shutil.rmtree(directory, ignore_errors=True)
    seconds.sort()
    console.print(f"recall latency: p50 {seconds[len(seconds) // 2] * 1000:.0f} ms, p95 {seconds[int(len(seconds) * 0.95)] * 1000:.0f} ms")
    report(items, {"BM25 baseline (same run)": scores(items, bm25_rankings(data, items)), "recall (defaults)": scores(items, rankings)})


if __name__ == "__main__":
    main()
