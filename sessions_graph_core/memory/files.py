"""Memory files: a user's Memories as the file tree of Claude's memory tool (memory_20250818).

The commands, their inputs, result strings, error strings and limits are those the tool documents,
because agents send Claude's tool calls here as-is and hand our answers back to the model.

Every write is one statement that checks its preconditions, writes, and keeps the text it discards
as a (:MemoryVersion); an edit applies only while the file still holds the text the edit was
computed from, so two sessions editing one file never lose an update. A rejected command changes
nothing: everything is checked before the statement runs, and the statement re-checks what another
writer could have changed in between.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sessions_graph_core import validation
from sessions_graph_core.errors import foreign_session
from sessions_graph_core.memory import paths as memory_paths
from sessions_graph_core.memory.notes import (
    KEEP_DELETED,
    KEEP_PREVIOUS,
    LINK_PROJECT,
    RECORD_PROVENANCE,
    link_project,
    new_memory_id,
    prune_versions,
    write_params,
    written_by,
)
from sessions_graph_core.memory.paths import ROOT
from sessions_graph_core.sessions.records import FOREIGN_SESSION
from sessions_graph_core.store.base import GraphStore
from sessions_graph_core.validation import ValidationError
from sessions_graph_core.values import Value

MAX_FILE_BYTES = validation.MAX_MEMORY_BYTES
VIEW_CHAR_LIMIT = 16_000
MAX_LINES = 999_999
LINE_NUMBER_WIDTH = 6
LISTING_DEPTH = 2
WRITE_COMMANDS = ("create", "str_replace", "insert")


class MemoryCommandError(Exception):
    """A memory command that was refused; its text is the tool result the model reads."""


class MemoryPathNotFoundError(MemoryCommandError):
    """The path names no file or directory of the user (the CLI exits 1 on it, 2 on any other refusal)."""


class MemoryVersion(Value):
    __slots__ = ("path", "content", "replaced_at", "session_id", "deleted")

    path: str
    content: str
    replaced_at: str
    session_id: str | None
    deleted: bool

    def __init__(self, path: str, content: str, replaced_at: str, session_id: str | None = None, deleted: bool = False) -> None:
        self._fill(path, content, replaced_at, session_id, deleted)


class MemoryFile(Value):
    __slots__ = ("path", "content", "updated_at")

    path: str
    content: str
    updated_at: str

    def __init__(self, path: str, content: str, updated_at: str) -> None:
        self._fill(path, content, updated_at)


def format_size(size: int) -> str:
    """Sizes as the tool prints them: 1,024-based B/K/M/G, an integer when exact, else one decimal."""
    value = float(size)
    for unit in ("B", "K", "M", "G"):
        if value < 1024 or unit == "G":
            break
        value /= 1024
    return f"{int(value)}{unit}" if value.is_integer() else f"{value:.1f}{unit}"


def numbered(lines: Sequence[str], first: int) -> list[str]:
    return [f"{number:>{LINE_NUMBER_WIDTH}}\t{line}" for number, line in enumerate(lines, start=first)]


def memory_paths_written(tool_input: object) -> list[str]:
    """The canonical path a memory tool call writes to; [] for reads, deletes and invalid input."""
    if not isinstance(tool_input, Mapping):
        return []
    command = tool_input.get("command")
    key = "path" if command in WRITE_COMMANDS else "new_path" if command == "rename" else None
    if key is None:
        return []
    try:
        return [memory_paths.file_path(tool_input.get(key))]
    except ValidationError:
        return []


def _text(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise MemoryCommandError(f"Error: `{name}` is required and must be a string")
    return value


def _stored_text(name: str, value: object) -> str:
    """Text that goes into a file: a string the store can hold."""
    problem = validation.text_problem(_text(name, value))
    if problem:
        raise MemoryCommandError(f"Error: `{name}` {problem}")
    return value  # type: ignore[return-value]


def _view_range(value: object) -> tuple[int, int] | None:
    if value is None:
        return None
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 2
        or not all(isinstance(item, int) and not isinstance(item, bool) for item in value)
    ):
        raise MemoryCommandError("Error: `view_range` must be two integers, [start_line, end_line]")
    return value[0], value[1]


def _insert_line(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise MemoryCommandError("Error: `insert_line` is required and must be an integer")
    return value


def _canonical(path: str) -> str:
    try:
        return memory_paths.normalize(path)
    except ValidationError as exc:
        raise MemoryCommandError(f"Error: {exc}") from None


def _text_error(path: str, text: str) -> MemoryCommandError | None:
    """A file can be neither empty nor over the size limit."""
    if not text.strip():
        return MemoryCommandError(f"Error: {path} would be empty; delete it instead.")
    size = validation.memory_bytes_over(text)
    if size:
        return MemoryCommandError(
            f"Error: {path} would be {format_size(size)}, over the 100K limit. Split it into smaller files."
        )
    return None


def _occurrences(content: str, old: str) -> list[int]:
    """Where `old` starts in `content`, overlapping occurrences included."""
    found = []
    start = content.find(old)
    while start != -1:
        found.append(start)
        start = content.find(old, start + 1)
    return found


def _listing(directory: str, files: Sequence[tuple[str, int]]) -> str:
    """Two levels below `directory`, every directory sized by all the files under it."""
    sizes: dict[str, int] = {}
    total = 0
    for path, size in files:
        segments = path[len(directory) + 1 :].split("/")
        if any(segment.startswith(".") or segment == "node_modules" for segment in segments):
            continue
        total += size
        for depth in range(1, min(LISTING_DEPTH, len(segments)) + 1):
            entry = directory + "/" + "/".join(segments[:depth]) + ("/" if depth < len(segments) else "")
            sizes[entry] = sizes.get(entry, 0) + size
    lines = [f"{format_size(total)}\t{directory}"]
    lines += [f"{format_size(sizes[entry])}\t{entry}" for entry in sorted(sizes)]
    return (
        f"Here're the files and directories up to {LISTING_DEPTH} levels deep in {directory}, "
        "excluding hidden items and node_modules:\n" + "\n".join(lines)
    )


def _file_view(path: str, content: str, view_range: tuple[int, int] | None) -> str:
    lines = content.split("\n")
    if len(lines) > MAX_LINES:
        raise MemoryCommandError(f"File {path} exceeds maximum line limit of {MAX_LINES:,} lines.")
    first, last = 1, len(lines)
    if view_range is not None:
        start, end = view_range
        if start < 1 or start > len(lines) or (end != -1 and end < start):
            raise MemoryCommandError(
                f"Invalid `view_range`: [{start}, {end}]. Lines run from 1 to {len(lines)}; "
                "the end must be -1 or at least the start."
            )
        first, last = start, len(lines) if end == -1 else min(end, len(lines))
    shown: list[str] = []
    used = 0
    for number, rendered in enumerate(numbered(lines[first - 1 : last], first), start=first):
        if shown and used + len(rendered) + 1 > VIEW_CHAR_LIMIT:
            shown.append(
                f"[Truncated at line {number - 1} of {last}: view the rest with view_range [{number}, -1].]"
            )
            break
        shown.append(rendered)
        used += len(rendered) + 1
    return f"Here's the content of {path} with line numbers:\n" + "\n".join(shown)


_NO_FOREIGN_SESSION = FOREIGN_SESSION + " WITH u, m, count(foreign) AS foreign_sessions WHERE foreign_sessions = 0 "

# With `u`, `m` and `previous` bound after the new text is set: history, project, provenance.
_AFTER_WRITE = f"WITH u, m, previous {KEEP_PREVIOUS} {LINK_PROJECT} {RECORD_PROVENANCE} RETURN m.memory_id AS memory_id"

_CREATE = (
    "OPTIONAL MATCH (blocker:Memory {user_id: $user_id}) "
    "WHERE blocker.path STARTS WITH $below OR blocker.path IN $ancestors "
    "WITH count(blocker) AS blockers "
    + FOREIGN_SESSION
    + " WITH blockers, count(foreign) AS foreign_sessions WHERE blockers = 0 AND foreign_sessions = 0 "
    "MERGE (u:User {user_id: $user_id}) ON CREATE SET u.user_key = $user_key "
    "MERGE (m:Memory {user_id: $user_id, path: $path}) "
    "ON CREATE SET m.memory_id = $memory_id, m.user_key = $user_key, m.created_at = $now "
    "MERGE (u)-[:HAS_MEMORY]->(m) "
    "WITH u, m, m.content AS previous "
    "SET m.content = $content, m.updated_at = $now, m.extraction_status = 'pending' " + _AFTER_WRITE
)

_EDIT = (
    "MATCH (m:Memory {user_id: $user_id, path: $path}) WHERE m.content = $expected "
    "MATCH (u:User {user_id: $user_id})-[:HAS_MEMORY]->(m) "
    + _NO_FOREIGN_SESSION
    + "WITH u, m, m.content AS previous "
    "SET m.content = $content, m.updated_at = $now, m.extraction_status = 'pending', m.write_id = $write_id "
    + _AFTER_WRITE
)

_DELETE = (
    "MATCH (m:Memory {user_id: $user_id}) WHERE m.path = $path OR m.path STARTS WITH $below "
    "MATCH (u:User {user_id: $user_id})-[:HAS_MEMORY]->(m) "
    + KEEP_DELETED
    + " WITH m, m.memory_id AS memory_id DETACH DELETE m RETURN memory_id"
)

# Moves exactly the files that were read ($moves), and only while nothing occupies the destination.
_RENAME = (
    "MATCH (u:User {user_id: $user_id}) "
    "OPTIONAL MATCH (source:Memory {user_id: $user_id}) WHERE source.path = $old OR source.path STARTS WITH $old_below "
    "WITH u, collect(source.path) AS sources "
    "OPTIONAL MATCH (blocker:Memory {user_id: $user_id}) "
    "WHERE blocker.path = $new OR blocker.path STARTS WITH $new_below OR blocker.path IN $ancestors "
    "WITH u, sources, count(blocker) AS blockers "
    + FOREIGN_SESSION
    + " WITH u, sources, blockers, count(foreign) AS foreign_sessions "
    "WHERE blockers = 0 AND foreign_sessions = 0 "
    "AND size(sources) = size($moves) AND all(move IN $moves WHERE move.old IN sources) "
    "UNWIND $moves AS move "
    "MATCH (m:Memory {user_id: $user_id, path: move.old}) MATCH (u)-[:HAS_MEMORY]->(m) "
    "OPTIONAL MATCH (m)-[about:ABOUT]->(:Project) "
    "WITH u, m, move, collect(about) AS abouts "
    "FOREACH (about IN abouts | DELETE about) "
    "SET m.path = move.new, m.updated_at = $now, m.extraction_status = 'pending', m.write_id = $write_id "
    + link_project("move.project_keys")
    + " "
    + RECORD_PROVENANCE
    + " RETURN m.memory_id AS memory_id"
)


class MemoryStore:
    """One user's memory files. The application names the user; a command never does."""

    def __init__(self, store: GraphStore, user_id: str, *, session_id: str | None = None) -> None:
        self.store = store
        self.user_id = validation.user_id(user_id)
        self.session_id = validation.session_id(session_id) if session_id is not None else None
        if self.session_id is not None and self._foreign_session():
            raise foreign_session(self.session_id)

    # -- the tool call -----------------------------------------------------------------------

    def execute(self, arguments: Mapping[str, Any]) -> str:
        """Run one tool call's input as Claude sent it; a refusal raises MemoryCommandError."""
        if not isinstance(arguments, Mapping):
            raise MemoryCommandError("Error: the tool input must be an object with a `command` field")
        command = arguments.get("command")
        get = arguments.get
        if command == "view":
            return self.view(get("path"), get("view_range"))
        if command == "create":
            return self.create(get("path"), get("file_text"))
        if command == "str_replace":
            return self.str_replace(get("path"), get("old_str"), get("new_str"))
        if command == "insert":
            return self.insert(get("path"), get("insert_line"), get("insert_text"))
        if command == "delete":
            return self.delete(get("path"))
        if command == "rename":
            return self.rename(get("old_path"), get("new_path"))
        raise MemoryCommandError(f"Error: unknown command {command}")

    # -- commands ----------------------------------------------------------------------------

    def view(self, path: str, view_range: Sequence[int] | None = None) -> str:
        """A directory's listing two levels deep, or a file's numbered lines."""
        raw = _text("path", path)
        window = _view_range(view_range)
        path = _canonical(raw)
        content = self.read(path)
        if content is not None:
            return _file_view(path, content, window)
        files = self._sizes_under(path)
        if path == ROOT or files:
            return _listing(path, files)
        raise MemoryPathNotFoundError(f"The path {path} does not exist. Please provide a valid path.")

    def create(self, path: str, file_text: str) -> str:
        """Write a file, replacing what it held (which is kept as a version)."""
        raw = _text("path", path)
        text = _stored_text("file_text", file_text)
        path = _canonical(raw)
        if path == ROOT:
            raise MemoryCommandError(f"Error: {ROOT} is a directory")
        error = _text_error(path, text)
        if error:
            self._check_creatable(path)  # a directory at the path or a file above it is named first
            raise error
        # The statement itself refuses a directory at the path or a file above it; the reads that
        # say which run only when it did.
        params = self._params(path) | {
            "content": text,
            "below": path + "/",
            "ancestors": memory_paths.ancestors(path),
            "memory_id": new_memory_id(),
        }
        rows = self.store.run(_CREATE, params)
        if not rows:
            self._check_creatable(path)
            raise self._changed(path)
        prune_versions(self.store, self.user_id, rows[0]["memory_id"])
        return f"File created successfully at: {path}"

    def str_replace(self, path: str, old_str: str, new_str: str | None = None) -> str:
        """Replace the one occurrence of `old_str`; the result shows the lines around the change."""
        raw = _text("path", path)
        old = _stored_text("old_str", old_str)
        new = "" if new_str is None else _stored_text("new_str", new_str)
        path = _canonical(raw)
        content = self._existing(path)
        found = _occurrences(content, old) if old else []
        if not found:
            raise MemoryCommandError(f"No replacement was performed, old_str `{old}` did not appear verbatim in {path}.")
        if len(found) > 1:
            lines = ", ".join(str(content.count("\n", 0, start) + 1) for start in found)
            raise MemoryCommandError(
                f"No replacement was performed. Multiple occurrences of old_str `{old}` in lines: {lines}. "
                "Please ensure it is unique"
            )
        updated = content.replace(old, new, 1)
        self._edit(path, content, updated)
        changed = content.count("\n", 0, found[0])
        lines = updated.split("\n")
        start, end = max(0, changed - 2), min(len(lines), changed + new.count("\n") + 3)
        snippet = "\n".join(numbered(lines[start:end], start + 1))
        return f"The memory file has been edited. Here is the snippet showing the change (with line numbers):\n{snippet}"

    def insert(self, path: str, insert_line: int, insert_text: str) -> str:
        """Insert text after line `insert_line` (0 inserts at the top)."""
        raw = _text("path", path)
        at = _insert_line(insert_line)
        text = _stored_text("insert_text", insert_text)
        path = _canonical(raw)
        content = self._existing(path)
        lines = content.split("\n")
        ends_with_newline = content.endswith("\n")
        if ends_with_newline:
            lines.pop()
        if not 0 <= at <= len(lines):
            raise MemoryCommandError(
                f"Error: Invalid `insert_line` parameter: {at}. "
                f"It should be within the range of lines of the file: [0, {len(lines)}]"
            )
        text = text[:-1] if text.endswith("\n") else text
        updated = "\n".join(lines[:at] + text.split("\n") + lines[at:]) + ("\n" if ends_with_newline else "")
        self._edit(path, content, updated)
        return f"The file {path} has been edited."

    def delete(self, path: str) -> str:
        """Delete a file, or every file under a directory, and what their text produced.

        Their text stays in their history.
        """
        path = _canonical(_text("path", path))
        if path == ROOT:
            raise MemoryCommandError(f"Error: Cannot delete the {ROOT} directory itself")
        params = self._params(path) | {"below": path + "/"}
        rows = self.store.run(_DELETE, params)
        # Empty also when the store died before it replied and the reconnect sent the delete again.
        deleted = [row["memory_id"] for row in rows] or self._written_by(params, label="MemoryVersion")
        if not deleted:
            raise MemoryPathNotFoundError(f"Error: The path {path} does not exist")
        for memory_id in deleted:
            prune_versions(self.store, self.user_id, memory_id)
        from sessions_graph_core.reconcile import forgetting  # only a delete: a memory tool call's hook writes

        forgetting.forget_sources(self.store, self.user_id, deleted)
        return f"Successfully deleted {path}"

    def rename(self, old_path: str, new_path: str) -> str:
        """Move a file or a directory; files keep their identity and their history."""
        old, new = _canonical(_text("old_path", old_path)), _canonical(_text("new_path", new_path))
        self._check_renamable(old, new)
        sources = self._paths_under(old) + ([old] if self.read(old) is not None else [])
        if not sources:
            raise MemoryPathNotFoundError(f"Error: The path {old} does not exist")
        moves = []
        for source in sources:
            destination = new + source[len(old) :]
            key = memory_paths.project_key(destination)
            moves.append({"old": source, "new": destination, "project_keys": [key] if key else []})
        params = self._params(new) | {
            "old": old,
            "old_below": old + "/",
            "new": new,
            "new_below": new + "/",
            "ancestors": memory_paths.ancestors(new),
            "moves": moves,
        }
        if not self.store.run(_RENAME, params) and len(self._written_by(params)) != len(moves):
            self._check_renamable(old, new)
            raise self._changed(old)
        return f"Successfully renamed {old} to {new}"

    # -- reads -------------------------------------------------------------------------------

    def read(self, path: str) -> str | None:
        """A file's text, or None when there is no file at `path`."""
        rows = self.store.run(
            "MATCH (m:Memory {user_id: $user_id, path: $path}) RETURN m.content AS content",
            {"user_id": self.user_id, "path": memory_paths.normalize(path)},
        )
        return rows[0]["content"] if rows else None

    def is_directory(self, path: str) -> bool:
        path = memory_paths.normalize(path)
        return path == ROOT or bool(self._paths_under(path, limit=1))

    def files(self, directory: str = ROOT) -> list[MemoryFile]:
        """Every file under `directory`, at any depth, ordered by path."""
        rows = self.store.run(
            "MATCH (m:Memory {user_id: $user_id}) WHERE m.path STARTS WITH $below "
            "RETURN m.path AS path, m.content AS content, m.updated_at AS updated_at ORDER BY path",
            {"user_id": self.user_id, "below": memory_paths.normalize(directory) + "/"},
        )
        return [MemoryFile(**row) for row in rows]

    def versions(self, path: str) -> list[MemoryVersion]:
        """The texts a file held before, newest first.

        A live file's history follows it across renames; a deleted file's stays under its last path.
        """
        path = memory_paths.normalize(path)
        live = self.store.run(
            "MATCH (m:Memory {user_id: $user_id, path: $path}) RETURN m.memory_id AS memory_id",
            {"user_id": self.user_id, "path": path},
        )
        match = "{user_id: $user_id, memory_id: $memory_id}" if live else "{user_id: $user_id, path: $path}"
        rows = self.store.run(
            f"MATCH (v:MemoryVersion {match}) "
            "RETURN v.path AS path, v.content AS content, v.replaced_at AS replaced_at, "
            "v.session_id AS session_id, v.deleted AS deleted ORDER BY replaced_at DESC",
            {"user_id": self.user_id, "path": path, "memory_id": live[0]["memory_id"] if live else None},
        )
        if not live and not rows:
            raise MemoryPathNotFoundError(f"Error: The path {path} does not exist and never did")
        return [MemoryVersion(**row) for row in rows]

    # -- helpers -----------------------------------------------------------------------------

    def _params(self, path: str) -> dict[str, Any]:
        return write_params(self.user_id, path, self.session_id) | {"path": path}

    def _written_by(self, params: Mapping[str, Any], *, label: str = "Memory") -> list[str]:
        """What this write (its `write_id`) left: it landed though the store died before it replied."""
        return written_by(self.store, self.user_id, params["write_id"], label=label)

    def _paths_under(self, directory: str, *, limit: int | None = None) -> list[str]:
        rows = self.store.run(
            "MATCH (m:Memory {user_id: $user_id}) WHERE m.path STARTS WITH $below RETURN m.path AS path"
            + (" LIMIT $limit" if limit else ""),
            {"user_id": self.user_id, "below": directory + "/", "limit": limit},
        )
        return [row["path"] for row in rows]

    def _sizes_under(self, directory: str) -> list[tuple[str, int]]:
        rows = self.store.run(
            "MATCH (m:Memory {user_id: $user_id}) WHERE m.path STARTS WITH $below "
            "RETURN m.path AS path, m.content AS content",
            {"user_id": self.user_id, "below": directory + "/"},
        )
        return [(row["path"], len(row["content"].encode("utf-8"))) for row in rows]

    def _existing(self, path: str) -> str:
        content = self.read(path)
        if content is None:
            raise MemoryPathNotFoundError(f"Error: The path {path} does not exist. Please provide a valid path.")
        return content

    def _foreign_session(self) -> bool:
        return bool(
            self.store.run(
                "MATCH (s:Session {session_id: $sid}) WHERE s.user_id <> $uid RETURN s.session_id AS sid",
                {"sid": self.session_id, "uid": self.user_id},
            )
        )

    def _changed(self, path: str) -> Exception:
        """Why a guarded write wrote nothing, once the ordinary checks have passed again."""
        if self.session_id is not None and self._foreign_session():
            return foreign_session(self.session_id)
        return MemoryCommandError(f"Error: {path} changed while it was being edited. View it again and retry.")

    def _check_creatable(self, path: str) -> None:
        if self._paths_under(path, limit=1):
            raise MemoryCommandError(f"Error: {path} is a directory")
        self._check_no_file_above(path)

    def _check_no_file_above(self, path: str) -> None:
        above = memory_paths.ancestors(path)
        if not above:
            return
        rows = self.store.run(
            "MATCH (m:Memory {user_id: $user_id}) WHERE m.path IN $above RETURN m.path AS path ORDER BY path LIMIT 1",
            {"user_id": self.user_id, "above": above},
        )
        if rows:
            raise MemoryCommandError(f"Error: {rows[0]['path']} is a file, so {path} can't be created under it")

    def _check_renamable(self, old: str, new: str) -> None:
        if old == ROOT:
            raise MemoryCommandError(f"Error: Cannot rename the {ROOT} directory itself")
        if new == ROOT or self.read(new) is not None or self._paths_under(new, limit=1):
            raise MemoryCommandError(f"Error: The destination {new} already exists")
        if new.startswith(old + "/"):
            raise MemoryCommandError(f"Error: Cannot move {old} into itself")
        self._check_no_file_above(new)

    def _edit(self, path: str, expected: str, updated: str) -> None:
        """Write `updated` only if the file still holds `expected`, the text it was computed from."""
        error = _text_error(path, updated)
        if error:
            raise error
        params = self._params(path) | {"expected": expected, "content": updated}
        memory_ids = [row["memory_id"] for row in self.store.run(_EDIT, params)] or self._written_by(params)
        if not memory_ids:
            raise self._changed(path)
        prune_versions(self.store, self.user_id, memory_ids[0])
