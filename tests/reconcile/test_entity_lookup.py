"""Finding the entity a text names: whole words only, the longest name wins (real store, real spaCy)."""

from __future__ import annotations

from sessions_graph_core import SessionsGraph
from sessions_graph_core.reconcile import entities
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend


def reconciled(graph: SessionsGraph, user: str, *texts: str) -> None:
    graph.record_session_start(f"{user}-s", user_id=user, started_at="2026-01-05T09:00:00Z")
    graph.record_turns(f"{user}-s", [{"role": "user", "text": text, "timestamp": "2026-01-05T09:00:00Z"} for text in texts], user_id=user)
    assert graph.reconcile_session(f"{user}-s", backend=SpacyBackend()).status == "completed"


def test_a_name_inside_another_word_is_not_found(graph: SessionsGraph) -> None:
    reconciled(graph, "u", "I live in Porto.")
    keys = {row["k"] for row in graph.store.run("MATCH (e:Entity {user_id: 'u'}) RETURN e.name_key AS k")}
    assert {"me", "porto"} <= keys  # the user's own entity exists, so a substring match would find it
    assert entities.find(graph.store, "u", "What do you remember?") is None
    assert entities.find(graph.store, "u", "Where is Portofino?") is None
    assert graph.current_facts("u", "What do you remember?") == []


def test_whole_words_are_found_and_the_longest_name_wins(graph: SessionsGraph) -> None:
    reconciled(graph, "u", "I live in Porto.", "Alice owns the orders service.")
    keys = {row["k"] for row in graph.store.run("MATCH (e:Entity {user_id: 'u'}) RETURN e.name_key AS k")}
    assert {"alice", "orders service", "me"} <= keys, keys
    assert entities.find(graph.store, "u", "Tell me: does Alice own the orders service?") == "orders service"
    assert entities.find(graph.store, "u", "Tell me what you remember.") == "me"
    assert entities.find(graph.store, "u", "Is it Porto, really?") == "porto"
    assert [x.slot for x in graph.current_facts("u", "What do you know about me?")] == ["me/location"]


def test_another_users_entities_are_not_found(graph: SessionsGraph) -> None:
    reconciled(graph, "u", "I live in Porto.")
    assert entities.find(graph.store, "someone-else", "Tell me about Porto.") is None
