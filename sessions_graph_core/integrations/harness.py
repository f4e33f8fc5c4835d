"""Turns from the transcripts agent harnesses write: Claude Code's and Codex's JSONL files.

Claude Code writes one entry per line: `{"type": "user"|"assistant", "uuid": ..., "timestamp": ...,
"message": {"role": ..., "content": str | [blocks]}}`, where a block is `text`, `tool_use`
(id, name, input) or `tool_result` (tool_use_id, content, is_error). Codex writes rollout lines
`{"timestamp": ..., "type": "response_item", "payload": {...}}` whose payload is a `message`
(content of input_text/output_text blocks), a `function_call` (name, arguments, call_id) or a
`function_call_output` (call_id, output).

Lines that are no turn: thinking and reasoning are not stored; summary and compaction lines
(Claude Code's `summary` and `isCompactSummary` entries, Codex's `compacted`) are kept on the
session; an image becomes a short placeholder; a subagent's (sidechain) lines are turns of the
parent session marked `sidechain`; any other record type is counted by type and skipped.

The hooks and `session import --format claude-code|codex` both store a transcript through
`record_transcript`, so a line either of them stored is never stored twice.

Harnesses append to these files while a session runs, so a reader starts at a byte offset and
stops before a line that is not finished yet. Turn ids are derived from the session and the
entry (its uuid, else its byte offset), so reading a line twice yields the same turns.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO

from sessions_graph_core.clock import to_iso
from sessions_graph_core.inputs import InputError, parse_json
from sessions_graph_core.memory.tool_calls import is_memory_tool
from sessions_graph_core.sessions import records
from sessions_graph_core.sessions.records import TurnIn
from sessions_graph_core.store.base import GraphStore
from sessions_graph_core.validation import ValidationError
from sessions_graph_core.values import Value

MAX_READ_BYTES = 64 * 1024 * 1024  # a hook reads at most this much per call; the next one goes on
# Lines before the offset are parsed only when they may name a tool call, for the results after it.
_CALL_MARKERS = re.compile(rb'"(tool_use|function_call|custom_tool_call)"')
# Blocks Claude Code puts in a user message that are the harness's context, not what the user said: the file
# open or the lines selected in the IDE, reminders, a slash command and its output, a `!` shell command and its
# output. They are cut out of the user's text; a message of nothing else is no turn.
_HARNESS_BLOCK = re.compile(
    r"<(ide_opened_file|ide_selection|system-reminder|user-prompt-submit-hook|command-name|command-message|"
    r"command-args|command-contents|local-command-stdout|local-command-stderr|bash-input|bash-stdout|bash-stderr)>"
    r".*?</\1>\s*",
    re.DOTALL,
)


IMAGE_BLOCKS = ("image", "input_image")
_HEADER_LINES = 50  # a transcript names its session, directory and start within its first records


def parse_line(raw: bytes | str, *, what: str = "the line") -> Any:
    """One JSON text of a transcript (a line, or a tool call's arguments), bounded in depth (inputs.parse_json):
    InputError for one that is not JSON or nests too deep."""
    return parse_json(raw, what=what)


class TranscriptChunk(Value):
    """The turns in a transcript from one offset to the end of its last finished line."""

    __slots__ = ("turns", "next_offset", "skipped", "summaries", "ignored")

    turns: list[TurnIn]
    next_offset: int
    skipped: tuple[str, ...]  # "line N: why" for each line after the offset that could not be read
    summaries: tuple[str, ...]  # summary and compaction texts, kept on the session
    ignored: Counter[str]  # lines that hold no turn, by what they are

    def __init__(
        self, turns: list[TurnIn], next_offset: int, skipped: tuple[str, ...] = (), summaries: tuple[str, ...] = (),
        ignored: Counter[str] | None = None,
    ) -> None:
        self._fill(turns, next_offset, skipped, summaries, Counter() if ignored is None else ignored)


class TranscriptHeader(Value):
    """What a transcript says about its session: the harness's session id, working directory and first time."""

    __slots__ = ("session_id", "cwd", "started_at")

    session_id: str | None
    cwd: str | None
    started_at: str | None

    def __init__(self, session_id: str | None = None, cwd: str | None = None, started_at: str | None = None) -> None:
        self._fill(session_id, cwd, started_at)


def _stamp(value: Any) -> str | None:
    """The record's time when it is ISO-8601; a value that is not (a trimmed fixture's) leaves the turn without one."""
    try:
        return to_iso(value) if isinstance(value, str) else None
    except ValidationError:
        return None


def _placeholder(block: Mapping[str, Any]) -> str:
    source = block.get("source")
    media = source.get("media_type") if isinstance(source, Mapping) else None
    return f"[image: {media}]" if isinstance(media, str) else "[image]"


def _text_of(content: Any) -> str:
    """A tool result's or message's content: a string, or its text blocks (and image placeholders) joined by newlines."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts = []
    for block in content:
        if not isinstance(block, Mapping):
            continue
        if block.get("type") in IMAGE_BLOCKS:
            parts.append(_placeholder(block))
        elif isinstance(block.get("text"), str):
            parts.append(block["text"])
    return "\n".join(parts)


def said_by_user(text: str) -> str:
    """A user message's text without the harness's context blocks (`<ide_opened_file>`, `<system-reminder>`...)."""
    return _HARNESS_BLOCK.sub("", text).strip()


def _claude_turns(entry: Mapping[str, Any], key: str, tool_names: dict[str, str]) -> Iterator[TurnIn]:
    if entry.get("type") not in ("user", "assistant") or entry.get("isMeta") or entry.get("isCompactSummary"):
        return
    message = entry.get("message") or {}
    role = message.get("role") or entry["type"]
    marks = {"timestamp": _stamp(entry.get("timestamp")), "sidechain": entry.get("isSidechain") is True}
    content = message.get("content")
    if isinstance(content, str):
        text = said_by_user(content) if role == "user" else content
        if text.strip():
            yield TurnIn(role=role, text=text, turn_id=key, **marks)
        return
    for index, block in enumerate(content or []):
        if not isinstance(block, Mapping):
            continue
        turn_id = f"{key}#{index}"
        kind = block.get("type")
        text = str(block.get("text", ""))
        text = said_by_user(text) if role == "user" else text
        if kind == "text" and text.strip():
            yield TurnIn(role=role, text=text, turn_id=turn_id, **marks)
        elif kind in IMAGE_BLOCKS:
            yield TurnIn(role=role, text=_placeholder(block), turn_id=turn_id, **marks)
        elif kind == "tool_use":
            name = str(block.get("name") or "tool")
            tool_names[str(block.get("id"))] = name
            if not is_memory_tool(name):  # memory files are reconciled on their own
                tool_input = block.get("input") if isinstance(block.get("input"), dict) else {"input": block.get("input")}
                yield TurnIn(type="tool_call", tool_name=name, tool_input=tool_input, turn_id=turn_id, **marks)
        elif kind == "tool_result":
            name = tool_names.get(str(block.get("tool_use_id")))
            if not is_memory_tool(name):
                yield TurnIn(
                    type="tool_result", tool_name=name, output=_text_of(block.get("content")),
                    is_error=bool(block.get("is_error")), turn_id=turn_id, **marks,
                )


def _codex_turns(entry: Mapping[str, Any], key: str, tool_names: dict[str, str]) -> Iterator[TurnIn]:
    payload = entry.get("payload") or {}
    if entry.get("type") != "response_item" or not isinstance(payload, Mapping):
        return
    stamp = _stamp(entry.get("timestamp"))
    kind = payload.get("type")
    if kind == "message" and payload.get("role") in ("user", "assistant"):
        text = _text_of(payload.get("content"))
        # Codex puts its environment and instruction preambles in user messages wrapped in tags.
        if text.strip() and not text.lstrip().startswith("<"):
            yield TurnIn(role=payload["role"], text=text, timestamp=stamp, turn_id=key)
    elif kind in ("function_call", "custom_tool_call"):
        name = str(payload.get("name") or "tool")
        tool_names[str(payload.get("call_id"))] = name
        raw = payload.get("arguments", payload.get("input"))
        try:
            arguments = parse_line(raw, what="the call's arguments") if isinstance(raw, str) else raw
        except InputError:  # kept as the text it is
            arguments = raw
        if not is_memory_tool(name):
            tool_input = arguments if isinstance(arguments, dict) else {"input": arguments}
            yield TurnIn(type="tool_call", tool_name=name, tool_input=tool_input, timestamp=stamp, turn_id=key)
    elif kind in ("function_call_output", "custom_tool_call_output"):
        name = tool_names.get(str(payload.get("call_id")))
        output = payload.get("output")
        if isinstance(output, Mapping):
            output = output.get("content", json.dumps(output))
        if not is_memory_tool(name):
            yield TurnIn(type="tool_result", tool_name=name, output=_text_of(output), timestamp=stamp, turn_id=key)


def summary_of(entry: Mapping[str, Any]) -> str | None:
    """The text of a summary or compaction line, else None."""
    if entry.get("type") == "summary":
        text = entry.get("summary")
    elif entry.get("isCompactSummary"):
        text = _text_of((entry.get("message") or {}).get("content"))
    elif entry.get("type") == "compacted" and isinstance(entry.get("payload"), Mapping):
        text = entry["payload"].get("message")
    else:
        return None
    return text.strip() if isinstance(text, str) and text.strip() else None


def record_kind(entry: Mapping[str, Any]) -> str:
    """What a line that holds no turn is: `progress`, `event_msg.token_count`, `assistant: thinking`, `user: meta`..."""
    payload = entry.get("payload")
    kind = str(entry.get("type") or "untyped")
    if isinstance(payload, Mapping) and kind in ("response_item", "event_msg") and payload.get("type"):
        return f"{kind}.{payload['type']}"
    if kind not in ("user", "assistant") or isinstance(payload, Mapping):
        return kind
    content = (entry.get("message") or {}).get("content")
    if entry.get("isMeta"):
        return f"{kind}: meta"
    if isinstance(content, list):
        blocks = sorted({str(block.get("type")) for block in content if isinstance(block, Mapping)})
        return f"{kind}: {'+'.join(blocks) or 'empty'}"  # thinking, or a memory tool's call or result
    return f"{kind}: harness context" if isinstance(content, str) and content.strip() else f"{kind}: empty"


def read_transcript_from(path: Path, session_id: str, offset: int = 0) -> TranscriptChunk:
    """The turns of the finished lines after `offset`; an unreadable line is counted and skipped.

    Tool names for results whose call came before `offset` are looked up in the earlier part of
    the file, so a result keeps its tool's name across hook calls.
    """
    with open(path, "rb") as file:
        data = file.read(offset + MAX_READ_BYTES)
        end = data.rfind(b"\n") + 1
        long_line_end = _long_line_end(file, offset) if end <= offset and len(data) == offset + MAX_READ_BYTES else None
    if long_line_end is not None:  # skipped and logged, so the lines after it are read
        after = read_transcript_from(path, session_id, long_line_end)
        reason = f"byte {offset}: a line of {long_line_end - offset:,} bytes, over the {MAX_READ_BYTES:,} a hook reads at once"
        return after.replace(skipped=(reason, *after.skipped))
    tool_names: dict[str, str] = {}
    turns: list[TurnIn] = []
    skipped: list[str] = []
    summaries: list[str] = []
    ignored: Counter[str] = Counter()
    position = 0
    for number, raw in enumerate(data[:end].split(b"\n")[:-1], start=1):
        line_offset = position
        position += len(raw) + 1
        fresh = line_offset >= offset
        if not raw.strip() or (not fresh and not _CALL_MARKERS.search(raw)):
            continue
        try:
            entry = parse_line(raw)
        except InputError as exc:
            if fresh:
                skipped.append(f"line {number}: {exc}"[:500])
            continue
        if not isinstance(entry, dict):
            if fresh:
                skipped.append(f"line {number}: not a JSON object")
            continue
        key = f"{session_id}/{entry.get('uuid') or line_offset}"
        reader = _codex_turns if "payload" in entry else _claude_turns
        try:
            produced = list(reader(entry, key, tool_names))
        except ValueError as exc:  # a turn our model refuses (over the size limit, a NUL, a lone surrogate)
            if fresh:
                skipped.append(f"line {number}: {exc}"[:500])
            continue
        if not fresh:
            continue
        turns.extend(produced)
        summary = summary_of(entry)
        if summary:
            summaries.append(summary)
        elif not produced:
            ignored[record_kind(entry)] += 1
    return TranscriptChunk(
        turns=turns, next_offset=max(end, offset), skipped=tuple(skipped), summaries=tuple(summaries), ignored=ignored,
    )


def _long_line_end(file: BinaryIO, offset: int) -> int | None:
    """Where the line at `offset`, longer than a hook reads at once, ends; None while a harness still writes it."""
    position = offset + MAX_READ_BYTES
    file.seek(position)
    while chunk := file.read(1 << 20):
        newline = chunk.find(b"\n")
        if newline >= 0:
            return position + newline + 1
        position += len(chunk)
    return None


def subagent_transcripts(transcript: Path, session_id: str) -> list[Path]:
    """A Claude Code session's subagent files: `<session>/subagents/*.jsonl` under the session's own name
    (Claude Code 2.1), and `agent-*.jsonl` beside it that name the session as theirs (earlier versions)."""
    under = sorted(transcript.with_suffix("").joinpath("subagents").glob("*.jsonl"))
    beside = [path for path in sorted(transcript.parent.glob("agent-*.jsonl"))
              if path != transcript and read_header(path).session_id == session_id]
    return under + beside


def read_header(path: Path) -> TranscriptHeader:
    """The session id, working directory and start time its first records give (Claude Code or Codex)."""
    found: dict[str, str] = {}
    with open(path, "rb") as file:
        for _, raw in zip(range(_HEADER_LINES), file, strict=False):
            try:
                entry = parse_line(raw)
            except InputError:
                continue
            if not isinstance(entry, dict):
                continue
            meta = entry.get("payload") if entry.get("type") == "session_meta" else entry
            if not isinstance(meta, Mapping):
                continue
            for name, value in (("session_id", meta.get("sessionId") or meta.get("id")), ("cwd", meta.get("cwd")),
                                ("started_at", _stamp(entry.get("timestamp")))):
                if isinstance(value, str) and value.strip():
                    found.setdefault(name, value)
    return TranscriptHeader(**found)


class Recorded(Value):
    """What one read of a transcript stored: new turns and summaries, and the chunk it read."""

    __slots__ = ("added", "summaries_added", "chunk")

    added: int
    summaries_added: int
    chunk: TranscriptChunk

    def __init__(self, added: int, summaries_added: int, chunk: TranscriptChunk) -> None:
        self._fill(added, summaries_added, chunk)


def record_transcript(store: GraphStore, session_id: str, user_id: str, transcript: str) -> Recorded:
    """Store the turns the transcript gained since its cursor, keep its summaries, then move the cursor.

    The hooks and the importer both come here, so they share the turn ids and the cursor.
    """
    offset = records.transcript_offset(store, session_id, user_id, transcript)
    if offset > Path(transcript).stat().st_size:  # rewritten shorter: read it again, ids keep turns unique
        offset = 0
    chunk = read_transcript_from(Path(transcript), session_id, offset)
    if chunk.next_offset == offset:
        return Recorded(0, 0, chunk)
    added = records.record_turns(store, session_id, chunk.turns, user_id=user_id) if chunk.turns else 0
    noted = records.add_session_summaries(store, session_id, user_id, chunk.summaries) if chunk.summaries else 0
    records.move_transcript_cursor(store, session_id, user_id, transcript, chunk.next_offset)
    return Recorded(added, noted, chunk)
