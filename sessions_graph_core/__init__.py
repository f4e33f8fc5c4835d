"""Cross-session memory for AI agents: the graph, memory files and recall."""

from .embedded_server import StoreError
from .graph import SessionsGraph
from .memories import Memory
from .memory_files import MemoryCommandError, MemoryStore
from .sessions import SessionInfo, Turn, TurnIn
from .settings import StoreSettings
from .validation import ValidationError

__all__ = ["Memory", "MemoryCommandError", "MemoryStore", "SessionInfo", "SessionsGraph", "StoreError", "StoreSettings", "Turn", "TurnIn", "ValidationError"]
