"""`sessions-graph embed` and `sessions-graph recall` against a real embedded store."""

from __future__ import annotations

import json

from conftest import EXAMPLES


def test_embed_pending_then_recall_renders_and_prints_json(cli):
    cli("session", "import", *sorted(str(p) for p in EXAMPLES.glob("*.jsonl")))
    out = cli("embed", "--pending", "--limit", "10")
    assert "orders-1:" in out and "vectors (paraphrase-MiniLM-L3-v2)" in out
    assert "nothing to embed" in cli("embed", "--pending")
    assert "0 turns" in cli("embed", "--session", "orders-1")
    rendered = cli("recall", "--user", "alice", "--today", "2026-10-05", "Which database do the orders use?")
    assert rendered.startswith("Memory recall for: Which database do the orders use?\nToday is 2026-10-05.")
    assert "TURN [session orders-2, " in rendered and "CockroachDB" in rendered
    data = json.loads(cli("recall", "--user", "alice", "--json", "Which database do the orders use?"))
    assert data["vector_lanes_off"] is None and any("CockroachDB" in t["text"] for t in data["turns"])
    # Bob's history is a garden: his nearest turns come back, never Alice's.
    theirs = cli("recall", "--user", "bob", "Which database do the orders use?")
    assert "garden-1" in theirs and "orders-" not in theirs and "CockroachDB" not in theirs
    assert "no user 'carol'" in cli("recall", "--user", "carol", "Which database do the orders use?", code=1)
    narrow = json.loads(cli("recall", "--user", "alice", "--json", "--budget", "40", "Which database do the orders use?"))
    assert narrow["budget_tokens"] == 40 and narrow["left_out"] > 0 and len(narrow["turns"]) < len(data["turns"])
    assert "more rows left out to keep within 40 tokens" in cli("recall", "--user", "alice", "--budget", "40", "orders database")


def test_bad_input_exits_2_with_the_reason(cli):
    assert "exactly one of --session ID or --pending" in cli("embed", code=2)
    assert "exactly one of" in cli("embed", "--session", "x", "--pending", code=2)
    assert "--user goes with --session" in cli("embed", "--pending", "--user", "alice", code=2)
    assert "no session 'no-such-session'" in cli("embed", "--session", "no-such-session", code=1)
    assert "No user: pass --user" in cli("recall", "anything", code=2)
    assert "question is empty" in cli("recall", "--user", "alice", " ", code=2)
    assert "--budget" in cli("recall", "--user", "alice", "--budget", "-5", "cache", code=2)
    cli("config", "set", "recall.turns_k", "3")
    cli("memory", "save", "--user", "alice", "the cache is warm")
    assert "Memory recall for" in cli("recall", "--user", "alice", "cache")


def test_embed_with_an_unavailable_model_fails_with_exit_1(cli):
    cli("session", "import", str(EXAMPLES / "orders-1.jsonl"))
    out = cli("embed", "--session", "orders-1", "--model", "/nonexistent/model", code=1)
    assert "failed" in out and "/nonexistent/model" in out
    assert "orders-1" in cli("embed", "--pending")


def test_embed_builds_the_word_table_once_in_the_cache_dir(cli, monkeypatch, short_tmp):
    from sessions_graph_core.embeddings import words

    cache = short_tmp / "cache"
    monkeypatch.setenv("SESSIONS_GRAPH_CACHE_DIR", str(cache))
    monkeypatch.setattr(words, "vocabulary", lambda: ["orders", "database", "garden", "roses"])  # a moment's build
    monkeypatch.setattr(words, "_TABLES", {})
    cli("session", "import", str(EXAMPLES / "orders-1.jsonl"))
    cli("embed", "--pending")
    [table] = (cache / "word-vectors").iterdir()
    written = table.stat().st_mtime_ns
    words._TABLES.clear()  # as a new process finds it
    cli("embed", "--session", "orders-1")
    assert [table] == list((cache / "word-vectors").iterdir()) and table.stat().st_mtime_ns == written
