"""The Memgraph backend. Its live tests need a server: set MEMGRAPH_URL (e.g. bolt://127.0.0.1:7687)."""

from __future__ import annotations

import os

import neo4j
import pytest

from sessions_graph_core import SessionsGraph
from sessions_graph_core.config.model import store_settings
from sessions_graph_core.errors import StoreUnreachableError
from sessions_graph_core.store.location import StoreSettings, open_store
from sessions_graph_core.store.memgraph import MemgraphStore
from sessions_graph_core.store.schema import SCHEMA

needs_memgraph = pytest.mark.skipif(
    not os.environ.get("MEMGRAPH_URL"), reason="MEMGRAPH_URL is not set: no Memgraph server to test against"
)


def test_dialect_uses_memgraph_36_syntax():
    statements = MemgraphStore._schema_statements(SCHEMA, create=True)
    assert "CREATE CONSTRAINT ON (n:Memory) ASSERT n.user_id, n.path IS UNIQUE" in statements
    assert "CREATE INDEX ON :Turn(session_id)" in statements
    assert "CREATE TEXT INDEX memory_content_index ON :Memory(content, user_key)" in statements
    assert "DROP TEXT INDEX memory_content_index" in MemgraphStore._schema_statements(SCHEMA, create=False)


def test_settings_pick_memgraph_from_the_environment(monkeypatch):
    monkeypatch.setenv("MEMGRAPH_URL", "bolt://127.0.0.1:1")
    monkeypatch.setenv("MEMGRAPH_USER", "mg")
    monkeypatch.setenv("MEMGRAPH_PASSWORD", "secret")
    settings = store_settings()
    assert settings.backend == "memgraph" and settings.memgraph_database == "memgraph"
    assert "secret" not in repr(settings)


def test_an_unreachable_server_is_a_clear_error():
    settings = StoreSettings(data_dir="/nonexistent", memgraph_url="bolt://127.0.0.1:1")
    with pytest.raises(StoreUnreachableError, match="Could not connect to Memgraph at bolt://127.0.0.1:1"):
        open_store(settings)


@pytest.fixture
def memgraph() -> SessionsGraph:
    graph = SessionsGraph(open_store(store_settings()))
    graph.store.delete_all()
    graph.setup()
    yield graph
    graph.store.delete_all()
    graph.close()


@needs_memgraph
def test_memgraph_constraint_rejects_a_duplicate_path(memgraph):
    memgraph.save_memory("alice", "one", path="/memories/a.md")
    with pytest.raises(neo4j.exceptions.Neo4jError):
        memgraph.store.run("CREATE (:Memory {memory_id: 'x', user_id: 'alice', path: '/memories/a.md'})")
