"""Cross-session memory for AI agents: the graph, memory files and recall."""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sessions_graph_core.errors import StoreUnreachableError
    from sessions_graph_core.graph import SessionsGraph
    from sessions_graph_core.memory.files import MemoryCommandError, MemoryStore
    from sessions_graph_core.memory.notes import Memory
    from sessions_graph_core.sessions.records import SessionInfo, Turn, TurnIn
    from sessions_graph_core.store.location import StoreSettings
    from sessions_graph_core.validation import ValidationError

# Imported on first use: a hook process that needs only the store and sessions must not pay for
# recall, embeddings and extraction (numpy, onnxruntime, spaCy) at every harness event.
_EXPORTS = {
    "StoreUnreachableError": "errors", "SessionsGraph": "graph", "Memory": "memory.notes",
    "MemoryCommandError": "memory.files", "MemoryStore": "memory.files", "SessionInfo": "sessions.records",
    "Turn": "sessions.records", "TurnIn": "sessions.records", "StoreSettings": "store.location",
    "ValidationError": "validation",
}


@cache  # the running code's version: looked up once (each lookup scans the installed packages)
def package_version() -> str:
    """The installed sessions-graph's version: the MCP server reports it, and a chunk's reader includes it."""
    import importlib.metadata  # here: it loads dataclasses and inspect, which a hook must not pay for

    return importlib.metadata.version("sessions-graph")


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{_EXPORTS[name]}", __name__), name)


__all__ = ["Memory", "MemoryCommandError", "MemoryStore", "SessionInfo", "SessionsGraph", "StoreUnreachableError", "StoreSettings", "Turn", "TurnIn", "ValidationError"]
