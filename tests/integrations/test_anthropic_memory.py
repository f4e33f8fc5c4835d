"""The Anthropic SDK adapter, driven by the real SDK tool runner.

Only the network is replaced: an HTTP transport answers as the Messages API would, playing Claude's
side of a short memory-tool conversation. No key, no network.
"""

import asyncio
import json

import pytest

anthropic = pytest.importorskip("anthropic", reason="the anthropic extra is not installed")
try:  # the transport library the installed SDK is built on
    import httpx2 as http
except ImportError:
    import httpx as http

from anthropic.lib.tools import BetaAbstractMemoryTool, BetaAsyncAbstractMemoryTool  # noqa: E402 (after the importorskip above)
from anthropic.types.beta import BetaMemoryTool20250818ViewCommand  # noqa: E402 (after the importorskip above)

from sessions_graph_core.integrations.anthropic_memory import AsyncMemoryTool, MemoryTool  # noqa: E402 (after the importorskip above)

MODEL = "claude-sonnet-5"
PREFS = "/memories/preferences.md"

# Claude's tool calls, in order, and the tool result each must get back (error results flagged).
CONVERSATION = [
    ({"command": "view", "path": "/memories"},
     "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n0B\t/memories", False),
    ({"command": "create", "path": PREFS, "file_text": "- editor: vim\n- tests: pytest\n"},
     f"File created successfully at: {PREFS}", False),
    ({"command": "str_replace", "path": PREFS, "old_str": "vim", "new_str": "helix"},
     "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n"
     "     1\t- editor: helix\n     2\t- tests: pytest\n     3\t", False),
    ({"command": "str_replace", "path": PREFS, "old_str": "emacs", "new_str": "vim"},
     f"No replacement was performed, old_str `emacs` did not appear verbatim in {PREFS}.", True),
    ({"command": "insert", "path": PREFS, "insert_line": 2, "insert_text": "- shell: fish\n"},
     f"The file {PREFS} has been edited.", False),
    ({"command": "insert", "path": PREFS, "insert_line": "3", "insert_text": "- os: linux"},
     "Error: `insert_line` is required and must be an integer", True),
    ({"command": "view", "path": PREFS},
     f"Here's the content of {PREFS} with line numbers:\n"
     "     1\t- editor: helix\n     2\t- tests: pytest\n     3\t- shell: fish\n     4\t", False),
    ({"command": "rename", "old_path": PREFS, "new_path": "/memories/user/preferences.md"},
     f"Successfully renamed {PREFS} to /memories/user/preferences.md", False),
    ({"command": "create", "path": "/memories/scratch.md", "file_text": "temporary"},
     "File created successfully at: /memories/scratch.md", False),
    ({"command": "delete", "path": "/memories/scratch.md"}, "Successfully deleted /memories/scratch.md", False),
    ({"command": "view", "path": "/memories/../secrets"}, "Error: Path /memories/../secrets would escape /memories", True),
]


class ScriptedClaude:
    """The Messages API's side: a tool_use per scripted call, then a final text answer."""

    def __init__(self, calls):
        self.calls = [call for call, _, _ in calls]
        self.requests = []

    def __call__(self, request):
        assert request.url.path == "/v1/messages"
        assert "test-key" in request.headers.get("x-api-key", "") + request.headers.get("authorization", "")
        self.requests.append(json.loads(request.content))
        turn = len(self.requests)
        if turn <= len(self.calls):
            content = [{"type": "tool_use", "id": f"toolu_{turn:02d}", "name": "memory", "input": self.calls[turn - 1]}]
            stop = "tool_use"
        else:
            content = [{"type": "text", "text": "I'll remember that."}]
            stop = "end_turn"
        return http.Response(200, json={
            "id": f"msg_{turn:02d}", "type": "message", "role": "assistant", "model": MODEL, "content": content,
            "stop_reason": stop, "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 5},
        })

    def tool_results(self):
        """The tool_result block each follow-up request carried back to Claude, in order."""
        results = []
        for body in self.requests[1:]:
            [block] = [b for b in body["messages"][-1]["content"] if b.get("type") == "tool_result"]
            results.append(block)
        return results


def check_round_trip(graph, claude, final):
    assert [block.text for block in final.content] == ["I'll remember that."]
    assert claude.requests[0]["tools"] == [{"type": "memory_20250818", "name": "memory"}]
    results = claude.tool_results()
    assert len(results) == len(CONVERSATION)
    for turn, (block, (_, expected, is_error)) in enumerate(zip(results, CONVERSATION, strict=True), start=1):
        assert block["tool_use_id"] == f"toolu_{turn:02d}"
        text = block["content"] if isinstance(block["content"], str) else "".join(part["text"] for part in block["content"])
        assert text == expected
        assert bool(block.get("is_error")) is is_error
    files = graph.memory_store("alice")
    assert files.read("/memories/user/preferences.md") == "- editor: helix\n- tests: pytest\n- shell: fish\n"
    assert [v.content for v in files.versions("/memories/user/preferences.md")] == [
        "- editor: helix\n- tests: pytest\n", "- editor: vim\n- tests: pytest\n",
    ]
    produced = graph.store.run(
        "MATCH (:User {user_id: 'alice'})-[:HAD_SESSION]->(s:Session)-[:PRODUCED_MEMORY]->(m:Memory) "
        "RETURN s.session_id AS sid, m.path AS path"
    )
    assert produced == [{"sid": "request-42", "path": "/memories/user/preferences.md"}]
    assert graph.memory_store("bob").files() == []


def test_tool_runner_round_trip(graph):
    claude = ScriptedClaude(CONVERSATION)
    client = anthropic.Anthropic(
        api_key="test-key", max_retries=0, http_client=http.Client(transport=http.MockTransport(claude))
    )
    memory = MemoryTool(graph, user_id="alice", session_id="request-42")
    assert isinstance(memory, BetaAbstractMemoryTool)
    final = client.beta.messages.tool_runner(
        model=MODEL, max_tokens=1024, tools=[memory],
        messages=[{"role": "user", "content": "I switched from vim to helix; remember my setup."}],
    ).until_done()
    check_round_trip(graph, claude, final)


def test_async_tool_runner_round_trip(graph):
    claude = ScriptedClaude(CONVERSATION)
    memory = AsyncMemoryTool(graph, "alice", session_id="request-42")
    assert isinstance(memory, BetaAsyncAbstractMemoryTool)

    async def converse():
        client = anthropic.AsyncAnthropic(
            api_key="test-key", max_retries=0, http_client=http.AsyncClient(transport=http.MockTransport(claude))
        )
        return await client.beta.messages.tool_runner(
            model=MODEL, max_tokens=1024, tools=[memory],
            messages=[{"role": "user", "content": "I switched from vim to helix; remember my setup."}],
        ).until_done()

    check_round_trip(graph, claude, asyncio.run(converse()))


def test_typed_commands_and_clear_all_memory(graph):
    memory = MemoryTool(graph, "alice", cache_control={"type": "ephemeral"})
    assert memory.to_dict() == {"type": "memory_20250818", "name": "memory", "cache_control": {"type": "ephemeral"}}
    memory.call({"command": "create", "path": "/memories/a.md", "file_text": "a"})
    memory.call({"command": "create", "path": "/memories/dir/b.md", "file_text": "b"})
    graph.memory_store("bob").create("/memories/bob.md", "bob's")
    view = memory.view(BetaMemoryTool20250818ViewCommand(command="view", path="/memories/a.md"))
    assert view == "Here's the content of /memories/a.md with line numbers:\n     1\ta"
    async_view = AsyncMemoryTool(graph, "alice").view(BetaMemoryTool20250818ViewCommand(command="view", path="/memories/a.md"))
    assert asyncio.run(async_view) == view
    with pytest.raises(anthropic.lib.tools.ToolError, match="does not exist"):
        memory.view(BetaMemoryTool20250818ViewCommand(command="view", path="/memories/zzz.md"))
    assert memory.clear_all_memory() == "All memory cleared"
    files = graph.memory_store("alice")
    assert files.files() == [] and [v.deleted for v in files.versions("/memories/dir/b.md")] == [True]
    assert graph.memory_store("bob").read("/memories/bob.md") == "bob's"
    assert asyncio.run(AsyncMemoryTool(graph, "alice").clear_all_memory()) == "All memory cleared"
