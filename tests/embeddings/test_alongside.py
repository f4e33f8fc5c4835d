"""Embedding in a second process while reconcile goes on (embeddings/alongside.py), on the real store and model."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from sessions_graph_core.embeddings.alongside import EmbeddingAlongside
from sessions_graph_core.embeddings.models import DEFAULT_EMBEDDING_MODEL
from sessions_graph_core.embeddings.vectors import embed_sessions
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend
from sessions_graph_core.store.location import StoreSettings
from tests.conftest import snapshot
from tests.embeddings.test_embeddings import SHARED_TURNS, start, vectors

USERS = ("alice", "alice", "bob", "alice")
# Long enough for a process start and a model load, never waited in full by a test that passes.
GONE_WITHIN_S = 60.0


def timeless(store) -> list[str]:
    """Every node and relationship, without vectors (see vectors()), the times and write ids two imports of
    the same files differ in, or the order properties were set in."""
    def kept(value):
        if isinstance(value, dict):
            return {key: kept(item) for key, item in value.items()
                    if key != "embedding" and not re.fullmatch(r"\w+_(at|since)|pending_write|write_id", key)}
        return value

    return sorted(json.dumps(kept(row), sort_keys=True, default=str) for row in snapshot(store))


def record(graph) -> list[str]:
    for index, user in enumerate(USERS):
        start(graph, f"s-{index}", user=user, turns=SHARED_TURNS[index % len(SHARED_TURNS)])
    return [f"s-{index}" for index in range(len(USERS))]


def settings_of(store) -> StoreSettings:
    return StoreSettings(data_dir=store.server.data_dir, graph=store.name)


def gone(pid: int) -> bool:
    """The process has exited (a zombie waiting for init to reap it counts as gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def wait_gone(pid: int) -> bool:
    deadline = time.monotonic() + GONE_WITHIN_S
    while not gone(pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    return gone(pid)


@pytest.fixture
def other_graph(server):
    from sessions_graph_core import SessionsGraph
    from sessions_graph_core.store.falkordb.store import FalkorDBStore

    other = FalkorDBStore(server, graph=f"test_seq_{os.getpid()}_{time.monotonic_ns() % 10**9}")
    graph = SessionsGraph(other)
    graph.setup()
    yield graph
    other.delete_all()
    other.close()


def test_embedding_alongside_reconcile_ends_as_one_stage_after_the_other(graph, store, other_graph):
    """Reconcile handing each session to the child, then embed_sessions, leaves the graph and the vectors
    (bit for bit) that reconcile then embed_sessions leave, and records every session the same; a text
    changed after the child embedded it is embedded again by the last pass."""
    ids = record(graph)
    with EmbeddingAlongside(settings_of(store), DEFAULT_EMBEDDING_MODEL) as alongside:
        for summary in graph.reconcile_sessions(ids, backend=SpacyBackend()):
            assert summary.status == "completed"
            alongside.add(summary.session_id)
    report = alongside.report
    assert report is not None and report.error is None
    assert report.sessions == len(ids) and report.passages > 20  # the child did the work
    assert graph.get_pending_embedding_sessions() == ids  # and recorded nothing: embed_sessions does
    edit = "MATCH (t:Turn {session_id: 's-0', role: 'user'}) SET t.text = t.text + ' Carol moved to Berlin.'"
    store.run(edit)
    outcomes = embed_sessions(store, ids)

    assert record(other_graph) == ids
    for summary in other_graph.reconcile_sessions(ids, backend=SpacyBackend()):
        assert summary.status == "completed"
    other_graph.store.run(edit)
    sequential = embed_sessions(other_graph.store, ids)

    assert outcomes["s-0"].turns == 1  # the edited turn, embedded again; nothing else of s-0's is stale
    assert sum(o.passages for o in outcomes.values()) < sum(o.passages for o in sequential.values())
    assert timeless(store) == timeless(other_graph.store)
    (names, ahead), (sequential_names, alone) = vectors(store), vectors(other_graph.store)
    assert names == sequential_names and np.array_equal(ahead, alone)
    assert graph.get_pending_embedding_sessions() == []


def test_a_failing_block_stops_the_child_by_its_pid(store):
    with pytest.raises(RuntimeError, match="reconcile broke"):
        with EmbeddingAlongside(settings_of(store), DEFAULT_EMBEDDING_MODEL) as alongside:
            pid = alongside.process.pid
            raise RuntimeError("reconcile broke")
    assert alongside.process.returncode is not None and gone(pid)


def test_the_child_runs_the_parents_code_whatever_the_working_directory_holds(store, tmp_path, monkeypatch):
    # Another checkout of the package where the parent runs (a benchmark's baseline worktree, a user's clone):
    # `python -m` would import it first.
    (tmp_path / "sessions_graph_core").mkdir()
    (tmp_path / "sessions_graph_core" / "__init__.py").write_text("raise SystemExit(3)\n")
    monkeypatch.chdir(tmp_path)
    with EmbeddingAlongside(settings_of(store), DEFAULT_EMBEDDING_MODEL) as alongside:
        pass
    assert alongside.report is not None and alongside.report.error is None
    assert alongside.process.returncode == 0


PARENT = textwrap.dedent("""
    import sys, time
    from sessions_graph_core.embeddings.alongside import EmbeddingAlongside
    from sessions_graph_core.store.location import StoreSettings
    alongside = EmbeddingAlongside(StoreSettings(data_dir=sys.argv[1], graph=sys.argv[2]), sys.argv[3]).__enter__()
    alongside.add("s-0")
    print(alongside.process.pid, flush=True)
    time.sleep(600)
""")


def test_a_parent_killed_outright_leaves_no_child(graph, store):
    record(graph)
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, str(store.server.data_dir), store.name, DEFAULT_EMBEDDING_MODEL],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
    )
    try:
        child = int(parent.stdout.readline())
        assert not gone(child)
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    assert wait_gone(child), f"the embedding child {child} outlived its killed parent"


def test_the_child_reaches_a_standalone_store_by_its_password_without_showing_it():
    """A standalone primary with a password, whose writes wait for a replica: the child opens it from the
    settings sent on its pipe, and the password is on no command line."""
    from service_helpers import standalone_pair

    from sessions_graph_core import SessionsGraph
    from sessions_graph_core.store.location import open_store

    with standalone_pair() as servers:
        settings = StoreSettings(data_dir=Path("/nonexistent"), falkordb_url=servers.primary.url,
                                 falkordb_password=servers.password, read_url=servers.replica.url, replica_acks=1)
        store = open_store(settings)
        try:
            graph = SessionsGraph(store)
            graph.setup()
            ids = record(graph)
            with EmbeddingAlongside(settings, DEFAULT_EMBEDDING_MODEL) as alongside:
                assert servers.password not in Path(f"/proc/{alongside.process.pid}/cmdline").read_text()
                for sid in ids:
                    alongside.add(sid)
            assert alongside.report.error is None and alongside.report.sessions == len(ids)
            assert alongside.report.passages == len(store.run("MATCH (p:Passage) RETURN p.passage_id AS id")) > 0
        finally:
            store.delete_all()
            store.close()
