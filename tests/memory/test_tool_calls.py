"""One predicate says which tool calls are the memory tool, and every path that drops them agrees.

Before it was one, the transcript reader knew `mcp__sessions-graph__memory` and reconcile did not,
so reconcile extracted facts from memory-tool traffic that the memory-file path reconciles itself.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sessions_graph_core.integrations.harness import read_transcript_from
from sessions_graph_core.memory.tool_calls import is_memory_tool
from sessions_graph_core.reconcile.pipeline import session_units
from sessions_graph_core.sessions.records import TurnIn

OURS = [
    "memory",
    "mcp__sessions-graph__memory",
    "mcp__sessions_graph__memory",
    "mcp__plugin_sessions-graph_sessions-graph__memory",
    "mcp__context-graph__memory",
    "mcp__plugin_context-graph_context-graph__memory",
    "mcp__my_context_graph__memory",
]
NOT_OURS = ["mcp__other-server__memory", "mcp__sessions-graph__recall", "Memory", "memory_search", "mcp__memory", None, 3]


def test_our_memory_tools_and_no_others() -> None:
    assert [name for name in OURS if not is_memory_tool(name)] == []
    assert [name for name in NOT_OURS if is_memory_tool(name)] == []


@pytest.mark.parametrize("name", ["mcp__sessions-graph__memory", "mcp__context-graph__memory", "mcp__other-server__memory"])
def test_reconcile_and_the_transcript_reader_drop_the_same_calls(graph, tmp_path: Path, name: str) -> None:
    call = {"command": "create", "path": "/memories/db.md", "file_text": "The orders service runs on Postgres."}
    sid = f"s-{abs(hash(name))}"
    graph.record_session_start(sid, user_id="alice")
    graph.record_turns(sid, [
        TurnIn(role="user", text="Note where the orders service runs."),
        TurnIn(type="tool_call", tool_name=name, tool_input=call),
    ], user_id="alice")
    reconciled = [unit.text for unit in session_units(graph.store, sid, "alice")]

    transcript = tmp_path / "t.jsonl"
    entry = {"type": "assistant", "uuid": "a1", "message": {"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": name, "input": call}]}}
    transcript.write_text(json.dumps(entry) + "\n")
    read = read_transcript_from(transcript, sid).turns

    dropped_by_reconcile = len(reconciled) == 1
    dropped_by_reader = not any(turn.tool_name == name for turn in read)
    assert dropped_by_reconcile == dropped_by_reader == is_memory_tool(name)
