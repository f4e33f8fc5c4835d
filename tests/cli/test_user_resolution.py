"""One user resolver: every user-scoped command takes --user, else identity.user_id; a user, session or
file the store does not have is named and exits 1 instead of printing an empty table."""

from __future__ import annotations

import json

from conftest import EXAMPLES


def test_every_user_scoped_command_falls_back_to_the_configured_user(cli, short_tmp):
    headerless = short_tmp / "notes-1.jsonl"
    headerless.write_text('{"role": "user", "text": "The billing service runs on Kafka."}\n')
    cli("config", "set", "identity.user_id", "dana")
    assert "notes-1: 1 new turns of 1 (user dana)" in cli("session", "import", str(headerless))
    saved = cli("memory", "save", "--path", "/memories/billing.md", "Billing moved to Kafka in May.")
    assert "at /memories/billing.md" in saved
    sessions = json.loads(cli("session", "list", "--json"))
    assert [(row["session_id"], row["user_id"]) for row in sessions] == [("notes-1", "dana")]
    memories = json.loads(cli("memory", "list", "--json"))
    assert [(row["path"], row["user_id"]) for row in memories] == [("/memories/billing.md", "dana")]
    assert json.loads(cli("memory", "search", "--json", "kafka"))[0]["path"] == "/memories/billing.md"
    assert "Billing moved to Kafka" in cli("memory", "view", "/memories/billing.md")
    # --user still wins over the configured user, and another user sees none of dana's rows.
    cli("session", "import", str(EXAMPLES / "garden-1.jsonl"))
    assert [row["session_id"] for row in json.loads(cli("session", "list", "--user", "bob", "--json"))] == ["garden-1"]
    assert json.loads(cli("memory", "search", "--user", "bob", "--json", "kafka")) == []


def test_the_environment_user_counts_as_configured(cli, monkeypatch):
    cli("session", "import", str(EXAMPLES / "garden-1.jsonl"))
    monkeypatch.setenv("SESSIONS_GRAPH_USER", "bob")
    assert "garden-1" in cli("session", "list")


def test_no_user_at_all_says_how_to_set_one(cli):
    for args in (("session", "list"), ("memory", "list"), ("memory", "view"), ("memory", "search", "x"),
                 ("memory", "save", "x"), ("recall", "x")):
        assert "No user: pass --user or set identity.user_id" in cli(*args, code=2), args


def test_a_user_the_store_has_never_seen_is_named_and_exits_1(cli, short_tmp):
    cli("session", "import", str(EXAMPLES / "orders-1.jsonl"))
    for args in (("session", "list"), ("memory", "list"), ("memory", "view"), ("memory", "search", "x"),
                 ("memory", "versions", "/memories/a.md"), ("recall", "orders")):
        out = cli(*args, "--user", "alicee", code=1)
        assert "no user 'alicee'" in out and str(short_tmp) in out, args


def test_a_missing_session_or_file_is_named_and_exits_1(cli, short_tmp):
    cli("session", "import", str(EXAMPLES / "orders-1.jsonl"))
    for args in (("session", "show", "--user", "alice", "orders-9"), ("embed", "--session", "orders-9"),
                 ("reconcile", "--session", "orders-9")):
        assert "no session 'orders-9'" in cli(*args, code=1), args
    missing = short_tmp / "nope.jsonl"
    out = cli("session", "import", str(EXAMPLES / "orders-2.jsonl"), str(missing), code=1)
    assert f"no such file: {missing}" in out and "nothing was imported" in out
    assert [row["session_id"] for row in json.loads(cli("session", "list", "--user", "alice", "--json"))] == ["orders-1"]
