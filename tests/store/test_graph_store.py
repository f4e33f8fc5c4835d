"""The GraphStore interface, one test body per backend (the `backend_store` fixture: FalkorDB always,
Memgraph when MEMGRAPH_URL names a server): parameters, idempotent writes, constraints, full-text and
vector search, each scoped to one user."""

from __future__ import annotations

from sessions_graph_core import SessionsGraph
from sessions_graph_core.store.base import GraphStore, VectorIndex
from sessions_graph_core.store.schema import MEMORY_TEXT_INDEX, SCHEMA, TURN_TEXT_INDEX


def test_parameters_come_back_as_plain_values(backend_store: GraphStore) -> None:
    params = {"i": 7, "f": 0.5, "s": "it's \"quoted\"", "items": [1, 2], "none": None, "yes": True}
    row = backend_store.run("RETURN $i AS i, $f AS f, $s AS s, $items AS items, $none AS none, $yes AS yes", params)[0]
    assert row == params


def test_sessions_memories_and_turns_round_trip(backend_store: GraphStore) -> None:
    graph = SessionsGraph(backend_store)
    saved = graph.save_memory("alice", "Postgres for the orders service", session_id="s-1")
    graph.save_memory("bob", "Postgres for bob")
    assert [m.memory_id for m in graph.search_memories("alice", "postgres")] == [saved.memory_id]
    graph.record_session_start("s-2", user_id="alice")
    assert graph.record_turns("s-2", [{"text": "hello"}, {"text": "again"}], call_id="c-1", user_id="alice") == 2
    assert graph.record_turns("s-2", [{"text": "hello"}, {"text": "again"}], call_id="c-1", user_id="alice") == 0  # a retry: once
    assert [t.seq for t in graph.get_turns("s-2")] == [0, 1]


def test_the_schema_applies_twice(backend_store: GraphStore) -> None:
    """Running setup again changes nothing and fails nothing (uniqueness on Memgraph: test_memgraph_store.py;
    FalkorDB has no unique constraints, so each write statement keeps its own keys unique)."""
    backend_store.apply_schema(SCHEMA)
    SessionsGraph(backend_store).save_memory("alice", "one", path="/memories/a.md")
    assert backend_store.run("MATCH (m:Memory) RETURN count(m) AS n")[0]["n"] == 1


def test_full_text_postings_count_one_users_nodes(backend_store: GraphStore) -> None:
    graph = SessionsGraph(backend_store)
    for text in ("kafka topics", "kafka lag", "redis cache"):
        graph.save_memory("alice", text)
    graph.save_memory("bob", "kafka for bob")
    matched, rows = backend_store.fulltext_postings(
        MEMORY_TEXT_INDEX, "alice", "kafka", limit=1, most=100, columns="node.content AS content",
        order="size(node.content)",
    )
    assert matched == 2 and rows == [{"matched": 2, "content": "kafka lag"}]


def test_full_text_postings_keep_their_order_when_their_nodes_are_written_again(backend_store: GraphStore) -> None:
    """The best postings follow `order`, not the index's score: that changed when a node was written again
    (as embedding sets a turn's properties), so the same history gave recall other candidates before and
    after the store was restarted."""
    graph = SessionsGraph(backend_store)
    graph.record_session_start("s-1", user_id="alice")
    filler = [{"text": f"Kafka came up in passing while we talked about item {i} of the long list."} for i in range(6)]
    best = [{"text": "Kafka lag, Kafka topics and Kafka consumers."}, {"text": "Kafka topics."}]
    graph.record_turns("s-1", [*filler[:3], *best, *filler[3:]], user_id="alice")

    def best_texts() -> list[str]:
        _, rows = backend_store.fulltext_postings(
            TURN_TEXT_INDEX, "alice", "kafka", limit=2, most=100, columns="node.text AS text", order="size(node.text)"
        )
        return [row["text"] for row in rows]

    assert best_texts() == ["Kafka topics.", "Kafka lag, Kafka topics and Kafka consumers."]
    for key in ("embedding_model", "embedding_hash"):
        backend_store.run(f"MATCH (t:Turn {{user_id: 'alice'}}) SET t.{key} = 'again'")
        assert best_texts() == ["Kafka topics.", "Kafka lag, Kafka topics and Kafka consumers."]


def test_vector_search_finds_the_nearest_first(backend_store: GraphStore) -> None:
    index = VectorIndex("Probe", "vector", 3)
    backend_store.ensure_vector_index(index)
    backend_store.ensure_vector_index(index)  # unless it exists
    for name, vector in (("x", [1.0, 0.0, 0.0]), ("y", [0.0, 1.0, 0.0]), ("xy", [0.7, 0.7, 0.0])):
        backend_store.run(
            f"CREATE (:Probe {{name: $name, vector: {backend_store.vector_value('$vector')}}})",
            {"name": name, "vector": vector},
        )
    rows = backend_store.vector_search(index, [1.0, 0.1, 0.0], k=2, columns="node.name AS name, similarity")
    assert [row["name"] for row in rows] == ["x", "xy"]
    assert rows[0]["similarity"] > rows[1]["similarity"]
