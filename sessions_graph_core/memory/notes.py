"""Memories: free-form text a user's agent chose to keep, stored as files under /memories.

Every write that discards text keeps the old text first as a (:MemoryVersion), in the same
statement as the write, so no acknowledged text is ever lost.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from sessions_graph_core import validation
from sessions_graph_core.clock import now_iso
from sessions_graph_core.errors import foreign_session
from sessions_graph_core.memory import paths as memory_paths
from sessions_graph_core.sessions.records import ENSURE_SESSION, FOREIGN_SESSION, new_write_id
from sessions_graph_core.store.base import GraphStore, user_key
from sessions_graph_core.store.schema import MEMORY_TEXT_INDEX
from sessions_graph_core.text import search_terms
from sessions_graph_core.validation import ValidationError
from sessions_graph_core.values import Value

MAX_VERSIONS = 20

# With `u`, `m` and `previous` (the text being replaced) bound: keep `previous` as a version.
KEEP_PREVIOUS = (
    "FOREACH (_ IN CASE WHEN previous IS NOT NULL AND previous <> m.content THEN [1] ELSE [] END | "
    "CREATE (u)-[:HAS_MEMORY_VERSION]->(v:MemoryVersion {memory_id: m.memory_id, user_id: m.user_id, "
    "path: m.path, content: previous, replaced_at: $now, session_id: $session_id, deleted: false}) "
    "CREATE (m)-[:PREVIOUS_VERSION]->(v))"
)


def link_project(keys: str) -> str:
    """With `m` bound: link the file to the projects the Cypher list expression `keys` names."""
    return f"FOREACH (key IN {keys} | MERGE (p:Project {{key: key}}) MERGE (m)-[:ABOUT]->(p))"


# With `u` and `m` bound: link the file to its project, if its path names one.
LINK_PROJECT = link_project("$project_keys")

# With `u` and `m` bound, before `m` is deleted: keep its text as a version marked deleted.
KEEP_DELETED = (
    "CREATE (u)-[:HAS_MEMORY_VERSION]->(:MemoryVersion {memory_id: m.memory_id, user_id: m.user_id, "
    "path: m.path, content: m.content, replaced_at: $now, session_id: $session_id, deleted: true, write_id: $write_id})"
)

# With `u` and `m` bound: the session that wrote the file produced it.
RECORD_PROVENANCE = (
    "FOREACH (sid IN $session_ids | " + ENSURE_SESSION + " MERGE (s)-[:PRODUCED_MEMORY]->(m))"
)

MEMORY_COLUMNS = (
    "m.memory_id AS memory_id, m.user_id AS user_id, m.path AS path, m.content AS content, "
    "m.created_at AS created_at, m.updated_at AS updated_at"
)


class Memory(Value):
    __slots__ = ("memory_id", "user_id", "path", "content", "created_at", "updated_at", "session_id")

    memory_id: str
    user_id: str
    path: str
    content: str
    created_at: str
    updated_at: str
    session_id: str | None

    def __init__(
        self, memory_id: str, user_id: str, path: str, content: str, created_at: str, updated_at: str,
        session_id: str | None = None,
    ) -> None:
        self._fill(memory_id, user_id, path, content, created_at, updated_at, session_id)


def new_memory_id() -> str:
    """A new memory's id: 128 random bits as hex, as uuid4 gives, without the uuid module (which imports
    `platform`) at a memory tool call's hook."""
    return os.urandom(16).hex()


def write_params(user_id: str, path: str, session_id: str | None) -> dict[str, Any]:
    """The parameters KEEP_PREVIOUS, KEEP_DELETED, LINK_PROJECT and RECORD_PROVENANCE read.

    `write_id` names this one write: the statement leaves it on what it wrote, so when the store
    died before its reply and the reconnect sent it again, the write can tell it already landed.
    """
    project = memory_paths.project_key(path)
    return {
        "write_id": new_write_id(),
        "user_id": user_id,
        "user_key": user_key(user_id),
        "session_id": session_id,
        "session_key": session_id or "",
        "session_ids": [session_id] if session_id else [],
        "project_keys": [project] if project else [],
        "now": now_iso(),
    }


def written_by(store: GraphStore, user_id: str, write_id: str, *, label: str = "Memory") -> list[str]:
    """The memory ids of the user's files (or, with label MemoryVersion, deleted versions) a write left."""
    rows = store.run(
        f"MATCH (n:{validation.identifier(label)} {{user_id: $uid}}) WHERE n.write_id = $wid RETURN n.memory_id AS mid",
        {"uid": user_id, "wid": write_id},
    )
    return [row["mid"] for row in rows]


def prune_versions(store: GraphStore, user_id: str, memory_id: str) -> None:
    store.run(
        "MATCH (v:MemoryVersion {memory_id: $mid, user_id: $uid}) "
        "WITH v ORDER BY v.replaced_at DESC SKIP $keep DETACH DELETE v",
        {"uid": user_id, "mid": memory_id, "keep": MAX_VERSIONS},
    )


def _memory(row: Mapping[str, Any]) -> Memory:
    return Memory(**row)


def save_memory(
    store: GraphStore,
    user_id: str,
    content: str,
    *,
    session_id: str | None = None,
    path: str | None = None,
) -> Memory:
    """Save a new memory file; its id is made here. Memory ids are global, so an id a caller could pick
    would be refused when another user held it, telling the caller that it exists (docs/security.md)."""
    uid = validation.user_id(user_id)
    text = validation.content(content)
    mid = new_memory_id()
    sid = validation.session_id(session_id) if session_id is not None else None
    canonical = memory_paths.file_path(path if path is not None else f"/memories/notes/{mid}.md")
    params = write_params(uid, canonical, sid) | {
        "memory_id": mid, "path": canonical, "content": text,
        "below": canonical + "/", "ancestors": memory_paths.ancestors(canonical),
    }
    # A path is a file or a directory, never both: no file under it, none above it.
    rows = store.run(
        "OPTIONAL MATCH (same_path:Memory {user_id: $user_id, path: $path}) "
        "WITH count(same_path) AS taken "
        "OPTIONAL MATCH (blocker:Memory {user_id: $user_id}) "
        "WHERE blocker.path STARTS WITH $below OR blocker.path IN $ancestors "
        "WITH taken, count(blocker) AS blockers "
        + FOREIGN_SESSION + " "
        "WITH taken, blockers, count(foreign) AS foreign_sessions "
        "WHERE taken = 0 AND blockers = 0 AND foreign_sessions = 0 "
        "MERGE (u:User {user_id: $user_id}) ON CREATE SET u.user_key = $user_key "
        "CREATE (u)-[:HAS_MEMORY]->(m:Memory {memory_id: $memory_id, user_id: $user_id, user_key: $user_key, "
        "path: $path, content: $content, created_at: $now, updated_at: $now, extraction_status: 'pending', "
        "write_id: $write_id}) "
        "WITH u, m " + LINK_PROJECT + " " + RECORD_PROVENANCE + " "
        f"RETURN {MEMORY_COLUMNS}",
        params,
    )
    if not rows and written_by(store, uid, params["write_id"]) == [mid]:  # the store died before it replied
        rows = store.run(f"MATCH (m:Memory {{memory_id: $memory_id}}) RETURN {MEMORY_COLUMNS}", params)
    if not rows:
        raise _save_conflict(store, uid, canonical, sid)
    return _memory(rows[0] | {"session_id": sid})


def _save_conflict(store: GraphStore, user_id: str, path: str, session_id: str | None) -> ValidationError:
    if store.run("MATCH (m:Memory {user_id: $uid, path: $path}) RETURN m.memory_id AS id", {"uid": user_id, "path": path}):
        return ValidationError(f"{path} already exists for user {user_id!r}; choose another path or update it")
    blockers = store.run(
        "MATCH (m:Memory {user_id: $uid}) WHERE m.path STARTS WITH $below OR m.path IN $above "
        "RETURN m.path AS path ORDER BY path LIMIT 1",
        {"uid": user_id, "below": path + "/", "above": memory_paths.ancestors(path)},
    )
    if blockers:
        found = blockers[0]["path"]
        if found.startswith(path + "/"):
            return ValidationError(f"{path} is a directory for user {user_id!r} (it holds {found}); choose another path")
        return ValidationError(f"{found} is a file, so {path} can't be created under it; choose another path")
    return foreign_session(session_id)


_WITH_SESSION = (
    "OPTIONAL MATCH (s:Session)-[:PRODUCED_MEMORY]->(m) "
    f"WITH m, min(s.session_id) AS session_id RETURN {MEMORY_COLUMNS}, session_id"
)


# An id-addressed call that names its user touches only that user's memory.
_OWNED = "WHERE $uid IS NULL OR m.user_id = $uid "



def get_memory(store: GraphStore, memory_id: str, *, user_id: str | None = None) -> Memory | None:
    rows = store.run(
        "MATCH (m:Memory {memory_id: $mid}) " + _OWNED + _WITH_SESSION,
        {"mid": validation.memory_id(memory_id), "uid": validation.optional_user_id(user_id)},
    )
    return _memory(rows[0]) if rows else None


def get_memories(store: GraphStore, user_id: str) -> list[Memory]:
    rows = store.run(
        "MATCH (:User {user_id: $uid})-[:HAS_MEMORY]->(m:Memory) " + _WITH_SESSION + " ORDER BY created_at DESC, path",
        {"uid": validation.user_id(user_id)},
    )
    return [_memory(row) for row in rows]


def get_memories_for_session(store: GraphStore, session_id: str) -> list[Memory]:
    rows = store.run(
        "MATCH (:Session {session_id: $sid})-[:PRODUCED_MEMORY]->(m:Memory) "
        f"RETURN {MEMORY_COLUMNS}, $sid AS session_id ORDER BY created_at DESC, path",
        {"sid": validation.session_id(session_id)},
    )
    return [_memory(row) for row in rows]


def search_memories(store: GraphStore, user_id: str, query: str, *, limit: int = 10) -> list[Memory]:
    """Ranked full-text search over one user's memories; any text is a safe query."""
    uid = validation.user_id(user_id)
    if not isinstance(query, str):
        raise ValidationError("The search query must be a string")
    if int(limit) < 1:
        raise ValidationError(f"limit must be at least 1, got {limit}")
    rows = store.fulltext_search(
        MEMORY_TEXT_INDEX, uid, search_terms(query), limit=int(limit), columns=MEMORY_COLUMNS.replace("m.", "node.")
    )
    return [_memory(row) for row in rows]


def update_memory(store: GraphStore, memory_id: str, content: str, *, user_id: str | None = None) -> Memory | None:
    mid = validation.memory_id(memory_id)
    text = validation.content(content)
    rows = store.run(
        "MATCH (u:User)-[:HAS_MEMORY]->(m:Memory {memory_id: $mid}) " + _OWNED +
        "WITH u, m, m.content AS previous "
        "SET m.content = $content, m.updated_at = $now, m.extraction_status = 'pending' "
        "WITH u, m, previous " + KEEP_PREVIOUS + " "
        f"RETURN {MEMORY_COLUMNS}",
        {"mid": mid, "content": text, "now": now_iso(), "session_id": None, "uid": validation.optional_user_id(user_id)},
    )
    if not rows:
        return None
    prune_versions(store, rows[0]["user_id"], mid)
    return _memory(rows[0])


def delete_memory(store: GraphStore, memory_id: str, *, user_id: str | None = None) -> bool:
    """Delete a memory (only `user_id`'s, when given); its text stays in its history as a deleted version."""
    params = {
        "mid": validation.memory_id(memory_id), "now": now_iso(), "session_id": None, "write_id": new_write_id(),
        "uid": validation.optional_user_id(user_id),
    }
    rows = store.run(
        "MATCH (u:User)-[:HAS_MEMORY]->(m:Memory {memory_id: $mid}) " + _OWNED + KEEP_DELETED + " "
        "WITH u, m, m.user_id AS uid DETACH DELETE m RETURN uid",
        params,
    )
    if not rows:  # deleted by this very call when the store died before it replied
        rows = store.run(
            "MATCH (v:MemoryVersion {memory_id: $mid}) WHERE v.write_id = $write_id RETURN v.user_id AS uid", params
        )
    if rows:
        prune_versions(store, rows[0]["uid"], memory_id)
    return bool(rows)


def memory_versions(store: GraphStore, memory_ids: Iterable[str]) -> dict[str, str]:
    """When each memory file last changed: a new edit means a new extraction run."""
    rows = store.run(
        "MATCH (m:Memory) WHERE m.memory_id IN $ids RETURN m.memory_id AS memory_id, m.updated_at AS updated_at",
        {"ids": sorted(memory_ids)},
    )
    return {row["memory_id"]: str(row["updated_at"]) for row in rows}
