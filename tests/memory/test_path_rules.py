"""Path and project-key rules: one name, one spelling, nothing hidden (issue 15, items 1 and 2)."""

from __future__ import annotations

import unicodedata

import pytest
from conftest import snapshot

from sessions_graph_core.memory.files import MemoryCommandError
from sessions_graph_core.validation import ValidationError


def refusal(files, call: dict) -> str:
    with pytest.raises(MemoryCommandError) as refused:
        files.execute(call)
    return str(refused.value)


@pytest.mark.parametrize(
    "path",
    ["/memories/notes.md ", "/memories/ notes.md", "/memories/notes.md\u3000", "/memories/dir /notes.md",
     "/memories/notes.md\u00a0", "/memories/projects/orders /notes.md"],
)
def test_names_that_begin_or_end_with_whitespace_are_refused_everywhere(graph, store, path):
    files = graph.memory_store("alice")
    files.create("/memories/notes.md", "the real one")
    files.create("/memories/projects/orders/notes.md", "orders")
    before = snapshot(store)
    for call in (
        {"command": "create", "path": path, "file_text": "shadow"},
        {"command": "view", "path": path},
        {"command": "str_replace", "path": path, "old_str": "real", "new_str": "x"},
        {"command": "delete", "path": path},
        {"command": "rename", "old_path": "/memories/notes.md", "new_path": path},
    ):
        message = refusal(files, call)
        assert message.startswith("Error: Invalid path") and "begins or ends with whitespace" in message, message
    assert snapshot(store) == before
    files.delete("/memories/notes.md")
    with pytest.raises(MemoryCommandError, match="does not exist"):
        files.view("/memories/notes.md")


def test_a_project_key_with_whitespace_is_refused_and_writes_nothing(graph, store):
    graph.record_session_start("s-ok", user_id="alice", project_key="orders")
    before = snapshot(store)
    for key in ("orders ", " orders", "or/ders", "", "..", "ord\u202eers"):
        with pytest.raises(ValidationError, match="Invalid project_key"):
            graph.record_session_start("s-shadow", user_id="alice", project_key=key)
    assert snapshot(store) == before


HIDDEN = {
    "DEL": "\x7f", "C1 control": "\x85", "line separator": "\u2028", "paragraph separator": "\u2029",
    "right-to-left override": "\u202e", "left-to-right isolate": "\u2066", "zero-width space": "\u200b",
    "byte order mark": "\ufeff", "private use": "\ue000", "lone surrogate": "\udc80",
}


@pytest.mark.parametrize("name", HIDDEN)
def test_characters_that_cannot_be_shown_are_refused_and_never_echoed(graph, store, name):
    files = graph.memory_store("alice")
    path = f"/memories/evil{HIDDEN[name]}gpj.md"
    message = refusal(files, {"command": "create", "path": path, "file_text": "x"})
    code = f"U+{ord(HIDDEN[name]):04X}"
    assert message == (
        f"Error: Invalid path '/memories/evil\\u{ord(HIDDEN[name]):04x}gpj.md': {code} is a control or "
        "invisible character; use visible characters"
    ) or "backslashes, control characters" in message, message
    assert HIDDEN[name] not in message
    message.encode("utf-8")
    assert snapshot(store) == []


@pytest.mark.parametrize(
    "path", ["/memories/\uff0e\uff0e/etc/passwd", "/memories/a\uff0fb.md", "/memories/a\u2215b.md",
             "/memories/\u2025/x.md", "/memories/a\ufe68b.md", "/memories/\ufe52\ufe52/x.md"],
)
def test_lookalike_dots_and_slashes_are_refused(graph, store, path):
    files = graph.memory_store("alice")
    message = refusal(files, {"command": "create", "path": path, "file_text": "x"})
    assert "without being one; use the ASCII character" in message, message
    assert snapshot(store) == []


def test_composed_and_decomposed_spellings_name_one_file(graph):
    files = graph.memory_store("alice")
    composed = "/memories/caf\u00e9.md"
    decomposed = unicodedata.normalize("NFD", composed)
    assert composed != decomposed
    files.create(decomposed, "one\n")
    files.create(composed, "two\n")
    assert [item.path for item in files.files()] == [composed]
    assert "two" in files.view(decomposed)
    assert files.delete(decomposed) == f"Successfully deleted {composed}"
    assert files.files() == []
