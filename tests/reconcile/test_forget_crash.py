"""A forget that dies midway finishes when run again: the store is killed right after it applied one of
the forget's statements and cannot come back until its log is repaired, so the forget fails there; after
the restart, the same forget leaves exactly the graph a forget that never crashed leaves (issue 15)."""

from __future__ import annotations

import shutil
import tempfile
import uuid
from pathlib import Path

import pytest
from conftest import snapshot
from crash_proxy import CrashingProxy
from seed002 import STORY, USER, FakeApi, backend, record_session
from test_forget_everything import leaks
from test_reconcile import stable

from sessions_graph_core import SessionsGraph, StoreUnreachableError
from sessions_graph_core.store.falkordb.server import EmbeddedServer
from sessions_graph_core.store.falkordb.store import FalkorDBStore

# One statement from each stage of forget_session, in the order it runs them.
STAGES = [
    "-[d:DISCOVERED]->() DELETE d",
    "SET m.sources = [s IN m.sources WHERE NOT s IN $ids]",
    "DETACH DELETE t RETURN count(t)",
    "SET v.session_id = null",
]


def two_sessions(data_dir: Path, graph_name: str) -> SessionsGraph:
    graph = SessionsGraph(FalkorDBStore(EmbeddedServer(data_dir), graph=graph_name))
    graph.setup()
    llm = backend("anthropic", FakeApi())
    for index, session_id in ((0, "session-1"), (1, "session-2")):
        record_session(graph, index, session_id=session_id)
        graph.reconcile_session(session_id, backend=llm)
        graph.embed_session(session_id)
    return graph


@pytest.mark.parametrize("stage", STAGES)
def test_a_forget_killed_midway_finishes_when_run_again(stage: str) -> None:
    data_dir = Path(tempfile.mkdtemp(prefix="sg-forget-", dir="/tmp"))
    server = EmbeddedServer(data_dir)
    server.ensure_running()
    try:
        reference = two_sessions(data_dir, f"ref{uuid.uuid4().hex[:6]}")
        reference.forget_session(USER, "session-2")
        expected = stable(snapshot(reference.store))
        reference.close()

        name = f"g{uuid.uuid4().hex[:6]}"
        graph = two_sessions(data_dir, name)
        manifests = {path: path.read_bytes() for path in (data_dir / "appendonlydir").glob("*.manifest")}

        def unstartable() -> None:  # the restart the store attempts fails: the forget dies at this statement
            for path in manifests:
                path.write_text("garbage\n")

        proxy = CrashingProxy(server)
        graph.store._connection.close()  # the next command goes through the proxy  # noqa: SLF001
        proxy.arm(stage, after_kill=unstartable)
        with pytest.raises(StoreUnreachableError):
            graph.forget_session(USER, "session-2")
        proxy.close()
        assert proxy.crashed.is_set(), f"no statement contained {stage!r}"
        graph.close()
        for path, content in manifests.items():
            path.write_bytes(content)

        again = SessionsGraph(FalkorDBStore(EmbeddedServer(data_dir), graph=name))
        again.forget_session(USER, "session-2")
        own_texts = {m["text"] for m in STORY["sessions"][1]["messages"]} - {m["text"] for m in STORY["sessions"][0]["messages"]}
        assert leaks(again, {"session-2"} | own_texts) == []
        assert stable(snapshot(again.store)) == expected
        again.close()
    finally:
        EmbeddedServer(data_dir).stop()
        shutil.rmtree(data_dir, ignore_errors=True)
