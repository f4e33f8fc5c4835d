"""`sessions-graph mcp` driven by the real MCP client over stdio, against the real store."""

from __future__ import annotations

import os
import uuid
from collections.abc import Awaitable, Callable, Iterator
from datetime import date
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from sessions_graph_core import SessionsGraph
from sessions_graph_core.children import sessions_graph_command
from sessions_graph_core.config.model import CONFIG_ENV, ENV_ALIASES, ENV_PREFIX, set_value
from sessions_graph_core.store.falkordb.server import EmbeddedServer
from sessions_graph_core.store.falkordb.store import FalkorDBStore

CALL_TIMEOUT_S = 120



@pytest.fixture
def user(data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    for variable in list(os.environ):
        if variable.startswith(ENV_PREFIX) or variable in ENV_ALIASES:
            monkeypatch.delenv(variable)
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "config.toml"))
    name = f"u{uuid.uuid4().hex[:10]}"
    set_value("identity.user_id", name)
    set_value("store.data_dir", str(data_dir))
    return name


@pytest.fixture
def graph(data_dir: Path) -> Iterator[SessionsGraph]:
    store = FalkorDBStore(EmbeddedServer(data_dir), graph="sessions_graph")
    yield SessionsGraph(store)
    store.close()


def with_server(scenario: Callable[[Client], Awaitable[None]]) -> None:
    """Start `sessions-graph mcp` as the harness would and run the scenario against it."""
    command, *arguments = sessions_graph_command()
    parameters = StdioServerParameters(command=command, args=[*arguments, "mcp"], env=dict(os.environ))

    async def main() -> None:
        with anyio.fail_after(CALL_TIMEOUT_S * 3):
            async with Client(parameters) as client:
                await scenario(client)

    anyio.run(main)


def text_of(result: object) -> str:
    return "\n".join(block.text for block in result.content)  # type: ignore[attr-defined]


MEMORY_SCRIPT = [
    {"command": "view", "path": "/memories"},
    {"command": "create", "path": "/memories/user/prefs.md", "file_text": "---\ndescription: prefs\n---\nPython\nTabs\n"},
    {"command": "view", "path": "/memories/user/prefs.md"},
    {"command": "view", "path": "/memories/user/prefs.md", "view_range": [2, 3]},
    {"command": "str_replace", "path": "/memories/user/prefs.md", "old_str": "Tabs", "new_str": "Spaces"},
    {"command": "str_replace", "path": "/memories/user/prefs.md", "old_str": "Rust", "new_str": "Go"},
    {"command": "insert", "path": "/memories/user/prefs.md", "insert_line": 4, "insert_text": "Short names\n"},
    {"command": "insert", "path": "/memories/user/prefs.md", "insert_line": 99, "insert_text": "x"},
    {"command": "rename", "old_path": "/memories/user/prefs.md", "new_path": "/memories/projects/orders/prefs.md"},
    {"command": "view", "path": "/memories"},
    {"command": "view", "path": "/memories/user/prefs.md"},
    {"command": "create", "path": "/memories/../etc/passwd", "file_text": "x"},
    {"command": "create", "path": "/memories/empty.md", "file_text": "   "},
    {"command": "delete", "path": "/memories/projects/orders/prefs.md"},
    {"command": "delete", "path": "/memories/projects/orders/prefs.md"},
    {"command": "teleport", "path": "/memories"},
    {"command": "create", "path": "/memories/a.md"},
]


def test_lists_recall_and_memory(user: str) -> None:
    async def scenario(client: Client) -> None:
        listed = await client.list_tools()
        tools = {tool.name: tool for tool in listed.tools}
        assert sorted(tools) == ["memory", "recall"]
        # A question, or expand (a turn id) instead: one of the two, which the tool checks itself.
        assert set(tools["recall"].input_schema["properties"]) == {"question", "budget_tokens", "expand", "candidates"}
        memory_schema = tools["memory"].input_schema
        assert memory_schema["required"] == ["command"]
        assert memory_schema["properties"]["command"]["enum"] == ["view", "create", "str_replace", "insert", "delete", "rename"]
        assert "not instructions" in tools["memory"].description

    with_server(scenario)


def test_memory_commands_match_the_memory_store(user: str, graph: SessionsGraph) -> None:
    """Every command and error through MCP gives exactly what MemoryStore.execute gives in-process."""
    graph.setup()
    reference = graph.memory_store(f"ref-{user}")
    expected: list[tuple[bool, str]] = []
    for call in MEMORY_SCRIPT:
        try:
            expected.append((False, reference.execute(call)))
        except Exception as exc:  # noqa: BLE001 - the error text is what the tool returns
            expected.append((True, str(exc)))
    assert sum(failed for failed, _ in expected) >= 7  # the script does exercise the errors

    async def scenario(client: Client) -> None:
        for call, (failed, text) in zip(MEMORY_SCRIPT, expected, strict=True):
            result = await client.call_tool("memory", call)
            assert (result.is_error, text_of(result)) == (failed, text), call

    with_server(scenario)


def test_the_user_comes_from_the_config_never_from_tool_input(user: str, graph: SessionsGraph) -> None:
    async def scenario(client: Client) -> None:
        call = {"command": "create", "path": "/memories/who.md", "file_text": "mine", "user_id": "mallory"}
        result = await client.call_tool("memory", call)
        assert not result.is_error, text_of(result)

    with_server(scenario)
    assert [m.path for m in graph.get_memories(user)] == ["/memories/who.md"]
    assert graph.get_memories("mallory") == []


def test_config_problems_are_tool_errors_that_say_how_to_fix_them(user: str) -> None:
    config_file = Path(os.environ[CONFIG_ENV])
    good = config_file.read_text()

    async def scenario(client: Client) -> None:
        config_file.write_text(good.replace(f'user_id = "{user}"', ""))
        for tool, arguments, needed in [
            ("memory", {"command": "view", "path": "/memories"}, "no memory to use"),
            ("recall", {"question": "what database?"}, "no memory to search"),
        ]:
            result = await client.call_tool(tool, arguments)
            assert result.is_error
            assert needed in text_of(result) and "sessions-graph config set identity.user_id <name>" in text_of(result)
        config_file.write_text(good + "\n[recall]\nturns_k = 'wide'\n")
        result = await client.call_tool("memory", {"command": "view", "path": "/memories"})
        assert result.is_error and f"{config_file}: recall.turns_k" in text_of(result)
        config_file.write_text(good)
        for arguments in ({}, {"question": "   "}):
            result = await client.call_tool("recall", arguments)
            assert (result.is_error, text_of(result)) == (True, "recall needs a question (or expand: a turn id a row shows).")
        result = await client.call_tool("memory", {"command": "view", "path": "/memories"})
        assert not result.is_error  # the fixed config applies without a restart

    with_server(scenario)


def test_recall_answers_from_the_users_sessions(user: str, graph: SessionsGraph) -> None:
    graph.setup()
    graph.record_session_start(f"s-{user}", user_id=user, project_key="orders")
    graph.record_turns(f"s-{user}", [
        {"role": "user", "text": "We decided to keep the orders in Postgres, not Mongo.", "timestamp": "2026-11-02T10:00:00Z"},
        {"role": "assistant", "text": "Noted: Postgres for orders.", "timestamp": "2026-11-02T10:00:05Z"},
    ], user_id=user)
    other = f"x-{user}"
    graph.record_session_start(f"s-{other}", user_id=other)
    graph.record_turns(f"s-{other}", [{"role": "user", "text": "Orders belong in Cassandra."}], user_id=other)

    async def scenario(client: Client) -> None:
        result = await client.call_tool("recall", {"question": "Which database did we pick for orders?"})
        assert not result.is_error, text_of(result)
        text = text_of(result)
        assert "Which database did we pick for orders?" in text
        assert f"Today is {date.today().isoformat()}." in text
        assert "Postgres" in text and "Cassandra" not in text
        turns = result.structured_content["turns"]
        assert any("Postgres" in turn["text"] for turn in turns)
        assert all(turn["session_id"] == f"s-{user}" for turn in turns)
        tight = await client.call_tool("recall", {"question": "Which database did we pick for orders?", "budget_tokens": 20})
        assert not tight.is_error and tight.structured_content["budget_tokens"] == 20
        assert len(tight.structured_content["turns"]) < len(turns) and "more rows left out" in text_of(tight)
        refused = await client.call_tool("recall", {"question": "Which database?", "budget_tokens": "lots"})
        assert refused.is_error and "budget_tokens must be a whole number" in text_of(refused)
        asked = await client.call_tool("recall", {"question": "Which database did we pick for orders?", "candidates": True})
        assert not asked.is_error and "Postgres" in text_of(asked)
        refused = await client.call_tool("recall", {"question": "Which database?", "candidates": "yes"})
        assert refused.is_error and "candidates must be true or false" in text_of(refused)

    with_server(scenario)


def test_recall_expand_hands_back_one_whole_turn_of_the_users_own(user: str, graph: SessionsGraph) -> None:
    graph.setup()
    long_text = "Build log line that says nothing. " * 80 + "The release binary comes to 14.2 MB with thin LTO. " + "More log. " * 80
    graph.record_session_start(f"s-{user}", user_id=user)
    graph.record_turns(f"s-{user}", [{"role": "assistant", "text": long_text, "turn_id": f"t-{user}"}], user_id=user)
    other = f"x-{user}"
    graph.record_session_start(f"s-{other}", user_id=other)
    graph.record_turns(f"s-{other}", [{"role": "user", "text": "Someone else's turn.", "turn_id": f"t-{other}"}], user_id=other)

    async def scenario(client: Client) -> None:
        whole = await client.call_tool("recall", {"expand": f"t-{user}"})
        assert not whole.is_error, text_of(whole)
        assert text_of(whole).endswith(long_text) and whole.structured_content["chars"] == len(long_text)
        theirs = await client.call_tool("recall", {"expand": f"t-{other}"})
        missing = await client.call_tool("recall", {"expand": "t-none"})
        assert theirs.is_error and missing.is_error and "Someone" not in text_of(theirs)
        assert text_of(theirs).replace(f"t-{other}", "ID") == text_of(missing).replace("t-none", "ID")
        both = await client.call_tool("recall", {"expand": f"t-{user}", "question": "binary size?"})
        assert both.is_error and "not both" in text_of(both)

    with_server(scenario)


def _raw_session(messages: list[dict | str]) -> list[dict]:
    """Send JSON-RPC lines exactly as written (lone surrogates as JSON escapes, which a client may send; a
    string as it is) and read one reply per line; a server that never answers fails the wait."""
    import json
    import queue
    import subprocess
    import threading

    import mcp_types

    hello = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": mcp_types.LATEST_PROTOCOL_VERSION, "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}}
    lines = [hello, {"jsonrpc": "2.0", "method": "notifications/initialized"}, *messages]
    server = subprocess.Popen([*sessions_graph_command(), "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, env=dict(os.environ))
    replies: queue.Queue[dict] = queue.Queue()
    threading.Thread(target=lambda: [replies.put(json.loads(line)) for line in server.stdout], daemon=True).start()
    try:
        assert server.stdin is not None
        server.stdin.write("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))  # "\ud800" stays an escape
        server.stdin.flush()
        answered = [replies.get(timeout=CALL_TIMEOUT_S) for _ in range(len(messages) + 1)]
    finally:
        server.stdin.close()
        server.wait(timeout=CALL_TIMEOUT_S)
    return [reply for reply in answered if reply.get("id") != 0]


def test_nul_and_lone_surrogates_get_an_answer_that_names_the_field(user: str, graph: SessionsGraph) -> None:
    calls = [
        {"command": "create", "path": "/memories/a.md", "file_text": "x\ud800y"},
        {"command": "create", "path": "/memories/b.md", "file_text": "x\x00y"},
        {"command": "create", "path": "/memories/\udcff.md", "file_text": "x"},
    ]
    requests = [
        {"jsonrpc": "2.0", "id": number, "method": "tools/call", "params": {"name": "memory", "arguments": call}}
        for number, call in enumerate(calls, start=1)
    ]
    requests.append({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
                     "params": {"name": "recall", "arguments": {"question": "what about \ud800 Postgres?"}}})
    replies = {reply["id"]: reply for reply in _raw_session(requests)}
    assert sorted(replies) == [1, 2, 3, 9]
    texts = [replies[number]["result"]["content"][0]["text"] for number in (1, 2, 3)]
    assert [replies[number]["result"]["isError"] for number in (1, 2, 3)] == [True, True, True]
    assert texts[0].startswith("Error: `file_text` contains a lone surrogate (U+D800)")
    assert texts[1].startswith("Error: `file_text` contains a NUL character")
    assert texts[2].startswith("Error: `path` contains a lone surrogate (U+DCFF)")
    assert "result" in replies[9], replies[9]
    assert graph.get_memories(user) == []


def test_unreadable_lines_get_a_json_rpc_error_and_the_next_call_is_answered(user: str) -> None:
    deep: object = "x"
    for _ in range(250):
        deep = {"a": deep}
    call = {"jsonrpc": "2.0", "method": "tools/call"}
    messages: list[dict | str] = [
        {**call, "id": 1, "params": {"name": "memory", "arguments": {"command": "view", "path": "/memories", "x": deep}}},
        '{"jsonrpc": "2.0", "id": 2, "method": "tools/list"',  # cut short: not JSON
        '[{"jsonrpc": "2.0", "id": 3, "method": "tools/list"}]',  # a batch
        {"jsonrpc": "2.0", "id": "a\ud800", "method": "tools/list"},
        {**call, "id": 5, "params": {"name": "recall", "arguments": {"question": "why? " * 4_000_000}}},
        {"jsonrpc": "2.0", "id": 6, "method": "tools/list"},
    ]
    replies = _raw_session(messages)
    assert len(replies) == 6
    by_id = {reply["id"]: reply for reply in replies if reply["id"] is not None}
    assert sorted(by_id) == [1, 5, 6]
    assert "nests deeper than 100 levels" in by_id[1]["error"]["message"]
    unnamed = [reply["error"] for reply in replies if reply["id"] is None]
    assert [error["code"] for error in unnamed] == [-32700, -32600, -32600]
    assert "batches are not supported" in unnamed[1]["message"]
    assert "lone surrogate" in unnamed[2]["message"]
    assert by_id[5]["result"]["isError"] and "over the limit of 10,000" in by_id[5]["result"]["content"][0]["text"]
    assert [tool["name"] for tool in by_id[6]["result"]["tools"]] == ["recall", "memory"]


def test_the_server_reports_the_package_version(user: str) -> None:
    import importlib.metadata

    seen: dict[str, str] = {}

    async def scenario(client: Client) -> None:
        info = client.server_info
        seen.update(name=info.name, version=info.version)

    with_server(scenario)
    assert seen == {"name": "sessions-graph", "version": importlib.metadata.version("sessions-graph")}
    assert seen["version"]  # the server reported an empty string before
