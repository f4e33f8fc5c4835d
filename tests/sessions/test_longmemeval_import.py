"""`session import --format longmemeval`: LongMemEval's haystack sessions as one user's sessions.

The file tests/data/longmemeval_small.json was written by hand in LongMemEval's format (two
questions, four distinct haystack sessions, one shared by both questions); it holds no LongMemEval data.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from sessions_graph_core.sessions.longmemeval import parse_date, read_longmemeval
from sessions_graph_core.validation import ValidationError

SMALL = Path(__file__).resolve().parents[1] / "data" / "longmemeval_small.json"


def test_the_file_reads_as_distinct_sessions_oldest_first_with_their_dates():
    sessions = read_longmemeval(SMALL)
    assert [s.session_id for s in sessions] == ["small_move_1", "small_garden_1", "small_cooking_1", "small_move_2"]
    first = sessions[0]
    assert first.started_at == datetime(2023, 5, 20, 2, 21, tzinfo=UTC)
    assert [turn.role for turn in first.turns] == ["user", "assistant", "user", "assistant"]
    assert first.turns[0].text.startswith("I just signed the lease on a flat in Lisbon")
    # One time per session in the format: the messages follow it a minute apart, in order.
    assert [turn.timestamp.isoformat() for turn in first.turns[:2]] == ["2023-05-20T02:21:00+00:00", "2023-05-20T02:22:00+00:00"]


def test_dates_in_the_format_parse_and_others_are_refused():
    assert parse_date("2023/05/20 (Sat) 02:21") == datetime(2023, 5, 20, 2, 21, tzinfo=UTC)
    with pytest.raises(ValueError, match=r"not like '2023/05/20 \(Sat\) 02:21'"):
        parse_date("20 May 2023")


def test_import_then_recall_finds_the_newest_statement(cli, tmp_path):
    out = cli("session", "import", "--format", "longmemeval", "--user", "lme-user", str(SMALL))
    assert f"{SMALL}: 4 sessions, 12 new turns (user lme-user)" in out
    listed = cli("session", "list", "--user", "lme-user")
    assert "small_move_2" in listed and "2023-06-18T09:47:00" in listed
    again = cli("session", "import", "--format", "longmemeval", "--user", "lme-user", str(SMALL))
    assert "4 sessions, 0 new turns" in again  # a second import stores nothing twice
    cli("embed", "--pending")
    data = json.loads(cli("recall", "--user", "lme-user", "--json", "Which city do I live in now?"))
    ranked = sorted(data["turns"], key=lambda turn: turn["rank"])
    assert ranked and ranked[0]["session_id"] in ("small_move_1", "small_move_2")
    assert any("Porto" in turn["text"] for turn in ranked[:3])


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda q: q["haystack_dates"].pop(), "must have the same length"),
        (lambda q: q["haystack_dates"].__setitem__(0, "May 20th"), "is not like '2023/05/20 (Sat) 02:21'"),
        (lambda q: q["haystack_sessions"][0][0].__setitem__("role", "system"), "role: Input should be 'user' or 'assistant'"),
        (lambda q: q["haystack_sessions"][0][0].pop("content"), "content: Field required"),
        (lambda q: q.pop("haystack_sessions"), "haystack_sessions: Field required"),
    ],
)
def test_a_bad_file_is_refused_with_the_reason_and_imports_nothing(cli, tmp_path, change, reason):
    questions = json.loads(SMALL.read_text())
    change(questions[1])  # the second question: the first one's sessions must not be written either
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(questions))
    with pytest.raises(ValidationError, match="question 1") as refused:
        read_longmemeval(bad)
    assert reason in str(refused.value)
    out = cli("session", "import", "--format", "longmemeval", "--user", "lme-user", str(bad), code=2)
    assert reason in out
    assert "no user 'lme-user'" in cli("session", "list", "--user", "lme-user", code=1)  # nothing written


def test_the_cli_needs_a_user_and_takes_no_session_id(cli):
    assert "pass --user" in cli("session", "import", "--format", "longmemeval", str(SMALL), code=2)
    assert "--session names one session" in cli(
        "session", "import", "--format", "longmemeval", "--user", "u", "--session", "s", str(SMALL), code=2)
