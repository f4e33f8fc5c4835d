"""Recall latency as one user's history grows, beside an exact vector scan in the same process.

One user's history is built up in steps (1k, 10k, 100k turns by default) of synthetic sessions:
turns of 4-40 words drawn from a Zipf-distributed vocabulary, one in ten a long 100-300 word
message, so full-text postings look like a real history's. At each size the same 40 questions
run through `SessionsGraph.recall` (every lane, default widths), in three kinds: made-up words only
(as in earlier rounds), the same asking when ("When did ...?"), and the same with a noun WordNet
knows ("Which book ...?"). The vector search recall uses (the user's HNSW index) is timed beside
the exact scan over all of the user's vectors that upstream runs (`vec.cosineDistance` over every passage). Peak RSS of this process and the
store's server are printed at the end.

Turn vectors: embedding 100k texts with the default model takes about 20 minutes on two shared
cores, so each turn's vector is a normalised mixture of three real embeddings of vocabulary
sentences plus noise. They live in the model's own space (questions are embedded for real), and
are clustered as real ones are; uniform random vectors would be HNSW's worst case.

    .venv/bin/python benchmarks/bench_recall_latency.py [--sizes 1000,10000,100000] [--questions 40] [--plot PNG]

With --plot, the p50 and p95 of each kind of question, and the exact scan's and the index's p50, are drawn
against the history's size as a PNG.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from plots import curves, run_note
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sessions_graph_core import SessionsGraph  # noqa: E402
from sessions_graph_core.embeddings.models import DEFAULT_EMBEDDING_MODEL, Embedder, load_embedder  # noqa: E402
from sessions_graph_core.embeddings.vectors import vector_index, write_vectors  # noqa: E402
from sessions_graph_core.recall.config import RecallConfig  # noqa: E402
from sessions_graph_core.store.falkordb.store import FalkorDBStore  # noqa: E402

USER = "bench-user"
TURNS_PER_SESSION = 50
VOCABULARY = 6000
BASE_SENTENCES = 1500
console = Console(width=150)


class Mixtures(Embedder):
    """Vectors for synthetic turns: mixtures of real embeddings (see the module docstring)."""

    model = DEFAULT_EMBEDDING_MODEL

    def __init__(self, base: np.ndarray, rng: np.random.Generator) -> None:
        self.base = base
        self.dimension = base.shape[1]
        self.rng = rng

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        picks = self.rng.integers(0, len(self.base), size=(len(texts), 3))
        weights = self.rng.dirichlet([1.0, 1.0, 1.0], size=len(texts))[..., None]
        vectors = (self.base[picks] * weights).sum(axis=1) + self.rng.normal(0, 0.02, (len(texts), self.dimension))
        return (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)


def vocabulary(rng: np.random.Generator) -> list[str]:
    consonants, vowels = "bcdfghjklmnprstvwz", "aeiou"
    words: set[str] = set()
    while len(words) < VOCABULARY:
        size = int(rng.integers(2, 5))
        words.add("".join(rng.choice(list(consonants)) + rng.choice(list(vowels)) for _ in range(size)))
    return sorted(words)


def sentence(words: list[str], rng: np.random.Generator, length: int) -> str:
    ranks = np.minimum(rng.zipf(1.3, size=length), len(words)) - 1
    return " ".join(words[r] for r in ranks).capitalize() + "."


def turn_text(words: list[str], rng: np.random.Generator) -> str:
    length = int(rng.integers(100, 300)) if rng.random() < 0.1 else int(rng.integers(4, 40))
    return sentence(words, rng, length)


def grow(graph: SessionsGraph, words: list[str], mixtures: Mixtures, rng: np.random.Generator, have: int, want: int) -> None:
    if have >= want:
        return
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"history {have:,} -> {want:,} turns", total=want - have)
        number = have // TURNS_PER_SESSION
        while have < want:
            session_id = f"bench-{number:06d}"
            day = f"2025-{1 + number % 12:02d}-{1 + number % 28:02d}T09:00:00Z"
            graph.record_session_start(session_id, user_id=USER, started_at=day)
            turns = [
                {"role": "user" if i % 2 == 0 else "assistant", "text": turn_text(words, rng), "timestamp": day}
                for i in range(TURNS_PER_SESSION)
            ]
            graph.record_turns(session_id, turns, user_id=USER)
            stored = graph.store.run(
                "MATCH (t:Turn {session_id: $sid}) RETURN t.turn_id AS key, t.user_id AS user_id, t.text AS text",
                {"sid": session_id},
            )
            write_vectors(graph.store, mixtures, "turn", stored)
            graph.store.run(
                "MATCH (s:Session {session_id: $sid}) SET s.embedding_status = 'completed', s.embedding_model = $model",
                {"sid": session_id, "model": mixtures.model},
            )
            have += TURNS_PER_SESSION
            number += 1
            progress.advance(task, TURNS_PER_SESSION)


# Nouns WordNet knows, so a question with one has concept evidence to find (recall/concepts.py): the
# synthetic vocabulary's made-up words have none, and a question of only those skips that work, which
# nearly every real question does.
NOUNS = ("book", "place", "sport", "food", "animal", "instrument", "game", "city")


def question_kinds(made_up: Sequence[str]) -> dict[str, list[str]]:
    """The benchmark's questions of made-up words (as in earlier rounds), the same asking when, the same
    with a WordNet noun ("Which book ...?"), and the same naming a month (recall reads the pool's texts for
    the time each talks about)."""
    lowered = [question[0].lower() + question[1:] for question in made_up]
    return {
        "made-up words": list(made_up),
        "asking when": [f"When did {question}" for question in lowered],
        "a WordNet noun": [f"Which {NOUNS[i % len(NOUNS)]} {question}" for i, question in enumerate(lowered)],
        "naming a month": [f"{question.removesuffix('?')} in May 2024?" for question in made_up],
    }


def timed(call, repeats: Sequence) -> list[float]:
    seconds = []
    for item in repeats:
        started = time.perf_counter()
        call(item)
        seconds.append(time.perf_counter() - started)
    return seconds


def peak_rss_mib(pid: int | None) -> float:
    """The process's high-water resident set (VmHWM), from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines() if pid else []:
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def p(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(len(values) * q))] * 1000


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="history sizes in turns, ascending")
    parser.add_argument("--questions", type=int, default=40)
    parser.add_argument("--store", type=Path, help="keep the store here and reuse what it holds (default: a temporary directory)")
    parser.add_argument("--plot", type=Path, help="also draw the latencies against the history's size as a PNG here")
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.sizes.split(",")]
    rng = np.random.default_rng(7)
    words = vocabulary(rng)
    embedder = load_embedder()
    base = embedder.embed([sentence(words, rng, int(rng.integers(6, 20))) for _ in range(BASE_SENTENCES)])
    mixtures = Mixtures(base, rng)
    questions = [sentence(words, rng, int(rng.integers(3, 8))).rstrip(".") + "?" for _ in range(args.questions)]
    kinds = question_kinds(questions)
    directory = args.store or Path(tempfile.mkdtemp(prefix="sg-lat-", dir="/tmp"))
    graph = SessionsGraph(FalkorDBStore.open(directory))
    table = Table(title=f"recall latency for one user ({args.questions} questions per size)")
    table.add_column("turns", justify="right")
    for kind in kinds:
        table.add_column(f"recall p50 / p95\n{kind}", justify="right")
    for column in ("upstream widths p50", "vector index p50", "exact scan p50", "exact / index", "build"):
        table.add_column(column, justify="right")
    index = vector_index(USER, "turn", embedder.dimension)
    upstream = RecallConfig.named("upstream")  # upstream's widths, no budget: timed beside the defaults
    exact = (
        "MATCH (p:Passage {user_id: $user, kind: 'turn'}) "
        "WITH p, vec.cosineDistance(p.embedding, vecf32($v)) AS d ORDER BY d LIMIT $k RETURN p.source_id AS id"
    )
    previous_p50 = None
    series: dict[str, list[float]] = {}
    try:
        graph.setup()
        # A kept store (--store) is grown from what it holds: a later run measures without rebuilding.
        have = graph.store.run("MATCH (t:Turn {user_id: $user}) RETURN count(t) AS n", {"user": USER})[0]["n"]
        for size in sizes:
            started = time.perf_counter()
            grow(graph, words, mixtures, rng, have, size)
            build = time.perf_counter() - started
            have = max(have, size)
            # A bulk build leaves the server compacting its log for a while; measure the store at rest.
            while graph.store.server.compacting():
                time.sleep(0.5)
            # A store opened after a clean stop rebuilds its vector index in the background (vector_rebuild.py).
            while not graph.store.server.indexed(vectors=True):
                time.sleep(0.5)
            vectors = embedder.embed(questions)
            graph.recall(USER, questions[0])  # warm the model and the caches once
            graph.recall(USER, "Which book?")  # and load the WordNet files (about 0.6 s, once per process)
            recall_by_kind = {kind: timed(lambda q: graph.recall(USER, q), asked) for kind, asked in kinds.items()}
            recall_s = recall_by_kind["made-up words"]
            upstream_s = timed(lambda q: graph.recall(USER, q, config=upstream), questions)
            index_s = timed(lambda v: graph.store.vector_search(index, v, k=200, columns="node.source_id AS id"), vectors)
            exact_s = timed(lambda v: graph.store.run(exact, {"user": USER, "v": v.tolist(), "k": 200}), vectors)
            table.add_row(
                f"{size:,}",
                *(f"{p(seconds, 0.5):.0f} / {p(seconds, 0.95):.0f} ms" for seconds in recall_by_kind.values()),
                f"{p(upstream_s, 0.5):.0f} ms",
                f"{p(index_s, 0.5):.1f} ms",
                f"{p(exact_s, 0.5):.1f} ms",
                f"{statistics.median(exact_s) / statistics.median(index_s):.1f}x",
                f"{build:.0f} s",
            )
            if previous_p50:
                console.print(f"recall p50 growth {sizes[sizes.index(size) - 1]:,} -> {size:,}: {p(recall_s, 0.5) / previous_p50:.2f}x")
            previous_p50 = p(recall_s, 0.5)
            for kind, seconds in recall_by_kind.items():
                series.setdefault(f"recall p50, {kind}", []).append(p(seconds, 0.5))
                series.setdefault(f"recall p95, {kind}", []).append(p(seconds, 0.95))
            for name, seconds in (("upstream widths p50", upstream_s), ("exact scan p50", exact_s),
                                  ("vector index p50", index_s)):
                series.setdefault(name, []).append(p(seconds, 0.5))
            console.print(table)
        if args.plot:
            curves(args.plot, sizes, series, title=f"Recall latency for one user ({args.questions} questions per size)",
                   xlabel="turns in the user's history", ylabel="ms", note=run_note())
        server = graph.store.server.status()
        console.print(
            f"peak RSS: recall process {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB, "
            f"store server {peak_rss_mib(server.pid):.0f} MiB, data on disk {server.disk_bytes / 2**20:.0f} MiB"
        )
    finally:
        graph.close()
        if args.store is None:
            shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
