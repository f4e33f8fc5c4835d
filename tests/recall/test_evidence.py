"""What recall reads of a turn's text, written on the turn when it is recorded (recall/evidence.py): the
words that may name a concept and whether it says when. Recall reads these instead of the pool's texts;
a turn recorded before them is read by its text, and `fill_turn_evidence` writes them for such turns."""

from __future__ import annotations

import math

import pytest
from conftest import EXAMPLES

from sessions_graph_core.recall import concepts
from sessions_graph_core.recall.config import RecallConfig
from sessions_graph_core.recall.evidence import concept_words, fill_turn_evidence, said_when, turn_evidence
from sessions_graph_core.recall.lanes import EVIDENCE_COLUMNS, Search, StoreTurns
from sessions_graph_core.recall.periods import says_when
from sessions_graph_core.sessions.jsonl import read_transcript
from sessions_graph_core.store.falkordb.store import FalkorDBStore
from sessions_graph_core.text import content_words, stem

SPEAKERS = ("Melanie", "Caroline")
# Names, numbers, single letters, repeated words, words of one stem, dates said in words and in
# digits ("May" is no date), punctuation, accents, a text with no word that may name a concept.
TEXTS = [
    "I'm off to go swimming with the kids.",
    "Melanie, how have you been lately?",
    "Caroline said the weather was grey yesterday.",
    "We went to the museum on 19 August, 2023 and saw paintings of horses.",
    "Books, books and more books: I read three novels in May.",
    "The 2 dogs ran; a dog's bark woke 12 cats and Melanie's parrot.",
    "Running runs; the runner ran a race and raced again.",
    "Café, naïve résumé — déjà vu at the crèche.",
    "Ok, 12.",
    "Sports? I play sport every weekend; last week tennis, this year golf and a game of chess.",
    "For two years I've volunteered at the animal shelter, since 2019.",
    "I have a lot of work at my job at the mill, and Caroline's job is at the library.",
    "She goes swimming; swimmers swim, and the swim team trains on Fridays.",
    "My sister bought a violin and a guitar; music lessons start next month.",
    "Baker fixed the gate before the farmer came.",  # a baker is a worker, unless a speaker is called Baker
    "Baker fixed the gate.",
]
QUESTIONS = [
    "What activities does Melanie partake in?",
    "Which sports does Caroline play?",
    "Which book did she read?",
    "What pets do they have?",
    "When did they go to the museum?",
    "Which activities and sports?",
    "What instruments does her sister play?",
    "Which races did the runner run?",
    "What did Caroline do at the shelter?",
    "Which workers did she meet?",
]


def read_evidence(row: dict) -> tuple[tuple[str, ...], bool]:
    """What recall reads of a turn row: its words that may name a concept, and whether it says when."""
    return tuple(concept_words(row)), said_when(row)


def example_texts() -> list[str]:
    return [turn.text for path in sorted(EXAMPLES.glob("*.jsonl")) for turn in read_transcript(path).turns if turn.text]


def scores_from_texts(question: str, texts: dict[str, str], speakers) -> dict[str, float]:
    """Concept scores as recall computed them from the texts before the words were stored, written
    out turn by turn: for each question word a turn does not hold (by stem), its senses among the
    kinds of the turn's words, each weighing log(1 + turns / turns it is matched in)."""
    names = frozenset(word for speaker in speakers for word in content_words(speaker))
    asked = concepts.asked_senses(question, names)
    if not asked or not texts:
        return {}
    matched: dict[str, dict[str, list[tuple[int, str]]]] = {}
    for tid, text in texts.items():
        words = concepts.named(text, names)
        held = {stem(word) for word in words}
        kinds = set().union(*(concepts.kinds(word) for word in words))
        matched[tid] = {word: [sense for sense in own if sense in kinds]
                        for word, own in asked.items() if stem(word) not in held}
    counts: dict[tuple[int, str], int] = {}
    for found in matched.values():
        for senses in found.values():
            for sense in senses:
                counts[sense] = counts.get(sense, 0) + 1
    scores = {}
    for tid, found in matched.items():
        best = [max(math.log(1 + len(texts) / counts[sense]) for sense in senses) for senses in found.values() if senses]
        if best:
            scores[tid] = sum(best)
    top = max(scores.values(), default=0.0)
    return {tid: value / top for tid, value in scores.items()} if top > 0 else {}


def record(graph, user: str, session: str, texts: list[str], day: int = 1) -> None:
    stamp = f"2026-03-{day:02d}T10:00:00Z"
    graph.record_session_start(session, user_id=user, started_at=stamp)
    graph.record_turns(session, [{"role": ("user", "assistant")[i % 2], "speaker": SPEAKERS[i % 2], "text": text,
                                  "timestamp": stamp} for i, text in enumerate(texts)], user_id=user)


def stored(store, user: str) -> dict[str, dict]:
    rows = store.run(f"MATCH (t:Turn) WHERE t.user_id = $uid RETURN {EVIDENCE_COLUMNS}", {"uid": user})
    full = {row["turn_id"]: row for row in store.run(
        "MATCH (t:Turn) WHERE t.user_id = $uid RETURN t.turn_id AS turn_id, t.text AS text, t.chars AS chars",
        {"uid": user})}
    return {row["turn_id"]: {**row, "full_text": full[row["turn_id"]]["text"], "chars": full[row["turn_id"]]["chars"]}
            for row in rows}


def strip(store, session: str) -> int:
    """Make the session's turns look recorded before the evidence properties existed."""
    return store.run("MATCH (t:Turn {session_id: $sid}) REMOVE t.concept_words, t.says_when, t.chars "
                     "RETURN count(t) AS n", {"sid": session})[0]["n"]


def test_turns_are_recorded_with_their_evidence_and_no_text_is_read_for_it(graph) -> None:
    record(graph, "alice", "s-1", TEXTS)
    rows = stored(graph.store, "alice")
    assert len(rows) == len(TEXTS)
    for row in rows.values():
        assert row["text"] is None  # the query reads the text only where the properties are missing
        assert {key: row[key] for key in ("concept_words", "says_when", "chars")} == turn_evidence(row["full_text"])
    by_text = {row["full_text"]: row for row in rows.values()}
    assert by_text["Ok, 12."]["concept_words"] == ""  # no such word: stored empty, not missing
    assert by_text["Books, books and more books: I read three novels in May."]["concept_words"] == "books read three novels may"
    assert by_text["Melanie, how have you been lately?"]["concept_words"] == "melanie lately"  # names left out at question time
    assert [by_text[text]["says_when"] for text in TEXTS[2:5]] == [True, True, False]


def test_concept_scores_and_when_from_the_stored_words_equal_those_from_the_texts(graph) -> None:
    texts = TEXTS + example_texts()
    record(graph, "alice", "s-1", texts)
    rows = stored(graph.store, "alice")
    from_store = {tid: read_evidence(row) for tid, row in rows.items()}
    full = {tid: row["full_text"] for tid, row in rows.items()}
    assert {tid: when for tid, (_, when) in from_store.items()} == {tid: says_when(text) for tid, text in full.items()}
    assert sum(when for _, when in from_store.values()) >= 5
    matched = 0
    for question in QUESTIONS:
        for speakers in (SPEAKERS, (), ("Bob", "Melanie Baker")):
            expected = scores_from_texts(question, full, speakers)
            assert concepts.concept_scores(question, {tid: words for tid, (words, _) in from_store.items()}, speakers) == expected
            matched += len(expected)
    assert matched > 30  # the questions do match turns: the equality is not one of empty results


def ranked(graph, user: str, question: str) -> list:
    result = graph.recall(user, question, config=RecallConfig(lanes=["text"]))
    return [(turn.turn_id, turn.score, turn.text) for turn in result.ranked_turns()] + list(result.lines())


def test_a_turn_recorded_before_the_evidence_is_read_by_its_text_until_it_is_filled(graph) -> None:
    record(graph, "alice", "s-1", TEXTS[:7], day=1)
    record(graph, "alice", "s-2", TEXTS[7:], day=2)
    record(graph, "bob", "b-1", TEXTS, day=3)
    questions = ["When did Melanie go swimming with the kids?", "Which sports and books does Melanie like?",
                 "What activities does Caroline do at the museum?"]
    before = {(user, q): ranked(graph, user, q) for user in ("alice", "bob") for q in questions}
    assert all(len(found) > 2 for found in before.values())
    assert strip(graph.store, "s-1") == 7 and strip(graph.store, "b-1") == len(TEXTS)

    # Read by their texts, in the same read: the same evidence, so the same results.
    search = Search(graph.store, "alice", questions[0], RecallConfig(), "m", None, [], ())
    places = {row["turn_id"]: row for row in graph.store.run(
        "MATCH (t:Turn) WHERE t.user_id = 'alice' RETURN t.turn_id AS turn_id, t.session_id AS session_id, t.seq AS seq")}
    around = {row["turn_id"]: row for row in StoreTurns(search).around(places, list(places), 0, evidence=True)}
    assert {tid for tid, row in around.items() if "text" in row} == {tid for tid, row in places.items() if row["session_id"] == "s-1"}
    assert all(read_evidence(row) == read_evidence({"text": stored_row["full_text"]})
               for tid, row in around.items() for stored_row in [stored(graph.store, "alice")[tid]])
    assert {key: ranked(graph, *key) for key in before} == before

    # Filling is per user, and writes only what is missing.
    assert fill_turn_evidence(graph.store, "alice") == 7
    assert all(row["concept_words"] is not None for row in stored(graph.store, "alice").values())
    assert all(row["concept_words"] is None and row["chars"] is None for row in stored(graph.store, "bob").values())
    assert fill_turn_evidence(graph.store, "alice") == 0
    assert graph.fill_turn_evidence() == len(TEXTS)
    for user in ("alice", "bob"):
        for row in stored(graph.store, user).values():
            assert {key: row[key] for key in ("concept_words", "says_when", "chars")} == turn_evidence(row["full_text"])
    assert {key: ranked(graph, *key) for key in before} == before


def test_embed_pending_fills_the_turns_recorded_before_the_evidence(cli, short_tmp) -> None:
    cli("session", "import", *sorted(str(p) for p in EXAMPLES.glob("*.jsonl")))
    store = FalkorDBStore.open(short_tmp)
    try:
        total = store.run("MATCH (t:Turn) RETURN count(t) AS n")[0]["n"]
        assert total > 10
        store.run("MATCH (t:Turn {session_id: 'orders-1'}) REMOVE t.concept_words, t.says_when")
        stripped = store.run("MATCH (t:Turn) WHERE t.concept_words IS NULL RETURN count(t) AS n")[0]["n"]
        assert 0 < stripped < total
        assert f"{stripped} turns given what recall reads of their text" in cli("embed", "--pending")
        assert store.run("MATCH (t:Turn) WHERE t.concept_words IS NULL OR t.says_when IS NULL RETURN count(t) AS n")[0]["n"] == 0
        assert "turns given" not in cli("embed", "--pending")
    finally:
        store.close()


@pytest.mark.parametrize("text", ["", "   ", "Ok."])
def test_a_text_with_no_such_word_has_empty_evidence(text: str) -> None:
    assert turn_evidence(text) == {"concept_words": "", "says_when": False, "chars": len(text)}
    assert read_evidence({"concept_words": "", "says_when": False}) == ((), False)
