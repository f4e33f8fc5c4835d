"""The graph's view of waiting work: the reads behind the sensors."""

from __future__ import annotations

from collections.abc import Collection

from pydantic import BaseModel

from sessions_graph_core.store import GraphStore


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
