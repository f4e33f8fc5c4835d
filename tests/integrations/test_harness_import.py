"""`session import --format claude-code|codex` on the real corpus (../shared/data/transcripts), on the real store.

Every file's turns are counted here from its records, by the rules docs/import.md states, without the
importer's code; the store must hold exactly those. Hooks and import share the turn ids and the
per-file cursor, so neither ever stores a turn the other stored.
"""

from __future__ import annotations

import json
import re
import subprocess
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from sessions_graph_core.integrations import hooks
from sessions_graph_core.integrations.connector import SessionsGraphConnector
from sessions_graph_core.integrations.harness_import import FileImport, import_files, transcript_files
from sessions_graph_core.sessions import records
from sessions_graph_core.store.falkordb.server import EmbeddedServer
from sessions_graph_core.store.falkordb.store import FalkorDBStore
from sessions_graph_core.store.schema import SCHEMA

CORPUS = Path(__file__).resolve().parents[2] / "../shared/data/transcripts"
RUNTIMES = ("claude-code", "codex")
# The harness's context in a user message (docs/import.md lists the tags): cut out, never the user's words.
INJECTED = re.compile(r"<(ide_[a-z_]+|system-reminder|user-prompt-submit-hook|command-[a-z]+|local-command-[a-z]+|bash-[a-z]+)>"
                      r".*?</\1>", re.DOTALL)


def corpus_files(runtime: str) -> list[Path]:
    return sorted((CORPUS / runtime).glob("*.jsonl"))


def plain_text(content: object) -> str:
    if isinstance(content, str):
        return content
    return "\n".join(block["text"] for block in content or [] if isinstance(block, dict) and isinstance(block.get("text"), str))


def claude_kinds(number: int, record: dict) -> dict[str, str]:
    """Turn kinds of one Claude Code record: each message text, image, tool_use and tool_result block is a turn."""
    if record.get("type") not in ("user", "assistant") or record.get("isMeta") or record.get("isCompactSummary"):
        return {}
    content = record.get("message", {}).get("content")
    identity = record.get("uuid") or number
    user = record["message"].get("role", record["type"]) == "user"

    def said(text: str) -> bool:
        return bool((INJECTED.sub("", text) if user else text).strip())

    if isinstance(content, str):
        return {identity: "message"} if said(content) else {}
    kinds = {}
    for index, block in enumerate(content or []):
        kind = block.get("type") if isinstance(block, dict) else None
        if (kind == "text" and said(block["text"])) or kind == "image":
            kinds[f"{identity}#{index}"] = "message"
        elif kind in ("tool_use", "tool_result"):
            kinds[f"{identity}#{index}"] = "tool_call" if kind == "tool_use" else "tool_result"
    return kinds


def codex_kinds(number: int, record: dict) -> dict[str, str]:
    """Turn kinds of one Codex record: response items only (event_msg lines mirror them for the UI)."""
    payload = record.get("payload")
    if record.get("type") != "response_item" or not isinstance(payload, dict):
        return {}
    kind = payload.get("type")
    if kind == "message" and payload.get("role") in ("user", "assistant"):
        text = plain_text(payload.get("content"))
        images = [block for block in payload.get("content") or [] if block.get("type") == "input_image"]
        return {number: "message"} if (text.strip() or images) and not text.lstrip().startswith("<") else {}
    if kind in ("function_call", "custom_tool_call"):
        return {number: "tool_call"}
    if kind in ("function_call_output", "custom_tool_call_output"):
        return {number: "tool_result"}
    return {}


def counted_turns(path: Path) -> Counter[str]:
    """The file's turns by kind; a record repeated under one id counts once, as the store keeps it once.

    No memory tool is called in the corpus (test_the_corpus_calls_no_memory_tool), so none is left out here.
    """
    kinds: dict[object, str] = {}
    for number, line in enumerate(path.read_bytes().splitlines()):
        record = json.loads(line)
        kinds |= (codex_kinds if "payload" in record else claude_kinds)(number, record)
    return Counter(kinds.values())


def session_of(path: Path) -> str:
    """The session a file belongs to: Claude Code's sessionId (a subagent's file names its parent), Codex's id."""
    for line in path.read_bytes().splitlines():
        record = json.loads(line)
        if record.get("type") == "session_meta":
            return record["payload"]["id"]
        if record.get("sessionId"):
            return record["sessionId"]
    return path.stem


@pytest.fixture(scope="module")
def corpus_store(server: EmbeddedServer) -> Iterator[tuple[FalkorDBStore, list[FileImport]]]:
    """One store for the module, the whole corpus imported into it once."""
    store = FalkorDBStore(server, graph=f"test_{uuid.uuid4().hex[:12]}")
    store.apply_schema(SCHEMA)
    first = [
        result for runtime in RUNTIMES
        for result in import_files(store, transcript_files(CORPUS / runtime), user_id="alice", runtime=runtime)
    ]
    yield store, first
    store.delete_all()
    store.close()


def test_the_corpus_holds_every_file_sources_md_lists() -> None:
    assert (len(corpus_files("claude-code")), len(corpus_files("codex"))) == (22, 6)


def test_the_corpus_calls_no_memory_tool() -> None:
    names = {
        match for runtime in RUNTIMES for path in corpus_files(runtime)
        for match in re.findall(r'"name": ?"([^"]*)"', path.read_text(encoding="utf-8"))
    }
    assert len(names) > 20 and not [name for name in names if name == "memory" or name.endswith("__memory")]


def test_every_file_imports_with_the_turns_its_records_hold(corpus_store) -> None:
    store, first = corpus_store
    assert [(result.path.name, result.error, result.skipped) for result in first if result.error or result.skipped] == []
    assert {result.path for result in first} == set(corpus_files("claude-code") + corpus_files("codex"))
    for result in first:
        assert result.session_id == session_of(result.path)
        assert result.turns == counted_turns(result.path), result.path.name
    expected: dict[str, Counter[str]] = {}
    for result in first:
        expected.setdefault(result.session_id, Counter()).update(counted_turns(result.path))
    for sid, kinds in expected.items():
        assert Counter(turn.kind for turn in records.get_turns(store, sid)) == kinds, sid
    assert sum(result.added for result in first) == sum(sum(kinds.values()) for kinds in expected.values())


def test_a_second_import_adds_nothing(corpus_store) -> None:
    store, _ = corpus_store
    again = [
        result for runtime in RUNTIMES
        for result in import_files(store, transcript_files(CORPUS / runtime), user_id="alice", runtime=runtime)
    ]
    assert [(result.path.name, result.added, sum(result.turns.values())) for result in again if result.added or result.turns] == []


def test_hooks_over_an_imported_transcript_add_nothing(corpus_store) -> None:
    store, first = corpus_store
    for result in first:
        assert hooks.record_transcript(store, result.session_id, "alice", str(result.path.absolute())) == 0
    # Even read from its first line again (a hook given the path another way), every turn is known by its id.
    records.move_transcript_cursor(store, first[0].session_id, "alice", str(first[0].path.absolute()), 0)
    assert hooks.record_transcript(store, first[0].session_id, "alice", str(first[0].path.absolute())) == 0


def test_subagent_lines_summaries_and_images_land_as_the_issue_says(corpus_store) -> None:
    store, first = corpus_store
    by_name = {result.path.name: result for result in first}
    sidechain = next(result for name, result in by_name.items() if "5c0375b4" in name)
    marked = sum(1 for turn in records.get_turns(store, sidechain.session_id) if turn.sidechain)
    counted = sum(
        len(claude_kinds(number, record))
        for number, record in enumerate(map(json.loads, sidechain.path.read_bytes().splitlines()))
        if record.get("isSidechain")
    )
    assert marked == counted > 0
    subagent = next(result for name, result in by_name.items() if "__subagents__" in name)
    parent = next(result for name, result in by_name.items() if name.endswith("ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl"))
    assert subagent.session_id == parent.session_id
    compacted = next(result for name, result in by_name.items() if "slopometry" in name)
    summaries = records.session_summaries(store, compacted.session_id, "alice")
    assert summaries[:3] == [
        "Halstead bug fix, merge commits, quality metrics", "Unified metrics across all CLI commands",
        "Fixed tests, added coverage tracking, cleaned code",
    ]
    assert len(summaries) == 4 and summaries[3].startswith("This session is being continued")
    imaged = next(result for name, result in by_name.items() if "4379d1bf" in name)
    assert [turn.text for turn in records.get_turns(store, imaged.session_id) if turn.text.startswith("[image")] == ["[image: image/png]"]
    first_record = json.loads(imaged.path.read_bytes().splitlines()[0])
    assert records.get_session(store, imaged.session_id).started_at.startswith(first_record["timestamp"][:19])


def test_the_harness_context_in_user_messages_is_cut_out_of_their_text(corpus_store) -> None:
    """IDE context, `!` shell commands and their output, slash-command markup: none is stored as the user's words."""
    store, first = corpus_store
    injected = [result for result in first if re.search(rb"<(ide_opened_file|ide_selection|bash-stdout)>", result.path.read_bytes())]
    texts = [turn.text for result in injected for turn in records.get_turns(store, result.session_id) if turn.role == "user"]
    assert len(injected) >= 3 and texts
    assert not [text for text in texts if re.search(r"<(ide_|bash-|command-|local-command-|system-reminder)", text or "")]
    # "<ide_selection>...</ide_selection>" followed by the user's own question keeps the question.
    selected = next(result for result in injected if b"<ide_selection>" in result.path.read_bytes())
    record = next(record for record in map(json.loads, selected.path.read_bytes().splitlines())
                  if record.get("type") == "user" and "<ide_selection>" in json.dumps(record))
    asked = [block["text"] for block in record["message"]["content"] if "<ide_selection>" not in block.get("text", "<ide_selection>")]
    stored = {turn.text for turn in records.get_turns(store, selected.session_id)}
    assert asked == ["Let's also Migrate to AudioWorklet"] and asked[0] in stored


def test_import_after_the_hooks_adds_only_the_lines_they_did_not_see(server: EmbeddedServer, tmp_path: Path) -> None:
    store = FalkorDBStore(server, graph=f"test_{uuid.uuid4().hex[:12]}")
    store.apply_schema(SCHEMA)
    try:
        source = next(path for path in corpus_files("claude-code") if "7acd37a8" in path.name)
        live = tmp_path / "7acd37a8.jsonl"  # a transcript Claude Code is still writing: its first half so far
        lines = source.read_bytes().splitlines(keepends=True)
        live.write_bytes(b"".join(lines[: len(lines) // 2]))
        sid = session_of(source)
        SessionsGraphConnector(store).session_start(sid, "alice", metadata={"source_sdk": "claude-code"})
        by_hooks = hooks.record_transcript(store, sid, "alice", str(live))
        live.write_bytes(b"".join(lines))
        [result] = import_files(store, [live], user_id="alice", runtime="claude-code")
        assert by_hooks > 0 and result.added == sum(counted_turns(source).values()) - by_hooks
        assert Counter(turn.kind for turn in records.get_turns(store, sid)) == counted_turns(source)
        assert records.get_session(store, sid).reconciliation_status == "pending"
    finally:
        store.delete_all()
        store.close()


def claude_line(session_id: str, cwd: Path, text: str, number: int) -> str:
    return json.dumps({
        "type": "user", "uuid": f"u-{number}", "sessionId": session_id, "cwd": str(cwd),
        "timestamp": f"2026-03-02T09:00:0{number}Z", "message": {"role": "user", "content": text},
    })


def test_the_cli_reports_a_malformed_line_and_imports_the_rest(cli, tmp_path: Path) -> None:
    repo = tmp_path / "orders"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "remote", "add", "origin", "git@github.com:Acme/Orders.git"], check=True)
    project = tmp_path / "projects" / "-work-orders"
    project.mkdir(parents=True)
    transcript = project / "s-1.jsonl"
    transcript.write_text("\n".join([
        claude_line("s-1", repo, "We deploy on Fridays.", 1), '{"type": "user", "message": ', claude_line("s-1", repo, "Ship it.", 3),
    ]) + "\n")
    dry = cli("session", "import", "--format", "claude-code", "--user", "alice", "--dry-run", str(tmp_path / "projects"), code=3)
    assert f"{transcript}:line 2: the line is not JSON text" in dry and "dry run: nothing was stored" in dry
    cli("session", "list", "--user", "alice", code=1)  # the dry run stored no user, no session
    done = cli("session", "import", "--format", "claude-code", "--user", "alice", str(tmp_path / "projects"), code=3)
    assert f"{transcript}:line 2: the line is not JSON text" in done
    assert re.search(r"turns new to the store\s*│\s*2\s", done)
    listed = json.loads(cli("session", "list", "--user", "alice", "--json"))
    assert [(row["session_id"], row["turn_count"], row["project_key"], row["started_at"][:19]) for row in listed] == [
        ("s-1", 2, "github.com_Acme_Orders", "2026-03-02T09:00:01"),
    ]
    again = cli("session", "import", "--format", "claude-code", "--user", "alice", str(transcript))
    assert re.search(r"turns new to the store\s*│\s*0\s", again)


def test_our_plain_import_points_a_claude_code_transcript_to_its_format(cli) -> None:
    source = next(path for path in corpus_files("claude-code") if "simonw" in path.name)
    refused = cli("session", "import", "--user", "alice", str(source), code=2)
    assert "--format claude-code" in refused


def test_a_path_that_is_not_there_is_not_found(cli, tmp_path: Path) -> None:
    assert "no such file or directory" in cli("session", "import", "--format", "codex", str(tmp_path / "none"), code=1)


def test_a_directory_is_walked_sessions_before_their_subagents(tmp_path: Path) -> None:
    project = tmp_path / "-work-orders"
    (project / "f1" / "subagents").mkdir(parents=True)
    names = ["f1/subagents/agent-a1.jsonl", "agent-00.jsonl", "f1.jsonl", "0e.jsonl", "notes.txt"]
    for name in names:
        (project / name).write_text("")
    assert [path.relative_to(tmp_path).as_posix() for path in transcript_files(tmp_path)] == [
        "-work-orders/0e.jsonl", "-work-orders/f1.jsonl", "-work-orders/agent-00.jsonl", "-work-orders/f1/subagents/agent-a1.jsonl",
    ]


@pytest.mark.parametrize("layout", ["{session}/subagents/agent-{agent}.jsonl", "agent-{agent}.jsonl"])
def test_the_hooks_and_a_one_file_import_read_a_sessions_subagent_files(server: EmbeddedServer, tmp_path: Path, layout: str) -> None:
    """Claude Code 2.1 keeps a subagent's transcript under the session (`<session>/subagents/`), earlier
    versions beside it: the hooks, given the session's transcript, read both as turns of the session, sidechain."""
    parent = next(path for path in corpus_files("claude-code") if path.name.endswith("ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl"))
    subagent = next(path for path in corpus_files("claude-code") if "__subagents__agent-a36efb2a1231c41e2" in path.name)
    sid = session_of(parent)
    transcript = tmp_path / f"{sid}.jsonl"
    transcript.write_bytes(parent.read_bytes())
    beside = tmp_path / layout.format(session=sid, agent="a36efb2a1231c41e2")
    beside.parent.mkdir(parents=True, exist_ok=True)
    beside.write_bytes(subagent.read_bytes())
    (tmp_path / "agent-other.jsonl").write_text(claude_line("another-session", tmp_path, "Not this session's.", 1) + "\n")
    store = FalkorDBStore(server, graph=f"test_{uuid.uuid4().hex[:12]}")
    store.apply_schema(SCHEMA)
    try:
        SessionsGraphConnector(store).session_start(sid, "alice", metadata={"source_sdk": "claude-code"})
        added = hooks.record_transcript(store, sid, "alice", str(transcript))
        turns = records.get_turns(store, sid)
        assert added == len(turns) == sum((counted_turns(parent) + counted_turns(subagent)).values())
        assert sum(turn.sidechain for turn in turns) == sum(counted_turns(subagent).values()) > 0
        assert records.get_session(store, "another-session") is None
        assert transcript_files(transcript) == [transcript, beside]
        assert [result.added for result in import_files(store, transcript_files(transcript), user_id="alice", runtime="claude-code")] == [0, 0]
    finally:
        store.delete_all()
        store.close()
