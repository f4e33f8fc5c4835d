"""Shared by the Dagster tests: sample sessions imported into a test graph, resources pointing at it."""

from __future__ import annotations

from pathlib import Path

from sessions_graph_core import SessionsGraph
from sessions_graph_core.sessions.jsonl import read_transcript
from sessions_graph_core.store.falkordb.store import FalkorDBStore
from sessions_graph_dagster.resources import EmbedderResource, ExtractorResource, GraphStoreResource

SAMPLES = sorted((Path(__file__).parent.parent / "examples" / "sessions").glob("*.jsonl"))


def import_transcript(graph: SessionsGraph, path: Path, *, session_id: str | None = None) -> str:
    """What `sessions-graph session import` does: the session, its turns, then pending."""
    transcript = read_transcript(path)
    sid = session_id or transcript.header.session_id or path.stem
    graph.record_session_start(sid, user_id=transcript.header.user_id, project_key=transcript.header.project_key)
    graph.record_turns(sid, transcript.turns, user_id=transcript.header.user_id)
    graph.end_session(sid)
    return sid


def resources_for(store: FalkorDBStore, *, graph_store: GraphStoreResource | None = None, model: str | None = None,
                  alongside: bool = True) -> dict[str, object]:
    return {
        "graph_store": graph_store or GraphStoreResource(data_dir=str(store.server.data_dir), graph=store.name),
        "extractor": ExtractorResource(backend="spacy"),
        "embedder": EmbedderResource(model=model, alongside=alongside),
    }


def status_of(graph: SessionsGraph, session_id: str) -> str | None:
    rows = graph.store.run(
        "MATCH (s:Session {session_id: $sid}) RETURN s.reconciliation_status AS status", {"sid": session_id}
    )
    return rows[0]["status"] if rows else None
