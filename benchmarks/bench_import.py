"""Importing real Claude Code and Codex history: import, reconcile and embed throughput, beside LoCoMo's.

The corpus is ../shared/data/transcripts (28 public transcripts, SOURCES.md). It is imported
`--repeats` times, each time into an empty graph (the median is shown), then reconciled (default
spaCy backend) and embedded (default ONNX model). LoCoMo's first sessions, as many turns as the
corpus holds, are recorded, reconciled and embedded in the same run, as the baseline the corpus is
compared with. Rates are wall-clock on whatever else the machine runs.

`--facts-out DIR` writes a fixed-seed sample of the FACT rows each side shows (candidates, which `facts` shows
only when asked for, are written apart: NAME_candidates.json) (200 of the
corpus's, 100 of LoCoMo's; `--seed`, 38 unless told) for labelling (tests/data/junk_facts/README.md);
`--locomo-skip N` takes LoCoMo's sessions from its conversations after the first N (the samples before
fresh2 came from its first three). `--longmemeval PATH` also records, reconciles and samples (100 rows) a
file in LongMemEval's format, chat no sample drew from before (tests/data/long_sessions.json). `--unlabelled`
draws the samples only from rows whose text no labelled sample holds: a held-out draw.
The labelled samples are read back from tests/data/junk_facts/*_corpus.json and *_locomo.json: of
their rows, how many the reader still writes, and the junk share of those.

    .venv/bin/python benchmarks/bench_import.py [--repeats 3] [--facts-out DIR] [--seed N] [--locomo-skip N]
        [--longmemeval PATH] [--unlabelled]

The data is read where it lies and never copied.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_reconcile import DEFAULT_DATA as LOCOMO  # noqa: E402
from bench_reconcile import load_sessions

from sessions_graph_core import SessionsGraph  # noqa: E402
from sessions_graph_core.embeddings.vectors import embed_sessions  # noqa: E402
from sessions_graph_core.integrations.harness_import import FORMATS, import_files, transcript_files  # noqa: E402
from sessions_graph_core.sessions.longmemeval import read_longmemeval  # noqa: E402
from sessions_graph_core.store.falkordb.store import FalkorDBStore  # noqa: E402

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "data" / "transcripts"
LABELLED = Path(__file__).resolve().parents[1] / "tests" / "data" / "junk_facts"
USER = "corpus"
SEED = 38
SAMPLE_SIZES = {"corpus": 200, "locomo": 100, "longmemeval": 100}
LONGMEMEVAL_USER = "longmemeval"
console = Console()


def timed(work: Callable[[], object]) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def import_corpus(graph: SessionsGraph) -> tuple[list[str], int]:
    """Every corpus file, imported; the sessions and the turns stored."""
    results = [
        result for runtime in FORMATS
        for result in import_files(graph.store, transcript_files(CORPUS / runtime), user_id=USER, runtime=runtime)
    ]
    return sorted({result.session_id for result in results if result.session_id}), sum(result.added for result in results)


def record_locomo(graph: SessionsGraph, turns_wanted: int, skipped: int = 0) -> tuple[list[str], int]:
    """LoCoMo's sessions in order, its first `skipped` conversations left out, until they hold at least
    `turns_wanted` turns."""
    session_ids, stored = [], 0
    for user, sid, start, turns in load_sessions(json.loads(LOCOMO.read_text())[skipped:]):
        if stored >= turns_wanted:
            break
        graph.record_session_start(sid, user_id=user, started_at=start)
        stored += graph.record_turns(sid, turns, user_id=user)
        session_ids.append(sid)
    return session_ids, stored


def record_longmemeval(graph: SessionsGraph, path: Path) -> tuple[list[str], int]:
    """Every session of a LongMemEval-format file, recorded as one user's."""
    session_ids, stored = [], 0
    for session in read_longmemeval(path):
        graph.record_session_start(session.session_id, user_id=LONGMEMEVAL_USER, started_at=session.started_at)
        stored += graph.record_turns(session.session_id, session.turns, user_id=LONGMEMEVAL_USER)
        session_ids.append(session.session_id)
    return session_ids, stored


def labelled_texts() -> set[str]:
    """The text of every row some labelled sample holds."""
    return {row["text"] for path in LABELLED.glob("*_*.json") for row in json.loads(path.read_text())}


def fact_rows(graph: SessionsGraph) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    """The FACT rows `facts` and recall show, and those held back as candidates (shown only when asked for)."""
    rows = graph.store.run(
        "MATCH (x:Fact {kind: 'fact'}) RETURN x.text AS text, x.slot AS slot, x.value AS value, "
        "x.rationale AS rationale, x.session_id AS session_id, x.candidate IS NOT NULL AS candidate "
        "ORDER BY text, session_id"
    )
    parts: tuple[list[dict[str, str]], list[dict[str, str]]] = ([], [])
    for row in rows:
        parts[bool(row.pop("candidate"))].append(row)
    return parts


def labelled_table(written: dict[str, list[dict[str, str]]]) -> Table:
    """Each labelled sample (tests/data/junk_facts: before_, after_, fresh_): which of its rows the reader
    still writes, and their junk share."""
    table = Table(title="The labelled samples (tests/data/junk_facts)")
    for column in ("sample", "rows", "junk", "still written", "junk of those"):
        table.add_column(column, justify="left" if column == "sample" else "right")
    for path in sorted(LABELLED.glob("*_*.json")):
        labelled = json.loads(path.read_text())
        side = path.stem.partition("_")[2]
        if side not in written:
            continue
        texts = {row["text"] for row in written[side]}
        kept = [row for row in labelled if row["text"] in texts]
        junk, kept_junk = (sum(row["label"] == "junk" for row in part) for part in (labelled, kept))
        table.add_row(path.stem, str(len(labelled)), f"{junk} ({junk / len(labelled):.1%})", str(len(kept)),
                      f"{kept_junk} ({kept_junk / len(kept):.1%})" if kept else "-")
    return table


def reconcile_and_embed(graph: SessionsGraph, session_ids: list[str]) -> tuple[float, float]:
    reconcile = timed(lambda: list(graph.reconcile_sessions(session_ids)))
    embed = timed(lambda: embed_sessions(graph.store, session_ids))
    return reconcile, embed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="imports of the whole corpus, each into an empty graph")
    parser.add_argument("--facts-out", type=Path, help="write the FACT-row samples here for labelling")
    parser.add_argument("--seed", type=int, default=SEED, help="the samples' seed (a fresh draw takes a new one)")
    parser.add_argument("--longmemeval", type=Path, help="also a file in LongMemEval's format, reconciled and sampled")
    parser.add_argument("--unlabelled", action="store_true", help="sample only rows no labelled sample holds")
    parser.add_argument("--locomo-skip", type=int, default=0,
                        help="leave out LoCoMo's first N conversations (a sample from conversations not drawn before)")
    args = parser.parse_args()
    if args.locomo_skip < 0:
        parser.error(f"--locomo-skip {args.locomo_skip}: give 0 or more conversations to leave out")
    for needed in (CORPUS, LOCOMO, *([args.longmemeval] if args.longmemeval else [])):
        if not needed.exists():
            parser.error(f"{needed} does not exist: the benchmark reads ../shared/data")

    directory = Path(tempfile.mkdtemp(prefix="sg-bench-imp-", dir="/tmp"))
    graph = SessionsGraph(FalkorDBStore.open(directory))
    try:
        imports = []
        for _ in range(args.repeats):
            graph.store.delete_all()
            graph.setup()
            started = time.perf_counter()
            corpus_sessions, corpus_turns = import_corpus(graph)
            imports.append(time.perf_counter() - started)
        reimport = timed(lambda: import_corpus(graph))
        corpus_reconcile, corpus_embed = reconcile_and_embed(graph, corpus_sessions)
        corpus_facts, corpus_held = fact_rows(graph)

        graph.store.delete_all()
        graph.setup()
        locomo_sessions, locomo_turns = record_locomo(graph, corpus_turns, args.locomo_skip)
        locomo_reconcile, locomo_embed = reconcile_and_embed(graph, locomo_sessions)
        locomo_facts, locomo_held = fact_rows(graph)
        written = {"corpus": corpus_facts, "locomo": locomo_facts}
        held = {"corpus": corpus_held, "locomo": locomo_held}
        if args.longmemeval:
            graph.store.delete_all()
            graph.setup()
            long_sessions, long_turns = record_longmemeval(graph, args.longmemeval)
            list(graph.reconcile_sessions(long_sessions))
            written["longmemeval"], held["longmemeval"] = fact_rows(graph)
            console.print(f"{args.longmemeval}: {len(long_sessions)} sessions, {long_turns:,} turns, "
                          f"{len(written['longmemeval']):,} FACT rows, {len(held['longmemeval']):,} held back as candidates")
    finally:
        graph.close()
        shutil.rmtree(directory, ignore_errors=True)

    table = Table(title=f"Import, reconcile and embed: the transcript corpus beside LoCoMo ({args.repeats} imports)")
    for column in ("measure", "corpus (28 files)", "LoCoMo (first sessions)"):
        table.add_column(column, justify="right" if column != "measure" else "left")
    table.add_row("sessions / turns", f"{len(corpus_sessions)} / {corpus_turns:,}", f"{len(locomo_sessions)} / {locomo_turns:,}")
    table.add_row("import, median of runs (turns/s)", f"{corpus_turns / statistics.median(imports):,.0f}", "")
    table.add_row("re-import, nothing new (s)", f"{reimport:.2f}", "")
    table.add_row("reconcile (turns/s)", f"{corpus_turns / corpus_reconcile:,.0f}", f"{locomo_turns / locomo_reconcile:,.0f}")
    table.add_row("embed (turns/s)", f"{corpus_turns / corpus_embed:,.0f}", f"{locomo_turns / locomo_embed:,.0f}")
    table.add_row("FACT rows", f"{len(corpus_facts):,}", f"{len(locomo_facts):,}")
    table.add_row("held back as candidates", f"{len(corpus_held):,}", f"{len(locomo_held):,}")
    console.print(table)
    console.print(labelled_table(written))
    if args.facts_out:
        args.facts_out.mkdir(parents=True, exist_ok=True)
        seen = labelled_texts() if args.unlabelled else set()
        for name, rows in written.items():
            rows = [row for row in rows if row["text"] not in seen]
            (args.facts_out / f"{name}_all.json").write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n")
            (args.facts_out / f"{name}_candidates.json").write_text(json.dumps(held[name], indent=1, ensure_ascii=False) + "\n")
            sample = random.Random(args.seed).sample(rows, min(SAMPLE_SIZES[name], len(rows)))
            (args.facts_out / f"{name}.json").write_text(json.dumps(sample, indent=1, ensure_ascii=False) + "\n")
        console.print(f"samples written to {args.facts_out}")


if __name__ == "__main__":
    main()
