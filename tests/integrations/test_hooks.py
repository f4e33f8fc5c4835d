"""`sessions-graph hook EVENT` fed hook payloads and transcripts in the harnesses' own shapes, on the real store."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import tomllib
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import dagster as dg
import pytest
from conftest import processes_with_env

from sensors.hook_spool import hook_spool_sensor
from sessions_graph_core import SessionsGraph
from sessions_graph_core.children import sessions_graph_command
from sessions_graph_core.config.model import CONFIG_ENV, ENV_ALIASES, ENV_PREFIX, set_value
from sessions_graph_core.failures import LOG_DIR_ENV, child_log_path, recent_failures
from sessions_graph_core.integrations import spool
from sessions_graph_core.integrations.connector import SessionsGraphConnector
from sessions_graph_core.integrations.hooks import action_for, drain_spool, plain_arguments, run_hook
from sessions_graph_core.memory.tool_calls import is_memory_tool
from sessions_graph_core.store.falkordb.server import EmbeddedServer, _cmdline
from sessions_graph_core.store.falkordb.store import FalkorDBStore
from sessions_graph_core.validation import ValidationError
from sessions_graph_dagster.resources import GraphStoreResource

HOOK_TIMEOUT_S = 120



def children_of(config: Path) -> list[int]:
    """Detached children started by this test's hooks: they carry its config path in their environment."""
    return processes_with_env(CONFIG_ENV, str(config))


@pytest.fixture
def env(data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """A config file naming the user and the store; the same environment for in-process and CLI hooks.

    Afterwards it waits for the detached children, which would otherwise outlive the module's store
    and start it again in a deleted folder.
    """
    for variable in list(os.environ):
        if variable.startswith(ENV_PREFIX) or variable in ENV_ALIASES:
            monkeypatch.delenv(variable)
    config = tmp_path / "config.toml"
    monkeypatch.setenv(CONFIG_ENV, str(config))
    monkeypatch.setenv(LOG_DIR_ENV, str(tmp_path / "log"))
    set_value("identity.user_id", "alice")
    set_value("store.data_dir", str(data_dir))
    yield dict(os.environ)
    wait_for(lambda: not children_of(config), timeout_s=300)


@pytest.fixture
def graph(data_dir: Path) -> Iterator[SessionsGraph]:
    store = FalkorDBStore(EmbeddedServer(data_dir), graph="sessions_graph")
    yield SessionsGraph(store)
    store.close()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A working directory whose git origin names the project."""
    path = tmp_path / "work" / "orders"
    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    subprocess.run(["git", "-C", str(path), "remote", "add", "origin", "git@github.com:Acme/Orders.git"], check=True)
    return path


class ClaudeTranscript:
    """A transcript file written the way Claude Code writes it, one entry per line."""

    def __init__(self, path: Path, session_id: str, cwd: Path) -> None:
        self.path, self.session_id, self.cwd = path, session_id, cwd
        self.last: str | None = None
        self.clock = 0
        path.write_text(json.dumps({"type": "summary", "summary": "Orders service", "leafUuid": "x"}) + "\n")

    def _entry(self, kind: str, content: object) -> dict:
        self.clock += 1
        entry = {
            "parentUuid": self.last, "isSidechain": False, "userType": "external", "cwd": str(self.cwd),
            "sessionId": self.session_id, "version": "2.0.14", "gitBranch": "main", "type": kind,
            "message": {"role": kind, "content": content}, "uuid": str(uuid.uuid4()),
            "timestamp": f"2026-11-20T10:00:{self.clock:02d}.000Z",
        }
        if kind == "assistant":
            entry["message"] |= {"id": f"msg_{self.clock}", "type": "message", "model": "claude-sonnet-4-5"}
        self.last = entry["uuid"]
        with open(self.path, "a") as file:
            file.write(json.dumps(entry) + "\n")
        return entry

    def user(self, text: str) -> None:
        self._entry("user", text)

    def assistant(self, text: str, *tool_uses: tuple[str, str, dict]) -> None:
        blocks: list[dict] = [{"type": "text", "text": text}] if text else []
        blocks += [{"type": "tool_use", "id": tid, "name": name, "input": args} for tid, name, args in tool_uses]
        self._entry("assistant", blocks)

    def tool_result(self, tool_use_id: str, output: str, *, is_error: bool = False) -> None:
        self._entry("user", [{"tool_use_id": tool_use_id, "type": "tool_result", "content": output, "is_error": is_error}])

    def meta(self, text: str) -> None:
        entry = {"type": "user", "isMeta": True, "message": {"role": "user", "content": text}, "uuid": str(uuid.uuid4())}
        with open(self.path, "a") as file:
            file.write(json.dumps(entry) + "\n")

    def payload(self, event: str, **extra: object) -> dict:
        return {
            "session_id": self.session_id, "transcript_path": str(self.path), "cwd": str(self.cwd),
            "hook_event_name": event, "permission_mode": "default", **extra,
        }


def hook_cli(event: str, payload: object, env: dict[str, str], *extra: str) -> subprocess.CompletedProcess[str]:
    raw = payload if isinstance(payload, str) else json.dumps(payload)
    return subprocess.run(
        [*sessions_graph_command(), "hook", event, *extra],
        input=raw, capture_output=True, text=True, env=env, timeout=HOOK_TIMEOUT_S, check=False,
    )


def session_node(graph: SessionsGraph, session_id: str) -> dict:
    rows = graph.store.run("MATCH (s:Session {session_id: $sid}) RETURN properties(s) AS s", {"sid": session_id})
    return rows[0]["s"] if rows else {}


def test_a_claude_code_session_through_the_cli_hooks(env: dict[str, str], graph: SessionsGraph, repo: Path, tmp_path: Path) -> None:
    sid = f"cc-{uuid.uuid4()}"
    transcript = ClaudeTranscript(tmp_path / f"{sid}.jsonl", sid, repo)
    started = hook_cli("SessionStart", transcript.payload("SessionStart", source="startup"), env)
    assert started.returncode == 0 and started.stderr == ""
    assert json.loads(started.stdout)["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    info = graph.get_session(sid)
    assert info is not None and info.user_id == "alice"
    assert info.project_key == "github.com_Acme_Orders"
    assert info.metadata["source_sdk"] == "claude-code"

    transcript.user("Let's keep the orders in Postgres, not Mongo.")
    transcript.meta("Caveat: the messages below were generated by the user while running local commands.")
    transcript.user("<command-name>/model</command-name>\n<command-message>model</command-message>")
    transcript.assistant("I'll check the schema first.", ("toolu_1", "Bash", {"command": "ls db"}))
    assert hook_cli("UserPromptSubmit", transcript.payload("UserPromptSubmit", prompt="x"), env).returncode == 0
    transcript.tool_result("toolu_1", "schema.sql\nseed.sql")
    transcript.assistant(
        "Noted the decision.",
        ("toolu_2", "mcp__sessions-graph__memory", {"command": "create", "path": "/memories/db.md", "file_text": "Postgres"}),
    )
    transcript.tool_result("toolu_2", "File created successfully at: /memories/db.md")
    for _ in range(2):  # a repeated Stop stores nothing twice
        stopped = hook_cli("Stop", transcript.payload("Stop", stop_hook_active=False), env)
        assert stopped.returncode == 0 and stopped.stdout == "" and stopped.stderr == ""

    turns = graph.get_turns(sid)
    assert [(t.kind, t.role, t.text) for t in turns] == [
        ("message", "user", "Let's keep the orders in Postgres, not Mongo."),
        ("message", "assistant", "I'll check the schema first."),
        ("tool_call", "assistant", 'Bash {"command": "ls db"}'),
        ("tool_result", "tool", "schema.sql\nseed.sql"),
        ("message", "assistant", "Noted the decision."),
    ]
    assert turns[3].tool_name == "Bash"
    assert [t.seq for t in turns] == list(range(5))
    node = session_node(graph, sid)
    assert node["reconciliation_status"] == "pending"
    assert json.loads(node["transcript_offsets"]) == {str(transcript.path): transcript.path.stat().st_size}

    transcript.user("And add an index on customer_id.")
    transcript.path.write_bytes(transcript.path.read_bytes().splitlines(keepends=True)[-1])  # rewritten shorter
    ended = hook_cli("SessionEnd", transcript.payload("SessionEnd", reason="exit"), env)
    assert ended.returncode == 0
    assert [t.text for t in graph.get_turns(sid)][-1] == "And add an index on customer_id."
    assert session_node(graph, sid)["status"] == "ended"
    assert recent_failures() == []


def test_a_torn_last_line_waits_for_the_next_hook(env: dict[str, str], graph: SessionsGraph, repo: Path, tmp_path: Path) -> None:
    sid = f"cc-{uuid.uuid4()}"
    transcript = ClaudeTranscript(tmp_path / "t.jsonl", sid, repo)
    transcript.user("first question")
    transcript.user("second question")
    whole = transcript.path.read_bytes()
    cut = len(whole) - 25
    transcript.path.write_bytes(whole[:cut])
    assert run_hook("Stop", json.dumps(transcript.payload("Stop"))) is None
    assert [t.text for t in graph.get_turns(sid)] == ["first question"]
    transcript.path.write_bytes(whole)
    run_hook("Stop", json.dumps(transcript.payload("Stop")))
    assert [t.text for t in graph.get_turns(sid)] == ["first question", "second question"]
    assert recent_failures() == []


def test_a_codex_rollout_is_recorded(env: dict[str, str], graph: SessionsGraph, repo: Path, tmp_path: Path) -> None:
    sid = str(uuid.uuid4())
    rollout = tmp_path / f"rollout-{sid}.jsonl"
    lines = [
        {"timestamp": "2026-11-21T09:00:00Z", "type": "session_meta", "payload": {"id": sid, "cwd": str(repo)}},
        {"timestamp": "2026-11-21T09:00:01Z", "type": "response_item", "payload": {
            "type": "message", "role": "user", "content": [{"type": "input_text", "text": "<environment_context>cwd</environment_context>"}]}},
        {"timestamp": "2026-11-21T09:00:02Z", "type": "response_item", "payload": {
            "type": "message", "role": "user", "content": [{"type": "input_text", "text": "Why is the build red?"}]}},
        {"timestamp": "2026-11-21T09:00:03Z", "type": "response_item", "payload": {
            "type": "function_call", "name": "shell", "arguments": json.dumps({"command": ["make", "test"]}), "call_id": "call_1"}},
        {"timestamp": "2026-11-21T09:00:04Z", "type": "response_item", "payload": {
            "type": "function_call_output", "call_id": "call_1", "output": json.dumps({"output": "1 failed", "metadata": {"exit_code": 1}})}},
        {"timestamp": "2026-11-21T09:00:05Z", "type": "event_msg", "payload": {"type": "agent_message", "message": "dup"}},
        {"timestamp": "2026-11-21T09:00:06Z", "type": "response_item", "payload": {
            "type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "test_orders fails on a missing fixture."}]}},
    ]
    rollout.write_text("".join(json.dumps(line) + "\n" for line in lines))
    payload = {"session_id": sid, "transcript_path": str(rollout), "cwd": str(repo), "hook_event_name": "Stop", "model": "gpt-5"}
    done = hook_cli("Stop", payload, env, "--runtime", "codex")
    assert done.returncode == 0
    turns = graph.get_turns(sid)
    assert [(t.kind, t.text) for t in turns] == [
        ("message", "Why is the build red?"),
        ("tool_call", 'shell {"command": ["make", "test"]}'),
        ("tool_result", json.dumps({"output": "1 failed", "metadata": {"exit_code": 1}})),
        ("message", "test_orders fails on a missing fixture."),
    ]
    assert turns[2].tool_name == "shell"
    info = graph.get_session(sid)
    assert info is not None and info.metadata["source_sdk"] == "codex"
    assert info.reconciliation_status == "pending"


def test_memory_tool_write_credits_the_session(env: dict[str, str], graph: SessionsGraph, repo: Path, tmp_path: Path) -> None:
    sid = f"cc-{uuid.uuid4()}"
    transcript = ClaudeTranscript(tmp_path / "t.jsonl", sid, repo)
    run_hook("SessionStart", json.dumps(transcript.payload("SessionStart")))
    path = f"/memories/feedback/{uuid.uuid4().hex}.md"
    call = {"command": "create", "path": path, "file_text": "Prefer real stores in tests"}
    graph.memory_store("alice").execute(call)  # what the MCP server did in its own process
    payload = transcript.payload("PostToolUse", tool_name="mcp__sessions-graph__memory", tool_input=call,
                                 tool_response=[{"type": "text", "text": f"File created successfully at: {path}"}])
    run_hook("PostToolUse", json.dumps(payload))
    assert [m.path for m in graph.get_memories_for_session(sid)] == [path]
    # A read credits nothing, and neither does a failed call.
    other = f"/memories/feedback/{uuid.uuid4().hex}.md"
    graph.memory_store("alice").execute({"command": "create", "path": other, "file_text": "x"})
    failed = transcript.payload("PostToolUseFailure", tool_name="memory", tool_input={"command": "create", "path": other, "file_text": "x"})
    run_hook("PostToolUseFailure", json.dumps(failed))
    view = transcript.payload("PostToolUse", tool_name="memory", tool_input={"command": "view", "path": other})
    run_hook("PostToolUse", json.dumps(view))
    assert [m.path for m in graph.get_memories_for_session(sid)] == [path]
    assert recent_failures() == []


def test_session_start_context_has_memory_index_and_where_you_left_off(
    env: dict[str, str], graph: SessionsGraph, repo: Path, tmp_path: Path
) -> None:
    user = f"u{uuid.uuid4().hex[:8]}"
    set_value("identity.user_id", user)
    files = graph.memory_store(user)
    files.create("/memories/user/style.md", "---\ndescription: How I like code reviewed\ntype: user\n---\nShort comments.\n")
    files.create("/memories/feedback/tests.md", "---\ndescription: testing rule\npin: true\n---\nNever mock the database.\n")
    files.create("/memories/projects/github.com_Acme_Orders/stack.md", "# Orders runs on Postgres 16\n")
    files.create("/memories/projects/other_repo/notes.md", "---\ndescription: elsewhere\n---\nx\n")
    earlier = ClaudeTranscript(tmp_path / "earlier.jsonl", f"cc-{uuid.uuid4()}", repo)
    earlier.user("Move the orders table to Postgres")
    earlier.assistant("Migration written in db/migrate/001.sql.")
    earlier.user("Now add the   customer index")
    earlier.assistant("Index added.")
    run_hook("SessionEnd", json.dumps(earlier.payload("SessionEnd")))

    now = ClaudeTranscript(tmp_path / "now.jsonl", f"cc-{uuid.uuid4()}", repo)
    out = run_hook("SessionStart", json.dumps(now.payload("SessionStart", source="startup")))
    assert out is not None
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert "Current project folder: /memories/projects/github.com_Acme_Orders/" in context
    assert 'Pinned memories (always apply):\n<memory path="/memories/feedback/tests.md">\nNever mock the database.\n</memory>' in context
    assert "- /memories/user/style.md — How I like code reviewed" in context
    assert "- /memories/projects/github.com_Acme_Orders/stack.md — Orders runs on Postgres 16" in context
    assert "other_repo" not in context
    assert "in Claude Code, 4 turns." in context
    assert '  First ask: "Move the orders table to Postgres"' in context
    assert '  Last ask: "Now add the customer index"' in context
    assert '  Last reply: "Index added."' in context
    assert recent_failures() == []


def test_session_start_with_resume_and_index_off(env: dict[str, str], repo: Path, tmp_path: Path) -> None:
    set_value("session_start.resume", "false")
    set_value("session_start.memory_index", "false")
    transcript = ClaudeTranscript(tmp_path / "t.jsonl", f"cc-{uuid.uuid4()}", repo)
    out = run_hook("SessionStart", json.dumps(transcript.payload("SessionStart")))
    assert out is not None
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert "call the `recall` tool" in context
    assert "Memory index" not in context and "Where you left off" not in context


def test_broken_store_exits_0_and_logs(env: dict[str, str], repo: Path, tmp_path: Path) -> None:
    set_value("store.url", "bolt://127.0.0.1:9")  # nothing listens on the discard port
    transcript = ClaudeTranscript(tmp_path / "t.jsonl", f"cc-{uuid.uuid4()}", repo)
    done = hook_cli("Stop", transcript.payload("Stop"), env)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    [failure] = recent_failures()
    assert failure["where"] == "hook" and failure["hook_event"] == "Stop"
    assert failure["session_id"] == transcript.session_id


@pytest.mark.parametrize(
    ("event", "stdin", "config_text", "expected"),
    [
        ("Stop", "not json", None, "The hook input is not JSON text"),
        ("Stop", "[1, 2]", None, "The hook input must be a JSON object"),
        ("Stop", "{}", None, "session_id"),
        ("Teleport", '{"session_id": "s-1"}', None, "Unknown hook event 'Teleport'"),
        ("Stop", '{"session_id": "s-1"}', "[recall\n", "is not valid TOML"),
        ("Stop", '{"session_id": "s-1"}', "[recall]\nturns_k = -4\n", "recall.turns_k"),
        ("Stop", '{"session_id": "s-1"}', "[identity]\n", "No user is configured"),
    ],
)
def test_bad_input_exits_0_and_logs_why(
    env: dict[str, str], event: str, stdin: str, config_text: str | None, expected: str
) -> None:
    if config_text is not None:
        Path(env[CONFIG_ENV]).write_text(config_text)
    done = hook_cli(event, stdin, env)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    [failure] = recent_failures()
    assert expected in failure["error"]


def test_a_hook_whose_stdin_never_closes_gives_up_and_logs_why(env: dict[str, str]) -> None:
    hook = subprocess.Popen([*sessions_graph_command(), "hook", "Stop"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    try:
        assert hook.stdin is not None
        hook.stdin.write(b'{"session_id": "s-1"')  # a harness that stalls mid-event and never closes the pipe
        hook.stdin.flush()
        assert hook.wait(timeout=HOOK_TIMEOUT_S) == 0
    finally:
        hook.kill()
        hook.communicate()
    [failure] = recent_failures()
    assert "nothing arrived for 3 s" in failure["error"]


def test_a_hook_imports_no_pydantic_click_or_redis(env: dict[str, str], repo: Path, tmp_path: Path) -> None:
    """Their imports alone would use up a harness's hook budget; only a changed config pays for pydantic."""
    transcript = ClaudeTranscript(tmp_path / "t.jsonl", f"cc-{uuid.uuid4()}", repo)
    transcript.user("How slow is a hook?")
    command = [sys.executable, "-X", "importtime", "-m", "sessions_graph_core.entry", "hook"]
    for event in ("SessionStart", "UserPromptSubmit"):  # the first one validates the new config and caches it
        done = subprocess.run([*command, event], input=json.dumps(transcript.payload(event)), capture_output=True,
                              text=True, env=env, timeout=HOOK_TIMEOUT_S, check=True)
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "sessions_graph_core.integrations.hooks" in imported
    assert not {name.split(".")[0] for name in imported} & {"pydantic", "click", "redis", "falkordb", "rich"}
    assert recent_failures() == []


# What a prompt's hook with the store up has no use for (issue 40: hooks p95 under 100 ms): the memory files
# (a memory tool call's hook loads them), reconcile, the git lookup of a session's project (a session's first
# hook only), the spawner (turn and session ends only), and `uuid`, which loads `platform` for random bytes.
NOT_FOR_A_PROMPT = {
    "sessions_graph_core.memory.files", "sessions_graph_core.memory.notes", "sessions_graph_core.reconcile",
    "sessions_graph_core.sessions.projects", "sessions_graph_core.children", "uuid", "platform",
    # The server's module, its idle watcher and subprocess: only for a store the call starts or waits for.
    "sessions_graph_core.store.falkordb.server", "sessions_graph_core.store.falkordb.idle", "subprocess",
    *(NOT_FOR_ANY_HOOK := {
        # dataclasses loads inspect, ast, dis and tokenize: the hook path's types are Values (values.py).
        "dataclasses", "inspect",
        # platformdirs loads tempfile, shutil and random; the log folder is worked out without it on Linux.
        "platformdirs", "tempfile", "shutil",
        # The Python wrappers of _socket and _thread (selectors, array).
        "socket", "threading",
        # WordNet, which only a question reads: a turn's concept words need no senses.
        "sessions_graph_core.wordnet",
    }),
}


def test_a_prompt_hook_with_the_store_up_records_its_turn_and_loads_only_what_it_uses(
    env: dict[str, str], graph: SessionsGraph, repo: Path, tmp_path: Path
) -> None:
    graph.setup()  # the module's store up and answering, as a resident store is
    transcript = ClaudeTranscript(tmp_path / "t.jsonl", f"cc-{uuid.uuid4()}", repo)
    transcript.user("Which broker do the orders go through?")
    command = [sys.executable, "-X", "importtime", "-m", "sessions_graph_core.entry", "hook"]
    subprocess.run([*command, "SessionStart"], input=json.dumps(transcript.payload("SessionStart")), capture_output=True,
                   text=True, env=env, timeout=HOOK_TIMEOUT_S, check=True)
    transcript.user("Kafka, since the migration.")
    done = subprocess.run([*command, "UserPromptSubmit"], input=json.dumps(transcript.payload("UserPromptSubmit")),
                          capture_output=True, text=True, env=env, timeout=HOOK_TIMEOUT_S, check=True)
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "sessions_graph_core.sessions.records" in imported  # it wrote the turn itself, not through the spool
    assert not imported & NOT_FOR_A_PROMPT
    assert [turn.text for turn in graph.get_turns(transcript.session_id)] == [
        "Which broker do the orders go through?", "Kafka, since the migration."]
    assert recent_failures() == []


# Each event's own extras (store up, the session recorded before): a session start reads the memory index and
# the project from the repository's files (no git process); a memory tool call writes its file. None loads what
# no hook uses, nor `uuid` (with `platform`), reconcile (a delete's forgetting only), the server's module (a schema
# already applied) or subprocess (a turn end spawns with posix_spawn).
NOT_FOR_THESE = NOT_FOR_ANY_HOOK | {
    "uuid", "platform", "sessions_graph_core.reconcile", "sessions_graph_core.store.falkordb.server", "subprocess"}
EVENT_EXTRAS = {
    "SessionStart": {"source": "startup"},
    "PostToolUse": {"tool_name": "mcp__sessions-graph__memory",
                    "tool_input": {"command": "create", "path": "/memories/brokers.md", "file_text": "Kafka for orders."}},
    "Stop": {},
}


@pytest.mark.parametrize("event", list(EVENT_EXTRAS))
def test_each_hook_event_loads_only_what_it_uses(
    event: str, env: dict[str, str], graph: SessionsGraph, repo: Path, tmp_path: Path
) -> None:
    graph.setup()
    transcript = ClaudeTranscript(tmp_path / "t.jsonl", f"cc-{uuid.uuid4()}", repo)
    transcript.user("Which broker do the orders go through?")
    assert hook_cli("UserPromptSubmit", transcript.payload("UserPromptSubmit"), env).returncode == 0  # the session exists
    transcript.assistant("Kafka.")
    command = [sys.executable, "-X", "importtime", "-m", "sessions_graph_core.entry", "hook", event]
    done = subprocess.run(command, input=json.dumps(transcript.payload(event, **EVENT_EXTRAS[event])), capture_output=True,
                          text=True, env=env, timeout=HOOK_TIMEOUT_S, check=True)
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "sessions_graph_core.sessions.records" in imported
    assert imported & NOT_FOR_THESE == set()
    assert [turn.text for turn in graph.get_turns(transcript.session_id)] == ["Which broker do the orders go through?", "Kafka."]
    assert recent_failures() == []


# What no command but reconcile and derive may load: the reader's spaCy (with thinc and torch behind it) and
# the pipeline that drives it; the embedder's onnxruntime only where a command embeds.
READER = {"spacy", "thinc", "torch", "sessions_graph_core.reconcile.pipeline", "sessions_graph_core.reconcile.nlp"}
EMBEDDER = {"onnxruntime"}
COMMANDS = {  # arguments: (what it must import, what it must not)
    ("--help",): ({"click"}, READER | EMBEDDER | {"pydantic", "numpy", "sessions_graph_core.graph"}),
    ("config", "show"): ({"sessions_graph_core.config.model"}, READER | EMBEDDER),
    ("memory", "view"): ({"sessions_graph_core.memory.files"}, READER | EMBEDDER),
    ("session", "list"): ({"sessions_graph_core.sessions.records"}, READER | EMBEDDER),
    ("facts", "alice"): ({"sessions_graph_core.reconcile.facts"}, READER | EMBEDDER),
    ("recall", "which database?"): (EMBEDDER, READER),
    ("hook", "Stop"): ({"sessions_graph_core.integrations.hooks"}, READER | EMBEDDER),
}


def imported_by(arguments: tuple[str, ...], env: dict[str, str]) -> set[str]:
    command = [sys.executable, "-X", "importtime", "-m", "sessions_graph_core.entry", *arguments]
    done = subprocess.run(command, input="{}", capture_output=True, text=True, env=env, timeout=HOOK_TIMEOUT_S)
    assert done.returncode == 0, done.stderr[-2000:]
    return {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}


@pytest.mark.parametrize("arguments", list(COMMANDS), ids=" ".join)
def test_each_command_imports_what_it_uses(arguments: tuple[str, ...], env: dict[str, str], graph: SessionsGraph) -> None:
    graph.save_memory("alice", "We chose Postgres for the orders database.", path=f"/memories/db-{uuid.uuid4().hex}.md")
    graph.embed_memories("alice")
    imported = imported_by(arguments, env)
    wanted, unwanted = COMMANDS[arguments]
    assert wanted <= imported
    assert not imported & unwanted


def test_the_shipped_argument_shapes_skip_click_and_the_rest_go_through_it(env: dict[str, str]) -> None:
    assert plain_arguments(["Stop"]) == ("Stop", "claude-code")
    assert plain_arguments(["Stop", "--runtime", "codex"]) == ("Stop", "codex")
    assert plain_arguments(["--help"]) is None
    refused = hook_cli("Stop", '{"session_id": "s-vim"}', env, "--runtime", "vim")  # never fail the harness: log it
    assert (refused.returncode, refused.stdout, refused.stderr) == (0, "", "")
    [failure] = recent_failures()
    assert "Unknown --runtime 'vim': use one of claude-code, codex" in failure["error"]
    assert "Usage: sessions-graph hook [OPTIONS] EVENT" in hook_cli("--help", "", env).stdout


def test_another_users_session_is_left_alone(env: dict[str, str], graph: SessionsGraph, repo: Path, tmp_path: Path) -> None:
    sid = f"cc-{uuid.uuid4()}"
    graph.record_session_start(sid, user_id="bob")
    transcript = ClaudeTranscript(tmp_path / "t.jsonl", sid, repo)
    transcript.user("alice's words")
    assert run_hook("Stop", json.dumps(transcript.payload("Stop"))) is None
    assert graph.get_turns(sid) == []
    assert session_node(graph, sid).get("reconciliation_status") is None
    [failure] = recent_failures()
    assert "belongs to another user" in failure["error"]


def test_a_spooled_event_that_fails_is_logged_and_the_drain_goes_on(
    env: dict[str, str], data_dir: Path, graph: SessionsGraph, repo: Path, tmp_path: Path
) -> None:
    theirs = ClaudeTranscript(tmp_path / "bob.jsonl", f"cc-{uuid.uuid4()}", repo)
    graph.record_session_start(theirs.session_id, user_id="bob")
    theirs.user("bob's words, in alice's hook")
    mine = ClaudeTranscript(tmp_path / "alice.jsonl", f"cc-{uuid.uuid4()}", repo)
    mine.user("Move the nightly export to 02:00.")
    for transcript in (theirs, mine):
        spool.append(data_dir, "UserPromptSubmit", "claude-code", json.dumps(transcript.payload("UserPromptSubmit")))
    assert drain_spool() == 2
    assert graph.get_turns(theirs.session_id) == []
    assert [turn.text for turn in graph.get_turns(mine.session_id)] == ["Move the nightly export to 02:00."]
    [failure] = recent_failures()
    assert "belongs to another user" in failure["error"] and failure["spooled"] is True
    assert spool.pending(data_dir) == []


def wait_for(probe: Callable[[], object], timeout_s: float = 180) -> object:
    """Poll until probe() is truthy: the detached children finish on their own time."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = probe()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"gave up after {timeout_s} s; children's log:\n{child_log_path().read_text() if child_log_path().exists() else ''}")


def test_turn_end_spawns_a_detached_embed_that_finishes(env: dict[str, str], graph: SessionsGraph, repo: Path) -> None:
    sid = f"sdk-{uuid.uuid4()}"
    connector = SessionsGraphConnector(graph)
    connector.session_start(sid, "alice", cwd=repo)
    assert (connector.active_session_id, connector.active_user_id) == (sid, "alice")
    connector.record_turns([{"role": "user", "text": "Ship the invoice export on Friday."}])
    connector.turn_end()
    [pid] = connector.spawned
    assert os.getsid(pid) == pid  # a session of its own: nobody waits for it, a harness's kill misses it
    assert session_node(graph, sid)["reconciliation_status"] == "pending"
    node = wait_for(lambda: session_node(graph, sid).get("embedding_status") and session_node(graph, sid))
    assert node["embedding_status"] == "completed", node.get("embedding_error")


def test_cli_stop_hook_leaves_the_embedding_to_its_child(env: dict[str, str], graph: SessionsGraph, repo: Path, tmp_path: Path) -> None:
    sid = f"cc-{uuid.uuid4()}"
    transcript = ClaudeTranscript(tmp_path / "t.jsonl", sid, repo)
    transcript.user("Rename the billing module to invoicing.")
    assert hook_cli("UserPromptSubmit", transcript.payload("UserPromptSubmit"), env).returncode == 0  # the session's first
    transcript.assistant("Renamed; imports updated.")
    command = [sys.executable, "-X", "importtime", "-m", "sessions_graph_core.entry", "hook", "Stop"]
    done = subprocess.run(command, input=json.dumps(transcript.payload("Stop")), capture_output=True, text=True, env=env,
                          timeout=HOOK_TIMEOUT_S)
    assert done.returncode == 0
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "sessions_graph_core.children" in imported and not imported & {"subprocess", *NOT_FOR_ANY_HOOK}  # posix_spawn
    node = wait_for(lambda: session_node(graph, sid).get("embedding_status") and session_node(graph, sid))
    assert node["embedding_status"] == "completed", node.get("embedding_error")
    assert recent_failures() == []


def test_connector_needs_a_session(graph: SessionsGraph) -> None:
    connector = SessionsGraphConnector(graph)
    with pytest.raises(ValidationError, match="No active session: call session_start first"):
        connector.turn_end()
    assert connector.spawned == []


INTEGRATIONS = Path(__file__).resolve().parents[2] / "integrations"


@pytest.mark.parametrize(("runtime", "hooks_file"), [("claude-code", "claude-code/settings.json"), ("codex", "codex/hooks.json")])
def test_shipped_hook_configs_call_events_the_hook_handles(runtime: str, hooks_file: str) -> None:
    hooks = json.loads((INTEGRATIONS / hooks_file).read_text())["hooks"]
    assert {"SessionStart", "UserPromptSubmit", "Stop"} <= set(hooks)
    for event, groups in hooks.items():
        for group in groups:
            for hook in group["hooks"]:
                assert hook["type"] == "command"
                assert hook["command"].split() == ["sessions-graph", "hook", event, "--runtime", runtime]
                assert action_for(event)
                assert hook["timeout"] >= 10
            if "matcher" in group:  # harnesses match tool names by regular expression
                for name in ("memory", "mcp__sessions-graph__memory"):
                    assert re.fullmatch(group["matcher"], name) and is_memory_tool(name)
                assert not re.fullmatch(group["matcher"], "Bash")


def test_shipped_mcp_configs_start_the_server() -> None:
    claude = json.loads((INTEGRATIONS / "claude-code/mcp.json").read_text())["mcpServers"]["sessions-graph"]
    assert (claude["command"], claude["args"]) == ("sessions-graph", ["mcp"])
    codex = tomllib.loads((INTEGRATIONS / "codex/config.toml").read_text())
    assert codex["features"]["codex_hooks"] is True
    assert codex["mcp_servers"]["sessions-graph"] == {"command": "sessions-graph", "args": ["mcp"]}


def test_session_end_with_auto_reconcile_reconciles_in_the_background(
    env: dict[str, str], graph: SessionsGraph, repo: Path, tmp_path: Path
) -> None:
    set_value("reconcile.auto_reconcile", "true")
    sid = f"cc-{uuid.uuid4()}"
    transcript = ClaudeTranscript(tmp_path / "t.jsonl", sid, repo)
    transcript.user("Alice Chen will own the billing service in Berlin from March.")
    transcript.assistant("Noted: Alice Chen owns billing.")
    assert hook_cli("Stop", transcript.payload("Stop"), env).returncode == 0
    # A turn end never reconciles, whatever the setting: the session stays pending.
    wait_for(lambda: session_node(graph, sid).get("embedding_status"))
    assert session_node(graph, sid)["reconciliation_status"] == "pending"
    assert hook_cli("SessionEnd", transcript.payload("SessionEnd", reason="exit"), env).returncode == 0
    node = wait_for(lambda: session_node(graph, sid).get("reconciliation_status") != "pending" and session_node(graph, sid))
    assert node["reconciliation_status"] == "completed"
    assert recent_failures() == []


@pytest.mark.parametrize("bad", ["nul \u0000 inside", "lone \ud800 surrogate", "x" * 10_000_000])
def test_a_bad_transcript_line_is_skipped_logged_and_later_lines_recorded(
    env: dict[str, str], graph: SessionsGraph, repo: Path, tmp_path: Path, bad: str
) -> None:
    sid = f"cc-{uuid.uuid4()}"
    transcript = ClaudeTranscript(tmp_path / "t.jsonl", sid, repo)
    transcript.user("first prompt")
    transcript.user(bad)  # json.dumps writes NUL and the surrogate as escapes, as a harness would
    transcript.user("second prompt")
    run_hook("UserPromptSubmit", json.dumps(transcript.payload("UserPromptSubmit")))
    for text in ("third prompt", "fourth prompt"):
        transcript.user(text)
        run_hook("UserPromptSubmit", json.dumps(transcript.payload("UserPromptSubmit")))
    run_hook("Stop", json.dumps(transcript.payload("Stop")))
    assert [t.text for t in graph.get_turns(sid)] == ["first prompt", "second prompt", "third prompt", "fourth prompt"]
    assert session_node(graph, sid).get("reconciliation_status") == "pending"
    [failure] = recent_failures()
    assert failure["where"] == "transcript" and "skipped 1 line(s)" in failure["error"]
    assert len(failure["error"]) < 2_000  # the log names the line, it does not copy 10 MB into itself


def nested(depth: int) -> object:
    return json.loads("[" * depth + "]" * depth)


@pytest.mark.parametrize(("hostile", "logged"), [
    ("nested 500 deep", "nests deeper than 100 levels"),
    ("longer than a hook reads", "over the 4,096 a hook reads at once"),
])
def test_a_line_that_stopped_the_hooks_is_skipped_logged_and_the_lines_around_it_recorded(
    env: dict[str, str], graph: SessionsGraph, repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    hostile: str, logged: str,
) -> None:
    from sessions_graph_core.integrations import harness

    monkeypatch.setattr(harness, "MAX_READ_BYTES", 4096)  # the real 64 MiB, scaled down
    sid = f"cc-{uuid.uuid4()}"
    transcript = ClaudeTranscript(tmp_path / "t.jsonl", sid, repo)
    transcript.user("before the line")
    if hostile == "nested 500 deep":
        transcript.assistant("", ("toolu_deep", "Bash", {"command": nested(500)}))
    else:
        transcript.user("x" * 10_000)
    transcript.user("after the line")
    for event in ("UserPromptSubmit", "Stop"):  # the long line's start ends what the first call reads
        run_hook(event, json.dumps(transcript.payload(event)))
    assert [t.text for t in graph.get_turns(sid)] == ["before the line", "after the line"]
    [failure] = recent_failures()
    assert failure["where"] == "transcript" and logged in failure["error"]
    transcript.user("the next prompt")
    run_hook("UserPromptSubmit", json.dumps(transcript.payload("UserPromptSubmit")))
    assert [t.text for t in graph.get_turns(sid)][-1] == "the next prompt"


# -- the spool: a hook never waits for a store that is starting or loading ---------------------------------


@pytest.fixture
def store_not_up(env: dict[str, str], short_tmp: Path) -> Iterator[Path]:
    """The config pointed at a data directory whose store is not running; afterwards the hooks' children
    (the drainer, embeds) are waited for and the store they started is stopped."""
    set_value("store.data_dir", str(short_tmp))
    yield short_tmp
    # The store the drainer started, and its idle watcher, carry the config too: they are stopped, not waited for.
    store_processes = str(short_tmp)
    wait_for(lambda: all(store_processes in _cmdline(pid) for pid in children_of(Path(env[CONFIG_ENV]))), timeout_s=300)
    EmbeddedServer(short_tmp).stop()


def turn_texts(data_dir: Path, session_id: str) -> list[str]:
    store = FalkorDBStore(EmbeddedServer(data_dir), graph="sessions_graph")
    try:
        return [turn.text for turn in SessionsGraph(store).get_turns(session_id)]
    finally:
        store.close()


def test_a_hook_spools_while_the_store_is_not_up_and_the_drainer_applies_it(
    env: dict[str, str], store_not_up: Path, repo: Path, tmp_path: Path
) -> None:
    transcript = ClaudeTranscript(tmp_path / "t.jsonl", f"cc-{uuid.uuid4()}", repo)
    transcript.user("Which queue do we use?")
    for event in ("SessionStart", "UserPromptSubmit"):
        done = hook_cli(event, transcript.payload(event), env)
        assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    transcript.assistant("RabbitMQ, since March.")
    hook_cli("Stop", transcript.payload("Stop"), env)
    wait_for(lambda: EmbeddedServer(store_not_up).responds() and not spool.pending(store_not_up))
    assert turn_texts(store_not_up, transcript.session_id) == ["Which queue do we use?", "RabbitMQ, since March."]
    assert recent_failures() == []


def test_a_hook_that_spools_loads_neither_the_store_client_nor_the_server_module(
    env: dict[str, str], store_not_up: Path, repo: Path, tmp_path: Path
) -> None:
    """Store not ready -> spool is a PING on the socket and an fsynced file: a hook that spools imports none of
    the reply parser, the server's process management, subprocess, or hashlib with OpenSSL (the settings cache's
    key is CPython's own BLAKE2) (issue 40: hooks while the store loads)."""
    transcript = ClaudeTranscript(tmp_path / "t.jsonl", f"cc-{uuid.uuid4()}", repo)
    transcript.user("Is the store up yet?")
    spool.spool_dir(store_not_up).mkdir(parents=True)
    (spool.spool_dir(store_not_up) / spool.STARTING).touch()  # a drainer on its way: these hooks start none
    command = [sys.executable, "-X", "importtime", "-m", "sessions_graph_core.entry", "hook"]
    for event in ("SessionStart", "UserPromptSubmit"):  # the first one validates the new config and caches it
        done = subprocess.run([*command, event], input=json.dumps(transcript.payload(event)), capture_output=True,
                              text=True, env=env, timeout=HOOK_TIMEOUT_S, check=True)
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert len(spool.pending(store_not_up)) == 2
    assert "sessions_graph_core.integrations.spool" in imported
    unwanted = {"sessions_graph_core.store.falkordb.server", "sessions_graph_core.store.falkordb.client", "hiredis", "subprocess",
                "hashlib", "_hashlib"}
    assert not imported & (unwanted | NOT_FOR_ANY_HOOK)
    assert recent_failures() == []


def test_what_was_spooled_survives_a_killed_drainer_and_is_applied_once_in_order(
    env: dict[str, str], store_not_up: Path, repo: Path, tmp_path: Path
) -> None:
    transcript = ClaudeTranscript(tmp_path / "t.jsonl", f"cc-{uuid.uuid4()}", repo)
    texts = [f"step {number}: moved the cron job to host {number}" for number in range(1, 6)]
    for text in texts:
        transcript.user(text)
        assert run_hook("UserPromptSubmit", json.dumps(transcript.payload("UserPromptSubmit"))) is None
        for pid in children_of(Path(env[CONFIG_ENV])):  # the drainer is killed wherever it got to
            os.kill(pid, signal.SIGKILL)
    [first, *_] = spool.pending(store_not_up) or [None]
    if first is not None:  # an event applied but not yet removed when a drainer died is applied again
        spool.append(store_not_up, "UserPromptSubmit", "claude-code", first.raw)
    subprocess.run([*sessions_graph_command(), "store", "drain"], env=env, check=True, capture_output=True,
                   timeout=HOOK_TIMEOUT_S)
    assert spool.pending(store_not_up) == []
    assert turn_texts(store_not_up, transcript.session_id) == texts
    assert recent_failures() == []


def test_events_of_hooks_killed_before_any_drain_are_applied_once_by_the_sensor(
    env: dict[str, str], store_not_up: Path, repo: Path, tmp_path: Path
) -> None:
    """Each hook spools and returns; then it and everything it started (drainer, store) are killed -9, so no
    drain runs. The Dagster sensor applies what was spooled, in order, exactly once, with nobody asking."""
    transcript = ClaudeTranscript(tmp_path / "t.jsonl", f"cc-{uuid.uuid4()}", repo)
    texts = [f"step {number}: the billing worker now reads queue q{number}" for number in range(1, 4)]
    for text in texts:
        transcript.user(text)
        done = hook_cli("UserPromptSubmit", transcript.payload("UserPromptSubmit"), env)
        assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
        for pid in children_of(Path(env[CONFIG_ENV])):
            os.kill(pid, signal.SIGKILL)
    assert spool.pending(store_not_up), "the hooks spooled nothing: the store was up, so this tested nothing"
    context = dg.build_sensor_context(resources={"graph_store": GraphStoreResource(data_dir=str(store_not_up))})
    assert "wait for the store" in str(hook_spool_sensor(context).skip_message)  # a tick never waits for a load
    EmbeddedServer(store_not_up).ensure_running()
    assert "applied" in str(hook_spool_sensor(context).skip_message)
    assert spool.pending(store_not_up) == []
    assert hook_spool_sensor(context).skip_message == "no hook event is spooled"
    assert turn_texts(store_not_up, transcript.session_id) == texts
    assert recent_failures() == []


def test_hooks_that_spool_while_a_drainer_starts_start_no_second_one(tmp_path: Path) -> None:
    """A drainer takes a while to import the CLI and reach the lock; the hooks meanwhile must not each start one."""
    assert spool.claim_drainer_start(tmp_path)  # the first hook starts one
    assert not spool.claim_drainer_start(tmp_path)  # the next hooks see it on its way
    seen = []
    spool.append(tmp_path, "Stop", "claude-code", "{}")
    spool.drain(tmp_path, lambda item: seen.append(spool.claim_drainer_start(tmp_path)))  # it holds the lock now
    assert seen == [False]
    assert spool.claim_drainer_start(tmp_path)  # it has finished: the next spooled event needs a new one
    marker = spool.spool_dir(tmp_path) / spool.STARTING
    old = time.time() - spool.STARTING_S - 1
    os.utime(marker, (old, old))  # that one died before it took the lock
    assert spool.claim_drainer_start(tmp_path)


def test_a_spooled_event_costs_one_write_and_one_fsync(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hook's durability: its line appended and fsynced once. Only the log's first event also fsyncs the
    folders that hold its new name (a file per event cost that second fsync every time)."""
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda handle: (synced.append(handle), real_fsync(handle))[1])
    spool.append(tmp_path, "UserPromptSubmit", "claude-code", '{"n": 1}')
    assert len(synced) == 3  # the log, its folder, and the data directory that holds the new folder
    synced.clear()
    for number in range(2, 5):
        spool.append(tmp_path, "UserPromptSubmit", "claude-code", f'{{"n": {number}}}')
    assert len(synced) == 3
    assert [item.raw for item in spool.pending(tmp_path)] == [f'{{"n": {number}}}' for number in range(1, 5)]


def test_events_spooled_as_a_file_each_before_the_log_are_applied_first_and_removed(tmp_path: Path) -> None:
    """An upgrade finds the spool of a version that wrote a file per event: those events are older than any
    line of the log, so they go first, and each file goes once applied."""
    folder = spool.spool_dir(tmp_path)
    folder.mkdir(parents=True)
    for number in (1, 2):
        event = {"event": "UserPromptSubmit", "runtime": "claude-code", "raw": f'{{"n": {number}}}'}
        (folder / f"{time.time_ns():020d}-{number}.json").write_text(json.dumps(event))
    assert spool.waiting(tmp_path)  # a hook spools behind them, a command drains them
    spool.append(tmp_path, "Stop", "claude-code", '{"n": 3}')
    assert [item.raw for item in spool.pending(tmp_path)] == ['{"n": 1}', '{"n": 2}', '{"n": 3}']
    seen: list[str] = []
    assert spool.drain(tmp_path, lambda item: seen.append(item.raw)) == 3
    assert seen == ['{"n": 1}', '{"n": 2}', '{"n": 3}']
    assert not list(folder.glob("*.json")) and not spool.waiting(tmp_path)


@pytest.mark.parametrize("then_another", [True, False])
def test_a_line_a_crash_cut_short_is_set_aside_and_takes_no_event_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, then_another: bool
) -> None:
    """A hook killed mid-write leaves half a line (it never returned, so nothing it was given is promised). The
    next hook's line still starts on a line of its own, and a drain applies it and empties the log."""
    monkeypatch.setenv(LOG_DIR_ENV, str(tmp_path / "log"))
    spool.append(tmp_path, "UserPromptSubmit", "claude-code", '{"n": 1}')
    cut = b'\n{"event": "Stop", "runtime": "claude-code", "raw": "{\\"n'
    with open(spool.spool_dir(tmp_path) / spool.LOG, "ab") as file:
        file.write(cut)
    if then_another:
        spool.append(tmp_path, "Stop", "claude-code", '{"n": 2}')
    seen: list[str] = []
    assert spool.drain(tmp_path, lambda item: seen.append(item.raw)) == len(seen) == (2 if then_another else 1)
    assert seen == ['{"n": 1}', '{"n": 2}'][: len(seen)]
    assert (spool.spool_dir(tmp_path) / spool.SET_ASIDE).read_bytes() == cut[1:] + b"\n"
    assert (spool.spool_dir(tmp_path) / spool.LOG).stat().st_size == 0 and not spool.waiting(tmp_path)
    assert [failure["where"] for failure in recent_failures()] == ["hook"]


def test_a_hook_whose_store_stops_after_its_ping_spools_its_event(
    env: dict[str, str], store_not_up: Path, repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hook opens a store that answered its PING without the server's lock or a second PING. If the server
    stops before the hook's statements, the event goes to the spool (nothing is lost, nothing restarted by the
    hook), and a drain applies it."""
    EmbeddedServer(store_not_up).ensure_running()
    (spool.spool_dir(store_not_up)).mkdir(parents=True)
    (spool.spool_dir(store_not_up) / spool.STARTING).touch()  # a drainer on its way: the hook starts none
    answering = FalkorDBStore.answering

    def stopped_after_the_ping(data_dir: Path, *, graph: str, timeout_s: float | None) -> FalkorDBStore:
        EmbeddedServer(data_dir).stop()
        return answering(data_dir, graph=graph, timeout_s=timeout_s)

    monkeypatch.setattr(FalkorDBStore, "answering", stopped_after_the_ping)
    transcript = ClaudeTranscript(tmp_path / "t.jsonl", f"cc-{uuid.uuid4()}", repo)
    transcript.user("Which region hosts the replica?")
    raw = json.dumps(transcript.payload("UserPromptSubmit"))
    assert run_hook("UserPromptSubmit", raw) is None
    assert [item.raw for item in spool.pending(store_not_up)] == [raw]
    assert not EmbeddedServer(store_not_up).responds() and recent_failures() == []
    monkeypatch.undo()
    subprocess.run([*sessions_graph_command(), "store", "drain"], env=env, check=True, capture_output=True,
                   timeout=HOOK_TIMEOUT_S)
    assert turn_texts(store_not_up, transcript.session_id) == ["Which region hosts the replica?"]
    assert spool.pending(store_not_up) == []


def test_a_hook_whose_store_holds_its_statement_spools_its_event_instead_of_waiting(
    env: dict[str, str], store_not_up: Path, repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server that answered the PING and then holds the hook's statement (as a write during a vector index
    rebuild holds it for minutes) is not waited for past STATEMENT_TIMEOUT_S: the event is spooled, then applied."""
    server = EmbeddedServer(store_not_up)
    server.ensure_running()
    spool.spool_dir(store_not_up).mkdir(parents=True)
    (spool.spool_dir(store_not_up) / spool.STARTING).touch()  # a drainer on its way: the hook starts none
    pid = server.pid()
    assert pid is not None
    monkeypatch.setattr("sessions_graph_core.integrations.hooks.STATEMENT_TIMEOUT_S", 0.5)
    answering = FalkorDBStore.answering

    def held_after_the_ping(data_dir: Path, *, graph: str, timeout_s: float | None) -> FalkorDBStore:
        os.kill(pid, signal.SIGSTOP)
        return answering(data_dir, graph=graph, timeout_s=timeout_s)

    monkeypatch.setattr(FalkorDBStore, "answering", held_after_the_ping)
    transcript = ClaudeTranscript(tmp_path / "t.jsonl", f"cc-{uuid.uuid4()}", repo)
    transcript.user("Who rotates the signing keys?")
    raw = json.dumps(transcript.payload("UserPromptSubmit"))
    try:
        assert run_hook("UserPromptSubmit", raw) is None
    finally:
        os.kill(pid, signal.SIGCONT)
    assert [item.raw for item in spool.pending(store_not_up)] == [raw] and recent_failures() == []
    monkeypatch.undo()
    subprocess.run([*sessions_graph_command(), "store", "drain"], env=env, check=True, capture_output=True,
                   timeout=HOOK_TIMEOUT_S)
    assert turn_texts(store_not_up, transcript.session_id) == ["Who rotates the signing keys?"]


@pytest.mark.parametrize("bad", [b"not json", b'{"event": 1}', b"\xff\xfe", b"[" * 100_000, b'["a list"]'])
def test_an_unreadable_spooled_event_is_set_aside_and_logged_not_stopping_every_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bad: bytes
) -> None:
    """Every command drains the spool first: a file there that is no event used to stop each one with a traceback."""
    monkeypatch.setenv(LOG_DIR_ENV, str(tmp_path / "log"))
    spool.append(tmp_path, "UserPromptSubmit", "claude-code", '{"n": 1}')
    log = spool.spool_dir(tmp_path) / spool.LOG
    at = log.stat().st_size
    with open(log, "ab") as file:
        file.write(b"\n" + bad + b"\n")
    spool.append(tmp_path, "Stop", "claude-code", '{"n": 2}')
    seen: list[str] = []
    assert spool.drain(tmp_path, lambda item: seen.append(item.raw)) == 2
    assert seen == ['{"n": 1}', '{"n": 2}'] and spool.pending(tmp_path) == []
    assert (spool.spool_dir(tmp_path) / spool.SET_ASIDE).read_bytes() == bad + b"\n"  # kept to look at, not applied
    [failure] = recent_failures()
    assert failure["where"] == "hook" and f"byte {at + 1} of {spool.LOG}" in failure["error"]


def test_a_command_applies_the_spool_before_it_reads(env: dict[str, str], store_not_up: Path, repo: Path, tmp_path: Path) -> None:
    transcript = ClaudeTranscript(tmp_path / "t.jsonl", f"cc-{uuid.uuid4()}", repo)
    transcript.user("The staging database is db-7.")
    spool.append(store_not_up, "UserPromptSubmit", "claude-code", json.dumps(transcript.payload("UserPromptSubmit")))
    shown = subprocess.run([*sessions_graph_command(), "session", "show", transcript.session_id], env=env,
                           capture_output=True, text=True, timeout=HOOK_TIMEOUT_S)
    assert "The staging database is db-7." in shown.stdout, shown.stderr
    assert spool.pending(store_not_up) == []
