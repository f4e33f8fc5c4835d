"""Who the store knows: a user exists once a session, a memory or an ontology of theirs was written."""

from __future__ import annotations

from sessions_graph_core import validation
from sessions_graph_core.store.base import GraphStore


def user_exists(store: GraphStore, user_id: str) -> bool:
    """Whether any session, memory or ontology of `user_id` was ever written (a lookup that finds
    nothing can then tell a user with no such item from a user the store has never seen)."""
    uid = validation.user_id(user_id)
    return bool(store.run("MATCH (u:User {user_id: $uid}) RETURN 1 AS found LIMIT 1", {"uid": uid}))
