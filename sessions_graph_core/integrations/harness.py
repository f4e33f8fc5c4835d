"""Turns from the transcripts agent harnesses write: Claude Code's and Codex's JSONL files.

Claude Code writes one entry per line: `{"type": "user"|"assistant", "uuid": ..., "timestamp": ...,
"message": {"role": ..., "content": str | [blocks]}}`, where a block is `text`, `tool_use`
(id, name, input) or `tool_result` (tool_use_id, content, is_error). Codex writes rollout lines
`{"timestamp": ..., "type": "response_item", "payload": {...}}` whose payload is a `message`
(content of input_text/output_text blocks), a `function_call` (name, arguments, call_id) or a
`function_call_output` (call_id, output).

Harnesses append to these files while a session runs, so a reader starts at a byte offset and
stops before a line that is not finished yet. Turn ids are derived from the session and the
entry (its uuid, else its byte offset), so reading a line twice yields the same turns.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from sessions_graph_core.inputs import InputError, parse_json
from sessions_graph_core.memory.tool_calls import is_memory_tool
from sessions_graph_core.sessions.records import TurnIn

MAX_READ_BYTES = 64 * 1024 * 1024  # a hook reads at most this much per call; the next one goes on
# Lines before the offset are parsed only when they may name a tool call, for the results after it.
_CALL_MARKERS = re.compile(rb'"(tool_use|function_call|custom_tool_call)"')
# User entries Claude Code writes for slash commands and their output: the harness's words, not the user's.
_HARNESS_MARKUP = ("<command-name>", "<command-message>", "<local-command-stdout>", "<local-command-stderr>")


@dataclass(frozen=True)
class TranscriptChunk:
    """The turns in a transcript from one offset to the end of its last finished line."""

    turns: list[TurnIn]
    next_offset: int
    skipped: tuple[str, ...] = ()  # why each line after the offset that gave no turns was refused


def _text_of(content: Any) -> str:
    """A tool result's or message's content: a string, or text blocks joined by newlines."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [block.get("text", "") for block in content if isinstance(block, Mapping) and "text" in block]
        return "\n".join(part for part in parts if isinstance(part, str))
    return ""


def _claude_turns(entry: Mapping[str, Any], key: str, tool_names: dict[str, str]) -> Iterator[TurnIn]:
    if entry.get("type") not in ("user", "assistant") or entry.get("isMeta"):
        return
    message = entry.get("message") or {}
    role = message.get("role") or entry["type"]
    stamp = entry.get("timestamp")
    content = message.get("content")
    if isinstance(content, str):
        if content.strip() and not content.startswith(_HARNESS_MARKUP):
            yield TurnIn(role=role, text=content, timestamp=stamp, turn_id=key)
        return
    for index, block in enumerate(content or []):
        if not isinstance(block, Mapping):
            continue
        turn_id = f"{key}#{index}"
        kind = block.get("type")
        if kind == "text" and str(block.get("text", "")).strip():
            yield TurnIn(role=role, text=block["text"], timestamp=stamp, turn_id=turn_id)
        elif kind == "tool_use":
            name = str(block.get("name") or "tool")
            tool_names[str(block.get("id"))] = name
            if not is_memory_tool(name):  # memory files are reconciled on their own
                tool_input = block.get("input") if isinstance(block.get("input"), dict) else {"input": block.get("input")}
                yield TurnIn(type="tool_call", tool_name=name, tool_input=tool_input, timestamp=stamp, turn_id=turn_id)
        elif kind == "tool_result":
            name = tool_names.get(str(block.get("tool_use_id")))
            if not is_memory_tool(name):
                yield TurnIn(
                    type="tool_result", tool_name=name, output=_text_of(block.get("content")),
                    is_error=bool(block.get("is_error")), timestamp=stamp, turn_id=turn_id,
                )


def _codex_turns(entry: Mapping[str, Any], key: str, tool_names: dict[str, str]) -> Iterator[TurnIn]:
    payload = entry.get("payload") or {}
    if entry.get("type") != "response_item" or not isinstance(payload, Mapping):
        return
    stamp = entry.get("timestamp")
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
            arguments = parse_json(raw, what="the call's arguments") if isinstance(raw, str) else raw
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
        return TranscriptChunk(turns=after.turns, next_offset=after.next_offset, skipped=(reason, *after.skipped))
    tool_names: dict[str, str] = {}
    turns: list[TurnIn] = []
    skipped: list[str] = []
    position = 0
    for raw in data[:end].split(b"\n")[:-1]:
        line_offset = position
        position += len(raw) + 1
        if not raw.strip() or (line_offset < offset and not _CALL_MARKERS.search(raw)):
            continue
        try:
            entry = parse_json(raw, what="the line")
        except InputError as exc:
            if line_offset >= offset:
                skipped.append(f"byte {line_offset}: {exc}"[:500])
            continue
        if not isinstance(entry, dict):
            continue
        key = f"{session_id}/{entry.get('uuid') or line_offset}"
        reader = _codex_turns if "payload" in entry else _claude_turns
        try:
            produced = list(reader(entry, key, tool_names))
        except ValueError as exc:  # a turn our model refuses (over the size limit, a NUL, a lone surrogate)
            if line_offset >= offset:
                skipped.append(f"byte {line_offset}: {exc}"[:500])
            continue
        if line_offset >= offset:
            turns.extend(produced)
    return TranscriptChunk(turns=turns, next_offset=max(end, offset), skipped=tuple(skipped))


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
