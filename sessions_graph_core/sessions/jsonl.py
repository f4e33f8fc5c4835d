"""JSONL session transcripts: one JSON object per line.

An optional first line `{"type": "session", "session_id": ..., "user_id": ..., "project_key": ...}`
names the session; every other line is one turn (see `sessions.TurnIn`):

    {"role": "user", "text": "Let's use Postgres", "timestamp": "2026-03-02T09:00:00Z"}
    {"role": "assistant", "text": "Noted."}
    {"role": "user", "speaker": "Priya", "text": "I'll own the migration."}   (a chat that names its people)
    {"type": "tool_call", "tool_name": "Bash", "tool_input": {"command": "ls"}}
    {"type": "tool_result", "tool_name": "Bash", "output": "README.md", "is_error": false}

A turn without `turn_id` gets one derived from the session and its line, so importing the same
file again stores nothing twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from sessions_graph_core.inputs import MAX_FILE_BYTES, parse_json, read_text
from sessions_graph_core.sessions import records
from sessions_graph_core.sessions.records import TurnIn
from sessions_graph_core.store.base import GraphStore
from sessions_graph_core.validation import ValidationError, describe


class TranscriptHeader(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: str = "session"
    session_id: str | None = None
    user_id: str | None = None
    project_key: str | None = None
    started_at: str | None = None
    metadata: dict[str, Any] | None = None


@dataclass(frozen=True)
class Transcript:
    header: TranscriptHeader
    turns: list[TurnIn]


def read_transcript(path: Path) -> Transcript:
    """Parse a whole file first, so a bad line rejects the import before anything is written."""
    lines = read_text(path, what="transcript", max_bytes=MAX_FILE_BYTES).splitlines()
    header = TranscriptHeader()
    turns: list[TurnIn] = []
    seen_line = False
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = parse_json(line, what="the line")
            if not isinstance(data, dict):
                raise ValueError("each line must be a JSON object")
            harness = harness_of(data)
            if harness:
                raise ValueError(
                    f"this is a {harness} transcript, not ours: import it with "
                    f"`sessions-graph session import --format {harness} {path}` (docs/import.md), "
                    "or let the hooks record its sessions from now on"
                )
            if data.get("type") == "session":
                if seen_line:  # a second header would silently re-own the turns above it
                    raise ValueError("the session header must be the first line, and there is only one")
                header = TranscriptHeader.model_validate(data)
            else:
                turns.append(TurnIn.from_mapping(data))
        except ValueError as exc:
            raise ValidationError(f"{path}:{number}: {describe(exc)}") from None
        seen_line = True
    return Transcript(header=header, turns=turns)


def harness_of(line: dict[str, Any]) -> str | None:
    """'claude-code' or 'codex' when the line is one of their transcript records, else None."""
    if isinstance(line.get("payload"), dict) and line.get("type") in ("session_meta", "response_item", "event_msg", "turn_context"):
        return "codex"
    if line.get("type") in ("user", "assistant", "summary") and ({"message", "leafUuid", "sessionId"} & line.keys()):
        return "claude-code"
    return None


@dataclass(frozen=True)
class Imported:
    session_id: str
    user_id: str
    added: int
    total: int
    reconciliation_status: str | None


def import_transcript(store: GraphStore, transcript: Transcript, *, session_id: str, user_id: str) -> Imported:
    """Record the transcript's session and the turns it does not hold yet.

    The session goes pending only when there is new work (new turns, or a session not reconciled
    nor waiting): re-importing an unchanged file leaves a reconciled session as it is, so no
    sensor starts another reconcile run for it.
    """
    header = transcript.header
    records.check_turns(store, session_id, transcript.turns)  # a refused import writes nothing, not even the session
    records.record_session_start(
        store, session_id, user_id=user_id, project_key=header.project_key, metadata=header.metadata,
        started_at=header.started_at,
    )
    added = records.record_turns(store, session_id, transcript.turns, user_id=user_id, first_position=0)
    status = records.get_session(store, session_id).reconciliation_status
    if added or status not in ("completed", "pending"):
        records.end_session(store, session_id)
        status = "pending"
    return Imported(session_id, user_id, added, len(transcript.turns), status)
