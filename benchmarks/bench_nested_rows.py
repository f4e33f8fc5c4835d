"""FACT rows that repeat part of another row of the same turn (docs/import.md, "One sentence, one row").

Each data set is recorded into an empty graph and reconciled (default spaCy backend): a LongMemEval-format
file as one user's sessions, or LoCoMo's sessions after its first `--locomo-skip` conversations up to
`--locomo-turns` turns (bench_import.py's LoCoMo side). Of the FACT rows written (candidates included), a row
is nested when its text, compared as words, lies inside the text of another row of a turn it comes from
("My new manager is Ana Kovač." inside "My new manager is Ana Kovač, she led the hardware team."), or is it.
After each set, bench_import.py's table of the labelled samples of its side (LongMemEval's or LoCoMo's): of
their rows, how many the reader still writes (by text), and the junk share of those.

    nice -n 10 .venv/bin/python benchmarks/bench_nested_rows.py [FILE ...] [--locomo-skip 4] [--show 5]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_import import console, fact_rows, labelled_table, record_locomo, record_longmemeval  # noqa: E402

from sessions_graph_core import SessionsGraph  # noqa: E402
from sessions_graph_core.reconcile.statements import lies_inside  # noqa: E402
from sessions_graph_core.store.falkordb.store import FalkorDBStore  # noqa: E402
from sessions_graph_core.text import comparable  # noqa: E402

# As many LoCoMo turns as bench_import.py records beside the transcript corpus (its 1,201 turns, 2026-12-07).
LOCOMO_TURNS = 1201


def nested(texts: dict[str, str]) -> dict[str, str]:
    """Of the rows of one turn (fact id: text), those whose words lie inside another row's words, or are another's,
    each with that other row's text."""
    said = {fid: comparable(text) for fid, text in texts.items()}
    found = {}
    for fid, inner in said.items():
        outer = next((other for other, words in said.items()
                      if other != fid and lies_inside(inner, words)), None)
        if outer is not None:
            found[fid] = texts[outer]
    return found


def measure(graph: SessionsGraph, session_ids: list[str]) -> tuple[int, list[tuple[str, str]]]:
    """The FACT rows the sessions wrote, and each nested row (its text and the text it lies in), once per turn."""
    list(graph.reconcile_sessions(session_ids))
    rows = graph.store.run("MATCH (x:Fact {kind: 'fact'})-[:FROM]->(t:Turn) RETURN x.fact_id AS fid, x.text AS text, "
                           "t.turn_id AS turn")
    by_turn: dict[str, dict[str, str]] = defaultdict(dict)
    for row in rows:
        by_turn[row["turn"]][row["fid"]] = row["text"]
    found = [(texts[fid], outer) for texts in by_turn.values() for fid, outer in nested(texts).items()]
    return len({row["fid"] for row in rows}), found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", type=Path, nargs="*", help="LongMemEval-format files")
    parser.add_argument("--locomo-skip", type=int, help="also LoCoMo, its first N conversations left out")
    parser.add_argument("--locomo-turns", type=int, default=LOCOMO_TURNS)
    parser.add_argument("--show", type=int, default=0, help="print this many nested rows of each set")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    directory = Path(tempfile.mkdtemp(prefix="sg-bench-nest-", dir="/tmp"))
    graph = SessionsGraph(FalkorDBStore.open(directory))
    figures = {}
    try:
        sets = [(path.stem, path) for path in args.files] + ([("locomo", None)] if args.locomo_skip is not None else [])
        for name, path in sets:
            graph.store.delete_all()
            graph.setup()
            if path is None:
                sessions, _ = record_locomo(graph, args.locomo_turns, args.locomo_skip)
            else:
                sessions, _ = record_longmemeval(graph, path)
            rows, found = measure(graph, sessions)
            same = sum(comparable(inner) == comparable(outer) for inner, outer in found)
            figures[name] = {"rows": rows, "inside another": len(found) - same, "same as another": same}
            print(f"{name}: {rows} FACT rows; of their turn's, {len(found) - same} inside another row, "
                  f"{same} the same as another", flush=True)
            console.print(labelled_table({"locomo" if path is None else "longmemeval": fact_rows(graph)[0]}))
            for inner, outer in found[: args.show]:
                print(f"    {inner!r}\n      in {outer!r}")
    finally:
        graph.close()
        shutil.rmtree(directory, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
