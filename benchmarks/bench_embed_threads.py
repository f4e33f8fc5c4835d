"""onnxruntime's threads for the packaged model (embeddings.models.OnnxMiniLM): one thread without spinning
(what ships) beside two threads with and without spinning, on the same texts, in one process, with
--busy processes keeping the cores busy as a drain's other runs and servers do.

    .venv/bin/python benchmarks/bench_embed_threads.py [--sessions 300] [--rounds 2] [--busy 2]

Each round embeds the texts (6 turns a session, as the drain's) once per setting, in turn; the table gives
each setting's median wall and CPU seconds and their ratio to the shipped one. The load is printed with it.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import time

from bench_dagster import turns
from rich.console import Console
from rich.table import Table

from sessions_graph_core.embeddings.models import OnnxMiniLM

console = Console(width=130)
SETTINGS = {  # name -> OnnxMiniLM's arguments; the first is what ships
    "1 thread, no spinning (shipped)": {"threads": 1, "spinning": False},
    "2 threads, no spinning": {"threads": 2, "spinning": False},
    "2 threads, spinning (before)": {"threads": 2, "spinning": True},
}


def busy_loop() -> None:
    while True:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--busy", type=int, default=2, help="CPU-bound processes running beside it (0: none)")
    args = parser.parse_args()
    texts = [turn["text"] for index in range(args.sessions) for turn in turns(index)]
    # Keeping no short texts: each round embeds the same texts, and must pay the model each time.
    models = {name: OnnxMiniLM(**kwargs, short_texts_kept=0) for name, kwargs in SETTINGS.items()}
    for model in models.values():
        model.embed(texts[:64])  # the first batches are slower
    hogs = [multiprocessing.Process(target=busy_loop, daemon=True) for _ in range(args.busy)]
    for hog in hogs:
        hog.start()
    walls: dict[str, list[float]] = {name: [] for name in models}
    cpus: dict[str, list[float]] = {name: [] for name in models}
    try:
        for round_ in range(args.rounds):
            for name, model in models.items():
                wall, cpu = time.perf_counter(), time.process_time()
                model.embed(texts)
                walls[name].append(time.perf_counter() - wall)
                cpus[name].append(time.process_time() - cpu)
                console.print(f"  round {round_ + 1}, {name}: {walls[name][-1]:.1f} s, {cpus[name][-1]:.1f} CPU-s")
    finally:
        for hog in hogs:
            hog.terminate()
    shipped = next(iter(models))
    table = Table(title=f"{len(texts):,} turns embedded, {args.busy} busy processes beside, {os.cpu_count()} cores")
    for column in ("setting", "wall s (median)", "CPU-s (median)", "wall / shipped", "CPU / shipped"):
        table.add_column(column, justify="right")
    for name in models:
        wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
        table.add_row(name, f"{wall:.2f}", f"{cpu:.2f}", f"{wall / statistics.median(walls[shipped]):.2f}",
                      f"{cpu / statistics.median(cpus[shipped]):.2f}")
    console.print(table)
    console.print(f"Load (1-min average) at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
