"""The graph's view of waiting work: the reads behind the sensors."""

from __future__ import annotations

from collections.abc import Collection

from pydantic import BaseModel

from sessions_graph_core.store.base import GraphStore


class PendingSession(BaseModel):
    session_id: str
    user_id: str
    revision: int


def pending_sessions(store: GraphStore, *, exclude: Collection[str], limit: int) -> list[PendingSession]:
    """Sessions waiting for reconciliation, oldest first, except those in `exclude`."""
    rows = store.run(
        "MATCH (s:Session {reconciliation_status: 'pending'}) WHERE NOT s.session_id IN $exclude "
        "RETURN s.session_id AS session_id, s.user_id AS user_id, coalesce(s.revision, 0) AS revision "
        "ORDER BY s.pending_since, session_id LIMIT $limit",
        {"exclude": sorted(exclude), "limit": int(limit)},
    )
    return [PendingSession.model_validate(row) for row in rows]


class SessionState(BaseModel):
    session_id: str
    user_id: str
    revision: int
    reconciliation_status: str | None = None
    embedding_status: str | None = None
    embedding_model: str | None = None
    embedding_failures: int = 0
    embedded_at: str | None = None


def session_states(store: GraphStore, session_ids: Collection[str]) -> list[SessionState]:
    rows = store.run(
        "MATCH (s:Session) WHERE s.session_id IN $ids "
        "RETURN s.session_id AS session_id, s.user_id AS user_id, coalesce(s.revision, 0) AS revision, "
        "s.reconciliation_status AS reconciliation_status, s.embedding_status AS embedding_status, "
        "s.embedding_model AS embedding_model, coalesce(s.embedding_failures, 0) AS embedding_failures, "
        "s.embedded_at AS embedded_at ORDER BY session_id",
        {"ids": sorted(session_ids)},
    )
    return [SessionState.model_validate(row) for row in rows]


def memory_versions(store: GraphStore, memory_ids: Collection[str]) -> dict[str, str]:
    """When each memory file last changed: a new edit means a new extraction run."""
    rows = store.run(
        "MATCH (m:Memory) WHERE m.memory_id IN $ids RETURN m.memory_id AS memory_id, m.updated_at AS updated_at",
        {"ids": sorted(memory_ids)},
    )
    return {row["memory_id"]: str(row["updated_at"]) for row in rows}
