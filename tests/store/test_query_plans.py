"""What one session's reconcile and embedding ask of the store starts from that session's own nodes:
a statement that scans a whole label costs more with every session the graph holds (the turn query
of embedding did, 115 ms a session at 10,000 sessions, until its filter moved after a WITH)."""

from __future__ import annotations

import pytest

from sessions_graph_core.embeddings import vectors as embeddings
from sessions_graph_core.embeddings.models import DEFAULT_EMBEDDING_MODEL
from sessions_graph_core.reconcile import pipeline as reconcile
from sessions_graph_core.store.falkordb.store import FalkorDBStore

WHOLE_GRAPH_SCANS = ("Label Scan", "All Node Scan")


def statements_of(store: FalkorDBStore, monkeypatch: pytest.MonkeyPatch, work) -> list[tuple[str, dict]]:
    seen: list[tuple[str, dict]] = []
    run = store.run

    def recording(query, params=None):
        seen.append((query, dict(params or {})))
        return run(query, params)

    monkeypatch.setattr(store, "run", recording)
    work()
    monkeypatch.setattr(store, "run", run)
    return seen


def test_a_sessions_reconcile_and_embedding_scan_no_whole_label(graph, store, monkeypatch):
    for index in range(3):
        graph.record_session_start(f"s{index}", user_id=f"user-{index % 2}", project_key="orders")
        graph.record_turns(f"s{index}", [
            {"role": "user", "text": "We moved the orders service off Heroku to Fly.io because of pricing."},
            {"role": "assistant", "text": "Noted: the orders service runs on Fly.io now."},
            {"role": "tool", "text": '{"status": "ok"}'},
        ], user_id=f"user-{index % 2}")
        graph.end_session(f"s{index}")

    def work() -> None:
        reconcile.reconcile_session(store, "s1")
        embeddings.embed_sessions(store, ["s1"], model=DEFAULT_EMBEDDING_MODEL)

    statements = statements_of(store, monkeypatch, work)
    assert len(statements) > 20  # the whole of both steps was seen
    scanning = [
        (" ".join(query.split())[:160], [step for step in store._graph.explain(query, params) if any(w in step for w in WHOLE_GRAPH_SCANS)])
        for query, params in statements
    ]
    assert [(query, steps) for query, steps in scanning if steps] == []
