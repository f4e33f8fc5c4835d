"""What the statement-reading tests share: the slots the spaCy backend reads in one text, and sessions
of one user message each, a month apart."""

from __future__ import annotations

from sessions_graph_core import SessionsGraph
from sessions_graph_core.ontology.model import DEFAULT_MODEL
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend


def slots(backend: SpacyBackend, text: str) -> list[tuple[str, str | None]]:
    return [(f.slot, f.value) for f in backend.extract([text], DEFAULT_MODEL)[0].facts if f.slot]


def record(graph: SessionsGraph, user: str, texts: dict[str, str]) -> None:
    for n, (sid, text) in enumerate(texts.items()):
        at = f"2026-0{n + 1}-05T09:00:00Z"
        graph.record_session_start(sid, user_id=user, project_key="shop", started_at=at)
        graph.record_turns(sid, [{"role": "user", "text": text, "timestamp": at, "turn_id": f"{sid}-0"}], user_id=user)


def reconciled(graph: SessionsGraph, spacy: SpacyBackend, user: str, texts: dict[str, str],
               order: tuple[str, ...]) -> list[tuple[str, str]]:
    """Record one session per text, reconcile them in `order` (a session named twice is a retry), and
    return the user's supersessions."""
    record(graph, user, texts)
    for sid in order:
        graph.reconcile_session(sid, backend=spacy)
    return superseded(graph, user)


def superseded(graph: SessionsGraph, user: str) -> list[tuple[str, str]]:
    """(old value, new value) for each supersession in the user's facts."""
    rows = graph.store.run(
        "MATCH (new:Fact {user_id: $user})-[:SUPERSEDES]->(old:Fact) RETURN new.value AS new, old.value AS old",
        {"user": user},
    )
    return [(row["old"], row["new"]) for row in rows]
