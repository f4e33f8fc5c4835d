"""One sentence, one row: a clause and the sentence around it are not written as two rows of one turn.

The small parser hangs a clause spliced on with a comma or a semicolon under the verb after it ("My new manager
is Ana Kovač, she led the hardware team": "is" under "led"), and a clause joined inside a reason under the reason
("... because Jenkins kept failing and we now have 30 repos"); the reader read the inner clause as one statement
and the outer one as the whole sentence, so the inner clause was written twice. Our own sentences, the real
store and the real model: a turn is reconciled and its FACT rows read back.
"""

from __future__ import annotations

import pytest
from reading_helpers import record

from sessions_graph_core import SessionsGraph
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend
from sessions_graph_core.reconcile.statements import lies_inside
from sessions_graph_core.text import comparable


def rows(graph: SessionsGraph, spacy: SpacyBackend, user: str, text: str) -> dict[str, str]:
    """The FACT rows one user message writes: text by slot ("" for none, joined where several)."""
    record(graph, user, {f"{user}-s": text})
    graph.reconcile_session(f"{user}-s", backend=spacy)
    found = graph.store.run(
        "MATCH (x:Fact {user_id: $user}) RETURN x.slot AS slot, x.text AS text ORDER BY slot, text", {"user": user})
    by_slot: dict[str, str] = {}
    for row in found:
        by_slot[row["slot"]] = " | ".join(filter(None, [by_slot.get(row["slot"]), row["text"]]))
    return by_slot


def nested(texts: list[str]) -> list[tuple[str, str]]:
    """Pairs of rows where the first's words lie inside the second's."""
    said = [comparable(text) for text in texts]
    return [(texts[m], texts[n]) for m, inner in enumerate(said) for n, outer in enumerate(said)
            if m != n and lies_inside(inner, outer)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # ", she ...": both clauses fill a slot; the second says its own clause.
        ("My new manager is Ana Kovač, she led the hardware team.",
         {"me/manager": "My new manager is Ana Kovač.", "hardware team/lead": "She led the hardware team."}),
        # "; ...": the second clause says the first's slot ended.
        ("The orders service moved to Postgres; the old MySQL box is gone.",
         {"orders service/database": "The orders service moved to Postgres.",
          "shop/database": "The old MySQL box is gone."}),
        # ", and ..., she ...": three clauses, three rows, each its own.
        ("My manager is Priya Shah, and the team moved to Dublin in 2021, she runs the platform group.",
         {"me/manager": "My manager is Priya Shah.", "shop/location": "The team moved to Dublin in 2021.",
          "platform group/lead": "She runs the platform group."}),
        # A clause in a slot, then one in none: the one in none says what the first does not.
        ("I work at Stripe now, I joined the payments team in May.",
         {"me/employer": "I work at Stripe now.", "": "I joined the payments team in May."}),
        # " because ...": the clause read inside the reason is no row of its own; the decision keeps its reason.
        ("We switched CI to Buildkite because Jenkins kept failing and we now have 30 repos.",
         {"shop/ci": "We switched CI to Buildkite because Jenkins kept failing and we now have 30 repos."}),
        # A clause in no slot inside the sentence around it, in no slot either: the sentence says it.
        ("I spent 14 hours on the migration and was almost done, I could see the last table.",
         {"": "I spent 14 hours on the migration and was almost done, I could see the last table."}),
    ],
)
def test_a_clause_and_its_sentence_are_one_row(graph: SessionsGraph, spacy: SpacyBackend, text: str,
                                               expected: dict[str, str]) -> None:
    found = rows(graph, spacy, "one-row", text)
    assert found == expected
    assert nested(list(found.values())) == []


def test_two_statements_of_one_sentence_are_both_written(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    # Neither clause's text lies inside the other's: both stay as read.
    assert rows(graph, spacy, "two-rows", "Our database is Postgres, and the cache is Redis.") == {
        "shop/cache": "The cache is Redis.", "shop/database": "Our database is Postgres."}


def test_a_slot_cut_from_the_sentence_is_still_superseded(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    record(graph, "lead-change", {"old": "My new manager is Ana Kovač, she led the hardware team.",
                                  "new": "Ana moved on, Tomas Berg leads the hardware team now."})
    for sid in ("old", "new"):
        graph.reconcile_session(sid, backend=spacy)
    replaced = graph.store.run(
        "MATCH (new:Fact {user_id: $user})-[:SUPERSEDES]->(old:Fact) RETURN old.text AS old, new.value AS new",
        {"user": "lead-change"})
    assert [(row["old"], row["new"]) for row in replaced] == [("She led the hardware team.", "Tomas Berg")]
