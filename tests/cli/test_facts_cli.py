"""`sessions-graph facts` on a real embedded store, after the default (spaCy) reconciliation."""

from __future__ import annotations

import json

from conftest import EXAMPLES


def reconciled(cli) -> None:
    cli("session", "import", str(EXAMPLES / "orders-1.jsonl"), str(EXAMPLES / "orders-2.jsonl"))
    cli("reconcile", "--pending")


def test_facts_lists_current_values_with_what_they_replaced(cli):
    reconciled(cli)
    data = json.loads(cli("facts", "--user", "alice", "--json", "orders service"))
    slots = {fact["slot"]: fact for fact in data["current"]}
    assert "Carol" in slots["orders service/owner"]["value"]
    assert slots["orders service/owner"]["replaced"] == ["Alice owns the orders service."]
    assert slots["orders service/database"]["value"] == "CockroachDB"
    assert not any(fact["text"] == "Alice owns the orders service." for fact in data["current"])
    table = cli("facts", "--user", "alice", "--history", "orders service")
    assert "Alice owns the orders service." in table and "superseded 2026-03-16" in table
    then = json.loads(cli("facts", "--user", "alice", "--as-of", "2026-03-10T00:00:00Z", "--json", "orders service"))
    assert "Alice owns the orders service." in [fact["text"] for fact in then["current"]]
    assert not any("Carol" in fact["text"] for fact in then["current"])


def test_facts_bad_input_exits_2_and_unknown_subjects_say_so(cli):
    cli("session", "import", str(EXAMPLES / "orders-1.jsonl"))  # alice exists, with nothing reconciled
    assert "No user" in cli("facts", "me", code=2)
    assert "no user 'nobody'" in cli("facts", "--user", "nobody", "me", code=1)
    assert "not both" in cli("facts", "--user", "alice", "--history", "--as-of", "2026-01-01T00:00:00Z", "me", code=2)
    assert "Invalid timestamp" in cli("facts", "--user", "alice", "--as-of", "last week", "me", code=2)
    assert "nothing is known about 'the moon'" in cli("facts", "--user", "alice", "the moon")


def test_facts_lists_candidates_only_when_asked(cli, tmp_path):
    # "I appreciate the support." names nothing and the reader's gate calls it junk: written as a candidate.
    session = tmp_path / "thanks.jsonl"
    session.write_text(
        '{"type": "session", "session_id": "thanks-1", "user_id": "carl", "started_at": "2026-03-02T08:58:00Z"}\n'
        '{"role": "user", "text": "I appreciate the support.", "timestamp": "2026-03-02T09:00:00Z"}\n'
    )
    cli("session", "import", str(session))
    cli("reconcile", "--pending")
    assert json.loads(cli("facts", "--user", "carl", "--json", "support"))["current"] == []
    for flag in ("--candidates", "--all"):
        held = json.loads(cli("facts", "--user", "carl", "--json", flag, "support"))["current"]
        assert [(fact["text"], fact["candidate"]) for fact in held] == [("I appreciate the support.", True)]
    assert "fact (candidate)" in cli("facts", "--user", "carl", "--candidates", "support")
