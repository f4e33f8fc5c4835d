"""A realistic memory-tool session driven through `execute()`, as an agent harness would drive it.

Every command and every documented error string occurs; each refusal leaves the graph as it was.
Afterwards the history, the provenance and the project links are read back from the graph.
"""

import re
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from conftest import snapshot

from sessions_graph_core.memory.files import MemoryCommandError, MemoryStore
from sessions_graph_core.store.base import GraphStore

LISTING = "Here're the files and directories up to 2 levels deep in {}, excluding hidden items and node_modules:\n"
NOTES = "/memories/projects/orders/notes.md"
LONG_PATH = "/memories/" + "x" * 1015

# Every error the tool documents, as a pattern over its text.
DOCUMENTED_ERRORS = {
    "unknown command": r"Error: unknown command \S+",
    "required string": r"Error: `\w+` is required and must be a string",
    "view_range type": r"Error: `view_range` must be two integers, \[start_line, end_line\]",
    "insert_line type": r"Error: `insert_line` is required and must be an integer",
    "empty path": r"Error: path must be a non-empty string",
    "long path": r"Error: path must be at most 1024 characters",
    "forbidden characters": r"Error: Invalid path '.*': backslashes, control characters and encoded dots are not allowed",
    "outside /memories": r"Error: Path must start with /memories, got: .*",
    "escape": r"Error: Path \S+ would escape /memories",
    "view missing": r"The path \S+ does not exist\. Please provide a valid path\.",
    "line limit": r"File \S+ exceeds maximum line limit of 999,999 lines\.",
    "view_range value": r"Invalid `view_range`: \[-?\d+, -?\d+\]\. Lines run from 1 to \d+; the end must be -1 or at least the start\.",
    "is a directory": r"Error: \S+ is a directory",
    "under a file": r"Error: \S+ is a file, so \S+ can't be created under it",
    "empty file": r"Error: \S+ would be empty; delete it instead\.",
    "too large": r"Error: \S+ would be [\d.]+[BKMG], over the 100K limit\. Split it into smaller files\.",
    "edit missing": r"Error: The path \S+ does not exist\. Please provide a valid path\.",
    "no match": r"No replacement was performed, old_str `.*` did not appear verbatim in \S+\.",
    "several matches": r"No replacement was performed\. Multiple occurrences of old_str `.*` in lines: [\d, ]+\. Please ensure it is unique",
    "insert_line value": r"Error: Invalid `insert_line` parameter: -?\d+\. It should be within the range of lines of the file: \[0, \d+\]",
    "delete root": r"Error: Cannot delete the /memories directory itself",
    "missing": r"Error: The path \S+ does not exist",
    "rename root": r"Error: Cannot rename the /memories directory itself",
    "destination exists": r"Error: The destination \S+ already exists",
    "into itself": r"Error: Cannot move \S+ into itself",
    "stale edit": r"Error: \S+ changed while it was being edited\. View it again and retry\.",
}


class Interleaved:
    """The real store, letting another writer in right after a command has read a file.

    This is how a stale edit happens in production: another session writes between the read an
    edit is computed from and the edit's own write. Everything else goes straight to the store.
    """

    def __init__(self, store: GraphStore) -> None:
        self.inner = store
        self.pending: tuple[str, Callable[[], Any]] | None = None

    def run(self, query: str, params: Mapping[str, Any] | None = None) -> list[dict]:
        rows = self.inner.run(query, params)
        if self.pending and "RETURN m.content AS content" in query and (params or {}).get("path") == self.pending[0]:
            _, write = self.pending
            self.pending = None
            write()
        return rows

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def numbered(*lines: str, first: int = 1) -> str:
    return "\n".join(f"{n:>6}\t{line}" for n, line in enumerate(lines, start=first))


@pytest.fixture
def agent(graph):
    return MemoryStore(Interleaved(graph.store), "alice", session_id="sess-2026-03-02")


def script(graph) -> list[tuple]:
    """(tool input, expected text, refused?[, what another session does meanwhile]) in order."""
    other_session = graph.memory_store("alice", session_id="sess-other")
    create_notes = {"command": "create", "path": NOTES, "file_text": "# Orders\n- uses Postgres\n- deploys Fridays\n"}
    return [
        ({"command": "view", "path": "/memories"}, LISTING.format("/memories") + "\n".join([
            "976.6K\t/memories", "976.6K\t/memories/logs/", "976.6K\t/memories/logs/build.log",
        ]), False),
        ({"command": "view", "path": "/memories/user.md"}, "The path /memories/user.md does not exist. Please provide a valid path.", True),
        ({"command": "create", "path": "/memories/user.md", "file_text": "Name: Alice\nRole: backend engineer\n"}, "File created successfully at: /memories/user.md", False),
        (create_notes, f"File created successfully at: {NOTES}", False),
        ({"command": "create", "path": "/memories/projects/orders/.scratch.md", "file_text": "tmp"}, "File created successfully at: /memories/projects/orders/.scratch.md", False),
        ({"command": "view", "path": "/memories"}, LISTING.format("/memories") + "\n".join([
            "976.6K\t/memories", "976.6K\t/memories/logs/", "976.6K\t/memories/logs/build.log",
            "43B\t/memories/projects/", "43B\t/memories/projects/orders/", "35B\t/memories/user.md",
        ]), False),
        ({"command": "view", "path": NOTES}, f"Here's the content of {NOTES} with line numbers:\n" + numbered("# Orders", "- uses Postgres", "- deploys Fridays", ""), False),
        ({"command": "view", "path": "/memories/logs/build.log"}, "File /memories/logs/build.log exceeds maximum line limit of 999,999 lines.", True),
        ({"command": "view", "path": NOTES, "view_range": [2, 3]}, f"Here's the content of {NOTES} with line numbers:\n" + numbered("- uses Postgres", "- deploys Fridays", first=2), False),
        ({"command": "view", "path": NOTES, "view_range": [9, -1]}, "Invalid `view_range`: [9, -1]. Lines run from 1 to 4; the end must be -1 or at least the start.", True),
        ({"command": "view", "path": NOTES, "view_range": "2:3"}, "Error: `view_range` must be two integers, [start_line, end_line]", True),
        ({"command": "str_replace", "path": NOTES, "old_str": "Postgres", "new_str": "Postgres 16"}, "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n" + numbered("# Orders", "- uses Postgres 16", "- deploys Fridays", ""), False),
        ({"command": "str_replace", "path": NOTES, "old_str": "MySQL", "new_str": "x"}, f"No replacement was performed, old_str `MySQL` did not appear verbatim in {NOTES}.", True),
        ({"command": "str_replace", "path": NOTES, "old_str": "- ", "new_str": "* "}, "No replacement was performed. Multiple occurrences of old_str `- ` in lines: 2, 3. Please ensure it is unique", True),
        ({"command": "str_replace", "path": "/memories/projects/orders/todo.md", "old_str": "a", "new_str": "b"}, "Error: The path /memories/projects/orders/todo.md does not exist. Please provide a valid path.", True),
        ({"command": "str_replace", "path": "/memories/user.md", "old_str": "Name: Alice\nRole: backend engineer\n", "new_str": ""}, "Error: /memories/user.md would be empty; delete it instead.", True),
        # another session rewrites the file between this edit's read and its write
        ({"command": "str_replace", "path": NOTES, "old_str": "Fridays"}, f"Error: {NOTES} changed while it was being edited. View it again and retry.", True, lambda: other_session.str_replace(NOTES, "Fridays", "Thursdays")),
        ({"command": "insert", "path": NOTES, "insert_line": 3, "insert_text": "- on-call: Bob\n"}, f"The file {NOTES} has been edited.", False),
        ({"command": "insert", "path": NOTES, "insert_line": 9, "insert_text": "x"}, "Error: Invalid `insert_line` parameter: 9. It should be within the range of lines of the file: [0, 4]", True),
        ({"command": "insert", "path": NOTES, "insert_line": "end", "insert_text": "x"}, "Error: `insert_line` is required and must be an integer", True),
        ({"command": "insert", "path": NOTES, "insert_line": 0, "insert_text": "x" * 102_400}, f"Error: {NOTES} would be 100.1K, over the 100K limit. Split it into smaller files.", True),
        ({"command": "create", "path": "/memories/user.md", "file_text": "Name: Alice\nRole: staff engineer\n"}, "File created successfully at: /memories/user.md", False),
        ({"command": "create", "path": "/memories/projects", "file_text": "x"}, "Error: /memories/projects is a directory", True),
        ({"command": "create", "path": "/memories/user.md/prefs.md", "file_text": "x"}, "Error: /memories/user.md is a file, so /memories/user.md/prefs.md can't be created under it", True),
        ({"command": "create", "path": "/memories/empty.md", "file_text": "\n\n"}, "Error: /memories/empty.md would be empty; delete it instead.", True),
        ({"command": "create", "path": "/memories/prefs.md"}, "Error: `file_text` is required and must be a string", True),
        ({"command": "create", "path": "", "file_text": "x"}, "Error: path must be a non-empty string", True),
        ({"command": "create", "path": LONG_PATH, "file_text": "x"}, "Error: path must be at most 1024 characters", True),
        ({"command": "create", "path": "/memories/..%2fsecrets", "file_text": "x"}, "Error: Invalid path '/memories/..%2fsecrets': backslashes, control characters and encoded dots are not allowed", True),
        ({"command": "view", "path": "/home/alice/.ssh/id_rsa"}, "Error: Path must start with /memories, got: /home/alice/.ssh/id_rsa", True),
        ({"command": "view", "path": "/memories/../../etc/passwd"}, "Error: Path /memories/../../etc/passwd would escape /memories", True),
        ({"command": "rename", "old_path": "/memories/projects/orders", "new_path": "/memories/projects/shop"}, "Successfully renamed /memories/projects/orders to /memories/projects/shop", False),
        ({"command": "rename", "old_path": "/memories", "new_path": "/memories/all"}, "Error: Cannot rename the /memories directory itself", True),
        ({"command": "rename", "old_path": "/memories/user.md", "new_path": "/memories/projects"}, "Error: The destination /memories/projects already exists", True),
        ({"command": "rename", "old_path": "/memories/projects", "new_path": "/memories/projects/archive"}, "Error: Cannot move /memories/projects into itself", True),
        ({"command": "rename", "old_path": "/memories/logs", "new_path": "/memories/user.md/logs"}, "Error: /memories/user.md is a file, so /memories/user.md/logs can't be created under it", True),
        ({"command": "rename", "old_path": "/memories/projects/orders", "new_path": "/memories/old"}, "Error: The path /memories/projects/orders does not exist", True),
        ({"command": "rename", "old_path": "/memories/user.md"}, "Error: `new_path` is required and must be a string", True),
        ({"command": "delete", "path": "/memories/projects/shop/.scratch.md"}, "Successfully deleted /memories/projects/shop/.scratch.md", False),
        ({"command": "delete", "path": "/memories"}, "Error: Cannot delete the /memories directory itself", True),
        ({"command": "delete", "path": "/memories/logs/missing.log"}, "Error: The path /memories/logs/missing.log does not exist", True),
        ({"command": "delete", "path": "/memories/logs"}, "Successfully deleted /memories/logs", False),
        ({"command": "forget", "path": "/memories/user.md"}, "Error: unknown command forget", True),
        ({"command": "view", "path": "/memories"}, LISTING.format("/memories") + "\n".join([
            "96B\t/memories", "63B\t/memories/projects/", "63B\t/memories/projects/shop/", "33B\t/memories/user.md",
        ]), False),
    ]


def test_scripted_session_covers_every_command_and_error(graph, agent):
    # An application saved a build log before the session, and before every write had the 100K limit
    # (issue 36): far over the tool's line limit.
    log = graph.save_memory("alice", "ok", path="/memories/logs/build.log")
    graph.store.run("MATCH (m:Memory {memory_id: $mid}) SET m.content = $text",
                    {"mid": log.memory_id, "text": "ok" + "\n" * 1_000_000})
    errors_seen: list[str] = []
    commands_run: set[str] = set()
    for tool_input, expected, is_refusal, *meanwhile in script(graph):
        if meanwhile:
            agent.store.pending = (tool_input["path"], meanwhile[0])
        if is_refusal:
            before = snapshot(graph.store)
            with pytest.raises(MemoryCommandError) as caught:
                agent.execute(tool_input)
            assert str(caught.value) == expected, tool_input
            if not meanwhile:
                assert snapshot(graph.store) == before, tool_input
            errors_seen.append(str(caught.value))
        else:
            assert agent.execute(tool_input) == expected, tool_input
            commands_run.add(tool_input["command"])
    assert commands_run == {"view", "create", "str_replace", "insert", "delete", "rename"}
    uncovered = [name for name, pattern in DOCUMENTED_ERRORS.items() if not any(re.fullmatch(pattern, e, re.S) for e in errors_seen)]
    assert uncovered == []

    # The other session's edit survived the stale one, and the file moved with its history.
    shop = "/memories/projects/shop/notes.md"
    assert agent.read(shop) == "# Orders\n- uses Postgres 16\n- deploys Thursdays\n- on-call: Bob\n"
    history = agent.versions(shop)
    assert [v.content for v in history] == [
        "# Orders\n- uses Postgres 16\n- deploys Thursdays\n",
        "# Orders\n- uses Postgres 16\n- deploys Fridays\n",
        "# Orders\n- uses Postgres\n- deploys Fridays\n",
    ]
    assert [v.session_id for v in history] == ["sess-2026-03-02", "sess-other", "sess-2026-03-02"]
    assert {v.path for v in history} == {NOTES}
    assert [v.content for v in agent.versions("/memories/user.md")] == ["Name: Alice\nRole: backend engineer\n"]
    [log] = agent.versions("/memories/logs/build.log")
    assert log.deleted and log.session_id == "sess-2026-03-02"

    produced = graph.store.run(
        "MATCH (:User {user_id: 'alice'})-[:HAD_SESSION]->(s:Session)-[:PRODUCED_MEMORY]->(m:Memory) "
        "RETURN s.session_id AS session, m.path AS path ORDER BY session, path"
    )
    assert produced == [
        {"session": "sess-2026-03-02", "path": shop},
        {"session": "sess-2026-03-02", "path": "/memories/user.md"},
        {"session": "sess-other", "path": shop},
    ]
    projects = graph.store.run("MATCH (m:Memory)-[:ABOUT]->(p:Project) RETURN m.path AS path, p.key AS key")
    assert projects == [{"path": shop, "key": "shop"}]
    pending = graph.store.run("MATCH (m:Memory {user_id: 'alice'}) RETURN DISTINCT m.extraction_status AS status")
    assert pending == [{"status": "pending"}]
