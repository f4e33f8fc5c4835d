"""`SessionsGraphConnector`: the session events of an agent loop, written to the graph.

Direct integrations (Claude Agent SDK, OpenAI Agents SDK, a plain loop) call its event methods;
the harness hooks do too. Every event is cheap: it writes a few nodes and leaves the slow work
(embedding, reconciliation) to detached `sessions-graph` children that it never waits for.
Reconciliation runs only after a session ends and only with `auto_reconcile`, never on a turn end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sessions_graph_core import validation
from sessions_graph_core.memory.tool_calls import is_memory_tool
from sessions_graph_core.sessions import records as sessions
from sessions_graph_core.sessions.records import SessionInfo, TurnIn
from sessions_graph_core.store.base import GraphStore

if TYPE_CHECKING:
    from sessions_graph_core.graph import SessionsGraph

Spawner = Callable[[Sequence[str]], "int | None"]


def spawn_detached(arguments: Sequence[str]) -> int | None:
    # Imported on the first spawn: a hook for a prompt or a tool call spawns nothing and must not pay for subprocess.
    from sessions_graph_core.children import spawn_detached as spawn

    return spawn(arguments)


class SessionsGraphConnector:
    """Tracks the active session and user and records each event of it.

    Takes a SessionsGraph, or just its store: the hooks pass the store so that a hook process
    never imports recall, embeddings and extraction.
    """

    def __init__(
        self, graph: SessionsGraph | GraphStore, auto_reconcile: bool = False, *, spawn: Spawner = spawn_detached
    ) -> None:
        self.store = graph if isinstance(graph, GraphStore) else graph.store
        self.auto_reconcile = auto_reconcile
        self.spawn = spawn
        self.active_session_id: str | None = None
        self.active_user_id: str | None = None
        self.spawned: list[int] = []

    def session_start(
        self,
        session_id: str,
        user_id: str,
        *,
        cwd: str | Path | None = None,
        project_key: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> SessionInfo:
        """Record the session with its user and the project of `cwd` (its git remote), and make it active."""
        from sessions_graph_core.sessions.projects import project_key_for  # a session start only

        key = project_key or project_key_for(cwd)
        info = sessions.record_session_start(self.store, session_id, user_id=user_id, project_key=key, metadata=metadata)
        self.active_session_id = info.session_id
        self.active_user_id = info.user_id
        return info

    def record_turns(
        self,
        turns: Sequence[TurnIn | Mapping[str, Any]],
        session_id: str | None = None,
        *,
        user_id: str | None = None,
        call_id: str | None = None,
    ) -> int:
        """Store the turns; returns how many were new. Each call appends: turns without a `turn_id` are new
        turns even when their text repeats. To retry a call safely (after an error or a timeout), give
        each call a `call_id` and pass the same one again, or give the turns ids; either way the retry
        adds nothing that landed. The active session's turns are its user's; a session other than the
        active one needs its `user_id`."""
        sid = self._session(session_id)
        owner = user_id or self._user(sid)
        if owner is None:
            raise validation.ValidationError(
                f"Session {sid!r} is not the active session, so its user is not known here: pass user_id="
            )
        return sessions.record_turns(self.store, sid, turns, user_id=owner, call_id=call_id)

    def turn_end(self, session_id: str | None = None) -> None:
        """A turn finished: mark the session pending and embed it in the background."""
        sid = self._session(session_id)
        sessions.mark_pending(self.store, sid)
        self._spawn(["embed", "--session", sid], sid)

    def session_end(self, session_id: str | None = None) -> None:
        """The session ended: mark it pending, embed it, and with auto_reconcile reconcile it, all detached."""
        sid = self._session(session_id)
        owner = self._user(sid)
        if sid == self.active_session_id:
            self.active_session_id = None
            self.active_user_id = None
        sessions.end_session(self.store, sid)
        self._spawn(["embed", "--session", sid], sid, owner)
        if self.auto_reconcile:
            self._spawn(["reconcile", "--session", sid], sid, owner)

    def tool_end(
        self, tool_name: str, tool_input: object, *, is_error: bool = False, session_id: str | None = None
    ) -> int:
        """A memory tool call that wrote a file credits the session with it; returns the files linked."""
        if is_error or not is_memory_tool(tool_name):
            return 0
        # Imported for a memory tool call only: the memory files pull in reconcile's forgetting and the notes.
        from sessions_graph_core.memory.files import memory_paths_written

        paths = memory_paths_written(tool_input)
        if not paths:
            return 0
        return self.record_memory_provenance(self._session(session_id), paths)

    def record_memory_provenance(self, session_id: str, paths: Sequence[str]) -> int:
        """(:Session)-[:PRODUCED_MEMORY]->(:Memory) for each path the session's user holds."""
        sid = validation.session_id(session_id)
        info = sessions.get_session(self.store, sid)
        if info is None:
            return 0
        return sessions.link_produced_memories(self.store, sid, info.user_id, paths)

    def _session(self, session_id: str | None) -> str:
        sid = session_id or self.active_session_id
        if not sid:
            raise validation.ValidationError("No active session: call session_start first or pass session_id")
        return validation.session_id(sid)

    def _user(self, session_id: str) -> str | None:
        """The active user for the active session; for another session the caller named, None."""
        return self.active_user_id if session_id == self.active_session_id else None

    def _spawn(self, arguments: list[str], session_id: str, owner: str | None = None) -> None:
        # The child names the session's user: left to the configured one, another user's session is refused.
        owner = owner or self._user(session_id)
        if owner is None:
            info = sessions.get_session(self.store, session_id)
            owner = info.user_id if info else None
        pid = self.spawn(arguments + (["--user", owner] if owner else []))
        if pid is not None:
            self.spawned.append(pid)
