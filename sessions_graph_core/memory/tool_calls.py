"""Which tool calls are the memory tool: the one predicate the hooks, the transcripts and reconcile share.

A harness names the tool `memory` when it is served natively, and `mcp__<server>__memory` when an MCP
server serves it. Servers of ours are named for the product, now `sessions-graph` and formerly
`context-graph` (a plugin prefixes its own name: `mcp__plugin_x_sessions-graph__memory`).
"""

from __future__ import annotations

OUR_SERVER_WORDS = ("sessions", "context")


def is_memory_tool(name: object) -> bool:
    """The memory tool itself, or an MCP server's memory tool whose server is one of ours."""
    if not isinstance(name, str):
        return False
    if name == "memory":
        return True
    parts = name.split("__")
    if len(parts) < 3 or parts[0] != "mcp" or parts[-1] != "memory":
        return False
    server = parts[1].replace("_", "-")
    return any(word in server for word in OUR_SERVER_WORDS)
