"""The learned junk gate (issue 38, sixth round), on the labelled rows of tests/data/junk_facts.

Its shipped weights are what benchmarks/train_learned_gate.py gives when retrained from those labels, and
with the gate acting a statement the weights refuse is not written to the real store, while as shipped (not
acting) the same statement is written.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from sessions_graph_core import SessionsGraph
from sessions_graph_core.reconcile import learned_gate
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
    # On the rows it was trained on, it refuses most junk and keeps ok rows, though far from all of them
    # (docs/import.md, sixth round: the threshold trades ok rows for a low junk share).
    junk = y == 1
    assert ours[junk].mean() > 0.9
    assert 0.2 < (~ours[~junk]).mean() < 0.9


def test_the_labelled_rows_are_what_the_test_says() -> None:
    labels = {row["text"]: (row["label"], row["slot"]) for row in json.loads(SAMPLE.read_text())}
    assert labels[JUNK] == ("junk", "")
    assert labels[OK] == ("ok", "")


def test_the_gate_calls_junk_what_its_weights_say() -> None:
    assert learned_gate.junk([JUNK, OK]) == {JUNK}


def written(graph: SessionsGraph, user: str) -> set[str]:
    """The FACT rows a user's one session of the two rows writes."""
    graph.record_session_start(f"{user}-s1", user_id=user, started_at=datetime(2024, 5, 1, tzinfo=UTC))
    graph.record_turns(f"{user}-s1", [{"role": "user", "text": JUNK}, {"role": "user", "text": OK}], user_id=user)
    graph.reconcile_session(f"{user}-s1")
    return {row["text"] for row in graph.store.run("MATCH (f:Fact {user_id: $user}) RETURN f.text AS text", {"user": user})}


def test_a_statement_the_gate_refuses_is_not_written(graph: SessionsGraph, monkeypatch: pytest.MonkeyPatch) -> None:
    # As shipped the gate does not act (docs/import.md, sixth round): the reader and its rules write both.
    assert not learned_gate.shipped().acting
    assert written(graph, "shipped") == {JUNK, OK}
    acting = learned_gate.shipped().model_copy(update={"acting": True})
    monkeypatch.setattr(learned_gate, "shipped", lambda: acting)
    assert written(graph, "gated") == {OK}
