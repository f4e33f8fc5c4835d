"""The learned junk gate (issue 38, sixth round), on the labelled rows of tests/data/junk_facts.

Its shipped weights are what benchmarks/train_learned_gate.py gives when retrained from those labels; the
statements it holds back as candidates are the facts it calls junk that name nothing in particular (the
store's side is tests/reconcile/test_candidates.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sessions_graph_core.reconcile import learned_gate
from sessions_graph_core.reconcile.facts import Statement
from tests.benchmark_modules import load_benchmark

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "junk_facts" / "fresh5_locomo.json"
# Two rows of the sample, in no slot: one labelled junk, one labelled ok.
JUNK = "Calvin: The Ferrari is indeed a showstopper."
OK = "Last week, I got a new Ferrari."


@pytest.fixture(scope="module")
def training() -> tuple[list[dict], np.ndarray, np.ndarray, object]:
    train = load_benchmark("train_learned_gate")
    rows = train.labelled_rows()
    x, y = train.design(rows)
    return rows, x, y, train


def test_retraining_from_the_labels_gives_the_shipped_verdicts(training) -> None:
    rows, x, y, train = training
    shipped = learned_gate.shipped()
    retrained = train.trained(rows, x, y, shipped.threshold)
    ours = learned_gate.probabilities(shipped, x) >= shipped.threshold
    again = learned_gate.probabilities(retrained, x) >= retrained.threshold
    assert shipped.trained_on == len(rows)
    assert (ours == again).mean() >= 0.99
    # On the rows it was trained on, at the 0.5 of the seventh round, it calls most junk junk and most ok
    # rows not (on rows it never saw it does far worse: docs/import.md, sixth and seventh rounds).
    junk = y == 1
    assert ours[junk].mean() > 0.9
    assert 0.8 < (~ours[~junk]).mean() < 0.95


def test_the_labelled_rows_are_what_the_test_says() -> None:
    labels = {row["text"]: (row["label"], row["slot"]) for row in json.loads(SAMPLE.read_text())}
    assert labels[JUNK] == ("junk", "")
    assert labels[OK] == ("ok", "")


def test_the_gate_calls_junk_what_its_weights_say() -> None:
    assert learned_gate.junk([JUNK, OK]) == {JUNK}


def _statement(text: str, kind: str = "fact") -> Statement:
    return Statement(fact_id=f"f-{kind}-{text}", source_id="t", session_ids=["s"], kind=kind, slot="", claim=text, text=text,
                     subject=None, predicate=None, object=None, rationale=None, confidence=None, value=None,
                     valid_at="2024-05-01T00:00:00Z", rank="r", about=[])


def test_held_back_are_the_facts_the_gate_calls_junk_that_name_nothing() -> None:
    unsure = "I appreciate the support."
    assert learned_gate.junk([unsure, JUNK]) == {unsure, JUNK}
    # JUNK names the Ferrari: shown whatever the gate says, as developer facts naming a service are.
    items = [_statement(unsure), _statement(JUNK), _statement(OK), _statement(unsure, kind="decision")]
    assert learned_gate.held_back(items, set()) == {f"f-fact-{unsure}"}
    assert not learned_gate.held_back([_statement("The Celery scheduler retries failed jobs three times.")], set())
    # About a person the reader typed as one: named, though only as the sentence's first word.
    bob = _statement("Bob is on call for the billing service.").model_copy(update={"about": ["bob|Person"]})
    assert learned_gate.junk([bob.text]) and not learned_gate.held_back([bob], {"bob|Person"})
