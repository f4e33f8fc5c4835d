"""Which neighbour in its slot a statement says again (facts._repeated, asked by said_again and move_into alike):
the one ranked before it, else the one after it, where the two make one claim, say one value in other words, or
the later says nothing changed. These are the three points on which the two places asked it differently before
one function served both; neither the knowledge benchmark nor the reading tests reach them."""

from __future__ import annotations

from sessions_graph_core.reconcile.facts import _repeated


def row(rank: str, claim: str, value: str, kept: bool = False) -> dict:
    return {"fact_id": f"f{rank}", "rank": rank, "claim": claim, "value": value, "kept": kept}


def test_the_neighbour_ranked_before_else_the_one_after() -> None:
    rows = [row("1", "me/car = mazda", "Mazda"), row("3", "me/car = fiat", "Fiat")]
    assert _repeated(rows, "2", "me/car = the fiat", "the Fiat", kept=False)["fact_id"] == "f3"  # the one after
    assert _repeated(rows, "2", "me/car = a mazda", "a Mazda", kept=False)["fact_id"] == "f1"


def test_a_neighbour_with_the_same_claim_is_the_one_repeated_before_the_one_after() -> None:
    rows = [row("1", "me/car = fiat", "Fiat"), row("3", "me/car = fiat 500", "Fiat 500", kept=True)]
    assert _repeated(rows, "2", "me/car = fiat", "fiat", kept=False)["fact_id"] == "f1"


def test_the_one_after_that_says_nothing_changed_is_repeated() -> None:
    rows = [row("3", "me/location = porto", "Porto", kept=True)]
    assert _repeated(rows, "2", "me/location = lisbon", "Lisbon", kept=False)["fact_id"] == "f3"
    assert _repeated([row("3", "me/location = porto", "Porto")], "2", "me/location = lisbon", "Lisbon", kept=False) is None


def test_a_change_repeats_nothing() -> None:
    rows = [row("1", "me/car = mazda", "Mazda"), row("3", "me/car = tesla", "Tesla")]
    assert _repeated(rows, "2", "me/car = fiat", "Fiat", kept=False) is None
    assert _repeated(rows, "2", "me/car = fiat", "Fiat", kept=True)["fact_id"] == "f1"  # "still a Fiat": as before
