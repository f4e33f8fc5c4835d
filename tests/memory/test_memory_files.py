"""Memory files: the memory_20250818 commands over one user's Memory nodes, in the real embedded store."""

import pytest
from conftest import snapshot

from sessions_graph_core.memory.files import (
    MAX_FILE_BYTES,
    MemoryCommandError,
    format_size,
    memory_paths_written,
)
from sessions_graph_core.validation import ValidationError

LISTING = "Here're the files and directories up to 2 levels deep in {}, excluding hidden items and node_modules:\n"


@pytest.fixture
def alice(graph):
    return graph.memory_store("alice", session_id="s-alice-1")


def refused(store, tool_input) -> str:
    """Run a command that must be refused without changing the graph; return its error text."""
    before = snapshot(store.store)
    with pytest.raises(MemoryCommandError) as caught:
        store.execute(tool_input)
    assert snapshot(store.store) == before
    return str(caught.value)


def memory_row(store, path):
    rows = store.store.run(
        "MATCH (m:Memory {user_id: $uid, path: $path}) RETURN m.memory_id AS id, m.extraction_status AS status, "
        "m.user_key AS user_key, m.created_at AS created, m.updated_at AS updated",
        {"uid": store.user_id, "path": path},
    )
    return rows[0] if rows else None


# -- paths -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path, error",
    [
        ("/memories/../etc/passwd", "Error: Path /memories/../etc/passwd would escape /memories"),
        ("/memories/./a.md", "Error: Path /memories/./a.md would escape /memories"),
        ("/etc/passwd", "Error: Path must start with /memories, got: /etc/passwd"),
        ("memories/a.md", "Error: Path must start with /memories, got: memories/a.md"),
        ("/memoriesX/a.md", "Error: Path must start with /memories, got: /memoriesX/a.md"),
        ("/memories\\a.md", "Error: Invalid path '/memories\\a.md': backslashes, control characters and encoded dots are not allowed"),
        ("/memories/a\x00.md", "Error: Invalid path '/memories/a\\u0000.md': backslashes, control characters and encoded dots are not allowed"),
        ("/memories/%2e%2e/x", "Error: Invalid path '/memories/%2e%2e/x': backslashes, control characters and encoded dots are not allowed"),
        ("/memories/a%2Fb", "Error: Invalid path '/memories/a%2Fb': backslashes, control characters and encoded dots are not allowed"),
        ("/memories/a%5Cb", "Error: Invalid path '/memories/a%5Cb': backslashes, control characters and encoded dots are not allowed"),
        ("", "Error: path must be a non-empty string"),
        ("/memories/" + "a" * 1015, "Error: path must be at most 1024 characters"),
    ],
)
def test_bad_paths_are_refused_and_change_nothing(alice, path, error):
    alice.create("/memories/existing.md", "keep me")
    for tool_input in (
        {"command": "create", "path": path, "file_text": "x"},
        {"command": "view", "path": path},
        {"command": "str_replace", "path": path, "old_str": "keep", "new_str": "x"},
        {"command": "insert", "path": path, "insert_line": 0, "insert_text": "x"},
        {"command": "delete", "path": path},
        {"command": "rename", "old_path": path, "new_path": "/memories/b.md"},
        {"command": "rename", "old_path": "/memories/existing.md", "new_path": path},
    ):
        assert refused(alice, tool_input) == error


def test_repeated_and_trailing_slashes_collapse(alice):
    assert alice.create("//memories///notes//a.md/", "text") == "File created successfully at: /memories/notes/a.md"
    assert alice.read("/memories/notes/a.md") == "text"
    assert alice.view("/memories//notes/").startswith(LISTING.format("/memories/notes"))


# -- views -----------------------------------------------------------------------------------


def test_format_size():
    assert [format_size(n) for n in (0, 512, 1023, 1024, 1536, 2000, 2 * 1024**2, 3 * 1024**3)] == [
        "0B", "512B", "1023B", "1K", "1.5K", "2.0K", "2M", "3G",
    ]


def test_empty_root_listing(alice):
    assert alice.view("/memories") == LISTING.format("/memories") + "0B\t/memories"


def test_listing_two_levels_with_sizes_skipping_hidden_and_node_modules(alice):
    alice.create("/memories/feedback/testing.md", "x" * 1536)
    alice.create("/memories/projects/orders/db/schema.md", "y" * 512)
    alice.create("/memories/projects/orders/notes.md", "z" * 512)
    alice.create("/memories/user.md", "é")  # two bytes in UTF-8
    alice.create("/memories/.secret.md", "hidden")
    alice.create("/memories/projects/.cache/x.md", "hidden")
    alice.create("/memories/projects/node_modules/pkg.md", "hidden")
    assert alice.view("/memories") == LISTING.format("/memories") + "\n".join(
        [
            "2.5K\t/memories",
            "1.5K\t/memories/feedback/",
            "1.5K\t/memories/feedback/testing.md",
            "1K\t/memories/projects/",
            "1K\t/memories/projects/orders/",
            "2B\t/memories/user.md",
        ]
    )
    assert alice.view("/memories/projects") == LISTING.format("/memories/projects") + "\n".join(
        [
            "1K\t/memories/projects",
            "1K\t/memories/projects/orders/",
            "512B\t/memories/projects/orders/db/",
            "512B\t/memories/projects/orders/notes.md",
        ]
    )


def test_missing_path_has_no_error_prefix(alice):
    alice.create("/memories/a/b.md", "x")
    assert refused(alice, {"command": "view", "path": "/memories/a/c"}) == (
        "The path /memories/a/c does not exist. Please provide a valid path."
    )
    assert refused(alice, {"command": "view", "path": "/memories/a/b"}) == (
        "The path /memories/a/b does not exist. Please provide a valid path."
    )


def test_file_view_numbers_lines_and_pages_with_view_range(alice):
    alice.create("/memories/a.md", "one\ntwo\nthree\n")
    assert alice.view("/memories/a.md") == (
        "Here's the content of /memories/a.md with line numbers:\n     1\tone\n     2\ttwo\n     3\tthree\n     4\t"
    )
    assert alice.view("/memories/a.md", [2, 3]) == (
        "Here's the content of /memories/a.md with line numbers:\n     2\ttwo\n     3\tthree"
    )
    assert alice.execute({"command": "view", "path": "/memories/a.md", "view_range": [3, -1]}) == (
        "Here's the content of /memories/a.md with line numbers:\n     3\tthree\n     4\t"
    )
    # an end past the last line is clamped
    assert alice.view("/memories/a.md", [4, 100]).endswith("     4\t")


@pytest.mark.parametrize("view_range", [[0, 2], [5, 5], [3, 2], [2, -2]])
def test_invalid_view_range(alice, view_range):
    alice.create("/memories/a.md", "one\ntwo\nthree\n")
    assert refused(alice, {"command": "view", "path": "/memories/a.md", "view_range": view_range}) == (
        f"Invalid `view_range`: [{view_range[0]}, {view_range[1]}]. "
        "Lines run from 1 to 4; the end must be -1 or at least the start."
    )


def test_long_file_view_stops_near_16000_characters_and_says_how_to_page_on(alice):
    lines = [f"line {n:04d} " + "x" * 90 for n in range(1, 901)]
    alice.create("/memories/long.md", "\n".join(lines))
    view = alice.view("/memories/long.md")
    body = view.split("\n")[1:]
    hint = body[-1]
    shown = body[:-1]
    assert sum(len(line) + 1 for line in shown) <= 16_000
    last = len(shown)
    assert hint == f"[Truncated at line {last} of 900: view the rest with view_range [{last + 1}, -1].]"
    rest = alice.view("/memories/long.md", [last + 1, -1])
    assert rest.split("\n")[1] == f"{last + 1:>6}\t{lines[last]}"


def test_a_file_over_the_line_limit_is_not_shown(graph, alice):
    # Only a file stored before every write had the 100K limit (issue 36) can be this long.
    saved = graph.save_memory("alice", "x", path="/memories/huge.md")
    graph.store.run("MATCH (m:Memory {memory_id: $mid}) SET m.content = $text",
                    {"mid": saved.memory_id, "text": "x" + "\n" * 1_000_000})
    assert refused(alice, {"command": "view", "path": "/memories/huge.md"}) == (
        "File /memories/huge.md exceeds maximum line limit of 999,999 lines."
    )


# -- create ----------------------------------------------------------------------------------


def test_create_overwrites_and_keeps_the_old_text(alice):
    assert alice.create("/memories/a.md", "first") == "File created successfully at: /memories/a.md"
    first = memory_row(alice, "/memories/a.md")
    assert first["status"] == "pending" and first["user_key"]
    assert alice.create("/memories/a.md", "second") == "File created successfully at: /memories/a.md"
    second = memory_row(alice, "/memories/a.md")
    assert second["id"] == first["id"] and second["created"] == first["created"]
    assert second["updated"] > first["updated"]
    assert alice.read("/memories/a.md") == "second"
    [version] = alice.versions("/memories/a.md")
    assert (version.content, version.path, version.deleted, version.session_id) == ("first", "/memories/a.md", False, "s-alice-1")
    # rewriting the same text keeps no version
    alice.create("/memories/a.md", "second")
    assert len(alice.versions("/memories/a.md")) == 1


def test_create_refuses_directories_and_files_under_files(alice):
    alice.create("/memories/notes/a.md", "x")
    assert refused(alice, {"command": "create", "path": "/memories", "file_text": "x"}) == "Error: /memories is a directory"
    assert refused(alice, {"command": "create", "path": "/memories/notes", "file_text": "x"}) == (
        "Error: /memories/notes is a directory"
    )
    assert refused(alice, {"command": "create", "path": "/memories/notes/a.md/b/c.md", "file_text": "x"}) == (
        "Error: /memories/notes/a.md is a file, so /memories/notes/a.md/b/c.md can't be created under it"
    )


def test_file_size_limits(alice):
    assert refused(alice, {"command": "create", "path": "/memories/a.md", "file_text": " \n\t "}) == (
        "Error: /memories/a.md would be empty; delete it instead."
    )
    assert refused(alice, {"command": "create", "path": "/memories/a.md", "file_text": "x" * (MAX_FILE_BYTES + 1)}) == (
        "Error: /memories/a.md would be 100.0K, over the 100K limit. Split it into smaller files."
    )
    # the limit counts UTF-8 bytes, not characters
    assert refused(alice, {"command": "create", "path": "/memories/a.md", "file_text": "€" * 40_000}) == (
        "Error: /memories/a.md would be 117.2K, over the 100K limit. Split it into smaller files."
    )
    alice.create("/memories/a.md", "x" * MAX_FILE_BYTES)
    assert len(alice.read("/memories/a.md")) == MAX_FILE_BYTES


# -- str_replace -----------------------------------------------------------------------------


def test_str_replace_shows_the_lines_around_the_change(alice):
    alice.create("/memories/a.md", "\n".join(f"line {n}" for n in range(1, 11)))
    result = alice.str_replace("/memories/a.md", "line 5", "line five\nline 5b")
    assert result == (
        "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n"
        "     3\tline 3\n     4\tline 4\n     5\tline five\n     6\tline 5b\n     7\tline 6\n     8\tline 7"
    )
    assert alice.str_replace("/memories/a.md", "line 1\n", None).endswith("     1\tline 2\n     2\tline 3\n     3\tline 4")
    assert alice.read("/memories/a.md").startswith("line 2\nline 3")
    assert memory_row(alice, "/memories/a.md")["status"] == "pending"
    assert [v.content.split("\n")[0] for v in alice.versions("/memories/a.md")] == ["line 1", "line 1"]


def test_str_replace_refusals(alice):
    alice.create("/memories/a.md", "aaa\nb aa\n")
    assert refused(alice, {"command": "str_replace", "path": "/memories/a.md", "old_str": "zzz", "new_str": "y"}) == (
        "No replacement was performed, old_str `zzz` did not appear verbatim in /memories/a.md."
    )
    assert refused(alice, {"command": "str_replace", "path": "/memories/a.md", "old_str": "", "new_str": "y"}) == (
        "No replacement was performed, old_str `` did not appear verbatim in /memories/a.md."
    )
    # overlapping occurrences count, each by the line it starts on
    assert refused(alice, {"command": "str_replace", "path": "/memories/a.md", "old_str": "aa", "new_str": "y"}) == (
        "No replacement was performed. Multiple occurrences of old_str `aa` in lines: 1, 1, 2. Please ensure it is unique"
    )
    assert refused(alice, {"command": "str_replace", "path": "/memories/b.md", "old_str": "a", "new_str": "y"}) == (
        "Error: The path /memories/b.md does not exist. Please provide a valid path."
    )
    assert refused(alice, {"command": "str_replace", "path": "/memories/a.md", "old_str": "aaa\nb aa\n"}) == (
        "Error: /memories/a.md would be empty; delete it instead."
    )
    assert refused(
        alice, {"command": "str_replace", "path": "/memories/a.md", "old_str": "b", "new_str": "x" * MAX_FILE_BYTES}
    ) == "Error: /memories/a.md would be 100.0K, over the 100K limit. Split it into smaller files."


# -- insert ----------------------------------------------------------------------------------


def test_insert_keeps_the_trailing_newline(alice):
    alice.create("/memories/a.md", "one\ntwo\n")
    assert alice.insert("/memories/a.md", 0, "zero\n") == "The file /memories/a.md has been edited."
    assert alice.read("/memories/a.md") == "zero\none\ntwo\n"
    alice.insert("/memories/a.md", 3, "three\nfour")
    assert alice.read("/memories/a.md") == "zero\none\ntwo\nthree\nfour\n"
    alice.create("/memories/b.md", "one")
    alice.insert("/memories/b.md", 1, "two\n")
    assert alice.read("/memories/b.md") == "one\ntwo"
    assert [v.content for v in alice.versions("/memories/a.md")] == ["zero\none\ntwo\n", "one\ntwo\n"]


def test_insert_refusals(alice):
    alice.create("/memories/a.md", "one\ntwo\n")
    assert refused(alice, {"command": "insert", "path": "/memories/a.md", "insert_line": 3, "insert_text": "x"}) == (
        "Error: Invalid `insert_line` parameter: 3. It should be within the range of lines of the file: [0, 2]"
    )
    assert refused(alice, {"command": "insert", "path": "/memories/a.md", "insert_line": -1, "insert_text": "x"}) == (
        "Error: Invalid `insert_line` parameter: -1. It should be within the range of lines of the file: [0, 2]"
    )
    assert refused(alice, {"command": "insert", "path": "/memories/b.md", "insert_line": 0, "insert_text": "x"}) == (
        "Error: The path /memories/b.md does not exist. Please provide a valid path."
    )
    assert refused(
        alice, {"command": "insert", "path": "/memories/a.md", "insert_line": 0, "insert_text": "x" * MAX_FILE_BYTES}
    ) == "Error: /memories/a.md would be 100.0K, over the 100K limit. Split it into smaller files."


# -- delete ----------------------------------------------------------------------------------


def test_delete_a_file_and_a_directory_keeps_their_text_as_deleted_versions(alice):
    alice.create("/memories/a.md", "a")
    alice.create("/memories/dir/b.md", "b")
    alice.create("/memories/dir/sub/c.md", "c")
    alice.create("/memories/dirt.md", "not under dir/")
    assert alice.delete("/memories/a.md") == "Successfully deleted /memories/a.md"
    assert alice.delete("/memories/dir") == "Successfully deleted /memories/dir"
    assert [f.path for f in alice.files()] == ["/memories/dirt.md"]
    [deleted] = alice.versions("/memories/dir/sub/c.md")
    assert (deleted.content, deleted.deleted, deleted.session_id) == ("c", True, "s-alice-1")
    assert refused(alice, {"command": "delete", "path": "/memories/dir"}) == "Error: The path /memories/dir does not exist"
    assert refused(alice, {"command": "delete", "path": "/memories"}) == "Error: Cannot delete the /memories directory itself"


def test_history_keeps_the_newest_twenty(alice):
    for n in range(25):
        alice.create("/memories/a.md", f"text {n}")
    versions = alice.versions("/memories/a.md")
    assert [v.content for v in versions] == [f"text {n}" for n in range(23, 3, -1)]
    alice.delete("/memories/a.md")
    after = alice.versions("/memories/a.md")
    assert len(after) == 20 and after[0].deleted and after[0].content == "text 24"


# -- rename ----------------------------------------------------------------------------------


def test_rename_keeps_identity_and_history_and_relinks_projects(graph, alice):
    alice.create("/memories/projects/orders/notes.md", "v1")
    alice.create("/memories/projects/orders/notes.md", "v2")
    alice.create("/memories/projects/orders/db/schema.md", "tables")
    before = memory_row(alice, "/memories/projects/orders/notes.md")
    graph.store.run("MATCH (m:Memory) SET m.extraction_status = 'completed'")
    later = graph.memory_store("alice", session_id="s-alice-2")
    assert later.rename("/memories/projects/orders", "/memories/projects/shop") == (
        "Successfully renamed /memories/projects/orders to /memories/projects/shop"
    )
    moved = memory_row(alice, "/memories/projects/shop/notes.md")
    assert moved["id"] == before["id"] and moved["status"] == "pending"
    assert [v.content for v in alice.versions("/memories/projects/shop/notes.md")] == ["v1"]
    links = graph.store.run("MATCH (m:Memory)-[:ABOUT]->(p:Project) RETURN m.path AS path, p.key AS key ORDER BY path")
    assert links == [
        {"path": "/memories/projects/shop/db/schema.md", "key": "shop"},
        {"path": "/memories/projects/shop/notes.md", "key": "shop"},
    ]
    later.rename("/memories/projects/shop/notes.md", "/memories/notes.md")
    links = graph.store.run("MATCH (m:Memory {path: '/memories/notes.md'})-[:ABOUT]->(p) RETURN p.key AS key")
    assert links == []
    sessions = graph.store.run(
        "MATCH (:User {user_id: 'alice'})-[:HAD_SESSION]->(s:Session)-[:PRODUCED_MEMORY]->(m:Memory {path: '/memories/notes.md'}) "
        "RETURN s.session_id AS sid ORDER BY sid"
    )
    assert sessions == [{"sid": "s-alice-1"}, {"sid": "s-alice-2"}]
    # the old path no longer answers for the live file's history ...
    assert alice.versions("/memories/projects/orders/notes.md")[0].content == "v1"
    # ... and a deleted file's history stays under its last path
    alice.delete("/memories/notes.md")
    assert [v.content for v in alice.versions("/memories/notes.md")] == ["v2"]


def test_rename_refusals(alice):
    alice.create("/memories/a.md", "a")
    alice.create("/memories/dir/b.md", "b")
    cases = [
        ({"old_path": "/memories", "new_path": "/memories/x"}, "Error: Cannot rename the /memories directory itself"),
        ({"old_path": "/memories/a.md", "new_path": "/memories"}, "Error: The destination /memories already exists"),
        ({"old_path": "/memories/a.md", "new_path": "/memories/dir"}, "Error: The destination /memories/dir already exists"),
        ({"old_path": "/memories/dir", "new_path": "/memories/a.md"}, "Error: The destination /memories/a.md already exists"),
        ({"old_path": "/memories/dir", "new_path": "/memories/dir/inner"}, "Error: Cannot move /memories/dir into itself"),
        ({"old_path": "/memories/dir", "new_path": "/memories/a.md/dir"}, "Error: /memories/a.md is a file, so /memories/a.md/dir can't be created under it"),
        ({"old_path": "/memories/nope", "new_path": "/memories/x"}, "Error: The path /memories/nope does not exist"),
    ]
    for arguments, error in cases:
        assert refused(alice, {"command": "rename", **arguments}) == error


# -- the user, the session and the graph ------------------------------------------------------


def test_provenance_and_project_links(graph, alice):
    alice.create("/memories/projects/orders/notes.md", "orders use Postgres")
    alice.str_replace("/memories/projects/orders/notes.md", "Postgres", "Postgres 16")
    alice.insert("/memories/projects/orders/notes.md", 1, "and Redis")
    rows = graph.store.run(
        "MATCH (u:User {user_id: 'alice'})-[:HAD_SESSION]->(s:Session)-[r:PRODUCED_MEMORY]->(m:Memory)-[:ABOUT]->(p:Project) "
        "MATCH (u)-[:HAS_MEMORY]->(m) RETURN s.session_id AS sid, count(r) AS edges, p.key AS key, m.extraction_status AS status"
    )
    assert rows == [{"sid": "s-alice-1", "edges": 1, "key": "orders", "status": "pending"}]
    graph.memory_store("alice").create("/memories/plain.md", "no session")
    assert graph.store.run("MATCH (:Session)-[:PRODUCED_MEMORY]->(m:Memory {path: '/memories/plain.md'}) RETURN m") == []


def test_every_write_marks_the_file_pending(graph, alice):
    alice.create("/memories/a.md", "one\n")
    for command in (
        {"command": "create", "path": "/memories/a.md", "file_text": "two\n"},
        {"command": "str_replace", "path": "/memories/a.md", "old_str": "two", "new_str": "three"},
        {"command": "insert", "path": "/memories/a.md", "insert_line": 1, "insert_text": "four"},
    ):
        graph.store.run("MATCH (m:Memory) SET m.extraction_status = 'completed'")
        alice.execute(command)
        assert memory_row(alice, "/memories/a.md")["status"] == "pending"


def test_users_never_see_each_other(graph, alice):
    alice.create("/memories/a.md", "alice's secret")
    bob = graph.memory_store("bob")
    assert bob.view("/memories") == LISTING.format("/memories") + "0B\t/memories"
    assert bob.read("/memories/a.md") is None
    with pytest.raises(MemoryCommandError, match="does not exist"):  # as for a path nobody holds
        bob.versions("/memories/a.md")
    with pytest.raises(MemoryCommandError, match="does not exist"):
        bob.str_replace("/memories/a.md", "secret", "mine")
    with pytest.raises(MemoryCommandError, match="does not exist"):
        bob.delete("/memories/a.md")
    bob.create("/memories/a.md", "bob's own")
    assert alice.read("/memories/a.md") == "alice's secret" and bob.read("/memories/a.md") == "bob's own"


def test_a_session_of_another_user_is_refused(graph, alice):
    alice.create("/memories/a.md", "x")
    before = snapshot(graph.store)
    with pytest.raises(ValidationError, match="belongs to another user"):
        graph.memory_store("bob", session_id="s-alice-1")
    with pytest.raises(ValidationError, match="user_id"):
        graph.memory_store("bad user")
    with pytest.raises(ValidationError, match="control"):
        graph.memory_store("bob", session_id="s\x00")
    assert snapshot(graph.store) == before


def test_reads(alice):
    alice.create("/memories/b/two.md", "2")
    alice.create("/memories/a.md", "1")
    assert [(f.path, f.content) for f in alice.files()] == [("/memories/a.md", "1"), ("/memories/b/two.md", "2")]
    assert [f.path for f in alice.files("/memories/b")] == ["/memories/b/two.md"]
    assert alice.read("/memories/a.md") == "1" and alice.read("/memories/zzz.md") is None
    assert alice.is_directory("/memories") and alice.is_directory("/memories/b/")
    assert not alice.is_directory("/memories/a.md") and not alice.is_directory("/memories/c")
    with pytest.raises(ValidationError, match="escape"):
        alice.versions("/memories/../x")


# -- tool input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "tool_input, error",
    [
        ({"command": "list", "path": "/memories"}, "Error: unknown command list"),
        ({"path": "/memories"}, "Error: unknown command None"),
        ({"command": "view"}, "Error: `path` is required and must be a string"),
        ({"command": "view", "path": 3}, "Error: `path` is required and must be a string"),
        ({"command": "create", "path": "/memories/a.md"}, "Error: `file_text` is required and must be a string"),
        ({"command": "create", "path": "/memories/a.md", "file_text": ["x"]}, "Error: `file_text` is required and must be a string"),
        ({"command": "str_replace", "path": "/memories/a.md"}, "Error: `old_str` is required and must be a string"),
        ({"command": "str_replace", "path": "/memories/a.md", "old_str": "a", "new_str": 5}, "Error: `new_str` is required and must be a string"),
        ({"command": "insert", "path": "/memories/a.md", "insert_text": "x"}, "Error: `insert_line` is required and must be an integer"),
        ({"command": "insert", "path": "/memories/a.md", "insert_line": "1", "insert_text": "x"}, "Error: `insert_line` is required and must be an integer"),
        ({"command": "insert", "path": "/memories/a.md", "insert_line": True, "insert_text": "x"}, "Error: `insert_line` is required and must be an integer"),
        ({"command": "insert", "path": "/memories/a.md", "insert_line": 0}, "Error: `insert_text` is required and must be a string"),
        ({"command": "delete"}, "Error: `path` is required and must be a string"),
        ({"command": "rename", "new_path": "/memories/b.md"}, "Error: `old_path` is required and must be a string"),
        ({"command": "rename", "old_path": "/memories/a.md"}, "Error: `new_path` is required and must be a string"),
        ({"command": "view", "path": "/memories/a.md", "view_range": [1]}, "Error: `view_range` must be two integers, [start_line, end_line]"),
        ({"command": "view", "path": "/memories/a.md", "view_range": ["1", "2"]}, "Error: `view_range` must be two integers, [start_line, end_line]"),
        ({"command": "view", "path": "/memories/a.md", "view_range": [True, 2]}, "Error: `view_range` must be two integers, [start_line, end_line]"),
        ({"command": "view", "path": "/memories/a.md", "view_range": "1-2"}, "Error: `view_range` must be two integers, [start_line, end_line]"),
    ],
)
def test_malformed_tool_input(alice, tool_input, error):
    alice.create("/memories/a.md", "a")
    assert refused(alice, tool_input) == error


def test_tool_input_must_be_an_object(alice):
    with pytest.raises(MemoryCommandError, match="must be an object"):
        alice.execute(["view", "/memories"])



def test_memory_paths_written():
    assert memory_paths_written({"command": "create", "path": "/memories//a.md", "file_text": "x"}) == ["/memories/a.md"]
    assert memory_paths_written({"command": "str_replace", "path": "/memories/a.md"}) == ["/memories/a.md"]
    assert memory_paths_written({"command": "insert", "path": "/memories/b/"}) == ["/memories/b"]
    assert memory_paths_written({"command": "rename", "old_path": "/memories/a", "new_path": "/memories/b"}) == ["/memories/b"]
    assert memory_paths_written({"command": "view", "path": "/memories/a.md"}) == []
    assert memory_paths_written({"command": "delete", "path": "/memories/a.md"}) == []
    assert memory_paths_written({"command": "create", "path": "/etc/passwd"}) == []
    assert memory_paths_written({"command": "create", "path": "/memories"}) == []
    assert memory_paths_written({"command": "create"}) == []
    assert memory_paths_written("create") == []


def test_delete_forgets_what_the_file_produced(graph, alice):
    from sessions_graph_core.reconcile import pipeline as reconcile

    alice.create("/memories/projects/orders/notes.md", "Alice works at Acme Corp in Berlin. The orders service uses Postgres.")
    alice.create("/memories/user.md", "Alice lives in Berlin.")
    for memory_id in reconcile.pending_memories(graph.store):
        assert reconcile.reconcile_memory(graph.store, memory_id).status == "completed"

    def derived():
        return graph.store.run(
            "MATCH (n {user_id: 'alice'}) WHERE n:Fact OR n:Chunk OR n:Entity RETURN labels(n)[0] AS label, count(*) AS n ORDER BY label"
        )

    acme_chunks = "MATCH (c:Chunk {user_id: 'alice'}) WHERE c.text CONTAINS 'Acme' RETURN c.hash AS hash"
    before = derived()
    assert {row["label"] for row in before} == {"Chunk", "Entity", "Fact"}
    assert graph.store.run(acme_chunks)
    alice.delete("/memories/projects")
    after = derived()
    assert after and after != before
    assert graph.store.run(acme_chunks) == []
    alice.delete("/memories/user.md")
    assert derived() == []


def test_a_session_taken_by_another_user_after_the_store_opened_is_refused(graph):
    alice = graph.memory_store("alice", session_id="s-shared")
    alice_plain = graph.memory_store("alice")
    alice_plain.create("/memories/a.md", "one\n")
    graph.record_session_start("s-shared", user_id="bob")
    before = snapshot(graph.store)
    for write in (
        lambda: alice.create("/memories/b.md", "x"),
        lambda: alice.str_replace("/memories/a.md", "one", "two"),
        lambda: alice.insert("/memories/a.md", 0, "zero"),
        lambda: alice.rename("/memories/a.md", "/memories/c.md"),
    ):
        with pytest.raises(ValidationError, match="belongs to another user"):
            write()
        assert snapshot(graph.store) == before


def test_files_are_memories_that_search_and_listing_find(graph, alice):
    alice.create("/memories/projects/orders/db.md", "The orders service moved to CockroachDB")
    graph.memory_store("bob").create("/memories/db.md", "bob also uses CockroachDB")
    [found] = graph.search_memories("alice", "cockroachdb")
    assert (found.path, found.user_id) == ("/memories/projects/orders/db.md", "alice")
    [listed] = graph.get_memories("alice")
    assert listed.session_id == "s-alice-1" and listed.created_at == listed.updated_at
