"""The learned ranker of recall's fusion: the shipped one loads and ranks on the real store, never
lowers a turn for more evidence and gives a session's evidence its least share; the benchmark's fit
keeps those bounds where the data would pull a weight below them; a ranker that names what the
fusion does not describe is refused."""

from __future__ import annotations

import numpy as np
import pytest
from benchmark_modules import load_benchmark

from sessions_graph_core.recall import fusion
from sessions_graph_core.recall.config import RecallConfig
from sessions_graph_core.recall.lanes import Search, StoreTurns, fact_lanes
from sessions_graph_core.recall.periods import mentioned_periods
from sessions_graph_core.recall.search import WEIGHTS, message_candidates
from sessions_graph_core.text import search_terms

TALK = [
    ("user", "We need a cache in front of the orders service.", "2026-03-02T09:00:00Z"),
    ("assistant", "Redis fits: it keeps hot keys in memory and supports expiry.", "2026-03-02T09:01:00Z"),
    ("user", "The weekly report should go to Priya every Friday.", "2026-03-02T09:02:00Z"),
    ("assistant", "Noted: Priya gets the report on Fridays.", "2026-03-02T09:03:00Z"),
    ("user", "Unrelated: my daughter started violin lessons this spring.", "2026-03-02T09:04:00Z"),
]


def test_the_shipped_ranker_loads_and_weighs_only_known_features():
    ranker = fusion.shipped_ranker()
    assert ranker.version == 1
    assert ranker.weights, "the shipped ranker has no weights"
    named = {part for term in ranker.weights for part in term.split("*")}
    assert named <= set(fusion.FEATURES)
    # Matching the question's words in the full-text lane counts for a turn, not against it.
    assert ranker.weights["text"] > 0


def test_a_ranker_naming_an_unknown_feature_is_refused():
    with pytest.raises(ValueError, match=r"unknown features \['colour\*text'\]"):
        fusion.Ranker(1, {"text": 1.0, "colour*text": 0.5})


def test_the_features_of_a_real_pool_lie_in_0_1_and_the_ranker_puts_the_matching_turn_first(graph):
    graph.record_session_start("s-1", user_id="alice", started_at=TALK[0][2])
    graph.record_turns("s-1", [{"role": role, "text": text, "timestamp": ts} for role, text, ts in TALK], user_id="alice")
    graph.embed_session("s-1")
    question = "How are the violin lessons going?"
    config = RecallConfig()
    search = Search(graph.store, "alice", question, config, config.model(), None, search_terms(question),
                    mentioned_periods(question))
    search.embed_question()
    _, fact_scores = fact_lanes(search)
    found, rows, _ = message_candidates(search, fact_scores)
    described = fusion.features(found, dict(rows), StoreTurns(search), question=question, periods=(),
                                width=config.message_width(), weights=WEIGHTS)
    assert set(described) == {row["turn_id"] for row in graph.store.run("MATCH (t:Turn) RETURN t.turn_id AS turn_id")}
    for values in described.values():
        assert set(values) == set(fusion.FEATURES)
        assert all(0.0 <= value <= 1.0 for value in values.values()), values
    ranked = fusion.rank(found, rows, StoreTurns(search), question=question, periods=(),
                         width=config.message_width(), weights=WEIGHTS)
    by_text = {row["turn_id"]: row["text"] for row in graph.store.run("MATCH (t:Turn) RETURN t.turn_id AS turn_id, t.text AS text")}
    assert by_text[ranked[0][0]] == "Unrelated: my daughter started violin lessons this spring."
    # The same ranking with every weight 0 ranks nothing above anything: the order comes from the weights.
    flat = fusion.rank(found, dict(rows), StoreTurns(search), question=question, periods=(),
                       width=config.message_width(), weights=WEIGHTS, ranker=fusion.Ranker(1, {"text": 0.0}))
    assert {score for _, score in flat} == {0.0}


def test_the_ranker_scores_all_turns_at_once_as_it_would_one_by_one():
    ranker = fusion.shipped_ranker()
    rng = np.random.default_rng(3)
    described = {f"t-{i}": dict(zip(fusion.FEATURES, rng.random(len(fusion.FEATURES)), strict=True)) for i in range(50)}
    described["t-0"] = dict.fromkeys(fusion.FEATURES, 0.0)
    one_by_one = {}
    for tid, values in described.items():
        total = 0.0
        for term, weight in ranker.weights.items():
            product = weight
            for part in term.split("*"):
                product *= values[part]
            total += product
        one_by_one[tid] = total
    # Equal, not approximately: the same products and sums in the same order, so rankings tie-break alike.
    assert ranker.scores(described) == one_by_one


@pytest.mark.parametrize(
    ("question", "evidence"),
    [
        ("Priya Redis?", False),  # two names: no word with a WordNet sense, and no "when"
        ("When did Priya Redis?", True),  # asks when: does a turn say when?
        ("Which Redis instrument?", True),  # names a concept: does a turn name a kind of instrument?
    ],
)
def test_the_pools_evidence_is_read_only_for_a_question_it_can_answer(graph, question, evidence):
    graph.record_session_start("s-1", user_id="alice", started_at=TALK[0][2])
    graph.record_turns("s-1", [{"role": role, "text": text, "timestamp": ts} for role, text, ts in TALK], user_id="alice")
    config = RecallConfig(lanes=["text"])
    search = Search(graph.store, "alice", question, config, config.model(), None, search_terms(question),
                    mentioned_periods(question))
    found, rows, _ = message_candidates(search, {})
    reads = []

    class Reading(StoreTurns):
        def around(self, rows, turn_ids, reach, *, evidence):
            reads.append(evidence)
            found = list(super().around(rows, turn_ids, reach, evidence=evidence))
            # The turns were recorded with their evidence properties: the texts are never read here.
            assert all(("concept_words" in row) == evidence and "text" not in row for row in found)
            return found

    assert fusion.rank(found, rows, Reading(search), question=question, periods=(), width=config.message_width(),
                       weights=WEIGHTS)
    assert reads == [evidence]
    # Either way, the turns recall hands back come with their texts.
    shown = graph.recall("alice", question, config=config).ranked_turns()
    assert any("Redis" in turn.text for turn in shown)


def test_the_shipped_ranker_never_lowers_a_turn_for_more_evidence():
    weights = fusion.shipped_ranker().weights
    evidence_terms = {term: weight for term, weight in weights.items()
                      if all(part in fusion.EVIDENCE for part in term.split("*"))}
    assert {"text", "vector", "session", "coverage", "next"} <= set(evidence_terms)
    assert all(weight >= 0 for weight in evidence_terms.values()), evidence_terms
    # A session's evidence weighs at least its share of the turn's own text evidence.
    assert weights["session"] >= fusion.SESSION_SHARE * (weights["text"] + weights["strength"]) - 1e-5


def test_the_fit_keeps_evidence_weights_in_bounds_where_the_data_pull_them_below():
    bench = load_benchmark("bench_recall_quality")
    rng = np.random.default_rng(7)
    column = {term: i for i, term in enumerate(bench.TERMS)}
    described = []
    for number in range(40):
        terms = rng.uniform(0, 1, size=(30, len(bench.TERMS)))
        evidence = np.zeros(30, dtype=bool)
        evidence[:3] = True
        terms[evidence, column["text"]] += 1.0  # the text lane finds the evidence
        terms[evidence, column["vector"]] -= 0.8  # the vector lane, in this data, points away from it
        terms[evidence, column["session"]] -= 0.3  # and so does the session's evidence
        terms[evidence, column["asks"]] -= 0.8  # a turn that asks is not evidence here
        item = bench.Item("u", 0, f"q{number}", frozenset(f"t{i}" for i in range(3)), frozenset({"s"}), 4)
        described.append(bench.Described(item, [f"t{i}" for i in range(30)], terms, evidence))
    w = dict(zip(bench.TERMS, bench.fit(*bench.pairs(described), 1e-4), strict=True))
    assert w["text"] > 1.0
    assert w["vector"] == 0.0
    assert w["session"] == pytest.approx(fusion.SESSION_SHARE * (w["text"] + w["strength"]))
    assert min(w[term] for term in bench.TERMS if bench.BOUNDED[column[term]]) >= 0.0
    # A feature that is not evidence is fitted freely, below 0 where the data say so.
    assert w["asks"] < -0.5


def test_a_turn_talks_within_a_period_by_the_share_of_the_time_it_talks_about_that_falls_in_it():
    december = mentioned_periods("What did I give in December 2023?")

    def said(text, day):
        return {"timestamp": f"{day}T12:00:00Z", "text": text}

    assert fusion.talks_within(said("Last month I donated coats.", "2024-01-20"), december) == 1.0  # all of it
    assert fusion.talks_within(said("This year I donated coats.", "2023-06-10"), december) == 31 / 365
    assert fusion.talks_within(said("Last week I donated coats.", "2023-10-10"), december) == 0.0
    assert fusion.talks_within(said("Last month I donated coats.", "2024-01-20"), ()) == 0.0  # no period asked
    assert fusion.talks_within({"timestamp": None, "text": "Yesterday I donated coats."}, december) == 0.0
