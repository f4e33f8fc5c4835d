"""Train the reader's junk gate (sessions_graph_core/reconcile/learned_gate.py) from the labelled FACT rows.

The rows are every labelled sample of tests/data/junk_facts but the held-out ones (HELD_OUT: fresh6 to fresh16),
which measured the gate and later rounds on chat they never saw (a text labelled twice keeps its first label, in
file-name order). The model is an L2-regularised logistic regression over the default embedder's vector
of the text plus the gate's lexical features, fitted by Newton's method on standardised features. The
threshold is chosen by cross-validation grouped by sample file (each file left out in turn, its rows
scored by a gate trained on the others): the table gives, for each threshold, the junk share of what is
kept and the ok rows lost, on all rows and on the rows of the samples drawn after the fifth round of rules
(`--current`), which are what the gate now sees.

    .venv/bin/python benchmarks/train_learned_gate.py            # the cross-validation table
    .venv/bin/python benchmarks/train_learned_gate.py --write    # and learned_gate.json from all rows

`--with-held-out --shown DIR ...` asks whether a gate retrained on every label would do better than the
shipped one on what the reader writes now: DIR is `bench_import.py --facts-out`'s folder, whose `*_all.json`
rows are shown and `*_candidates.json` rows held back; each labelled row found there is scored by a gate
trained on every other sample file, and the table gives the junk share of what would be shown, by sample kind.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sessions_graph_core.embeddings.models import DEFAULT_EMBEDDING_MODEL, load_embedder  # noqa: E402
from sessions_graph_core.reconcile import learned_gate  # noqa: E402

LABELLED = Path(__file__).resolve().parents[1] / "tests" / "data" / "junk_facts"
# The samples drawn after the fifth round of rules: the rows the gate is asked about today.
CURRENT = ("fresh4_locomo", "fresh5_locomo")
# The samples that measured this gate on chat it never saw (docs/import.md, sixth to ninth rounds, and the
# third to ninth held-out developer-chat draws): not trained on.
HELD_OUT = ("fresh6", "fresh7", "fresh8", "fresh9", "fresh10", "fresh11", "fresh12", "fresh13", "fresh14",
            "fresh15", "fresh16")
L2 = 30.0  # the penalty on standardised coefficients, chosen by the cross-validation below
THRESHOLDS = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)
console = Console()


def labelled_rows(with_held_out: bool = False) -> list[dict]:
    """Every labelled row once, with the sample file it came from as `group`; the held-out samples left out
    unless asked for."""
    rows: dict[str, dict] = {}
    for path in sorted(LABELLED.glob("*_*.json")):
        if path.stem.startswith(HELD_OUT) and not with_held_out:
            continue
        for row in json.loads(path.read_text()):
            rows.setdefault(row["text"], row | {"group": path.stem})
    return list(rows.values())


def design(rows: list[dict]) -> tuple[np.ndarray, np.ndarray]:
    """The feature matrix and the labels (1 = junk)."""
    texts = [row["text"] for row in rows]
    vectors = load_embedder(DEFAULT_EMBEDDING_MODEL).embed(texts)
    return learned_gate.features(texts, [row["slot"] for row in rows], vectors), np.array(
        [row["label"] == "junk" for row in rows], dtype=np.float64)


def fit(x: np.ndarray, y: np.ndarray, l2: float = L2) -> tuple[float, np.ndarray]:
    """Bias and coefficients on the raw features, fitted on standardised ones."""
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = np.hstack([np.ones((len(x), 1)), (x - mean) / scale])
    penalty = np.full(z.shape[1], l2)
    penalty[0] = 0.0  # the bias is not shrunk
    w = np.zeros(z.shape[1])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(z @ w)))
        gradient = z.T @ (p - y) + penalty * w
        hessian = (z * (p * (1 - p))[:, None]).T @ z + np.diag(penalty)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    coefficients = w[1:] / scale
    return float(w[0] - coefficients @ mean), coefficients


def trained(rows: list[dict], x: np.ndarray, y: np.ndarray, threshold: float) -> learned_gate.GateWeights:
    bias, coefficients = fit(x, y)
    return learned_gate.GateWeights(model=DEFAULT_EMBEDDING_MODEL, lexical=list(learned_gate.LEXICAL), bias=bias,
                                    coefficients=[round(float(c), 6) for c in coefficients], threshold=threshold,
                                    trained_on=len(rows))


def out_of_fold(rows: list[dict], x: np.ndarray, y: np.ndarray, l2: float = L2) -> np.ndarray:
    """Each row's junk probability from a gate trained on every other sample file."""
    groups = np.array([row["group"] for row in rows])
    scores = np.zeros(len(rows))
    for group in sorted(set(groups)):
        held = groups == group
        bias, coefficients = fit(x[~held], y[~held], l2)
        scores[held] = 1.0 / (1.0 + np.exp(-(x[held] @ coefficients + bias)))
    return scores


def trade_off(y: np.ndarray, scores: np.ndarray, threshold: float) -> tuple[int, int, int, int]:
    """Rows kept, junk among them, ok rows, ok rows refused."""
    kept = scores < threshold
    return int(kept.sum()), int(y[kept].sum()), int((y == 0).sum()), int(((y == 0) & ~kept).sum())


def table(title: str, y: np.ndarray, scores: np.ndarray) -> Table:
    shown = Table(title=title)
    for column in ("threshold", "kept", "junk of kept", "ok lost"):
        shown.add_column(column, justify="right")
    shown.add_row("no gate", str(len(y)), f"{int(y.sum())} ({y.mean():.1%})", "0")
    for threshold in THRESHOLDS:
        kept, junk, ok, lost = trade_off(y, scores, threshold)
        shown.add_row(f"{threshold:.2f}", str(kept), f"{junk} ({junk / max(kept, 1):.1%})", f"{lost} of {ok} ({lost / ok:.1%})")
    return shown


def written(folders: list[Path]) -> dict[str, tuple[str, bool, bool]]:
    """What the reader wrote, by text: the sample kind ("locomo", "longmemeval", "corpus"), whether in a slot,
    and whether held back as a candidate."""
    found: dict[str, tuple[str, bool, bool]] = {}
    for folder in folders:
        for path in sorted(folder.glob("*_all.json")) + sorted(folder.glob("*_candidates.json")):
            kind, _, part = path.stem.partition("_")
            for row in json.loads(path.read_text()):
                found[row["text"]] = (kind, bool(row.get("slot")), part == "candidates")
    return found


def shown_table(rows: list[dict], y: np.ndarray, scores: np.ndarray, folders: list[Path]) -> Table:
    """Junk share of the labelled rows the reader shows now (the shipped gate) and with the retrained gate
    deciding instead, on statements in no slot, at each threshold; and the ok rows held back."""
    now = written(folders)
    kinds = sorted({kind for kind, _, _ in now.values()})
    at = {kind: [i for i, row in enumerate(rows) if now.get(row["text"], ("",))[0] == kind] for kind in kinds}
    shown = Table(title="labelled rows the reader writes now: junk share of those shown (ok rows held back)")
    shown.add_column("gate")
    for kind in kinds:
        shown.add_column(f"{kind}, {len(at[kind])} rows", justify="right")
    shown.add_row("shipped", *[_share(y[at[kind]], np.array([now[rows[i]["text"]][2] for i in at[kind]], dtype=bool))
                              for kind in kinds])
    free = {kind: np.array([not now[rows[i]["text"]][1] for i in at[kind]], dtype=bool) for kind in kinds}
    for threshold in THRESHOLDS:
        shown.add_row(f"retrained, {threshold:.2f}",
                      *[_share(y[at[kind]], free[kind] & (scores[at[kind]] >= threshold)) for kind in kinds])
    return shown


def _share(y: np.ndarray, held: np.ndarray) -> str:
    kept = ~held
    return f"{y[kept].mean():.1%} ({int(((y == 0) & held).sum())} ok)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threshold", type=float, default=None, help="the junk probability held back as a candidate (default: the shipped one)")
    parser.add_argument("--write", action="store_true", help="write learned_gate.json, trained on every labelled row")
    parser.add_argument("--l2", type=float, nargs="*", default=[L2], help="penalties to compare by cross-validation")
    parser.add_argument("--with-held-out", action="store_true", help="train on the held-out samples too")
    parser.add_argument("--shown", type=Path, nargs="*", default=[],
                        help="bench_import.py --facts-out folders: score the labelled rows the reader writes now")
    args = parser.parse_args()
    if missing := [str(folder) for folder in args.shown if not any(folder.glob("*_all.json"))]:
        parser.error(f"--shown {' '.join(missing)}: no *_all.json there; give bench_import.py --facts-out folders")
    if args.write and args.with_held_out:
        parser.error("--write --with-held-out: the shipped weights are trained without the held-out samples")
    threshold = args.threshold if args.threshold is not None else learned_gate.shipped().threshold
    if not 0 < threshold < 1:
        parser.error(f"--threshold {threshold}: give a probability between 0 and 1")
    rows = labelled_rows(args.with_held_out)
    x, y = design(rows)
    current = np.array([row["group"] in CURRENT for row in rows])
    lexical = len(learned_gate.LEXICAL)
    for l2 in args.l2:
        for name, columns in (("embedding + lexical", slice(None)), ("embedding only", slice(0, x.shape[1] - lexical))):
            scores = out_of_fold(rows, x[:, columns], y, l2)
            console.print(table(f"{name}, l2 {l2}: all {len(rows)} rows, each sample file left out", y, scores))
            console.print(table(f"{name}, l2 {l2}: the rows of {', '.join(CURRENT)}", y[current], scores[current]))
            if args.shown and name == "embedding + lexical":
                console.print(shown_table(rows, y, scores, args.shown))
    if args.write:
        gate = trained(rows, x, y, threshold)
        learned_gate.WEIGHTS_FILE.write_text(gate.model_dump_json(indent=1) + "\n")
        console.print(f"{learned_gate.WEIGHTS_FILE} written: {len(rows)} rows, threshold {threshold}")


if __name__ == "__main__":
    main()
