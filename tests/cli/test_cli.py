"""The `sessions-graph` command line against a real embedded store."""

from __future__ import annotations

import click
from conftest import EXAMPLES

from sessions_graph_core.cli.main import main


def all_commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = [prefix]
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            found += all_commands(command, prefix + (name,))
        else:
            found.append(prefix + (name,))
    return found


def test_every_command_has_help(cli):
    for path in all_commands(main):
        assert "Usage:" in cli(*path, "--help")


def test_store_start_status_stop(cli, short_tmp):
    assert "started" in cli("store", "start")
    assert "already running" in cli("store", "start")
    status = cli("store", "status")
    assert str(short_tmp) in status and "yes" in status
    assert "stopped" in cli("store", "stop")
    assert "not running" in cli("store", "stop")


def test_import_list_show_and_reimport(cli):
    out = cli("session", "import", *sorted(str(p) for p in EXAMPLES.glob("*.jsonl")))
    assert "orders-1: 8 new turns of 8 (user alice)" in out
    assert "0 new turns" in cli("session", "import", str(EXAMPLES / "orders-1.jsonl"))
    listing = cli("session", "list", "--user", "alice")
    assert "orders-1" in listing and "orders-2" in listing and "garden-1" not in listing
    assert "CockroachDB" in cli("session", "show", "--user", "alice", "orders-2")
    assert "no session" in cli("session", "show", "--user", "alice", "nope", code=1)


def test_memory_save_list_search_delete(cli):
    saved = cli("memory", "save", "--user", "alice", "--path", "/memories/projects/orders/db.md", "Orders moved to CockroachDB")
    memory_id = saved.split()[1]
    assert "CockroachDB" in cli("memory", "list", "--user", "alice")
    assert memory_id[:8] in cli("memory", "search", "--user", "alice", "cockroachdb")
    cli("memory", "save", "--user", "bob", "Bob's own note about CockroachDB")
    assert memory_id[:8] not in cli("memory", "search", "--user", "bob", "cockroachdb")
    assert "deleted" in cli("memory", "delete", "--user", "alice", memory_id)
    assert "no memory" in cli("memory", "delete", "--user", "alice", memory_id, code=1)


def test_bad_input_exits_2_with_the_reason(cli, short_tmp):
    assert "would escape /memories" in cli("memory", "save", "--user", "alice", "--path", "/memories/../x", "hi", code=2)
    assert "Invalid user_id" in cli("memory", "list", "--user", "not valid", code=2)
    bad = short_tmp / "bad.jsonl"
    bad.write_text('{"role": "user", "text": "fine"}\n{"role": "user", "txt": "typo"}\n')
    assert "bad.jsonl:2" in cli("session", "import", "--user", "alice", str(bad), code=2)
    assert "txt: Extra inputs are not permitted" in cli("session", "import", "--user", "alice", str(bad), code=2)
    good = short_tmp / "good.jsonl"
    good.write_text('{"role": "user", "text": "fine"}\n')
    assert "no user" in cli("session", "import", str(good), code=2)
    assert "no user 'alice'" in cli("session", "list", "--user", "alice", code=1)
