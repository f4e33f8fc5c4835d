"""`sessions-graph memory view|create|str-replace|insert|delete|rename|versions` over the real store."""

from conftest import EXAMPLES


def test_file_commands_print_the_tool_results(cli):
    assert "no user 'alice'" in cli("memory", "view", "--user", "alice", code=1)
    cli("session", "import", "--user", "alice", "--session", "s-cli", str(EXAMPLES / "orders-1.jsonl"))
    assert cli("memory", "view", "--user", "alice") == (
        "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n"
        "0B\t/memories\n"
    )
    assert cli("memory", "create", "--user", "alice", "--session", "s-cli", "/memories/projects/orders/notes.md", "uses Postgres\n") == (
        "File created successfully at: /memories/projects/orders/notes.md\n"
    )
    assert cli("memory", "str-replace", "--user", "alice", "/memories/projects/orders/notes.md", "Postgres", "Postgres 16").startswith(
        "The memory file has been edited."
    )
    assert cli("memory", "insert", "--user", "alice", "--session", "s-cli", "/memories/projects/orders/notes.md", "1", "deploys Fridays") == (
        "The file /memories/projects/orders/notes.md has been edited.\n"
    )
    assert cli("memory", "view", "--user", "alice", "/memories/projects/orders/notes.md", "--range", "2", "-1") == (
        "Here's the content of /memories/projects/orders/notes.md with line numbers:\n     2\tdeploys Fridays\n     3\t\n"
    )
    assert cli("memory", "rename", "--user", "alice", "/memories/projects/orders", "/memories/projects/shop") == (
        "Successfully renamed /memories/projects/orders to /memories/projects/shop\n"
    )
    history = cli("memory", "versions", "--user", "alice", "/memories/projects/shop/notes.md")
    assert "s-cli" in history and "uses Postgres 16" in history
    assert cli("memory", "delete", "--user", "alice", "/memories/projects") == "Successfully deleted /memories/projects\n"
    assert "yes" in cli("memory", "versions", "--user", "alice", "/memories/projects/shop/notes.md")


def test_refusals_print_the_tool_error_and_exit_1_when_missing_2_when_bad(cli):
    def refusal(*args: str, code: int = 1) -> set[str]:
        return set(cli("memory", *args, code=code).splitlines())

    assert refusal("create", "--user", "alice", "/memories/../etc/passwd", "x", code=2) == {
        "Error: Path /memories/../etc/passwd would escape /memories"
    }
    cli("memory", "create", "--user", "alice", "/memories/here.md", "x")
    assert refusal("view", "--user", "alice", "/memories/nope.md") == {
        "The path /memories/nope.md does not exist. Please provide a valid path."
    }
    assert refusal("delete", "--user", "alice", "/memories/nope.md") == {"Error: The path /memories/nope.md does not exist"}
    assert "No user: pass --user" in cli("memory", "delete", "/memories/a.md", code=2)
    assert "Invalid user_id" in cli("memory", "view", "--user", "not valid", code=2)


def test_delete_still_takes_a_memory_id(cli):
    saved = cli("memory", "save", "--user", "alice", "--path", "/memories/a.md", "keep this")
    memory_id = saved.split()[1]
    assert "keep this" in cli("memory", "view", "--user", "alice", "/memories/a.md")
    assert cli("memory", "delete", "--user", "alice", memory_id) == f"deleted {memory_id}\n"
    assert "no memory" in cli("memory", "delete", "--user", "alice", memory_id, code=1)


def test_create_reads_standard_input(cli):
    from click.testing import CliRunner

    from sessions_graph_core.cli.main import main

    result = CliRunner().invoke(main, ["memory", "create", "--user", "alice", "/memories/a.md", "-"], input="from stdin\n")
    assert result.exit_code == 0, result.output
    assert cli("memory", "view", "--user", "alice", "/memories/a.md").endswith("     1\tfrom stdin\n     2\t\n")
