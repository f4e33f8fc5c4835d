"""`sessions-graph hook EVENT`: a Claude Code or Codex hook event, read from stdin, written to the graph.

Every event records the turns the harness's transcript gained since the last hook (a cursor on
the Session remembers how far it was read; turn ids make a re-read harmless). A turn end (Stop)
and a session end also mark the session pending and start a detached `sessions-graph embed`;
SessionStart prints the memory index and the resume brief as additional context.

A hook never fails the harness: whatever goes wrong is written to the failure log, and the
process exits 0 with nothing on stdout.

A harness runs a hook at every prompt and turn end and times it out, so this path imports neither
pydantic nor click nor the redis client: the settings come from hook_settings, the store speaks
to the embedded server through falkordb_client, and `sessions-graph hook` reaches run_for_harness
directly from entry.py.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sessions_graph_core.config.hook_cache import HookSettings, hook_settings
from sessions_graph_core.errors import StoreUnreachableError, foreign_session
from sessions_graph_core.failures import record_failure
from sessions_graph_core.inputs import MAX_STDIN_BYTES, InputError, parse_json, read_fd
from sessions_graph_core.integrations import spool
from sessions_graph_core.store.falkordb import ping
from sessions_graph_core.validation import ValidationError
from sessions_graph_core.values import Value

if TYPE_CHECKING:
    from sessions_graph_core.store.base import GraphStore
    from sessions_graph_core.store.location import StoreSettings

RUNTIMES = ("claude-code", "codex")
# How long a hook waits for the store's PING reply before it spools: a server that is loading replies at
# once (-LOADING), so only a busy or stuck one uses it all, and its event is spooled, not lost.
READY_TIMEOUT_S = 0.05
DEFAULT_RUNTIME = "claude-code"
# How long a hook waits for each statement of a store that answered its PING. A write to a graph whose vector
# index is being rebuilt can hold the whole server for minutes (resident-store.md); the harness would kill the
# hook first and its event would be lost. Past this, the event is spooled instead (written again, harmlessly).
STATEMENT_TIMEOUT_S = 10.0

# Harness event name (lowercased, without '-' and '_') -> what the hook does.
ACTIONS = {
    "sessionstart": "start",
    "userpromptsubmit": "turns",
    "pretooluse": "turns",
    "posttooluse": "tool",
    "posttoolusefailure": "tool_failed",
    "precompact": "turns",
    "subagentstop": "turns",
    "stop": "turn_end",
    "sessionend": "session_end",
}


class HookError(ValidationError):
    """A hook that cannot do its work: says what to fix."""


class HookPayload(Value):
    """The fields of a harness's hook JSON that we read; the rest is ignored."""

    __slots__ = ("session_id", "hook_event_name", "transcript_path", "cwd", "tool_name", "tool_input", "tool_response")

    session_id: str
    hook_event_name: str | None
    transcript_path: str | None
    cwd: str | None
    tool_name: str | None
    tool_input: Any
    tool_response: Any

    def __init__(
        self, session_id: str, hook_event_name: str | None = None, transcript_path: str | None = None, cwd: str | None = None,
        tool_name: str | None = None, tool_input: Any = None, tool_response: Any = None,
    ) -> None:
        self._fill(session_id, hook_event_name, transcript_path, cwd, tool_name, tool_input, tool_response)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HookPayload:
        if not isinstance(data.get("session_id"), str):
            raise HookError("The hook input needs a session_id string")
        texts = ("hook_event_name", "transcript_path", "cwd", "tool_name")
        wrong = [name for name in texts if not isinstance(data.get(name), (str, type(None)))]
        if wrong:
            raise HookError(f"The hook input's {', '.join(wrong)} must be strings")
        return cls(
            session_id=data["session_id"], **{name: data.get(name) for name in texts},
            tool_input=data.get("tool_input"), tool_response=data.get("tool_response"),
        )


def action_for(event: str) -> str:
    action = ACTIONS.get(event.lower().replace("-", "").replace("_", ""))
    if action is None:
        raise HookError(f"Unknown hook event {event!r}: use one of {', '.join(sorted(ACTIONS))} (any case)")
    return action


def _tool_failed(response: Any) -> bool:
    if isinstance(response, dict):
        return bool(response.get("is_error") or response.get("isError") or response.get("success") is False)
    return False


def record_transcript(store: GraphStore, session_id: str, user_id: str, transcript: str | None) -> int:
    """Store the turns the transcript and its subagents' files gained since their cursors, then move the
    cursors; returns how many were new. A subagent's lines are turns of this session, marked sidechain."""
    from sessions_graph_core.integrations.harness import record_transcript as record
    from sessions_graph_core.integrations.harness import subagent_transcripts

    if not transcript or not Path(transcript).is_file():
        return 0
    added = 0
    for path in [Path(transcript), *subagent_transcripts(Path(transcript), session_id)]:
        done = record(store, session_id, user_id, str(path))
        added += done.added
        if done.chunk.skipped:  # the cursor moved past them: later lines are recorded, these are only logged
            skipped = done.chunk.skipped
            error = HookError(f"skipped {len(skipped)} line(s) of {path}: " + "; ".join(skipped))
            record_failure("transcript", error, session_id=session_id)
    return added


def _user(settings: HookSettings) -> str:
    if not settings.user_id:
        raise HookError("No user is configured, so nothing is recorded. Set one with: sessions-graph config set identity.user_id <name>")
    return settings.user_id


def handle(
    event: str, payload: HookPayload, *, runtime: str = DEFAULT_RUNTIME, settings: HookSettings | None = None,
    store: GraphStore | None = None,
) -> str | None:
    """Do what the event asks, on `store` (default: the configured one, started if need be, as a drain needs it);
    returns the JSON to print for the harness, or None. The store is closed after."""
    # Imported here, not at the top: a hook that finds the store loading only spools, and needs none of them.
    from sessions_graph_core.integrations.connector import SessionsGraphConnector
    from sessions_graph_core.sessions import records as sessions
    from sessions_graph_core.store.location import open_store
    from sessions_graph_core.store.schema import SCHEMA

    action = action_for(event)
    settings = settings or hook_settings()
    user_id = _user(settings)
    store = store or open_store(settings.store, keep_running=True)
    try:
        connector = SessionsGraphConnector(store, auto_reconcile=settings.auto_reconcile)
        existing = sessions.get_session(store, payload.session_id)
        if existing is not None and existing.user_id != user_id:
            raise HookError(f"{foreign_session(payload.session_id)}; nothing was recorded")
        if action == "start" or existing is None:
            store.apply_schema(SCHEMA)
            metadata = {"source_sdk": runtime, "cwd": payload.cwd}
            info = connector.session_start(payload.session_id, user_id, cwd=payload.cwd, metadata=metadata)
        else:
            connector.active_session_id, connector.active_user_id = existing.session_id, existing.user_id
            info = existing
        record_transcript(store, info.session_id, user_id, payload.transcript_path)
        if action in ("tool", "tool_failed"):
            failed = action == "tool_failed" or _tool_failed(payload.tool_response)
            connector.tool_end(payload.tool_name or "", payload.tool_input, is_error=failed)
        elif action == "turn_end":
            connector.turn_end()
        elif action == "session_end":
            connector.session_end(info.session_id)
        elif action == "start":
            return _start_output(store, settings, user_id, info.session_id, info.project_key)
        return None
    finally:
        store.close()


def _start_output(store: GraphStore, settings: HookSettings, user_id: str, session_id: str, project_key: str | None) -> str:
    from datetime import date  # here: a hook that spools needs no datetime

    from sessions_graph_core.integrations.session_context import session_context

    context = session_context(
        store, user_id, project_key=project_key, session_id=session_id, today=date.today(),
        include_index=settings.memory_index, include_resume=settings.resume,
    )
    return json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": context}})


def run_hook(event: str, raw: bytes | str, *, runtime: str = DEFAULT_RUNTIME) -> str | None:
    """The whole hook, failure-proof: parse, handle, and log anything that goes wrong instead of raising."""
    session_id = None
    try:
        data = parse_json(raw or b"{}", what="The hook input", max_bytes=MAX_STDIN_BYTES)
        if not isinstance(data, dict):
            raise HookError("The hook input must be a JSON object")
        session_id = data.get("session_id")
        if runtime not in RUNTIMES:
            raise HookError(f"Unknown --runtime {runtime!r}: use one of {', '.join(RUNTIMES)}; nothing was recorded")
        payload = HookPayload.from_json(data)
        action_for(event)
        settings = hook_settings()
        _user(settings)  # an event no one would record is refused now, not spooled
        if _store_not_ready(settings):
            _spool(settings, event, runtime, raw)
            return None
        if not settings.store.embedded:
            return handle(event, payload, runtime=runtime, settings=settings)
        try:
            return handle(event, payload, runtime=runtime, settings=settings, store=_answering_store(settings))
        except StoreUnreachableError:
            # It stopped answering after its PING (stopped, restarting, held by an index build): the event waits
            # in the spool instead of being lost. What of it was written already, the drain writes again
            # (idempotent).
            _spool(settings, event, runtime, raw)
            return None
    except Exception as exc:  # noqa: BLE001 - a hook must never fail the harness
        record_failure("hook", exc, hook_event=event, runtime=runtime, session_id=session_id)
        return None


def _store_not_ready(settings: HookSettings) -> bool:
    """An embedded store that does not answer yet (not started, loading), or events spooled before this one,
    which must be applied first: the event goes to the spool instead of waiting. A server store (Memgraph,
    standalone FalkorDB) is never waited for by starting it, so it is never spooled for."""
    if not settings.store.embedded:
        return False
    data_dir = settings.store.data_dir
    return spool.waiting(data_dir) or not ping.answers(ping.socket_path(data_dir), READY_TIMEOUT_S)


def _answering_store(settings: HookSettings) -> GraphStore:
    """The embedded store whose server just answered the PING, without what opening it for a command does:
    no server lock (a starter holds it for seconds), no second PING, no wait for its indexes to be built, and
    no statement waited for past STATEMENT_TIMEOUT_S."""
    from sessions_graph_core.store.falkordb.store import FalkorDBStore

    return FalkorDBStore.answering(settings.store.data_dir, graph=settings.store.graph, timeout_s=STATEMENT_TIMEOUT_S)


def _spool(settings: HookSettings, event: str, runtime: str, raw: bytes | str) -> None:
    spool.append(settings.store.data_dir, event, runtime, raw)
    _start_drainer(settings)


def _start_drainer(settings: HookSettings) -> None:
    """A detached `sessions-graph store drain`, which starts the store, waits for it and applies the spool."""
    if spool.claim_drainer_start(settings.store.data_dir):
        from sessions_graph_core.children import spawn_detached

        spawn_detached(["store", "drain"])


def apply_spooled(item: spool.Spooled, settings: HookSettings) -> None:
    """A spooled event, handled as the hook would have: its failures are logged, never raised, except a store
    that cannot be reached, which leaves it (and the events after it) spooled for the next drain."""
    try:
        data = parse_json(item.raw or "{}", what="The spooled hook input", max_bytes=MAX_STDIN_BYTES)
        handle(item.event, HookPayload.from_json(data), runtime=item.runtime, settings=settings)
    except StoreUnreachableError:
        raise
    except Exception as exc:  # noqa: BLE001 - as in run_hook: a bad event must not block the ones behind it
        record_failure("hook", exc, hook_event=item.event, runtime=item.runtime, spooled=True)


def drain_spool(*, wait: bool = True, store: StoreSettings | None = None) -> int:
    """Apply the hook events spooled while the store was not ready, oldest first; how many were applied.
    `store` (default: the configured one) says whose spool, and where its events are written."""
    settings = hook_settings()
    if store is not None:
        settings = settings.replace(store=store)
    if not settings.store.embedded:
        return 0
    return spool.drain(settings.store.data_dir, lambda item: apply_spooled(item, settings), wait=wait)


def run_for_harness(event: str, runtime: str) -> None:
    """The hook as a harness runs it: JSON on stdin, context (if any) on stdout, exit 0 whatever happens."""
    try:
        raw = read_fd(sys.stdin.fileno(), what="The hook input on stdin", max_bytes=MAX_STDIN_BYTES)
    except InputError as exc:
        record_failure("hook", exc, hook_event=event, runtime=runtime)
        raw = None
    output = run_hook(event, raw, runtime=runtime) if raw is not None else None
    if output:
        sys.stdout.write(output + "\n")
    sys.stdout.flush()
    # Skip interpreter teardown: the harness waits for our exit, and nothing is left to flush.
    os._exit(0)


def plain_arguments(arguments: Sequence[str]) -> tuple[str, str] | None:
    """EVENT and runtime when the arguments take the shapes the shipped hook configs use, else None.

    Anything else (--help, a misspelt option) goes to the `hook` click command, which explains it.
    """
    match list(arguments):
        case [event] if not event.startswith("-"):
            return event, DEFAULT_RUNTIME
        case [event, "--runtime", runtime] if not event.startswith("-"):  # an unknown one is logged
            return event, runtime
    return None
