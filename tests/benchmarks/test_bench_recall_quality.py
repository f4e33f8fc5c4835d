"""benchmarks/bench_recall_quality.py's table of where the default budget's session R@5 misses are: a
supporting session missing from the budget's first five is the budget's miss when recall with no budget
ranks it in its first five, else the ranking's (6th-10th, lower, or not ranked)."""

from __future__ import annotations

import pytest
from benchmark_modules import load_benchmark


@pytest.fixture(scope="module")
def bench():
    return load_benchmark("bench_recall_quality")


def answer(bench, sessions: list[str]):
    return bench.Answer(ranked=[], sessions=sessions, returned=set(), tokens=0)


def rows(table) -> dict[str, list[str]]:
    return {cells[0]: list(cells[1:]) for cells in zip(*(column._cells for column in table.columns), strict=True)}


def test_each_missed_session_is_put_where_recall_with_no_budget_ranks_it(bench) -> None:
    others = [f"x{n}" for n in range(12)]
    items = [
        # two supporting sessions: "a" is cut by the budget, "b" ranks 7th with no budget either
        bench.Item("u", 0, "q1", frozenset(), frozenset({"a", "b"}), 1),
        # found in the first five at the budget: nothing lost
        bench.Item("u", 0, "q2", frozenset(), frozenset({"c"}), 1),
        # ranked 12th with no budget, and one never ranked
        bench.Item("u", 0, "q3", frozenset(), frozenset({"d", "e"}), 4),
    ]
    bounded = [answer(bench, others[:5]), answer(bench, ["c", *others[:4]]), answer(bench, others[:5])]
    unbounded = [
        answer(bench, ["a", *others[:5], "b"]),
        answer(bench, ["c", *others[:4]]),
        answer(bench, [*others[:11], "d"]),
    ]
    table = bench.where_missed("t", items, bounded, unbounded, {1: "one", 4: "four"})
    found = rows(table)
    # per category: questions, top 5 with no budget, 6th-10th, below 10th, not ranked, lost (each miss 1/sessions)
    assert found["1 one"] == ["2", "0.250", "0.250", "0.000", "0.000", "0.500"]
    assert found["4 four"] == ["1", "0.000", "0.000", "0.500", "0.500", "1.000"]
    assert found["all"] == ["3", "0.167", "0.167", "0.167", "0.167", "0.667"]


def test_the_report_finds_the_default_budget_and_no_budget_runs_by_their_labels(bench) -> None:
    assert bench.recall_label(bench.RecallConfig().budget_tokens).endswith("(default)")
    assert bench.recall_label(0) == "recall, no budget"
