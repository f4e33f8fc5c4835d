"""Memory files for apps on the Claude API: the Anthropic SDK's memory tool, backed by the graph.

    memory = MemoryTool(graph, user_id="alice", session_id="request-42")
    client.beta.messages.tool_runner(model=..., max_tokens=..., tools=[memory], messages=[...]).until_done()

The application names the user and the session; the model only ever sends memory commands.
Needs the `anthropic` extra (`pip install 'sessions-graph[anthropic]'`).
"""

from __future__ import annotations

from anthropic.lib.tools import BetaAbstractMemoryTool, BetaAsyncAbstractMemoryTool, ToolError
from anthropic.types.beta import BetaCacheControlEphemeralParam, BetaMemoryTool20250818Command
from anyio.to_thread import run_sync

from sessions_graph_core.graph import SessionsGraph
from sessions_graph_core.memory.files import MemoryCommandError, MemoryStore
from sessions_graph_core.memory.paths import ROOT

ALL_CLEARED = "All memory cleared"


def _run(store: MemoryStore, tool_input: object) -> str:
    """One command; a refusal becomes a ToolError, which the tool runner returns with is_error."""
    try:
        return store.execute(tool_input)  # type: ignore[arg-type]
    except MemoryCommandError as exc:
        raise ToolError(str(exc)) from None


def _clear(store: MemoryStore) -> str:
    """Delete every top-level entry under /memories; the files' history stays."""
    for top in sorted({file.path.split("/")[2] for file in store.files()}):
        store.delete(f"{ROOT}/{top}")
    return ALL_CLEARED


class _UserBound:
    """What both tools hold: the user's memory files, bound when the application builds the tool."""

    def __init__(
        self,
        graph: SessionsGraph,
        user_id: str,
        *,
        session_id: str | None = None,
        cache_control: BetaCacheControlEphemeralParam | None = None,
    ) -> None:
        super().__init__(cache_control=cache_control)  # type: ignore[call-arg]
        self.store = graph.memory_store(user_id, session_id=session_id)


class MemoryTool(_UserBound, BetaAbstractMemoryTool):
    """The memory tool over one user's memory files, for `client.beta.messages.tool_runner`."""

    def call(self, input: object) -> str:
        # Claude's input goes to the store as sent, so a missing or mistyped argument gets the tool's
        # documented error rather than being coerced by the SDK's command models.
        return _run(self.store, input)

    def _command(self, command: BetaMemoryTool20250818Command) -> str:
        return _run(self.store, command.to_dict())

    view = create = str_replace = insert = delete = rename = _command

    def clear_all_memory(self) -> str:
        return _clear(self.store)


class AsyncMemoryTool(_UserBound, BetaAsyncAbstractMemoryTool):
    """MemoryTool for the async client; each command runs in a worker thread."""

    async def call(self, input: object) -> str:
        return await run_sync(_run, self.store, input)

    async def _command(self, command: BetaMemoryTool20250818Command) -> str:
        return await run_sync(_run, self.store, command.to_dict())

    view = create = str_replace = insert = delete = rename = _command

    async def clear_all_memory(self) -> str:
        return await run_sync(_clear, self.store)
