"""NUL and lone surrogates in stored text: a clear error naming the field, and nothing written (issue 15, item 3)."""

from __future__ import annotations

import pytest
from conftest import snapshot

from sessions_graph_core.memory.files import MemoryCommandError
from sessions_graph_core.validation import ValidationError

BAD = {"NUL": "before\x00after", "lone surrogate": "before\ud800after"}


@pytest.mark.parametrize("kind", BAD)
def test_memory_content_is_refused_by_name_and_nothing_is_written(graph, store, kind):
    saved = graph.save_memory("alice", "a fine note")
    before = snapshot(store)
    with pytest.raises(ValidationError, match=f"Invalid content: it contains a {kind}"):
        graph.save_memory("alice", BAD[kind])
    with pytest.raises(ValidationError, match=f"Invalid content: it contains a {kind}"):
        graph.update_memory(saved.memory_id, BAD[kind])
    assert snapshot(store) == before


@pytest.mark.parametrize("kind", BAD)
def test_memory_tool_text_is_refused_with_the_field_named(graph, store, kind):
    files = graph.memory_store("alice")
    files.create("/memories/notes.md", "uses Postgres\n")
    before = snapshot(store)
    calls = {
        "file_text": {"command": "create", "path": "/memories/other.md", "file_text": BAD[kind]},
        "new_str": {"command": "str_replace", "path": "/memories/notes.md", "old_str": "Postgres", "new_str": BAD[kind]},
        "old_str": {"command": "str_replace", "path": "/memories/notes.md", "old_str": BAD[kind], "new_str": "x"},
        "insert_text": {"command": "insert", "path": "/memories/notes.md", "insert_line": 0, "insert_text": BAD[kind]},
    }
    for field, call in calls.items():
        with pytest.raises(MemoryCommandError) as refused:
            files.execute(call)
        assert str(refused.value).startswith(f"Error: `{field}` contains a {kind}"), str(refused.value)
        str(refused.value).encode("utf-8")  # the error itself can be sent back to the model
    with pytest.raises(MemoryCommandError) as refused:
        files.create("/memories/" + BAD[kind], "x")
    assert str(refused.value).startswith("Error: Invalid path '/memories/before\\u")  # shown escaped
    assert snapshot(store) == before


@pytest.mark.parametrize("kind", BAD)
def test_turn_text_is_refused_before_anything_is_written(graph, store, kind):
    graph.record_session_start("s1", user_id="alice")
    before = snapshot(store)
    for field, turn in {
        "text": {"role": "user", "text": BAD[kind]},
        "output": {"type": "tool_result", "output": BAD[kind]},
        "tool_input": {"type": "tool_call", "tool_name": "Bash", "tool_input": {"command": BAD[kind]}},
    }.items():
        with pytest.raises(ValidationError, match=f"{field}: contains a {kind}"):
            graph.record_turns("s1", [{"role": "user", "text": "fine"}, turn], user_id="alice")
    assert snapshot(store) == before


def test_session_ids_with_a_lone_surrogate_are_refused(graph, store):
    with pytest.raises(ValidationError, match="control characters are not allowed"):
        graph.record_session_start("s\ud800", user_id="alice")
    assert snapshot(store) == []


@pytest.mark.parametrize("kind", BAD)
def test_the_cli_prints_one_error_line_and_writes_nothing(cli, kind):
    saved = cli("memory", "save", "--user", "alice", BAD[kind], code=2)
    assert f"Invalid content: it contains a {kind}" in saved and "Traceback" not in saved
    created = cli("memory", "create", "--user", "alice", "/memories/a.md", BAD[kind], code=2)  # bad input: 2 (issue 36)
    assert created.startswith(f"Error: `file_text` contains a {kind}")
    assert "no user 'alice'" in cli("memory", "list", "--user", "alice", code=1)  # not even the user was written
