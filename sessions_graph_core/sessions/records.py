"""Sessions and their turns: who had the session, what was said, what the tools did.

A session belongs to one user. Turns are written once: re-importing a turn with the same id
changes nothing, so hooks and imports can replay a transcript safely.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sessions_graph_core import validation
from sessions_graph_core.clock import now_iso, to_iso
from sessions_graph_core.errors import foreign_session, no_session
from sessions_graph_core.memory import paths as memory_paths
from sessions_graph_core.recall.evidence import turn_evidence
from sessions_graph_core.store.base import GraphStore, user_key
from sessions_graph_core.validation import ValidationError, describe
from sessions_graph_core.values import Value

MAX_TURN_CHARS = 1_000_000
MAX_SPEAKER_CHARS = 200


def new_write_id() -> str:
    """A random id for one write, so that its retry is recognised. 128 random bits, as hex: the uuid module
    would import `platform` at every hook, for the same bytes."""
    return os.urandom(16).hex()


# Refuses a session id that another user already holds. `$session_key` is the session id or "", which
# no session has: matching on a null would make FalkorDB scan every session instead of its index.
FOREIGN_SESSION = "OPTIONAL MATCH (foreign:Session {session_id: $session_key}) WHERE foreign.user_id <> $user_id"

# With `u` bound to the user and `sid` to a session id: the session exists and is the user's.
ENSURE_SESSION = (
    "MERGE (s:Session {session_id: sid}) "
    "ON CREATE SET s.user_id = $user_id, s.user_key = $user_key, s.started_at = $now "
    "MERGE (u)-[:HAD_SESSION]->(s)"
)


TURN_TYPES = ("message", "tool_call", "tool_result")
ROLES = ("user", "assistant", "system", "tool")


def _choice(value: object, allowed: tuple[str, ...], *, optional: bool = False) -> str | None:
    if (value is None and optional) or value in allowed:
        return None
    return f"must be one of {', '.join(repr(item) for item in allowed)}" + (" or null" if optional else "")


def _text_problem(value: object, *, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str):
        return "must be a string" + (" or null" if optional else "")
    if len(value) > MAX_TURN_CHARS:
        return f"is {len(value):,} characters, over the {MAX_TURN_CHARS:,} limit for one turn"
    return validation.text_problem(value)


def _tool_input_problem(value: object) -> str | None:
    if value is None:
        return None
    return validation.json_text_problem(value) if isinstance(value, dict) else "must be an object or null"


def _speaker_problem(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        return "must be a person's name (a non-empty string) or null"
    if len(value) > MAX_SPEAKER_CHARS:
        return f"is {len(value):,} characters, over the {MAX_SPEAKER_CHARS} limit for a speaker's name"
    return validation.text_problem(value)


# Plain checks rather than a pydantic model: a harness hook builds turns in a fresh process at every
# event, and importing pydantic and building its models would cost more than the hook may take.
_TURN_CHECKS: dict[str, Callable[[Any], str | None]] = {
    "type": lambda value: _choice(value, TURN_TYPES),
    "role": lambda value: _choice(value, ROLES, optional=True),
    "text": _text_problem,
    "tool_name": lambda value: _text_problem(value, optional=True),
    "speaker": lambda value: _speaker_problem(value),
    "tool_input": _tool_input_problem,
    "output": lambda value: _text_problem(value, optional=True),
    "is_error": lambda value: None if isinstance(value, bool) else "must be true or false",
    "timestamp": lambda value: None if value is None or isinstance(value, (str, datetime)) else "must be an ISO-8601 string",
    "turn_id": lambda value: None if value is None or isinstance(value, str) else "must be a string or null",
    "sidechain": lambda value: None if isinstance(value, bool) else "must be true or false",
}


class TurnIn(Value):
    """One turn as a caller hands it over (also one line of a JSONL transcript); checked on creation."""

    __slots__ = ("type", "role", "text", "speaker", "tool_name", "tool_input", "output", "is_error", "timestamp", "turn_id",
                 "sidechain")

    type: str
    role: str | None
    text: str
    speaker: str | None  # who said it, by name, where the transcript names people (a group chat)
    tool_name: str | None
    tool_input: dict[str, Any] | None
    output: str | None
    is_error: bool
    timestamp: datetime | str | None
    turn_id: str | None
    sidechain: bool  # said in a subagent's side conversation, not the main one

    def __init__(
        self, type: str = "message", role: str | None = None, text: str = "", speaker: str | None = None,
        tool_name: str | None = None, tool_input: dict[str, Any] | None = None, output: str | None = None,
        is_error: bool = False, timestamp: datetime | str | None = None, turn_id: str | None = None,
        sidechain: bool = False,
    ) -> None:
        self._fill(type, role, text, speaker, tool_name, tool_input, output, is_error, timestamp, turn_id, sidechain)
        problems = [f"{name}: {problem}" for name, check in _TURN_CHECKS.items() if (problem := check(getattr(self, name)))]
        if problems:
            raise ValidationError("; ".join(problems))

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> TurnIn:
        if not isinstance(data, Mapping):
            raise ValidationError("a turn must be a JSON object")
        unknown = [str(name) for name in data if name not in _TURN_CHECKS]
        if unknown:
            raise ValidationError("; ".join(f"{name}: Extra inputs are not permitted" for name in unknown))
        return cls(**data)

    def resolved_role(self) -> str:
        if self.role:
            return self.role
        return "user" if self.type == "message" else "tool" if self.type == "tool_result" else "assistant"

    def searchable_text(self) -> str:
        """The text a turn contributes to search and extraction."""
        if self.type == "tool_call":
            arguments = json.dumps(self.tool_input or {}, ensure_ascii=False, sort_keys=True)
            return f"{self.tool_name or 'tool'} {arguments}"
        if self.type == "tool_result":
            return self.output if self.output is not None else self.text
        return self.text


class Turn(Value):
    __slots__ = ("turn_id", "session_id", "seq", "kind", "role", "text", "tool_name", "tool_input", "is_error", "timestamp",
                 "speaker", "sidechain")

    turn_id: str
    session_id: str
    seq: int
    kind: str
    role: str
    text: str
    tool_name: str | None
    tool_input: str | None
    is_error: bool
    timestamp: str
    speaker: str | None
    sidechain: bool

    def __init__(
        self, turn_id: str, session_id: str, seq: int, kind: str, role: str, text: str, tool_name: str | None = None,
        tool_input: str | None = None, is_error: bool = False, timestamp: str = "", speaker: str | None = None,
        sidechain: bool = False,
    ) -> None:
        self._fill(turn_id, session_id, seq, kind, role, text, tool_name, tool_input, is_error, timestamp, speaker, sidechain)


class SessionInfo(Value):
    __slots__ = ("session_id", "user_id", "project_key", "started_at", "ended_at", "reconciliation_status", "turn_count",
                 "texts_given_up", "metadata")

    session_id: str
    user_id: str
    project_key: str | None
    started_at: str | None
    ended_at: str | None
    reconciliation_status: str | None
    turn_count: int
    texts_given_up: int  # texts the model never read in llm.max_attempts runs: kept as read without it
    metadata: dict[str, Any]

    def __init__(
        self, session_id: str, user_id: str, project_key: str | None = None, started_at: str | None = None,
        ended_at: str | None = None, reconciliation_status: str | None = None, turn_count: int = 0, texts_given_up: int = 0,
        metadata: dict[str, Any] | None = None,
    ) -> None:
        self._fill(session_id, user_id, project_key, started_at, ended_at, reconciliation_status, turn_count, texts_given_up,
                   {} if metadata is None else metadata)


def derived_turn_id(session_id: str, position: int, call: str = "") -> str:
    """The id of a turn the caller gave none: from its line in a transcript (`call` empty, stable across
    re-imports of the file), or from its place in a call the caller named (`call`), so that only a retry
    of that call finds the same ids."""
    key = f"{session_id}\0{position}" if not call else f"{session_id}\0{call}\0{position}"
    return f"t-{hashlib.sha256(key.encode()).hexdigest()[:16]}"


def sequence_prefix(session_id: str) -> str:
    """The start of the ids of a session's turns that came with no id and no call_id: the prefix and the
    turn's sequence number in the session, given in the statement that writes it."""
    return f"t-{hashlib.sha256(session_id.encode()).hexdigest()[:16]}-seq-"


def _conflict(store: GraphStore, session_id: str) -> ValidationError:
    rows = store.run("MATCH (s:Session {session_id: $sid}) RETURN s.user_id AS user_id", {"sid": session_id})
    if rows:
        return foreign_session(session_id)
    return ValidationError(f"Session {session_id!r} has not been started: record its start with its user first")


def record_session_start(
    store: GraphStore,
    session_id: str,
    *,
    user_id: str,
    project_key: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    started_at: datetime | str | None = None,
) -> SessionInfo:
    sid = validation.session_id(session_id)
    uid = validation.user_id(user_id)
    rows = store.run(
        FOREIGN_SESSION + " WITH count(foreign) AS conflicts WHERE conflicts = 0 "
        "MERGE (u:User {user_id: $user_id}) ON CREATE SET u.user_key = $user_key "
        "WITH u, $session_id AS sid " + ENSURE_SESSION + " "
        "SET s.project_key = coalesce($project_key, s.project_key), "
        "s.metadata = coalesce($metadata, s.metadata), s.status = coalesce(s.status, 'active') "
        "RETURN s.session_id AS session_id",
        {
            "session_id": sid,
            "session_key": sid,
            "user_id": uid,
            "user_key": user_key(uid),
            "now": to_iso(started_at),
            "project_key": memory_paths.checked_project_key(project_key) if project_key is not None else None,
            "metadata": json.dumps(dict(metadata), sort_keys=True, default=str) if metadata else None,
        },
    )
    if not rows:
        raise _conflict(store, sid)
    info = get_session(store, sid)
    assert info is not None
    return info


def _turn_rows(
    session_id: str, turns: Iterable[TurnIn | Mapping[str, Any]], start: int | None, call: str | None
) -> list[dict[str, Any]]:
    """The rows to write; a turn without an id has none yet unless `start` (its transcript line) or
    `call` (the caller's call_id) numbers it."""
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for position, raw in enumerate(turns, start=start or 0):
        turn = raw if isinstance(raw, TurnIn) else TurnIn.from_mapping(raw)
        turn_id = validation.turn_id(turn.turn_id) if turn.turn_id else None
        if turn_id is None and (start is not None or call is not None):
            turn_id = derived_turn_id(session_id, position, call or "")
        if turn_id is not None:
            if turn_id in seen:
                continue
            seen.add(turn_id)
        rows.append({
            "turn_id": turn_id,
            "kind": turn.type,
            "role": turn.resolved_role(),
            "text": turn.searchable_text(),
            "speaker": " ".join(turn.speaker.split()) if turn.speaker else None,
            "tool_name": turn.tool_name,
            "tool_input": json.dumps(turn.tool_input, sort_keys=True) if turn.tool_input is not None else None,
            "is_error": turn.is_error,
            "timestamp": to_iso(turn.timestamp),
            "sidechain": turn.sidechain,
        })
    return rows


def _call_key(first_position: int | None, call_id: str | None) -> str | None:
    """What numbers a call's turns that carry no id (see `record_turns`): the call_id, else nothing."""
    if first_position is not None and call_id is not None:
        raise ValidationError("Pass first_position (turns read from a transcript) or call_id (a retried call), not both")
    return "call\0" + validation.turn_id(call_id) if call_id is not None else None


def check_owner(store: GraphStore, session_id: str, user_id: str) -> None:
    """Refuses (ValidationError) a session id another user holds; a new id or the user's own passes."""
    rows = store.run(
        "MATCH (s:Session {session_id: $sid}) WHERE s.user_id <> $uid RETURN s.session_id AS sid",
        {"sid": validation.session_id(session_id), "uid": validation.user_id(user_id)},
    )
    if rows:
        raise foreign_session(session_id)


def check_turns(
    store: GraphStore,
    session_id: str,
    turns: Sequence[TurnIn | Mapping[str, Any]],
    *,
    first_position: int | None = 0,
    call_id: str | None = None,
) -> list[dict[str, Any]]:
    """The turns as rows to write, or ValidationError; writes nothing, so an import checks before it starts."""
    sid = validation.session_id(session_id)
    try:
        rows = _turn_rows(sid, turns, first_position, _call_key(first_position, call_id))
    except ValueError as exc:
        raise ValidationError(f"Invalid turn for session {sid!r}: {describe(exc)}") from None
    ids = [row["turn_id"] for row in rows if row["turn_id"] is not None]
    elsewhere = store.run(
        "UNWIND $ids AS id MATCH (t:Turn {turn_id: id}) WHERE t.session_id <> $sid RETURN t.turn_id AS turn_id",
        {"ids": ids, "sid": sid},
    ) if ids else []
    if elsewhere:
        raise ValidationError(f"Turn id {elsewhere[0]['turn_id']!r} already belongs to another session")
    return rows


def record_turns(
    store: GraphStore,
    session_id: str,
    turns: Sequence[TurnIn | Mapping[str, Any]],
    *,
    user_id: str,
    first_position: int | None = None,
    call_id: str | None = None,
) -> int:
    """Append the turns the session of `user_id` does not hold yet, in order; returns how many were new.

    A turn's `turn_id` identifies it. A turn without one gets an id that never depends on the call's
    shape alone, so a second call appends:
    - `first_position`: the turns are lines of a transcript from line N on, and their ids come from
      those lines, so re-importing the file stores nothing twice;
    - `call_id`: the caller names this call, and a retry with the same `call_id` (after an error or
      a timeout) finds its turns stored and adds nothing;
    - neither: every call's turns are new, even when their text repeats an earlier call's; each gets
      its id from its sequence number in the session (the same ids whenever the same calls are made).
    A session another user holds is refused with the message of a missing one (errors.no_session).
    """
    if user_id is None:
        raise ValidationError(
            f"record_turns for session {session_id!r} names no user: pass user_id=, the user its start was recorded for"
        )
    uid = validation.user_id(user_id)
    sid = validation.session_id(session_id)
    checked = check_turns(store, sid, turns, first_position=first_position, call_id=call_id)
    # Each turn with what recall reads of its text, written in the same statement (recall/evidence.py).
    rows = [{**row, **turn_evidence(row["text"])} for row in checked]
    if not store.run("MATCH (s:Session {session_id: $sid, user_id: $uid}) RETURN s.session_id AS sid", {"sid": sid, "uid": uid}):
        raise no_session(sid, uid)
    if not rows:
        return 0
    params = {"sid": sid, "uid": uid, "turns": rows, "now": now_iso(), "write_id": new_write_id(),
              "seq_prefix": sequence_prefix(sid)}
    # One statement, so concurrent writers to one session cannot interleave their sequence numbers, and a
    # turn without an id gets its id from its sequence number here. Each turn keeps the write's id: the same
    # statement re-sent after the store died (its reply lost) finds its turns and adds none again.
    result = store.run(
        "MATCH (s:Session {session_id: $sid, user_id: $uid}) "
        "OPTIONAL MATCH (s)-[:HAS_TURN]->(old:Turn) "
        "WITH s, coalesce(max(old.seq), -1) AS last, collect(old.turn_id) AS known, collect(old.write_id) AS writes "
        "WHERE NOT $write_id IN writes "
        "WITH s, last, [t IN $turns WHERE t.turn_id IS NULL OR NOT t.turn_id IN known] AS fresh "
        "OPTIONAL MATCH (s)-[:HAS_TURN]->(tail:Turn {seq: last}) "
        "WITH s, last, tail, fresh "
        "UNWIND range(0, size(fresh) - 1) AS i "
        "WITH s, last, tail, i, fresh[i] AS t "
        "CREATE (s)-[:HAS_TURN]->(x:Turn {turn_id: coalesce(t.turn_id, $seq_prefix + toString(last + 1 + i)), "
        "session_id: s.session_id, user_id: s.user_id, write_id: $write_id, "
        "user_key: s.user_key, seq: last + 1 + i, kind: t.kind, role: t.role, text: t.text, "
        "speaker: t.speaker, tool_name: t.tool_name, tool_input: t.tool_input, is_error: t.is_error, timestamp: t.timestamp, "
        "sidechain: t.sidechain, concept_words: t.concept_words, says_when: t.says_when, chars: t.chars}) "
        "WITH s, tail, x ORDER BY x.seq "
        "WITH s, tail, collect(x) AS made "
        "WITH s, CASE WHEN tail IS NULL THEN made ELSE [tail] + made END AS chain, size(made) AS added "
        "FOREACH (j IN range(0, size(chain) - 2) | "
        "  FOREACH (a IN [chain[j]] | FOREACH (b IN [chain[j + 1]] | MERGE (a)-[:NEXT]->(b)))) "
        "SET s.turn_count = coalesce(s.turn_count, 0) + added, s.updated_at = $now, "
        "s.write_id = $write_id, s.write_added = added "
        "RETURN added",
        params,
    )
    if not result:  # nothing new, or this very write landed and the store died before it replied
        result = store.run(
            "MATCH (s:Session {session_id: $sid, user_id: $uid}) WHERE s.write_id = $write_id RETURN s.write_added AS added",
            params
        )
    return int(result[0]["added"]) if result else 0


def mark_pending(store: GraphStore, session_id: str) -> bool:
    """A turn or the session ended: the session needs reconciling again.

    The revision moves once per call: the statement carries this call's id, so the same statement re-sent
    after the store died (its reply lost) finds its id on the session and leaves the revision as it is."""
    rows = store.run(
        "MATCH (s:Session {session_id: $sid}) "
        "SET s.revision = CASE WHEN s.pending_write = $write_id THEN s.revision ELSE coalesce(s.revision, 0) + 1 END, "
        "s.reconciliation_status = 'pending', s.pending_since = $now, s.pending_write = $write_id "
        "RETURN s.session_id AS sid",
        {"sid": validation.session_id(session_id), "now": now_iso(), "write_id": new_write_id()},
    )
    return bool(rows)


def end_session(store: GraphStore, session_id: str, *, ended_at: datetime | str | None = None) -> bool:
    sid = validation.session_id(session_id)
    rows = store.run(
        "MATCH (s:Session {session_id: $sid}) SET s.ended_at = $ended_at, s.status = 'ended' "
        "RETURN s.session_id AS sid",
        {"sid": sid, "ended_at": to_iso(ended_at)},
    )
    return bool(rows) and mark_pending(store, sid)


def transcript_offset(store: GraphStore, session_id: str, user_id: str, path: str) -> int:
    """How far the session's harness transcript at `path` was read, in bytes (0 if never).

    One offset per file: a Claude Code session has its main transcript and a file per subagent.
    """
    rows = store.run(
        "MATCH (s:Session {session_id: $sid, user_id: $uid}) "
        "RETURN s.transcript_offsets AS offsets, s.transcript_path AS path, s.transcript_offset AS offset",
        {"sid": session_id, "uid": user_id},
    )
    if not rows:
        return 0
    offsets = json.loads(rows[0]["offsets"]) if rows[0]["offsets"] else {}
    if path not in offsets and rows[0]["path"] == path:  # the single cursor stores written before per-file ones
        return int(rows[0]["offset"] or 0)
    return int(offsets.get(path, 0))


def move_transcript_cursor(store: GraphStore, session_id: str, user_id: str, path: str, offset: int) -> None:
    rows = store.run(
        "MATCH (s:Session {session_id: $sid, user_id: $uid}) RETURN s.transcript_offsets AS offsets",
        {"sid": session_id, "uid": user_id},
    )
    offsets = json.loads(rows[0]["offsets"]) if rows and rows[0]["offsets"] else {}
    offsets[path] = offset
    store.run(
        "MATCH (s:Session {session_id: $sid, user_id: $uid}) SET s.transcript_offsets = $offsets",
        {"sid": session_id, "uid": user_id, "offsets": json.dumps(offsets, sort_keys=True)},
    )


def add_session_summaries(store: GraphStore, session_id: str, user_id: str, summaries: Sequence[str]) -> int:
    """Keep the harness's summaries and compaction texts on the session (not as turns); returns how many were new."""
    rows = store.run(
        "MATCH (s:Session {session_id: $sid, user_id: $uid}) "
        "WITH s, coalesce(s.summaries, []) AS known "
        "WITH s, known, [text IN $summaries WHERE NOT text IN known] AS fresh "
        "SET s.summaries = known + fresh RETURN size(fresh) AS added",
        {"sid": session_id, "uid": user_id, "summaries": list(dict.fromkeys(summaries))},
    )
    return int(rows[0]["added"]) if rows else 0


def session_summaries(store: GraphStore, session_id: str, user_id: str) -> list[str]:
    rows = store.run(
        "MATCH (s:Session {session_id: $sid, user_id: $uid}) RETURN coalesce(s.summaries, []) AS summaries",
        {"sid": session_id, "uid": user_id},
    )
    return list(rows[0]["summaries"]) if rows else []


def link_produced_memories(store: GraphStore, session_id: str, user_id: str, paths: Sequence[str]) -> int:
    """(:Session)-[:PRODUCED_MEMORY]->(:Memory) for each path; only the session's owner's files are linked."""
    rows = store.run(
        "MATCH (s:Session {session_id: $sid, user_id: $uid}) "
        "UNWIND $paths AS path "
        "MATCH (m:Memory {user_id: $uid, path: path}) "
        "MERGE (s)-[:PRODUCED_MEMORY]->(m) "
        "RETURN count(m) AS linked",
        {"sid": session_id, "uid": user_id, "paths": list(paths)},
    )
    return int(rows[0]["linked"]) if rows else 0


class PendingSession(Value):
    __slots__ = ("session_id", "user_id", "revision", "pending_since")

    session_id: str
    user_id: str
    revision: int  # bumped by every change: a new revision asks for a new run
    pending_since: str

    def __init__(self, session_id: str, user_id: str, revision: int, pending_since: str = "") -> None:
        self._fill(session_id, user_id, revision, pending_since)

    @property
    def version(self) -> str:
        return work_version(self.session_id, self.revision, self.pending_since)


def work_version(session_id: str, revision: int, pending_since: str | None) -> str:
    """The session's work at its current version, as a run key names it.

    The revision alone repeats: a session forgotten and imported again starts back at revision 1, and
    a sensor would take its new work for a run already launched. The moment it went pending does not.
    """
    return f"{session_id}@{revision}/{pending_since or ''}"


def pending_sessions(
    store: GraphStore, *, exclude: Iterable[str] = (), exclude_users: Iterable[str] = (), limit: int = 100
) -> list[PendingSession]:
    """Sessions waiting for reconciliation, the longest waiting first, except those in `exclude` and
    those of `exclude_users`.

    The one order every drain uses (the CLI, the facade, the sensor), so a backlog empties the same way.
    """
    rows = store.run(
        "MATCH (s:Session {reconciliation_status: 'pending'}) "
        "WHERE NOT s.session_id IN $exclude AND NOT s.user_id IN $users "
        "RETURN s.session_id AS session_id, s.user_id AS user_id, coalesce(s.revision, 0) AS revision, "
        "coalesce(s.pending_since, '') AS pending_since ORDER BY s.pending_since, session_id LIMIT $limit",
        {"exclude": sorted(exclude), "users": sorted(exclude_users), "limit": int(limit)},
    )
    return [PendingSession(**row) for row in rows]


def pending_by_user(
    store: GraphStore, *, limit: int, exclude_users: Iterable[str] = ()
) -> list[PendingSession]:
    """Pending sessions user by user, up to `limit` in all: first every session of the user whose
    sessions have waited longest, then the next user's, each user's in pending_sessions' order; except
    those of `exclude_users`.

    What runs per user take: a window of the longest waiting sessions overall would give each of many
    users a sliver (2,000 sessions of 100 users: runs of 20), and a run's start-up costs as much as a
    run of 100; user by user, only the last user of the window can come short.
    """
    rows = store.run(
        "MATCH (s:Session {reconciliation_status: 'pending'}) "
        "WHERE NOT s.user_id IN $users "
        "WITH s ORDER BY s.pending_since, s.session_id "
        "WITH s.user_id AS user_id, collect(s) AS waiting "
        "ORDER BY waiting[0].pending_since, waiting[0].session_id "
        "UNWIND waiting AS s "
        "RETURN s.session_id AS session_id, user_id, coalesce(s.revision, 0) AS revision, "
        "coalesce(s.pending_since, '') AS pending_since LIMIT $limit",
        {"users": sorted(exclude_users), "limit": int(limit)},
    )
    return [PendingSession(**row) for row in rows]


def users_of(store: GraphStore, session_ids: Iterable[str] | None = None) -> list[str]:
    """The users of these sessions, or every user of the graph when no sessions are named."""
    if session_ids is None:
        rows = store.run("MATCH (u:User) RETURN u.user_id AS user_id ORDER BY user_id")
    else:
        rows = store.run(
            "MATCH (s:Session) WHERE s.session_id IN $ids RETURN DISTINCT s.user_id AS user_id ORDER BY user_id",
            {"ids": sorted(session_ids)},
        )
    return [row["user_id"] for row in rows]


class SessionState(Value):
    """Where a session stands in reconciliation and embedding: what the sensors decide on."""

    __slots__ = ("session_id", "user_id", "revision", "reconciliation_status", "embedding_status", "embedding_model",
                 "embedding_failures", "embedded_at", "pending_since")

    session_id: str
    user_id: str
    revision: int
    reconciliation_status: str | None
    embedding_status: str | None
    embedding_model: str | None
    embedding_failures: int
    embedded_at: str | None
    pending_since: str

    def __init__(
        self, session_id: str, user_id: str, revision: int, reconciliation_status: str | None = None,
        embedding_status: str | None = None, embedding_model: str | None = None, embedding_failures: int = 0,
        embedded_at: str | None = None, pending_since: str = "",
    ) -> None:
        self._fill(session_id, user_id, revision, reconciliation_status, embedding_status, embedding_model,
                   embedding_failures, embedded_at, pending_since)

    @property
    def version(self) -> str:
        return work_version(self.session_id, self.revision, self.pending_since)


def session_states(store: GraphStore, session_ids: Iterable[str]) -> list[SessionState]:
    rows = store.run(
        "MATCH (s:Session) WHERE s.session_id IN $ids "
        "RETURN s.session_id AS session_id, s.user_id AS user_id, coalesce(s.revision, 0) AS revision, "
        "s.reconciliation_status AS reconciliation_status, s.embedding_status AS embedding_status, "
        "s.embedding_model AS embedding_model, coalesce(s.embedding_failures, 0) AS embedding_failures, "
        "s.embedded_at AS embedded_at, coalesce(s.pending_since, '') AS pending_since ORDER BY session_id",
        {"ids": sorted(session_ids)},
    )
    return [SessionState(**row) for row in rows]


_SESSION_COLUMNS = (
    "s.session_id AS session_id, s.user_id AS user_id, s.project_key AS project_key, "
    "s.started_at AS started_at, s.ended_at AS ended_at, "
    "s.reconciliation_status AS reconciliation_status, coalesce(s.turn_count, 0) AS turn_count, "
    "coalesce(s.texts_given_up, 0) AS texts_given_up, "
    "s.metadata AS metadata"
)


def _session(row: Mapping[str, Any]) -> SessionInfo:
    data = dict(row)
    data["metadata"] = json.loads(data["metadata"]) if data.get("metadata") else {}
    return SessionInfo(**data)


# An id-addressed read that names its user finds only that user's session: another's reads as missing.
_OWNED_SESSION = "WHERE $uid IS NULL OR s.user_id = $uid "


def get_session(store: GraphStore, session_id: str, *, user_id: str | None = None) -> SessionInfo | None:
    """The session; with `user_id`, only if it is that user's."""
    rows = store.run(
        f"MATCH (s:Session {{session_id: $sid}}) {_OWNED_SESSION}RETURN {_SESSION_COLUMNS}",
        {"sid": validation.session_id(session_id), "uid": validation.optional_user_id(user_id)},
    )
    return _session(rows[0]) if rows else None


def user_sessions(store: GraphStore, user_id: str) -> list[SessionInfo]:
    rows = store.run(
        f"MATCH (:User {{user_id: $uid}})-[:HAD_SESSION]->(s:Session) RETURN {_SESSION_COLUMNS} "
        "ORDER BY started_at, session_id",
        {"uid": validation.user_id(user_id)},
    )
    return [_session(row) for row in rows]


_TURN_COLUMNS = (
    "t.turn_id AS turn_id, t.session_id AS session_id, t.seq AS seq, t.kind AS kind, t.role AS role, "
    "t.text AS text, t.tool_name AS tool_name, t.tool_input AS tool_input, t.is_error AS is_error, "
    "t.timestamp AS timestamp, t.speaker AS speaker, coalesce(t.sidechain, false) AS sidechain"
)


def get_turns(store: GraphStore, session_id: str, *, user_id: str | None = None) -> list[Turn]:
    """The session's turns in order; with `user_id`, none unless the session is that user's."""
    rows = store.run(
        f"MATCH (s:Session {{session_id: $sid}}) {_OWNED_SESSION}"
        f"MATCH (s)-[:HAS_TURN]->(t:Turn) RETURN {_TURN_COLUMNS} ORDER BY seq",
        {"sid": validation.session_id(session_id), "uid": validation.optional_user_id(user_id)},
    )
    return [Turn(**row) for row in rows]


def user_turns(store: GraphStore, user_id: str, *, limit: int = 100) -> list[Turn]:
    """The user's latest turns across sessions, newest first."""
    rows = store.run(
        f"MATCH (t:Turn {{user_id: $uid}}) RETURN {_TURN_COLUMNS} ORDER BY timestamp DESC, seq DESC LIMIT $limit",
        {"uid": validation.user_id(user_id), "limit": int(limit)},
    )
    return [Turn(**row) for row in rows]


def session_owners(store: GraphStore, session_ids: Iterable[str]) -> dict[str, str]:
    """session id -> its user, for the ids that name a session."""
    rows = store.run(
        "MATCH (s:Session) WHERE s.session_id IN $ids RETURN s.session_id AS sid, s.user_id AS uid",
        {"ids": sorted(set(session_ids))},
    )
    return {row["sid"]: row["uid"] for row in rows}


def completed_sessions_by_user(store: GraphStore) -> dict[str, int]:
    """user -> how many of their sessions are reconciled."""
    rows = store.run(
        "MATCH (s:Session {reconciliation_status: 'completed'}) RETURN s.user_id AS uid, count(s) AS n ORDER BY uid"
    )
    return {row["uid"]: row["n"] for row in rows}


class SessionStatus(Value):
    """A session as its user's memory browser lists it: where it stands in reconciliation and embedding."""

    __slots__ = ("session_id", "started_at", "turn_count", "reconciliation_status", "reconciliation_error",
                 "embedding_status", "embedding_error")

    session_id: str
    started_at: str | None
    turn_count: int
    reconciliation_status: str | None
    reconciliation_error: str | None
    embedding_status: str | None
    embedding_error: str | None

    def __init__(
        self, session_id: str, started_at: str | None, turn_count: int, reconciliation_status: str | None,
        reconciliation_error: str | None, embedding_status: str | None, embedding_error: str | None,
    ) -> None:
        self._fill(session_id, started_at, turn_count, reconciliation_status, reconciliation_error, embedding_status,
                   embedding_error)

    @property
    def status(self) -> str:
        """One word: failed (reconciling or embedding), embedded, reconciled or pending."""
        if "failed" in (self.reconciliation_status, self.embedding_status):
            return "failed"
        if self.embedding_status == "completed":
            return "embedded"
        return "reconciled" if self.reconciliation_status == "completed" else "pending"

    @property
    def error(self) -> str | None:
        return self.reconciliation_error or self.embedding_error


def session_statuses(
    store: GraphStore, user_id: str, *, session_id: str | None = None, limit: int = 200, offset: int = 0
) -> list[SessionStatus]:
    """The user's sessions (or the one of `session_id`), newest first, a page of `limit` from `offset`."""
    rows = store.run(
        "MATCH (s:Session {user_id: $uid}) WHERE $sid IS NULL OR s.session_id = $sid "
        "RETURN s.session_id AS session_id, s.started_at AS started_at, coalesce(s.turn_count, 0) AS turn_count, "
        "s.reconciliation_status AS reconciliation_status, s.reconciliation_error AS reconciliation_error, "
        "s.embedding_status AS embedding_status, s.embedding_error AS embedding_error "
        "ORDER BY started_at DESC, session_id SKIP $offset LIMIT $limit",
        {"uid": validation.user_id(user_id), "sid": validation.session_id(session_id) if session_id else None,
         "limit": int(limit), "offset": int(offset)},
    )
    return [SessionStatus(**row) for row in rows]
