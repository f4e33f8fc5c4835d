"""Inputs that used to end in a traceback or a hang (issue 36 item 6): each is a clear error, exit 2, nothing written."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sessions_graph_core import SessionsGraph
from sessions_graph_core.store.falkordb.server import EmbeddedServer
from sessions_graph_core.store.falkordb.store import FalkorDBStore
from sessions_graph_core.validation import ValidationError


def stored_sessions(short_tmp: Path) -> list[str]:
    store = FalkorDBStore(EmbeddedServer(short_tmp), graph="sessions_graph")
    try:
        return [row["sid"] for row in store.run("MATCH (s:Session) RETURN s.session_id AS sid")]
    finally:
        store.close()


def test_a_config_nested_5000_deep_is_refused(cli, short_tmp):
    config = short_tmp / "config.toml"
    config.write_text('[identity]\nuser_id = "alice"\n[recall]\nlanes = ' + "[" * 5000 + "]" * 5000 + "\n")
    out = cli("recall", "what did we decide", code=2)
    assert "nests deeper than 100 levels" in out and "Traceback" not in out


def test_an_ontology_path_that_is_a_device_is_refused_and_not_written(cli, short_tmp):
    cli("config", "set", "identity.user_id", "alice")
    before = (short_tmp / "config.toml").read_text()
    out = cli("config", "set", "ontology.path", "/dev/zero", code=2)
    assert "/dev/zero is not a regular file" in out
    assert (short_tmp / "config.toml").read_text() == before


def test_ontology_load_of_a_fifo_with_no_writer_ends_with_an_error(cli, short_tmp):
    fifo = short_tmp / "schema.fifo"
    os.mkfifo(fifo)
    out = cli("ontology", "load", "--file", str(fifo), "--user", "alice", code=2)
    assert "nothing arrived for 3 s" in out
    assert stored_sessions(short_tmp) == []


def test_ontology_load_of_dev_zero_stops_at_the_size_limit(cli):
    out = cli("ontology", "load", "--file", "/dev/zero", "--user", "alice", code=2)
    assert "larger than the limit of 1,048,576 bytes" in out


@pytest.mark.parametrize("depth", [500, 50_000])
def test_an_import_with_a_deeply_nested_tool_input_writes_nothing(cli, short_tmp, depth):
    transcript = short_tmp / "deep.jsonl"
    header = json.dumps({"type": "session", "session_id": "deep", "user_id": "alice"})
    good = json.dumps({"role": "user", "text": "a good line first"})
    deep = '{"type": "tool_call", "tool_name": "Bash", "tool_input": {"a": ' + "[" * depth + "]" * depth + "}}"
    transcript.write_text(f"{header}\n{good}\n{deep}\n")
    out = cli("session", "import", str(transcript), code=2)
    assert f"{transcript}:3: the line nests deeper than 100 levels" in out
    assert stored_sessions(short_tmp) == []


@pytest.mark.parametrize("question", ["\ud800", "nul \x00 here", "x" * 10_001])
def test_library_recall_refuses_a_question_it_cannot_search(graph: SessionsGraph, question: str) -> None:
    with pytest.raises(ValidationError, match="recall question"):
        graph.recall("alice", question)


def test_text_on_a_stdin_that_never_closes_is_refused_after_the_silence_timeout(short_tmp):
    import subprocess

    from sessions_graph_core.children import sessions_graph_command

    env = {**os.environ, "SESSIONS_GRAPH_DATA_DIR": str(short_tmp), "SESSIONS_GRAPH_CONFIG": str(short_tmp / "config.toml")}
    command = subprocess.Popen([*sessions_graph_command(), "memory", "save", "--user", "alice", "-"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert command.stdin is not None
        command.stdin.write("a memory that never ends")  # the pipe stays open: no EOF ever comes
        command.stdin.flush()
        assert command.wait(timeout=120) == 2
        command.kill()
        _, err = command.communicate()
        assert "nothing arrived for 3 s" in err
        assert stored_sessions(short_tmp) == []
    finally:
        command.kill()
        EmbeddedServer(short_tmp).stop()
