"""A refused import writes nothing, not even its Session node (issue 15, item 6)."""

from __future__ import annotations

import json

import pytest
from conftest import snapshot

from sessions_graph_core.sessions.jsonl import import_transcript, read_transcript
from sessions_graph_core.validation import ValidationError


def write(path, lines):
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


HEADER = {"type": "session", "session_id": "s-new", "user_id": "alice"}


@pytest.mark.parametrize(
    "turn, reason",
    [
        ({"role": "user", "text": "hi", "timestamp": "yesterday-ish"}, "timestamp"),
        ({"role": "user", "text": "hi", "turn_id": "t" * 257}, "longer than 256 bytes"),
        ({"role": "user", "text": "hi", "turn_id": "taken"}, "already belongs to another session"),
    ],
)
def test_a_refused_transcript_leaves_no_session(graph, store, tmp_path, turn, reason):
    graph.record_session_start("s-old", user_id="bob")
    graph.record_turns("s-old", [{"role": "user", "text": "bob's", "turn_id": "taken"}], user_id="bob")
    before = snapshot(store)
    transcript = read_transcript(write(tmp_path / "t.jsonl", [HEADER, {"role": "user", "text": "fine"}, turn]))
    with pytest.raises(ValidationError, match=reason):
        import_transcript(store, transcript, session_id="s-new", user_id="alice")
    assert snapshot(store) == before


def test_the_cli_exits_2_and_writes_no_session(cli, tmp_path):
    path = write(tmp_path / "bad.jsonl", [HEADER, {"role": "user", "text": "x", "timestamp": "not a time"}])
    assert "timestamp" in cli("session", "import", str(path), code=2)
    assert "no session 's-new'" in cli("session", "show", "--user", "alice", "s-new", code=1)


def test_two_header_lines_are_refused(tmp_path):
    path = write(tmp_path / "two.jsonl", [HEADER, {"role": "user", "text": "mine"}, HEADER | {"user_id": "mallory"}])
    with pytest.raises(ValidationError, match="two.jsonl:3: .*header must be the first line"):
        read_transcript(path)


def test_save_memory_keeps_a_path_a_file_or_a_directory(graph, store):
    graph.save_memory("alice", "the file", path="/memories/notes.md")
    graph.save_memory("alice", "deep", path="/memories/dir/inner.md")
    before = snapshot(store)
    with pytest.raises(ValidationError, match="/memories/notes.md is a file, so /memories/notes.md/x.md can't be created"):
        graph.save_memory("alice", "under a file", path="/memories/notes.md/x.md")
    with pytest.raises(ValidationError, match="/memories/dir is a directory"):
        graph.save_memory("alice", "over a directory", path="/memories/dir")
    assert snapshot(store) == before
    graph.save_memory("bob", "bob may", path="/memories/notes.md/x.md")  # another user's tree is their own
