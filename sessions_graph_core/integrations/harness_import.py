"""`sessions-graph session import --format claude-code|codex PATH`: a harness's history on disk, into the graph.

PATH is one transcript or a directory walked for `*.jsonl` the way each harness lays out its
history: Claude Code `~/.claude/projects/<project>/<session>.jsonl` with its subagents' files in
`<session>/subagents/` (older versions: `agent-*.jsonl` beside it); Codex
`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`. Each file is stored through the hooks' own
`record_transcript` (same turn ids, same per-file cursor), so importing again adds only the lines
written since, and a line the hooks stored is never stored twice.

A file's session is the one its records name (Claude Code's `sessionId`, which a subagent's file
shares with its parent; Codex's `session_meta` id), else the file's name; its project key is
derived from the recorded working directory the way the hooks derive it, and its start is its
first record's time.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from sessions_graph_core.integrations.harness import (
    read_header,
    read_transcript_from,
    record_transcript,
    subagent_transcripts,
)
from sessions_graph_core.sessions import records
from sessions_graph_core.sessions.projects import project_key_for
from sessions_graph_core.store.base import GraphStore
from sessions_graph_core.validation import ValidationError
from sessions_graph_core.validation import session_id as checked_session_id

FORMATS = ("claude-code", "codex")


@dataclass
class FileImport:
    """What one transcript file gave: its session, its turns by kind, and every line that gave none."""

    path: Path
    session_id: str | None = None
    turns: Counter[str] = field(default_factory=Counter)  # distinct turns read from the file, by kind
    added: int = 0  # of those, the ones the store did not hold yet
    summaries: int = 0
    ignored: Counter[str] = field(default_factory=Counter)  # lines that hold no turn, by record type
    skipped: list[str] = field(default_factory=list)  # "path:line: why" for each line that could not be read
    error: str | None = None  # why nothing of the file came in


def transcript_files(path: Path) -> list[Path]:
    """The file and its subagents' files (harness.subagent_transcripts), or every `*.jsonl` under the directory:
    sessions before the subagent files under or beside them (`agent-*.jsonl`), so a session's start and
    directory come from its own file."""
    if path.is_file():
        return [path, *subagent_transcripts(path, read_header(path).session_id or path.stem)]
    return sorted(
        path.rglob("*.jsonl"),
        key=lambda file: (len(file.relative_to(path).parts), file.name.startswith("agent-"), str(file)),
    )


def _start(store: GraphStore, path: Path, session_id: str, user_id: str, runtime: str) -> bool:
    """Record the session as the hooks would, unless it exists; True when this import created it."""
    existing = records.get_session(store, session_id)
    if existing is not None:
        if existing.user_id != user_id:
            raise ValidationError(f"session {session_id!r} belongs to another user; nothing of {path} was imported")
        return False
    header = read_header(path)
    records.record_session_start(
        store, session_id, user_id=user_id, project_key=project_key_for(header.cwd),
        metadata={"source_sdk": runtime, "cwd": header.cwd}, started_at=header.started_at,
    )
    return True


def import_file(store: GraphStore | None, path: Path, *, user_id: str, runtime: str) -> FileImport:
    """Import one transcript (or, with no store, only read it: a dry run). A bad line is reported, never fatal."""
    result = FileImport(path=path)
    try:
        result.session_id = checked_session_id(read_header(path).session_id or path.stem)
        if store is None:
            chunk = read_transcript_from(path, result.session_id)
            result.summaries = len(set(chunk.summaries))
        else:
            created = _start(store, path, result.session_id, user_id, runtime)
            done = record_transcript(store, result.session_id, user_id, os.path.abspath(path))
            chunk, result.added, result.summaries = done.chunk, done.added, done.summaries_added
            if done.added:  # new turns want reconciling; a session the hooks follow is left running
                (records.end_session if created else records.mark_pending)(store, result.session_id)
    except (OSError, ValidationError) as exc:
        result.error = f"{path}: {getattr(exc, 'strerror', None) or exc}"
        return result
    result.turns = Counter({turn.turn_id: turn.type for turn in chunk.turns}.values())  # a repeated record is one turn
    result.ignored = chunk.ignored
    result.skipped = [f"{path}:{reason}" for reason in chunk.skipped]
    return result


def import_files(
    store: GraphStore | None, files: Iterable[Path], *, user_id: str, runtime: str
) -> Iterator[FileImport]:
    """import_file over the files, one result per file as it is done (for a progress bar)."""
    if runtime not in FORMATS:
        raise ValidationError(f"Unknown harness format {runtime!r}: use one of {', '.join(FORMATS)}")
    for path in files:
        yield import_file(store, path, user_id=user_id, runtime=runtime)
