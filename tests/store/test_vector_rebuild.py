"""A clean stop sets large vector indexes aside; the next start answers before it rebuilds them, and loses nothing.

SET_ASIDE_FROM is lowered so a store of a few turns counts as large: building 5,000 real vectors per test
would cost minutes here. Everything else is real: the embedded server, its log, the embedder, recall.
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import running_server

from sessions_graph_core import SessionsGraph
from sessions_graph_core.store.falkordb import vector_rebuild
from sessions_graph_core.store.falkordb.client import Connection, Graph
from sessions_graph_core.store.falkordb.server import EmbeddedServer, indexes_built
from sessions_graph_core.store.falkordb.store import FalkorDBStore

TURNS = [
    "We moved the orders queue from RabbitMQ to Kafka in March.",
    "The billing service keeps its invoices in PostgreSQL 16.",
    "Alerts for checkout latency page the payments team.",
    "The staging cluster runs in eu-west-1.",
]


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[EmbeddedServer]:
    monkeypatch.setattr(vector_rebuild, "SET_ASIDE_FROM", 1)
    with running_server("sg-vec-") as server:
        yield server


def embedded_history(server: EmbeddedServer) -> SessionsGraph:
    graph = SessionsGraph(FalkorDBStore(server, graph="sessions_graph"))
    graph.setup()
    graph.record_session_start("infra-1", user_id="alice")
    graph.record_turns("infra-1", [{"role": "user", "text": text} for text in TURNS], user_id="alice")
    graph.embed_session("infra-1")
    return graph


def indexes(server: EmbeddedServer) -> list[list]:
    """label, types, status and options of each index of the store."""
    client = Connection(str(server.socket_path), timeout=30)
    try:
        _, rows = Graph(client, "sessions_graph").query(
            "CALL db.indexes() YIELD label, types, status, options RETURN label, types, status, options"
        )
    finally:
        client.close()
    return rows


def vector_indexes(server: EmbeddedServer) -> list[tuple[str, str]]:
    return [(label, status) for label, types, status, _ in indexes(server) if any("VECTOR" in kinds for kinds in types.values())]


def hnsw_options(server: EmbeddedServer) -> list[dict[str, object]]:
    """The options FalkorDB reports for each vector index of the store."""
    return [{key: options[prop][key] for key in ("dimension", "similarityFunction", "M", "efConstruction", "efRuntime")}
            for _, types, _, options in indexes(server) for prop, kinds in types.items() if "VECTOR" in kinds]


def wait_for_vectors(server: EmbeddedServer) -> None:
    client = Connection(str(server.socket_path), timeout=30)
    try:
        deadline = time.monotonic() + 120
        while not indexes_built(Graph(client, "sessions_graph"), vectors=True):
            assert time.monotonic() < deadline, "the vector index was never rebuilt"
            time.sleep(0.05)
    finally:
        client.close()


def recalled_by_vectors(graph: SessionsGraph) -> tuple[list[str], str | None]:
    found = graph.recall("alice", "Which message broker carries the orders events?", budget_tokens=0)
    return [turn.text for turn in found.turns], found.vector_lanes_off


def recalled_after_the_rebuild(server: EmbeddedServer) -> tuple[list[str], str | None]:
    """What recall finds once the restarted store's vector index is built again."""
    wait_for_vectors(server)
    graph = SessionsGraph(FalkorDBStore(server, graph="sessions_graph"))
    try:
        return recalled_by_vectors(graph)
    finally:
        graph.close()


def test_a_clean_stop_sets_the_vector_index_aside_and_the_next_start_rebuilds_it(
    server: EmbeddedServer, capsys: pytest.CaptureFixture[str]
) -> None:
    graph = embedded_history(server)
    [(label, status)] = vector_indexes(server)
    assert status == "OPERATIONAL"
    before = recalled_by_vectors(graph)
    assert before[1] is None and TURNS[0] in before[0]
    graph.close()

    server.stop()
    [aside] = vector_rebuild.recorded(server.data_dir)
    assert (aside["label"], aside["property"], aside["options"]["dimension"]) == (label, "embedding", 384)

    capsys.readouterr()
    server.ensure_running()
    assert "rebuilding the store's vector index in the background" in capsys.readouterr().err
    assert not (server.data_dir / vector_rebuild.SET_ASIDE_FILE).exists()
    assert [name for name, _ in vector_indexes(server)] == [label]
    assert recalled_after_the_rebuild(server) == before


def test_a_store_killed_after_its_index_was_set_aside_rebuilds_it_and_loses_no_vector(server: EmbeddedServer) -> None:
    graph = embedded_history(server)
    before = recalled_by_vectors(graph)
    passages = graph.store.run("MATCH (p:Passage {user_id: 'alice'}) RETURN count(p) AS n")[0]["n"]
    graph.close()
    client = Connection(str(server.socket_path), timeout=30)
    try:
        assert vector_rebuild.set_aside(client, server.data_dir)  # a stop that got this far, then the machine died
    finally:
        client.close()
    assert vector_indexes(server) == []
    pid = server.pid()
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    while server.responds():
        time.sleep(0.05)

    server.ensure_running()
    assert len(vector_indexes(server)) == 1
    wait_for_vectors(server)
    graph = SessionsGraph(FalkorDBStore(server, graph="sessions_graph"))
    try:
        assert graph.store.run("MATCH (p:Passage {user_id: 'alice'}) RETURN count(p) AS n")[0]["n"] == passages
        assert recalled_by_vectors(graph) == before
    finally:
        graph.close()


def test_a_small_vector_index_is_kept_through_a_stop(server: EmbeddedServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vector_rebuild, "SET_ASIDE_FROM", 10_000)
    embedded_history(server).close()
    server.stop()
    assert not (server.data_dir / vector_rebuild.SET_ASIDE_FILE).exists()
    server.ensure_running()
    assert [status for _, status in vector_indexes(server)] == ["OPERATIONAL"]


def test_recall_says_when_the_vector_index_is_still_being_built(server: EmbeddedServer, tmp_path: Path) -> None:
    graph = embedded_history(server)
    try:
        index = graph.store.run("CALL db.indexes() YIELD label WHERE label STARTS WITH 'Vec_turn' RETURN label")[0]["label"]
        # A rebuild that has not finished: many vectors inserted into an index created after them.
        graph.store.run(f"DROP VECTOR INDEX FOR (n:{index}) ON (n.embedding)")
        graph.store.run(
            f"UNWIND range(1, 30000) AS i CREATE (:{index} {{embedding: vecf32([x IN range(1, 384) | rand()])}})"
        )
        graph.store.run(f"CREATE VECTOR INDEX FOR (n:{index}) ON (n.embedding) OPTIONS {{dimension: 384, similarityFunction: 'cosine'}}")
        texts, off = recalled_by_vectors(graph)
        assert off is not None and "still rebuilding its vector index" in off
        assert TURNS[0] in texts  # the text lanes still answer
    finally:
        graph.close()


TODAYS = {"dimension": 384, "similarityFunction": "cosine", **vector_rebuild.HNSW}


def test_a_vector_index_is_created_with_the_stores_hnsw_options(server: EmbeddedServer) -> None:
    embedded_history(server).close()
    assert hnsw_options(server) == [TODAYS]


def test_an_index_built_with_older_options_gets_todays_at_the_next_clean_stop_and_start(server: EmbeddedServer) -> None:
    graph = embedded_history(server)
    before = recalled_by_vectors(graph)
    index = graph.store.run("CALL db.indexes() YIELD label WHERE label STARTS WITH 'Vec_turn' RETURN label")[0]["label"]
    graph.store.run(f"DROP VECTOR INDEX FOR (n:{index}) ON (n.embedding)")
    older = {"dimension": 384, "similarityFunction": "cosine", "M": 8, "efConstruction": 300, "efRuntime": 20}
    graph.store.run(f"CREATE VECTOR INDEX FOR (n:{index}) ON (n.embedding) OPTIONS "
                    "{dimension: 384, similarityFunction: 'cosine', M: 8, efConstruction: 300, efRuntime: 20}")
    graph.close()
    wait_for_vectors(server)
    assert hnsw_options(server) == [older]

    server.stop()
    [aside] = vector_rebuild.recorded(server.data_dir)
    assert aside["options"] == {"dimension": 384, "similarityFunction": "cosine"}
    server.ensure_running()
    assert recalled_after_the_rebuild(server) == before
    assert hnsw_options(server) == [TODAYS]


def test_a_set_aside_file_written_before_the_options_changed_is_rebuilt_with_todays(server: EmbeddedServer) -> None:
    graph = embedded_history(server)
    before = recalled_by_vectors(graph)
    graph.close()
    server.stop()
    [aside] = vector_rebuild.recorded(server.data_dir)
    # What an older release wrote: every option the index had, efConstruction 200 among them.
    aside["options"] |= {"M": 16, "efConstruction": 200, "efRuntime": 200}
    (server.data_dir / vector_rebuild.SET_ASIDE_FILE).write_text(json.dumps([aside]))
    server.ensure_running()
    assert recalled_after_the_rebuild(server) == before
    assert hnsw_options(server) == [TODAYS]


@pytest.mark.parametrize(
    ("label", "prop", "similarity", "wrong"),
    [("Vec) DETACH DELETE (n", "embedding", "cosine", "plain names"), ("Vec_turn", "embedding", "dot' }", "similarity")],
)
def test_a_vector_index_with_a_bad_name_or_similarity_is_refused_with_why(label: str, prop: str, similarity: str, wrong: str) -> None:
    with pytest.raises(ValueError, match=wrong):
        vector_rebuild.create_statement(label, prop, 384, similarity)
