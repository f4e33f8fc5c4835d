"""The order recall's rows are ranked in, and what a token budget keeps of them (recall/results.py)."""

from __future__ import annotations

from sessions_graph_core.recall.results import RecalledFact, RecalledTurn, ranked_rows, restates, tokens, within_budget

CHARS = 1500


def turn(turn_id: str, text: str) -> RecalledTurn:
    return RecalledTurn(turn_id=turn_id, session_id="s-1", timestamp="2026-03-02T09:00:00Z", speaker="user", text=text)


def fact(fact_id: str, text: str, source: str, **extra) -> RecalledFact:
    return RecalledFact(fact_id=fact_id, kind=extra.pop("kind", "fact"), subject="", predicate="", object="",
                        text=text, turn=source, **extra)


MOVE = turn("t1", "Nate: I was bored today, so I just took my turtles out for a walk by the lake.")
REPORT = turn("t2", "Priya gets the weekly report on Fridays from now on.")
SAME = fact("f1", "Nate: I was bored today, so I just took my turtles out for a walk.", "t1")
WHERE = fact("f2", "Nate lives in Tampa now.", "t1", replaced=["Nate lives in Boston."])
ELSEWHERE = fact("f3", "The orders service uses CockroachDB.", "t9")


def test_a_fact_that_only_restates_its_turn_comes_after_every_other_row():
    assert restates(SAME, MOVE.line(CHARS))
    assert not restates(WHERE, MOVE.line(CHARS))  # it says what it replaced: more than the turn
    decided = fact("f4", SAME.text, "t1", kind="decision")
    assert not restates(decided, MOVE.line(CHARS))
    current = fact("f6", SAME.text, "t1", slot="Nate/activity")  # a slot's value says it holds now
    assert not restates(current, MOVE.line(CHARS))
    assert not restates(fact("f5", "Nate took his turtles to the beach.", "t1"), MOVE.line(CHARS))
    rows = ranked_rows([], [MOVE, REPORT], [SAME, WHERE, ELSEWHERE], CHARS)
    assert [row.turn_id if isinstance(row, RecalledTurn) else row.fact_id for row in rows] == ["t1", "f2", "t2", "f3", "f1"]


def test_a_small_budget_keeps_the_next_turn_before_a_restating_fact():
    rows = ranked_rows([], [MOVE, REPORT], [SAME], CHARS)
    budget = tokens(MOVE.line(CHARS)) + tokens(REPORT.line(CHARS))
    assert tokens(SAME.line()) <= tokens(REPORT.line(CHARS))  # the fact alone would have fitted in the turn's place
    kept, left_out = within_budget(rows, budget, CHARS)
    assert kept == [MOVE, REPORT] and left_out == 1
