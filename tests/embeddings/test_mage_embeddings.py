"""Embedding inside Memgraph with MAGE's `embeddings.text`, through the real driver and MemgraphStore.

Memgraph itself answers from tests/fake_bolt.py, a Bolt server on 127.0.0.1: no Memgraph can run
here. What MAGE computed is stored, recalled and refused on the real embedded FalkorDB.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np
import pytest

from sessions_graph_core.cli.doctor import check_embedder
from sessions_graph_core.config.model import Config
from sessions_graph_core.embeddings.models import (
    MAGE_EMBED_TEXTS,
    Embedder,
    EmbeddingUnavailableError,
    load_embedder,
)
from sessions_graph_core.embeddings.vectors import embed_memories
from sessions_graph_core.store.memgraph import MemgraphStore
from tests.fake_bolt import DIMENSION, FakeMemgraph, fake_vector

NAME = "BAAI/bge-small-en-v1.5"
MODEL = f"mage:{NAME}"


@pytest.fixture
def memgraph() -> Iterator[FakeMemgraph]:
    with FakeMemgraph() as fake:
        yield fake


@pytest.fixture
def mage(memgraph: FakeMemgraph) -> Iterator[Embedder]:
    store = MemgraphStore(memgraph.url)
    yield load_embedder(MODEL, store=store)
    store.close()


def expected(texts: list[str]) -> np.ndarray:
    vectors = np.array([fake_vector(NAME, text) for text in texts])
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_texts_go_to_memgraph_as_parameters_in_batches_of_64(memgraph, mage):
    texts = [f"note {i}: it's \"quoted\" }}) RETURN 1 //" for i in range(130)]
    vectors = mage.embed(texts)
    calls = memgraph.embedding_calls()
    assert [len(call["texts"]) for call in calls] == [64, 64, 2]
    assert [text for call in calls for text in call["texts"]] == texts
    assert {call["model"] for call in calls} == {NAME}
    assert {query for query, _ in memgraph.queries} == {MAGE_EMBED_TEXTS}
    assert np.allclose(vectors, expected(texts), atol=1e-6)
    assert mage.model == MODEL and mage.dimension == DIMENSION and len(memgraph.embedding_calls()) == 3


def test_the_dimension_is_learned_from_memgraph_when_asked_first(memgraph, mage):
    assert mage.embed([]).shape == (0, DIMENSION)
    assert len(memgraph.embedding_calls()) == 1
    assert mage.dimension == DIMENSION and len(memgraph.embedding_calls()) == 1


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("missing", "embeddings.text failed: There is no procedure named 'embeddings.text'."),
        ("unsuccessful", f"embeddings.text could not embed with model '{NAME}'"),
        ("short", f"embeddings.text returned 1 vectors for 2 texts with model '{NAME}'"),
    ],
)
def test_each_failure_of_memgraph_is_an_unavailable_embedder_with_its_reason(memgraph, mage, answer, message):
    memgraph.answer_with = answer
    with pytest.raises(EmbeddingUnavailableError, match=f"^{re.escape(message)}$"):
        mage.embed(["Postgres for orders", "Redis for the cache"])
    # The connection is reset after a failure, so the next call succeeds once MAGE answers again.
    memgraph.answer_with = "vectors"
    assert mage.embed(["Postgres for orders"]).shape == (1, DIMENSION)


def test_a_mage_model_needs_a_model_name_and_a_memgraph_store(store):
    with pytest.raises(EmbeddingUnavailableError, match=re.escape(f"e.g. {MODEL}")):
        load_embedder("mage:")
    with pytest.raises(EmbeddingUnavailableError, match=r"^embeddings\.text failed: .* not Memgraph \(FalkorDBStore\)"):
        load_embedder(MODEL, store=store)


def test_vectors_from_memgraph_replace_local_ones_and_record_their_model(graph, store, mage, memgraph):
    memory = graph.save_memory("alice", "The orders service moved to Postgres in March.")
    assert embed_memories(store, "alice").memories == 1  # the default local model first

    assert embed_memories(store, "alice", embedder=mage).memories == 1
    rows = store.run(
        "MATCH (p:Passage {user_id: 'alice'}) RETURN p.source_id AS source, p.embedding_model AS model, "
        "p.embedding AS vector"
    )
    assert [(row["source"], row["model"]) for row in rows] == [(memory.memory_id, MODEL)]
    assert np.allclose(rows[0]["vector"], expected([memory.content])[0], atol=1e-6)
    [source] = store.run("MATCH (m:Memory {user_id: 'alice'}) RETURN m.embedding_model AS model")
    assert source["model"] == MODEL

    calls = len(memgraph.embedding_calls())
    assert embed_memories(store, "alice", embedder=mage).memories == 0
    assert len(memgraph.embedding_calls()) == calls


def test_on_falkordb_a_mage_model_fails_embedding_and_recall_falls_back_to_text(graph, store):
    graph.record_session_start("s-1", user_id="alice")
    graph.record_turns("s-1", [{"role": "user", "text": "The orders service uses Postgres."}], user_id="alice")
    with pytest.raises(EmbeddingUnavailableError, match="not Memgraph"):
        graph.embed_session("s-1", model=MODEL)
    [session] = store.run("MATCH (s:Session) RETURN s.embedding_status AS status, s.embedding_error AS error")
    assert session["status"] == "failed" and "embeddings.text failed" in session["error"]

    recalled = graph.recall("alice", "Which database do the orders use?", model=MODEL)
    assert "not Memgraph" in recalled.vector_lanes_off
    assert [turn.text for turn in recalled.turns] == ["The orders service uses Postgres."]


def test_doctor_reports_the_model_inside_memgraph(memgraph):
    config = Config.model_validate({"store": {"url": memgraph.url}, "recall": {"embedding_model": MODEL}})
    check = check_embedder(config)
    assert (check.status, check.detail) == ("pass", f"{NAME} ({DIMENSION} dimensions) inside Memgraph")

    memgraph.answer_with = "missing"
    check = check_embedder(config)
    assert check.status == "fail" and "There is no procedure named 'embeddings.text'" in check.detail
    assert "MAGE" in check.fix and "2 GiB" in check.fix


def test_doctor_fails_a_mage_model_on_the_embedded_store(data_dir):
    config = Config.model_validate({"store": {"data_dir": str(data_dir)}, "recall": {"embedding_model": MODEL}})
    check = check_embedder(config)
    assert check.status == "fail" and "not Memgraph" in check.detail and "MAGE" in check.fix
