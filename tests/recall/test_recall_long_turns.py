"""Recall on long turns: BM25 on passages, rows that show the matching passages, a whole turn on request,
and a small budget that keeps the current value of the slot a question names."""

from __future__ import annotations

import json

import pytest

from sessions_graph_core import prose
from sessions_graph_core.embeddings.passages import split_passages
from sessions_graph_core.recall import bm25, fusion
from sessions_graph_core.recall.config import RecallConfig
from sessions_graph_core.recall.results import (
    RecalledFact,
    RecalledTurn,
    named_slots_first,
    names_slot,
    ranked_rows,
    tokens,
    within_budget,
)
from sessions_graph_core.recall.search import WEIGHTS
from sessions_graph_core.recall.text_lane import text_candidates
from sessions_graph_core.validation import ValidationError
from tests.conftest import snapshot

LOG_LINE = "2024-03-{day:02d}T10:{minute:02d}:00Z INFO load_chunk took={ms}ms items={items}\n"
NEEDLE = "The staging Postgres now listens on host port 5433, mapped to 5432 inside the container.\n"


def tool_output() -> str:
    """A long tool output with the answer on one line in the middle."""
    lines = [LOG_LINE.format(day=10 + n % 15, minute=n % 60, ms=n * 7 % 900, items=n * 13) for n in range(60)]
    return "".join(lines[:30]) + NEEDLE + "".join(lines[30:])


def record_long_session(graph, user="alice", session_id="s-long"):
    graph.record_session_start(session_id, user_id=user, started_at="2026-03-02T09:00:00Z")
    graph.record_turns(session_id, [
        {"role": "user", "text": "Set up a staging database for the ledger service.", "timestamp": "2026-03-02T09:00:00Z"},
        {"role": "assistant", "text": tool_output(), "timestamp": "2026-03-02T09:01:00Z"},
    ], user_id=user)
    graph.embed_session(session_id)
    return graph.store.run("MATCH (t:Turn {session_id: $sid}) WHERE t.role = 'assistant' RETURN t.turn_id AS id",
                           {"sid": session_id})[0]["id"]


def test_bm25_scores_a_turn_by_its_best_passage(graph):
    turn_id = record_long_session(graph)
    search = _search(graph, "which port does the staging postgres listen on")
    found = text_candidates(search)
    pieces = split_passages(tool_output())
    best = max(bm25.score(found.collection, found.query, piece) for piece in pieces)
    assert found.scores()[turn_id] == pytest.approx(best)
    assert best > bm25.score(found.collection, found.query, tool_output())  # the whole text is not what is scored
    assert found.best_passages([turn_id])[turn_id][0] == next(i for i, p in enumerate(pieces) if "5433" in p)


def test_a_long_turns_row_shows_the_matching_passage_its_id_and_size(graph):
    turn_id = record_long_session(graph)
    recalled = graph.recall("alice", "Which port does the staging Postgres listen on?", config=RecallConfig(turn_chars=600))
    row = next(line for line in recalled.lines() if turn_id in line)
    assert f"turn {turn_id} of {len(tool_output()):,} chars" in row
    assert "5433" in row and "…" in row and len(row) < 800
    shown = next(turn for turn in recalled.to_json()["turns"] if turn["turn_id"] == turn_id)
    assert shown["chars"] == len(tool_output()) and not shown["whole"]
    assert any("5433" in passage["text"] for passage in shown["passages"])
    for passage in shown["passages"]:  # the offsets point into the whole turn
        assert tool_output()[passage["start"]:passage["end"]] == passage["text"]


def test_a_short_turns_row_is_whole_and_names_no_id(graph):
    record_long_session(graph)
    recalled = graph.recall("alice", "staging database for the ledger service")
    row = next(line for line in recalled.lines() if "Set up a staging database" in line)
    assert " turn " not in row.split("]:")[0]
    shown = next(turn for turn in recalled.to_json()["turns"] if turn["text"].startswith("Set up"))
    assert shown["whole"] and shown["passages"] == [{"index": 0, "start": 0, "end": len(shown["text"]), "text": shown["text"]}]


def test_expand_hands_back_the_whole_turn_and_nothing_of_another_user(graph, store):
    mine = record_long_session(graph)
    theirs = record_long_session(graph, user="bob", session_id="s-bob")
    turn = graph.expand_turn("alice", mine)
    assert turn.text == tool_output() and turn.session_id == "s-long"
    assert turn.whole().endswith(tool_output()) and f"turn {mine} of {len(tool_output()):,} chars" in turn.whole()
    before = snapshot(store)
    with pytest.raises(ValidationError) as other:
        graph.expand_turn("alice", theirs)
    with pytest.raises(ValidationError) as missing:
        graph.expand_turn("alice", "no-such-turn")
    assert str(other.value).replace(theirs, "ID") == str(missing.value).replace("no-such-turn", "ID")
    assert "No turn" in str(missing.value) and "bob" not in str(other.value)
    assert snapshot(store) == before


def test_cli_recall_expand_prints_the_whole_turn(cli, tmp_path):
    haystack = tmp_path / "long.json"
    haystack.write_text(json.dumps([{
        "question_id": "q1", "question": "Which port?", "answer": "5433",
        "haystack_session_ids": ["s-1"], "haystack_dates": ["2026/03/02 (Mon) 09:00"],
        "haystack_sessions": [[{"role": "user", "content": "Set up a staging database for the ledger service."},
                               {"role": "assistant", "content": tool_output()}]],
    }]))
    cli("session", "import", "--format", "longmemeval", "--user", "alice", str(haystack))
    cli("embed", "--pending")
    data = json.loads(cli("recall", "--user", "alice", "--json", "Which port does staging Postgres use?"))
    cut = next(turn for turn in data["turns"] if not turn["whole"])
    whole = cli("recall", "--user", "alice", "--expand", cut["turn_id"])
    assert tool_output().strip() in whole and f"of {cut['chars']:,} chars" in whole
    assert json.loads(cli("recall", "--user", "alice", "--json", "--expand", cut["turn_id"]))["text"] == tool_output()
    assert "No turn 'nope'" in cli("recall", "--user", "alice", "--expand", "nope", code=1)
    assert "not both" in cli("recall", "--user", "alice", "--expand", cut["turn_id"], "a question", code=2)
    assert "not both" in cli("recall", "--user", "alice", code=2)


def _search(graph, question):
    from sessions_graph_core.embeddings.models import DEFAULT_EMBEDDING_MODEL
    from sessions_graph_core.recall.lanes import Search
    from sessions_graph_core.recall.periods import mentioned_periods
    from sessions_graph_core.text import search_terms

    return Search(graph.store, "alice", question, RecallConfig(), DEFAULT_EMBEDDING_MODEL, None,
                  search_terms(question), mentioned_periods(question))


STALE = RecalledTurn(turn_id="t1", session_id="s-1", timestamp="2026-01-05T09:00:00Z", speaker="user",
                     text="The orders service keeps its data in MongoDB for now, until the migration is planned.")
TEST_OUTPUT = RecalledTurn(turn_id="t2", session_id="s-2", timestamp="2026-02-05T09:00:00Z", speaker="assistant",
                           text="Tool output: 212 passed, 0 failed in 41.2s; orders service database tests all green.")
CURRENT = RecalledFact(fact_id="f1", kind="fact", subject="orders service", predicate="uses", object="PostgreSQL",
                       text="The orders service moved its database to PostgreSQL.", turn="t9",
                       slot="orders service/database", was=["MongoDB"])


def test_a_question_names_a_slot_by_its_attribute_and_subject():
    assert names_slot("Which database does the orders service use now?", "orders service/database")
    assert not names_slot("Which database does the billing job use?", "orders service/database")
    assert not names_slot("What does the orders service do?", "orders service/database")
    assert names_slot("Who is on call?", "on_call")


@pytest.mark.parametrize(("question", "slot", "named"), [
    ("Where do I live?", "me/location", True),  # by a verb that states it ("live in")
    ("Which city do I live in now?", "me/location", True),  # by a noun that names it
    ("Who do I report to?", "me/manager", True),
    ("Where does Sam live?", "me/location", False),  # someone else's home, not the asker's
    ("Where does Sam live?", "sam/location", True),
    ("Which orchestrator do we use now?", "our team/orchestrator", True),  # "we" are the team of a session of no project
    ("Which orchestrator does Priya like?", "our team/orchestrator", False),
    ("How did the test run go?", "me/location", False),
])
def test_a_question_names_a_slot_by_the_words_that_state_it(question: str, slot: str, named: bool) -> None:
    assert names_slot(question, slot) is named


def test_a_small_budget_keeps_the_current_value_of_the_slot_the_question_names():
    rows = ranked_rows([], [STALE, TEST_OUTPUT], [CURRENT], 1500)
    assert rows[-1] is CURRENT  # ranked last: its turn is not among those found
    budget = tokens(CURRENT.line()) + 2
    kept, left_out = within_budget(named_slots_first(rows, "Which database does the orders service use now?"), budget, 1500)
    assert kept == [CURRENT] and left_out == 2
    other, _ = within_budget(named_slots_first(rows, "How did the test run go?"), tokens(STALE.line(1500)), 1500)
    assert other == [STALE]


def test_a_long_session_does_not_cover_the_question_by_many_weak_matches():
    """Coverage reads a session's best few text candidates, as its evidence reads its best few turns."""
    words = ["postgres", "staging", "port", "ledger", "container", "listen"]
    rows = {f"long-{n}": {"session_id": "long"} for n in range(6)} | {"short-0": {"session_id": "short"}}
    found = fusion.Candidates(
        text={**{f"long-{n}": 1.0 for n in range(6)}, "short-0": 4.0},
        words={**{f"long-{n}": frozenset([word]) for n, word in enumerate(words)}, "short-0": frozenset(words[:4])},
        idf=dict.fromkeys(words, 1.0),
    )
    held = fusion.coverage(rows, found, WEIGHTS.session_turns)
    assert held["short"] == 1.0 and held["long"] == pytest.approx(3 / 4)


CARGO_RUN = """cargo test

running 4 tests
test money::tests::rounds_to_cents ... ok
test money::tests::applies_fee ... ok
test money::tests::rejects_negative ... ok
test money::tests::sums_a_day ... ok

test result: ok. 4 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.02s"""
PASTED = f"{CARGO_RUN}\n\nall green. FYI the ledger service moves to Hetzner next month, the AWS bill got too big."


def wants(*words):
    return lambda run: any(word in run for word in words)


def test_a_run_of_output_that_holds_nothing_asked_is_folded():
    folded = prose.fold_output(PASTED, wants("Hetzner"))
    assert folded.startswith("cargo test\n\n[7 lines of output]\n\nall green. FYI the ledger service moves to Hetzner")
    assert "rounds_to_cents" not in folded
    assert prose.fold_output(PASTED, wants("rejects_negative")) == PASTED  # the run holds what is asked
    assert prose.fold_output("Tests: 3 passed\nso it works", wants()) == "Tests: 3 passed\nso it works"  # too short
    assert prose.fold_output("Moved to Hetzner.\nThe bill halved.", wants()) == "Moved to Hetzner.\nThe bill halved."


def record_pasted_run(graph):
    graph.record_session_start("s-paste", user_id="alice", started_at="2026-03-02T09:00:00Z")
    graph.record_turns("s-paste", [{"role": "user", "text": PASTED, "timestamp": "2026-03-02T09:00:00Z"}], user_id="alice")
    graph.embed_session("s-paste")
    return graph.store.run("MATCH (t:Turn {session_id: 's-paste'}) RETURN t.turn_id AS id")[0]["id"]


def test_a_rows_pasted_output_is_folded_unless_the_question_asks_about_it(graph):
    turn_id = record_pasted_run(graph)
    recalled = graph.recall("alice", "Where is the ledger service hosted next month?")
    row = next(line for line in recalled.lines() if turn_id in line)
    assert "[7 lines of output]" in row and "applies_fee" not in row and "moves to Hetzner" in row
    assert f"turn {turn_id} of {len(PASTED):,} chars" in row  # what was folded can be asked for whole
    shown = next(turn for turn in recalled.to_json()["turns"] if turn["turn_id"] == turn_id)
    assert not shown["whole"] and "[7 lines of output]" in shown["text"]
    assert graph.expand_turn("alice", turn_id).text == PASTED
    asked = graph.recall("alice", "Which money test rejects negative amounts?")
    row = next(line for line in asked.lines() if "Hetzner" in line)
    assert "test money::tests::rejects_negative ... ok" in row and "lines of output" not in row
    assert " turn " not in row.split("]:")[0]
