"""recall on the real store: lanes, fusion, output format, fallback, as-of and config."""

from __future__ import annotations

import pytest

from sessions_graph_core.recall.config import RecallConfig
from sessions_graph_core.recall.results import MEMORY_RULE, NOTHING, READING_RULES, tokens
from sessions_graph_core.validation import ValidationError
from tests.conftest import snapshot

DAY_ONE = [
    ("user", "We need a cache in front of the orders service.", "2026-03-02T09:00:00Z"),
    ("assistant", "Redis fits: it keeps hot keys in memory and supports expiry.", "2026-03-02T09:01:00Z"),
    ("user", "Fine, and the weekly report should go to Priya every Friday.", "2026-03-02T09:02:00Z"),
    ("assistant", "Noted: Priya gets the report on Fridays.", "2026-03-02T09:03:00Z"),
]
DAY_TWO = [
    ("user", "My daughter started violin lessons this spring.", "2026-04-10T18:00:00Z"),
    ("assistant", "Wonderful, music practice builds patience.", "2026-04-10T18:01:00Z"),
    ("user", "The hiking trip to the Dolomites is booked for August.", "2026-04-10T18:02:00Z"),
]


def load(graph, user="alice", prefix="s", embed=True):
    for number, turns in enumerate((DAY_ONE, DAY_TWO), start=1):
        session_id = f"{prefix}-{number}"
        graph.record_session_start(session_id, user_id=user, started_at=turns[0][2])
        graph.record_turns(session_id, [{"role": role, "text": text, "timestamp": ts} for role, text, ts in turns], user_id=user)
        if embed:
            graph.embed_session(session_id)


def texts(recalled):
    return [turn.text for turn in recalled.ranked_turns()]


def test_text_lane_finds_the_turn_and_its_reply(graph):
    load(graph)
    recalled = graph.recall("alice", "Which cache did we pick for the orders service?")
    ranked = texts(recalled)
    assert ranked[0] == DAY_ONE[0][1]
    # The reply next to the matching question is where the answer is.
    assert DAY_ONE[1][1] in ranked[:3]
    assert recalled.vector_lanes_off is None


def test_vector_lane_finds_a_turn_that_shares_no_word_with_the_question(graph):
    load(graph)
    recalled = graph.recall("alice", "What instrument is my kid learning?")
    assert texts(recalled)[0] == DAY_TWO[0][1]


def test_without_vectors_recall_runs_text_search_alone_and_says_so(graph):
    load(graph, embed=False)
    recalled = graph.recall("alice", "Who gets the weekly report?")
    assert "nothing of this user is embedded" in recalled.vector_lanes_off
    assert DAY_ONE[2][1] in texts(recalled)
    assert "Vector search is off (nothing of this user is embedded" in recalled.render()


def test_an_unavailable_embedder_falls_back_to_text_search(graph):
    load(graph)
    recalled = graph.recall("alice", "Who gets the weekly report?", model="/nonexistent/no-such-model")
    assert "no-such-model" in recalled.vector_lanes_off
    assert DAY_ONE[2][1] in texts(recalled)
    assert "; these rows come from text search only." in recalled.render()


def test_render_matches_the_upstream_row_format(graph):
    load(graph)
    recalled = graph.recall("alice", "When is the hiking trip?")
    rendered = recalled.render(today="2026-10-05")
    header, rows = rendered.split("\n\nRows:\n")
    assert header.splitlines()[:2] == ["Memory recall for: When is the hiking trip?", "Today is 2026-10-05."]
    assert READING_RULES in header and MEMORY_RULE not in header
    lines = rows.splitlines()
    assert lines == recalled.lines()
    assert "TURN [session s-2, 2026-04-10T18:02, user]: The hiking trip to the Dolomites is booked for August." in lines
    stamps = [line.split(", ")[1] for line in lines]
    assert stamps == sorted(stamps)  # shown in time order, whatever the rank
    assert graph.recall("alice", "When is the hiking trip?").render().splitlines()[1] != "Today is 2026-10-05."


def test_nothing_matched_renders_the_empty_marker(graph):
    graph.record_session_start("s-1", user_id="alice")
    recalled = graph.recall("alice", "zeppelin quasar xylophone")
    assert recalled.turns == [] and recalled.render().endswith("Rows:\n" + NOTHING)


def test_memory_files_come_first_with_their_reading_rule(graph):
    load(graph)
    graph.save_memory("alice", "Cache decision: Redis, reviewed quarterly.", path="/memories/decisions/cache.md")
    graph.embed_session("s-1")
    recalled = graph.recall("alice", "What did we decide about the cache?")
    assert recalled.memories[0].path == "/memories/decisions/cache.md"
    assert recalled.lines()[0].startswith("MEMORY [/memories/decisions/cache.md, updated ")
    assert MEMORY_RULE in recalled.render()


def test_to_json_carries_the_same_rows(graph):
    load(graph)
    recalled = graph.recall("alice", "violin lessons")
    data = recalled.to_json()
    assert set(data) == {"question", "turns", "facts", "memories", "vector_lanes_off", "left_out", "budget_tokens"}
    assert [turn["turn_id"] for turn in data["turns"]] == [turn.turn_id for turn in recalled.turns]
    assert {"session_id", "timestamp", "speaker", "text", "passages", "rank", "score"} <= set(data["turns"][0])
    ranked = sorted(data["turns"], key=lambda turn: turn["rank"])
    assert [turn["score"] for turn in ranked] == sorted((turn["score"] for turn in ranked), reverse=True)
    assert ranked[0]["score"] > 0


def test_a_budget_keeps_the_best_rows_and_says_how_many_were_left_out(graph):
    load(graph)
    question = "cache report violin hiking trip"
    everything = graph.recall("alice", question, budget_tokens=0)
    best = everything.ranked_turns()
    assert len(best) == 7 and everything.left_out == 0 and "left out" not in everything.render()
    budget = sum(tokens(turn.line(everything.turn_chars)) for turn in best[:2])
    kept = graph.recall("alice", question, budget_tokens=budget)
    assert [turn.turn_id for turn in kept.ranked_turns()] == [turn.turn_id for turn in best[:2]]
    assert sum(tokens(line) for line in kept.lines()) <= budget
    assert kept.left_out == 5 and f"(5 more rows left out to keep within {budget} tokens)" in kept.render()
    assert kept.to_json()["left_out"] == 5
    # Kept rows are shown in time order, whatever their rank.
    assert [turn.timestamp for turn in kept.turns] == sorted(turn.timestamp for turn in kept.turns)
    from_config = graph.recall("alice", question, config=RecallConfig(budget_tokens=budget))
    assert from_config.lines() == kept.lines()
    with pytest.raises(ValidationError, match="budget must be a whole number of tokens >= 0"):
        graph.recall("alice", question, budget_tokens=-1)


def test_as_of_answers_from_what_existed_then(graph):
    load(graph)
    recalled = graph.recall("alice", "violin lessons hiking trip cache", as_of="2026-03-31T00:00:00Z")
    assert recalled.turns and all(turn.timestamp < "2026-03-31" for turn in recalled.turns)
    later = graph.recall("alice", "violin lessons hiking trip cache")
    assert any(turn.timestamp > "2026-04-01" for turn in later.turns)
    with pytest.raises(ValidationError, match="timestamp"):
        graph.recall("alice", "violin", as_of="last tuesday")


def test_widths_and_lanes_limit_what_comes_back(graph):
    load(graph)
    narrow = graph.recall("alice", "report Priya Friday cache Redis", config=RecallConfig(turns_k=1, text_k=1))
    assert len(narrow.turns) == 2
    text_only = graph.recall("alice", "What instrument is my kid learning?", config=RecallConfig(lanes=("text",)))
    assert DAY_TWO[0][1] not in texts(text_only)


def test_long_turns_are_excerpted_around_the_match(graph):
    long_text = "Background chatter about the weather. " * 60 + "The staging password rotates every 30 days. " + "More chatter. " * 60
    graph.record_session_start("s-1", user_id="alice")
    graph.record_turns("s-1", [{"role": "user", "text": long_text}], user_id="alice")
    graph.embed_session("s-1")
    recalled = graph.recall("alice", "how often does the staging password rotate", config=RecallConfig(turn_chars=400))
    line = recalled.lines()[0]
    assert "staging password rotates" in line and len(line) < 600 and "…" in line


def test_bad_input_is_rejected_and_changes_nothing(graph, store):
    load(graph, embed=False)
    before = snapshot(store)
    with pytest.raises(ValidationError, match="empty"):
        graph.recall("alice", "   ")
    with pytest.raises(ValidationError, match="user_id"):
        graph.recall("bad user!", "cache")
    assert snapshot(store) == before


def test_config_reads_strings_profiles_and_rejects_bad_values():
    config = RecallConfig.model_validate({"turns_k": "3", "lanes": "turns, text", "embedding_model": "x"})
    assert (config.turns_k, config.lanes, config.text_k, config.model()) == (3, ["turns", "text"], RecallConfig().text_k, "x")
    upstream = RecallConfig.named("upstream", turns_k=3)
    assert (upstream.turns_k, upstream.text_k, upstream.budget_tokens) == (3, 8, 0)
    assert upstream.model_dump(exclude_unset=True) == {"profile": "upstream", "turns_k": 3}
    with pytest.raises(ValidationError, match=r"unknown recall lanes \['vibes'\]; choose from memories, turns"):
        RecallConfig.named("default", lanes="turns,vibes")
    with pytest.raises(ValidationError, match="recall facts_k: Input should be greater than or equal to 0"):
        RecallConfig.named("default", facts_k=-1)
    with pytest.raises(ValidationError, match="recall turnsk: Extra inputs are not permitted"):
        RecallConfig.named("default", turnsk=3)
    with pytest.raises(ValidationError, match="recall profile: Input should be 'default' or 'upstream'"):
        RecallConfig.named("widest")


def test_bm25_counts_stemmed_forms_and_favours_rare_words():
    from sessions_graph_core.recall import bm25
    from sessions_graph_core.text import stems

    collection = bm25.Collection(documents=100, average_length=40.0, frequencies={"paint": 2, "garden": 60})
    query = stems("painting garden")
    assert query == ["paint", "garden"]
    rare = bm25.score(collection, query, "She painted the fence.")
    common = bm25.score(collection, query, "She weeded the garden.")
    assert rare > common > 0
    assert bm25.score(collection, query, "Nothing relevant here.") == 0
    # Length normalisation: the same match in a much longer text scores lower.
    assert bm25.score(collection, query, "She painted. " + "Filler words go on. " * 20) < rare


def test_a_common_word_is_scored_from_the_sample_without_reading_its_postings(graph, monkeypatch):
    from sessions_graph_core.recall import text_lane

    monkeypatch.setattr(text_lane, "COMMON_POSTINGS", 20)
    graph.record_session_start("s-1", user_id="alice")
    turns = [{"role": "user", "text": f"Status of project item {i}."} for i in range(40)]
    turns.append({"role": "user", "text": "The zebra project needs a new logo."})
    graph.record_turns("s-1", turns, user_id="alice")
    graph.record_session_start("s-2", user_id="bob")
    graph.record_turns("s-2", [{"role": "user", "text": "A project of my own."}], user_id="bob")
    read: list[tuple[str, str]] = []
    postings = graph.store.fulltext_postings

    def spy(index, user_id, term, **kwargs):
        read.append((user_id, term))
        return postings(index, user_id, term, **kwargs)

    monkeypatch.setattr(graph.store, "fulltext_postings", spy)
    config = RecallConfig(lanes=("text",))
    assert texts(graph.recall("alice", "project zebra logo", config=config))[0] == "The zebra project needs a new logo."
    assert sorted(read) == [("alice", "logo"), ("alice", "zebra")]  # "project" is in 40 of 41 turns
    # A question of common words only still reads the rarest of them (capped) for candidates.
    read.clear()
    found = texts(graph.recall("alice", "project", config=config))
    assert found and all("project" in text for text in found)
    assert read == [("alice", "project")]
    # Bob's history is his own sample: there "project" is rare, and his recall reads it.
    read.clear()
    assert texts(graph.recall("bob", "project", config=config)) == ["A project of my own."]
    assert read == [("bob", "project")]


def test_a_long_historys_sample_is_spread_over_its_time_and_the_same_in_every_process(graph, monkeypatch):
    from sessions_graph_core.recall import text_lane
    from sessions_graph_core.recall.lanes import Search

    monkeypatch.setattr(text_lane, "SAMPLE_SESSIONS", 4)
    monkeypatch.setattr(text_lane, "COMMON_POSTINGS", 5)
    for day in range(12):  # ids that sort against time: the sample follows time
        session = f"s-{11 - day:02d}"
        graph.record_session_start(session, user_id="alice", started_at=f"2026-03-{day + 1:02d}T09:00:00Z")
        graph.record_turns(session, [{"role": "user", "text": f"Notes on topic{day} and the garden."}], user_id="alice")
    graph.record_session_start("b-1", user_id="bob")
    graph.record_turns("b-1", [{"role": "user", "text": "Bob's own topic3 notes."}], user_id="bob")
    search = Search(graph.store, "alice", "topic3 garden", RecallConfig(), "m", None, [], None)
    assert text_lane._spread_sessions(search) == ["s-11", "s-08", "s-05", "s-02"]  # days 1, 4, 7 and 10

    drawn = []
    for _ in range(3):  # a new process starts with no sample
        text_lane._SAMPLES.clear()
        drawn.append(text_lane._sample(search, 12).occurrences)
    assert drawn[0] == drawn[1] == drawn[2]
    assert {stem for stem in drawn[0] if stem.startswith("topic")} == {"topic0", "topic3", "topic6", "topic9"}
    assert drawn[0]["garden"] == 4


def test_a_question_that_names_a_day_or_month_favours_what_was_said_then(graph):
    for session_id, friend, day in (("lunch-1", "Marco", "2026-03-02"), ("lunch-2", "Dana", "2026-04-10")):
        graph.record_session_start(session_id, user_id="alice", started_at=f"{day}T12:00:00Z")
        graph.record_turns(session_id, [{"role": "user", "text": f"Lunch with {friend} at the Thai place.",
                                         "timestamp": f"{day}T12:00:00Z"}], user_id="alice")
    config = RecallConfig(lanes=("text",))
    assert texts(graph.recall("alice", "Who did I have lunch with on 10 April 2026?", config=config))[0] == (
        "Lunch with Dana at the Thai place.")
    assert texts(graph.recall("alice", "Who did I have lunch with in March 2026?", config=config))[0] == (
        "Lunch with Marco at the Thai place.")
    # What happened on a day is often told in the days after: a turn three days later still counts.
    assert texts(graph.recall("alice", "Who did I have lunch with on April 7, 2026?", config=config))[0] == (
        "Lunch with Dana at the Thai place.")
    # Without a period both are equal matches, and the question decides nothing between them.
    assert sorted(texts(graph.recall("alice", "Who did I have lunch with?", config=config))) == [
        "Lunch with Dana at the Thai place.", "Lunch with Marco at the Thai place."]


def test_a_question_that_names_two_periods_favours_what_was_said_in_either(graph):
    for session_id, friend, day in (("lunch-a", "Dana", "2026-04-10"), ("lunch-b", "Marco", "2026-03-02"),
                                    ("lunch-c", "Lee", "2026-06-20")):
        _said(graph, session_id, day, [f"Lunch with {friend} at the Thai place."])
    config = RecallConfig(lanes=("text",))
    # One period alone leaves Dana second, as no period does: BM25 ties the three turns.
    assert sorted(texts(graph.recall("alice", "Who did I have lunch with in March and in June 2026?", config=config))[:2]) == [
        "Lunch with Lee at the Thai place.", "Lunch with Marco at the Thai place."]
    assert sorted(texts(graph.recall("alice", "Who did I have lunch with before March 2026 or after June?",
                                     config=config))[:2]) == ["Lunch with Lee at the Thai place.", "Lunch with Marco at the Thai place."]
    # Open to the future: everything from May 2026 on.
    assert texts(graph.recall("alice", "Who did I have lunch with since May 2026?", config=config))[0] == (
        "Lunch with Lee at the Thai place.")


def test_a_question_that_names_a_period_favours_a_turn_that_talks_about_it_in_relative_words(graph):
    # Said weeks after December, so outside the days after it that count; its "last month" is December.
    # The two texts differ in one word of equal weight, so BM25 ties them, and the October one's id sorts first.
    _said(graph, "a-october", "2023-10-10", ["Last week I donated coats to the shelter."])
    _said(graph, "b-january", "2024-01-20", ["Last month I donated coats to the shelter."])
    config = RecallConfig(lanes=("text",))
    assert texts(graph.recall("alice", "What did I donate to the shelter in December 2023?", config=config))[0] == (
        "Last month I donated coats to the shelter.")
    # And only the month it talks about: in January its "last month" is not November.
    assert texts(graph.recall("alice", "What did I donate to the shelter in November 2023?", config=config))[0] == (
        "Last week I donated coats to the shelter.")


def test_a_question_that_asks_when_favours_turns_that_say_when(graph):
    # Two sessions, so that no neighbour lifts either turn: the shorter text matches better.
    _said(graph, "a-decision", "2026-05-04", ["Moving to Lisbon was the best decision."])
    _said(graph, "b-move", "2026-05-05", ["I moved to Lisbon last spring, after the job offer."])
    config = RecallConfig(lanes=("text",))
    assert texts(graph.recall("alice", "When did I move to Lisbon?", config=config))[0] == (
        "I moved to Lisbon last spring, after the job offer.")
    # Asked otherwise, the turn that says when gets no bonus.
    assert texts(graph.recall("alice", "Why did I move to Lisbon?", config=config))[0] != (
        "I moved to Lisbon last spring, after the job offer.")


def _said(graph, session_id, day, texts_said):
    graph.record_session_start(session_id, user_id="alice", started_at=f"{day}T12:00:00Z")
    graph.record_turns(session_id, [{"role": "user", "text": text, "timestamp": f"{day}T12:00:{i:02d}Z"}
                                    for i, text in enumerate(texts_said)], user_id="alice")


def test_a_question_about_a_change_ranks_the_newest_statement_first(graph):
    # Equal texts but for one same-length word, so BM25 ties them; the older session's id sorts first.
    _said(graph, "a-old", "2026-01-10", ["Our team builds with Gitea runners."])
    _said(graph, "b-new", "2026-05-10", ["Our team builds with Drone runners."])
    config = RecallConfig(lanes=["text"])
    assert texts(graph.recall("alice", "What does our team build with now?", config=config))[0] == (
        "Our team builds with Drone runners.")
    # A question that asks about no change decides nothing by time: the tie stays as it was.
    assert texts(graph.recall("alice", "What does our team build with?", config=config))[0] == (
        "Our team builds with Gitea runners.")


def test_a_session_that_matches_in_several_turns_outranks_a_single_match(graph):
    filler = ["Unrelated chatter about lunch.", "More small talk.", "The weather was grey."]
    _said(graph, "a-single", "2026-02-01", ["We rented a kayak on the lake."])
    _said(graph, "b-trip", "2026-02-08", ["We rented a kayak on the fjord.", *filler, "The kayak tipped on the fjord.",
                                          *filler, "I still dream of the kayak trip."])
    config = RecallConfig(lanes=["text"])
    ranked = texts(graph.recall("alice", "Where did we rent a kayak?", config=config))
    # Both first turns match three of the question's words in a text of the same length; the trip's
    # session holds two more matches, out of its neighbours' reach.
    assert ranked[0] == "We rented a kayak on the fjord."
    assert ranked.index("We rented a kayak on the lake.") > 0


def test_a_question_that_names_a_speaker_favours_what_that_person_said(graph):
    # Two people of one group chat say texts of the same length that match the question equally;
    # the turn ids decide the tie when no speaker is named.
    for session_id, name, day in (("a-mel", "Melanie", "Sunday"), ("b-car", "Caroline", "Monday")):
        graph.record_session_start(session_id, user_id="alice", started_at="2026-02-01T12:00:00Z")
        graph.record_turns(session_id, [{"role": "user", "speaker": name, "turn_id": f"t-{session_id}",
                                         "text": f"I joined the pottery class on {day}."}], user_id="alice")
    config = RecallConfig(lanes=["text"])

    def first(question):
        return texts(graph.recall("alice", question, config=config))[0]
    assert first("When did Caroline join the pottery class?") == "I joined the pottery class on Monday."
    assert first("When did Melanie join the pottery class?") == "I joined the pottery class on Sunday."
    assert first("When did someone join the pottery class?") == "I joined the pottery class on Sunday."
    # The row says who said it, by name, where the role alone would say only "user".
    assert ", Caroline]: I joined the pottery class on Monday." in graph.recall(
        "alice", "When did Caroline join the pottery class?", config=config).render()


def test_a_question_about_the_asker_favours_what_the_user_said_where_no_speaker_is_named(graph):
    # An agent's sessions name no speakers: the user and the assistant say texts of the same length that
    # match the question equally, and the turn ids decide the tie when the question is not about the asker.
    for session_id, role in (("a-assistant", "assistant"), ("b-user", "user")):
        graph.record_session_start(session_id, user_id="alice", started_at="2026-02-01T12:00:00Z")
        graph.record_turns(session_id, [{"role": role, "turn_id": f"t-{session_id}",
                                         "text": "The payments team took over the payouts service."}], user_id="alice")
    config = RecallConfig(lanes=["text"])

    def first(question):
        return graph.recall("alice", question, config=config).ranked_turns()[0].turn_id
    assert first("Which team am I on?") == "t-b-user"
    assert first("Which payouts service is my team on?") == "t-b-user"
    assert first("Which team is the user on?") == "t-b-user"  # an agent asking on the user's behalf
    assert first("Which team took over the payouts service?") == "t-a-assistant"
    assert first("Which team took over the payouts service for the users?") == "t-a-assistant"


def test_what_the_user_said_of_themselves_outranks_the_assistants_talk(graph):
    # A knowledge update: the user said which team they were on in passing, and later that it changed;
    # the assistant's answers in other sessions say "team" more often.
    sessions = {
        "a-invoicer": [("user", "hey, new repo: invoicer. I'm on the billing team at Kestrel. two tests fail."),
                       ("assistant", "Two tests fail in test_pdf.py: the fixture expects the old template.")],
        "b-platform": [("user", "what does the platform group own?"),
                       ("assistant", "The platform team owns the deploy pipeline, and the team reviews every "
                                     "change to it; the on-call team rotates weekly.")],
        "c-payouts": [("user", "big news: I'm on the payments team now, billing got split in the reorg."),
                      ("assistant", "Congratulations. Shall we start with the payouts-gw repository?")],
        "d-review": [("user", "who reviews the terraform changes?"),
                     ("assistant", "The infra team reviews them; a second team signs off on production.")],
    }
    for day, (session_id, turns) in enumerate(sessions.items(), start=1):
        graph.record_session_start(session_id, user_id="alice", started_at=f"2026-02-0{day}T12:00:00Z")
        graph.record_turns(session_id, [{"role": role, "text": text} for role, text in turns], user_id="alice")
        graph.embed_session(session_id)
    ranked = graph.recall("alice", "Which team am I on now?").ranked_turns()
    sessions_found = list(dict.fromkeys(turn.session_id for turn in ranked))
    assert sessions_found[0] == "c-payouts"


def test_the_asker_is_no_named_speaker(graph):
    # Where the transcript names its speakers (a group chat), "I" in a question names none of them.
    for session_id, role, name in (("a-mel", "assistant", "Melanie"), ("b-car", "user", "Caroline")):
        graph.record_session_start(session_id, user_id="alice", started_at="2026-02-01T12:00:00Z")
        graph.record_turns(session_id, [{"role": role, "speaker": name, "turn_id": f"t-{session_id}",
                                         "text": "I joined the pottery class on Sunday."}], user_id="alice")
    config = RecallConfig(lanes=["text"])
    assert graph.recall("alice", "Which class did I join?", config=config).ranked_turns()[0].turn_id == "t-a-mel"


def test_a_common_words_candidates_are_the_shortest_and_the_same_after_a_rewrite_and_a_restart(short_tmp, monkeypatch):
    """A word held by more turns than TERM_POOL gives its shortest turns, read from the length stored at ingest
    or, for a turn recorded before it, from the text. The index's own score chose them before: it changed when
    embedding wrote the turns again and when the server rebuilt the index on loading the store."""
    from sessions_graph_core import SessionsGraph
    from sessions_graph_core.recall import text_lane
    from sessions_graph_core.recall.lanes import Search
    from sessions_graph_core.store.falkordb.store import FalkorDBStore

    monkeypatch.setattr(text_lane, "TERM_POOL", 3)
    lengths = [7, 2, 9, 0, 5, 11, 1, 8, 3]
    texts_in = [f"The kafka consumer{' and the topic' * n} lagged." for n in lengths]
    shortest = {texts_in[i] for i in sorted(range(len(lengths)), key=lengths.__getitem__)[:3]}

    def candidates(store: FalkorDBStore) -> set[str]:
        found = text_lane.text_candidates(Search(store, "alice", "kafka", RecallConfig(), "m", None, ["kafka"], None))
        return {row["text"] for row in found.rows.values()}

    store = FalkorDBStore.open(short_tmp)
    try:
        graph = SessionsGraph(store)
        graph.setup()
        graph.record_session_start("s-1", user_id="alice")
        graph.record_turns("s-1", [{"role": "user", "text": text} for text in texts_in], user_id="alice")
        assert candidates(store) == shortest
        for key in ("embedding_model", "embedding_hash"):  # as embedding writes each turn
            store.run(f"MATCH (t:Turn {{user_id: 'alice'}}) SET t.{key} = 'again'")
            assert candidates(store) == shortest
        store.run("MATCH (t:Turn {user_id: 'alice'}) REMOVE t.chars")  # recorded before the length was stored
        monkeypatch.setattr(text_lane, "_SAMPLES", type(text_lane._SAMPLES)())  # as a process opening such a store
        assert candidates(store) == shortest
    finally:
        store.close()
    store = FalkorDBStore.open(short_tmp)
    try:
        assert candidates(store) == shortest
        assert SessionsGraph(store).fill_turn_evidence("alice") == len(texts_in)
        monkeypatch.setattr(text_lane, "_SAMPLES", type(text_lane._SAMPLES)())
        assert candidates(store) == shortest
    finally:
        store.close()
