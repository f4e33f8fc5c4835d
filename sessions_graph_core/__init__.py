"""Cross-session memory for AI agents: the graph, memory files and recall."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .embedded_server import StoreError
    from .graph import SessionsGraph
    from .memories import Memory
    from .memory_files import MemoryCommandError, MemoryStore
    from .sessions import SessionInfo, Turn, TurnIn
    from .settings import StoreSettings
    from .validation import ValidationError

# Imported on first use: a hook process that needs only the store and sessions must not pay for
# recall, embeddings and extraction (numpy, onnxruntime, spaCy) at every harness event.
_EXPORTS = {
    "StoreError": "embedded_server", "SessionsGraph": "graph", "Memory": "memories",
    "MemoryCommandError": "memory_files", "MemoryStore": "memory_files", "SessionInfo": "sessions",
    "Turn": "sessions", "TurnIn": "sessions", "StoreSettings": "settings", "ValidationError": "validation",
}


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{_EXPORTS[name]}", __name__), name)


__all__ = ["Memory", "MemoryCommandError", "MemoryStore", "SessionInfo", "SessionsGraph", "StoreError", "StoreSettings", "Turn", "TurnIn", "ValidationError"]
