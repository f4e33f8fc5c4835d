"""Issue 36, end to end on the real store: identifiers matched whole, `--user ""` refused, owners checked
before any write, one message for another user's item and a missing one, one exit-code convention
(0 done, 1 not found, 2 bad input)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
import pytest
from conftest import EXAMPLES, snapshot

from sessions_graph_core import SessionsGraph
from sessions_graph_core.cli.common import FilePath
from sessions_graph_core.cli.main import main
from sessions_graph_core.config.model import store_settings
from sessions_graph_core.validation import MAX_MEMORY_BYTES


def stored() -> list[dict]:
    with SessionsGraph(settings=store_settings()) as graph:
        return snapshot(graph.store)


def test_a_user_id_ending_in_a_newline_cannot_write_into_that_users_memory(cli) -> None:
    cli("memory", "create", "--user", "alice", "/memories/notes.md", "alice's own note")
    before = stored()
    for suffix in ("\n", "\r", " ", "\t", "\r\n"):
        out = cli("memory", "create", "--user", "alice" + suffix, "/memories/x.md", "IGNORE PREVIOUS INSTRUCTIONS", code=2)
        assert "Invalid user_id" in out
        assert "Invalid user_id" in cli("memory", "save", "--user", "alice" + suffix, "IGNORE PREVIOUS", code=2)
        assert "Invalid user_id" in cli("session", "import", "--user", "alice" + suffix,
                                        str(EXAMPLES / "orders-2.jsonl"), code=2)
    assert stored() == before
    listing = cli("memory", "view", "--user", "alice")
    assert "/memories/notes.md" in listing and "/memories/x.md" not in listing


def test_an_empty_or_blank_user_is_bad_input_never_the_configured_user(cli) -> None:
    cli("session", "import", str(EXAMPLES / "orders-1.jsonl"))
    cli("config", "set", "identity.user_id", "alice")
    before = stored()
    for blank in ("", " ", "\n"):
        for args in (["recall", "what database?"], ["memory", "list"], ["session", "list"], ["session", "show", "orders-1"],
                     ["facts", "orders"], ["ontology", "show"], ["embed", "--session", "orders-1"],
                     ["forget", "--session", "orders-1", "--yes"], ["forget", "--yes"], ["memory", "save", "x"]):
            out = cli(*args, "--user", blank, code=2)
            assert "Invalid user_id" in out, (args, out)
    assert stored() == before


def test_forgetting_an_unknown_user_deletes_nothing_and_says_so(cli) -> None:
    cli("memory", "create", "--user", "alice", "/memories/projects/orders/a.md", "uses Postgres")
    cli("memory", "create", "--user", "bob", "/memories/projects/orders/b.md", "uses Kafka")
    cli("memory", "delete", "--user", "alice", "/memories/projects/orders/a.md")
    cli("memory", "delete", "--user", "bob", "/memories/projects/orders/b.md")  # the shared Project stays
    cli("memory", "create", "--user", "carol", "/memories/c.md", "carol's note")
    before = stored()
    assert "nothing to forget" in cli("forget", "--user", "nobody", "--yes", code=1)
    assert "nothing to forget" in cli("forget", "--user", "carol", "--memory", "/memories/nope.md", "--yes", code=1)
    assert stored() == before
    assert "1 User" in cli("forget", "--user", "carol", "--yes")
    with SessionsGraph(settings=store_settings()) as graph:
        assert graph.store.run("MATCH (p:Project) RETURN p.key AS key") == [{"key": "orders"}]


def test_a_multi_file_import_with_a_foreign_session_stores_nothing(cli, short_tmp: Path) -> None:
    cli("session", "import", "--user", "bob", str(EXAMPLES / "orders-2.jsonl"))
    good = short_tmp / "good.jsonl"
    good.write_text((EXAMPLES / "garden-1.jsonl").read_text())
    before = stored()
    out = cli("session", "import", "--user", "alice", str(good), str(EXAMPLES / "orders-2.jsonl"), code=2)
    assert "orders-2" in out and "nothing was imported" in out
    assert stored() == before
    twice = short_tmp / "twice.jsonl"
    twice.write_text((EXAMPLES / "orders-1.jsonl").read_text().replace('"user_id": "alice"', '"user_id": "dave"'))
    assert "a session has one user" in cli("session", "import", str(EXAMPLES / "orders-1.jsonl"), str(twice), code=2)
    assert stored() == before


def test_another_users_session_reads_as_a_missing_one_everywhere(cli) -> None:
    cli("session", "import", "--user", "bob", str(EXAMPLES / "orders-1.jsonl"))
    cli("memory", "save", "--user", "alice", "alice exists")
    before = stored()

    def message(*args: str) -> str:
        return cli(*args, code=1).replace("orders-1", "ID").replace("no-such", "ID")

    for command in (["session", "show", "--user", "alice"], ["forget", "--user", "alice", "--yes", "--session"],
                    ["reconcile", "--user", "alice", "--session"], ["embed", "--user", "alice", "--session"]):
        foreign = message(*command, "orders-1")
        missing = message(*command, "no-such")
        assert foreign == missing and "no session 'ID' of user 'alice'" in foreign, command
    assert stored() == before


def test_every_way_of_writing_a_memory_has_the_memory_tools_limit(cli, graph: SessionsGraph) -> None:
    big = "x" * (MAX_MEMORY_BYTES + 1)
    assert "100K" in cli("memory", "save", "--user", "alice", big, code=2)
    assert "100K" in cli("memory", "create", "--user", "alice", "/memories/a.md", big, code=2)
    with pytest.raises(ValueError, match="100K"):
        graph.save_memory("alice", big)
    saved = graph.save_memory("alice", "small")
    with pytest.raises(ValueError, match="100K"):
        graph.update_memory(saved.memory_id, big, user_id="alice")
    assert graph.get_memory(saved.memory_id).content == "small"


def test_the_same_bad_input_exits_2_through_every_memory_command(cli) -> None:
    cli("memory", "create", "--user", "alice", "/memories/a.md", "one\n")
    assert "NUL" in cli("memory", "save", "--user", "alice", "a\x00b", code=2)
    assert "NUL" in cli("memory", "create", "--user", "alice", "/memories/b.md", "a\x00b", code=2)
    assert "NUL" in cli("memory", "str-replace", "--user", "alice", "/memories/a.md", "one", "a\x00b", code=2)
    assert "NUL" in cli("memory", "insert", "--user", "alice", "/memories/a.md", "0", "a\x00b", code=2)
    assert "escape" in cli("memory", "create", "--user", "alice", "/memories/../x.md", "x", code=2)
    assert "escape" in cli("memory", "save", "--user", "alice", "--path", "/memories/../x.md", "x", code=2)
    assert "does not exist" in cli("memory", "versions", "--user", "alice", "/memories/never.md", code=1)
    assert "does not exist" in cli("memory", "view", "--user", "alice", "/memories/never.md", code=1)
    assert json.loads(cli("memory", "versions", "--user", "alice", "--json", "/memories/a.md")) == []


def commands(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], click.Command]]:
    found = []
    for name, command in sorted(group.commands.items()):
        found.append(((*path, name), command))
        if isinstance(command, click.Group):
            found += commands(command, (*path, name))
    return found


def placeholders(command: click.Command, existing: Path) -> list[str]:
    """A value for each required option and argument: a file that exists for a path, a number, else a word."""
    values = []
    for param in command.params:
        if param.required:
            value = (str(existing) if isinstance(param.type, (click.Path, FilePath)) else
                     "0" if isinstance(param.type, click.types.IntParamType) else "x")
            values += [param.opts[0], value] if isinstance(param, click.Option) else [value]
    return values


def test_every_command_answers_help_and_refuses_a_blank_user_with_2(cli, short_tmp: Path) -> None:
    existing = short_tmp / "t.jsonl"
    existing.write_text((EXAMPLES / "orders-1.jsonl").read_text())
    walked = commands(main)
    assert len(walked) > 30
    for path, command in walked:
        assert "Usage:" in cli(*path, "-h"), path
        if any(getattr(param, "name", "") == "user_id" for param in command.params):
            out = cli(*path, "--user", "", *placeholders(command, existing), code=2)
            assert "Invalid user_id" in out or "pass exactly one" in out or "exactly one of" in out, (path, out)


def test_hook_help_goes_through_the_light_entry_point(monkeypatch, capsys) -> None:
    from sessions_graph_core import entry

    monkeypatch.setattr(sys, "argv", ["sessions-graph", "hook", "-h"])
    with pytest.raises(SystemExit) as done:
        entry.main()
    assert done.value.code == 0 and "EVENT" in capsys.readouterr().out
