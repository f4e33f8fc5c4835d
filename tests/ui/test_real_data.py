"""The five views on a store built from real conversations (issue 44's "done when"): two harness
transcripts of ../shared/data/transcripts imported as `session import --format claude-code|codex` imports
them, and LoCoMo's first conversation's first two sessions, all reconciled and embedded; one memory file
written in a LoCoMo session's name. Each view is opened in headless Chromium, then a LoCoMo session is
forgotten through its page and the forgetting tests' byte-by-byte search finds none of its words left.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import ui_world
from forget_helpers import files_holding
from ui_world import USER, World, shown, submit_by_keyboard

from sessions_graph_core import SessionsGraph
from sessions_graph_core.integrations.harness_import import import_files

SHARED = Path(__file__).resolve().parents[2] / "../shared/data"
# Small enough to reconcile in seconds, each a real harness session with user and assistant text.
TRANSCRIPTS = {
    "claude-code": "davesque__claude-md-transcripts__tests__fixtures__sample_session.jsonl",
    "codex": "marktoda__loupe__tests__fixtures__codex_session.jsonl",
}
CONVERSATION = "conv-26"
LOCOMO_SESSIONS = (1, 2)
FORGOTTEN = f"{CONVERSATION}-s2"
# Said in LoCoMo's session 2 and in nothing else the store holds (nor in the transcripts).
FORGOTTEN_WORDS = (FORGOTTEN, f"{CONVERSATION}:D2:", "violin", "charity race")
MEMORY = ("/memories/people/caroline.md", "Caroline wants to work in counseling or mental health.")


def locomo_sessions(graph: SessionsGraph) -> None:
    """LoCoMo's sessions as the benchmarks record them: the first speaker as the user, turns 30 s apart."""
    [sample] = [item for item in json.loads((SHARED / "locomo/locomo10.json").read_text())
                if item["sample_id"] == CONVERSATION]
    conversation = sample["conversation"]
    for number in LOCOMO_SESSIONS:
        sid = f"{CONVERSATION}-s{number}"
        start = datetime.strptime(conversation[f"session_{number}_date_time"], "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)
        graph.record_session_start(sid, user_id=USER, started_at=start.isoformat())
        graph.record_turns(sid, [
            {"turn_id": f"{CONVERSATION}:{turn['dia_id']}", "text": f"{turn['speaker']}: {turn['text']}",
             "speaker": turn["speaker"], "role": "user" if turn["speaker"] == conversation["speaker_a"] else "assistant",
             "timestamp": (start + timedelta(seconds=30 * position)).isoformat()}
            for position, turn in enumerate(conversation[f"session_{number}"])
        ], user_id=USER)
        graph.end_session(sid)


def fill(graph: SessionsGraph) -> None:
    for runtime, name in TRANSCRIPTS.items():
        [done] = import_files(graph.store, [SHARED / "transcripts" / runtime / name], user_id=USER, runtime=runtime)
        assert sum(done.turns.values()) > 0, done
    locomo_sessions(graph)
    for sid in graph.get_pending_reconciliation_sessions():
        assert graph.reconcile_session(sid).status == "completed", sid
        graph.embed_session(sid)
    path, text = MEMORY
    files = graph.memory_store(USER, session_id=f"{CONVERSATION}-s1")
    files.create(path, text + "\n")
    files.str_replace(path, "counseling", "counseling (her research)")
    for memory_id in graph.get_pending_memories():
        graph.reconcile_memory(memory_id)
    graph.embed_memories(USER)


@pytest.fixture(scope="module")
def real() -> Iterator[World]:
    yield from ui_world.served(fill)


def imported(world: World) -> list[str]:
    return [row.session_id for row in world.graph.session_statuses(USER, limit=50)]


def test_facts_show_what_real_sessions_said_with_where_they_said_it(real):
    fact = next(fact for fact in real.graph.traced_facts(USER) if fact.sessions)
    text = shown(real, "/facts")
    assert fact.text in text and fact.sessions[0] in text
    assert fact.text in shown(real, f"/sessions/{fact.sessions[0]}")  # and back: the session lists what it stated


def test_each_imported_session_shows_its_status_turns_and_products(real):
    sessions = imported(real)
    assert len(sessions) == len(TRANSCRIPTS) + len(LOCOMO_SESSIONS)
    text = shown(real, "/sessions")
    rows = {line.split("\t")[0]: line for line in text.splitlines() if "\t" in line}
    for state in real.graph.session_statuses(USER, limit=50):
        assert rows[state.session_id].endswith("embedded") and f"\t{state.turn_count}\t" in rows[state.session_id]
    transcript = next(sid for sid in sessions if not sid.startswith(CONVERSATION))
    page = shown(real, f"/sessions/{transcript}")
    entities = real.graph.session_entities(transcript)
    assert entities and f"Entities ({len(entities)})" in page and entities[0].name in page
    locomo = shown(real, f"/sessions/{CONVERSATION}-s1")
    assert "18 turns; status embedded" in locomo and MEMORY[0] in locomo
    assert "I went to a LGBTQ support group yesterday" in locomo


def test_a_memory_file_shows_its_text_and_its_earlier_version(real):
    assert "caroline.md" in shown(real, "/memory")
    page = shown(real, f"/memory/file?path={MEMORY[0]}")
    assert "counseling (her research)" in page and f"-{MEMORY[1]}" in page


def test_ask_gives_the_turn_that_answers_a_locomo_question(real):
    page = shown(real, "/ask?q=When+did+Caroline+go+to+the+LGBTQ+support+group%3F")
    table = [line.split("\t") for line in page.splitlines() if line.count("\t") >= 3]
    assert any(row[1] == "turn" and "I went to a LGBTQ support group yesterday" in row[3] for row in table[1:])


def test_forgetting_a_locomo_session_through_its_page_leaves_none_of_its_words(real):
    assert set(files_holding(real.places, FORGOTTEN_WORDS)) != set()  # the search sees them where they are
    confirm = shown(real, f"/forget/session/{FORGOTTEN}")
    stated = real.graph.session_facts(FORGOTTEN)
    assert "its 17 turns" in confirm and stated and all(fact.text in confirm for fact in stated), confirm
    done = submit_by_keyboard(real, f"Forget session {FORGOTTEN}")
    assert f"Forgot session {FORGOTTEN}" in done and "no forgotten id or line is left on disk" in done
    assert files_holding(real.places, FORGOTTEN_WORDS) == {}
    assert FORGOTTEN not in {row.session_id for row in real.graph.recall(USER, "Who ran a charity race?").turns}
    assert FORGOTTEN not in shown(real, "/sessions") and f"{CONVERSATION}-s1" in shown(real, "/sessions")
