"""Slotted statements written a round of distinct slots per statement give the graph that writing them one
statement each gives: changes, restatements, a change waiting for its slot, out-of-order sessions."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from sessions_graph_core import SessionsGraph
from sessions_graph_core.reconcile import facts
from sessions_graph_core.reconcile.extraction.base import SpacyBackend
from tests.conftest import snapshot

# Wall-clock stamps of the run itself; everything else must be equal.
RUN_STAMPS = {"reconciled_at", "created_at", "updated_at", "ended_at", "last_turn_at", "write_id"}

SESSIONS = [  # (session, when, texts): several slots in one turn, one slot changed twice in a session, a
    # restatement reconciled before what it restates, a change waiting for its slot
    ("a", "2026-01-05T09:00:00Z", ["Alice owns the orders service. It runs in Berlin and we use Postgres for it.",
                                   "We use PagerDuty for alerts.", "My car is a Honda Civic. I live in Austin."]),
    ("b", "2026-01-20T09:00:00Z", ["Carol owns the orders service now; it moved to Lisbon.",
                                   "We've cancelled PagerDuty.", "I live in Denver these days.",
                                   "Last month I relocated to Seattle."]),
    ("c", "2026-02-02T09:00:00Z", ["We'll use CockroachDB for the orders service because Postgres failover was too slow.",
                                   "I sold the Civic last week. Bob owns the billing service, which runs in Oslo.",
                                   "I live in Seattle."]),
]


def _stable(rows: list[dict]) -> list[str]:
    def clean(value: object) -> object:
        return {k: v for k, v in value.items() if k not in RUN_STAMPS} if isinstance(value, dict) else value

    return sorted(repr({key: clean(value) for key, value in row.items()}) for row in rows)


def _reconcile_all(graph: SessionsGraph, spacy: SpacyBackend) -> list[str]:
    for sid, at, texts in SESSIONS:
        graph.record_session_start(sid, user_id="u1", project_key="shop", started_at=at)
        graph.record_turns(sid, [{"role": "user", "text": text, "timestamp": at, "turn_id": f"{sid}-{n}"}
                                 for n, text in enumerate(texts)])
    for sid in ("c", "a", "b"):  # out of order: chains are put together from both ends
        assert graph.reconcile_session(sid, backend=spacy).status == "completed"
    return _stable(snapshot(graph.store))


@pytest.fixture(scope="module")
def spacy() -> SpacyBackend:
    return SpacyBackend()


def test_rounds_of_distinct_slots_give_the_graph_one_statement_at_a_time_gives(
    graph: SessionsGraph, spacy: SpacyBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    rounds: list[int] = []
    write_round = facts._record_round

    def counted(store, kind, user_id, user_key, items: Sequence[facts.Statement]) -> None:  # noqa: ANN001
        rounds.append(len(items))
        write_round(store, kind, user_id, user_key, items)

    monkeypatch.setattr(facts, "_record_round", counted)
    batched = _reconcile_all(graph, spacy)
    assert max(rounds) > 1, f"no round held more than one statement ({rounds}): the test would not compare batching"
    graph.store.delete_all()
    graph.setup()

    record = facts.record
    monkeypatch.setattr(facts, "record", lambda store, kind, user_id, user_key, items: [
        record(store, kind, user_id, user_key, [item]) for item in items
    ])
    one_at_a_time = _reconcile_all(graph, spacy)
    assert sorted(set(batched) ^ set(one_at_a_time)) == [] and batched == one_at_a_time
    assert any("SUPERSEDES" in row for row in batched)  # the chains are in what was compared
