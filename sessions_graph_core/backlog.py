"""The work waiting in the graph: sessions to reconcile, sessions to embed, memory files to extract."""

from __future__ import annotations

from dataclasses import dataclass, field

from sessions_graph_core.embeddings import vectors
from sessions_graph_core.embeddings.models import DEFAULT_EMBEDDING_MODEL
from sessions_graph_core.reconcile import pipeline
from sessions_graph_core.sessions import records
from sessions_graph_core.store.base import GraphStore

# Counted up to this many of each: a backlog that large reads "10000 or more" either way.
CAP = 10_000


@dataclass(frozen=True)
class Backlog:
    reconcile: int
    embed: int
    memory_files: int
    users: list[vectors.UserBacklog] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.reconcile + self.embed + self.memory_files

    @property
    def oldest(self) -> vectors.UserBacklog | None:
        """The user whose session has waited longest (its `oldest`), or None when nothing waits."""
        waiting = [user for user in self.users if user.oldest_since]
        return min(waiting, key=lambda user: (user.oldest_since, user.user_id), default=None)


def backlog(store: GraphStore, *, model: str = DEFAULT_EMBEDDING_MODEL) -> Backlog:
    """What the sensors would find pending now; a session waiting for reconciliation also waits for its vectors."""
    return Backlog(
        reconcile=len(records.pending_sessions(store, limit=CAP)),
        embed=len(vectors.pending_embeddings(store, model=model, limit=CAP)),
        memory_files=len(pipeline.pending_memories(store, limit=CAP)),
        users=vectors.unfinished_by_user(store, model=model),
    )
