"""Statements the reader is not sure of are written as candidates (issue 38, seventh round), on the real
store with the real spaCy reader and the shipped learned gate: written with their provenance, not shown by
`facts`, recall or the traced list unless asked for, shown once stated again in another session or taken
into a slot, and each user's own."""

from __future__ import annotations

from sessions_graph_core import SessionsGraph
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend
from tests.reconcile.reading_helpers import reconciled, record

# A reaction that names nothing (junk by tests/data/junk_facts/README.md rule 4): the gate holds it back.
UNSURE = "I appreciate the support."
# A statement that names something: shown, whatever the gate says of it.
SURE = "Last week, I got a new Ferrari."


def _fact(graph: SessionsGraph, user: str, text: str) -> dict:
    rows = graph.store.run(
        "MATCH (f:Fact {user_id: $user, text: $text}) OPTIONAL MATCH (f)-[:FROM]->(t:Turn) "
        "OPTIONAL MATCH (s:Session)-[:DISCOVERED]->(f) "
        "RETURN f.candidate AS candidate, f.promoted_because AS because, f.promoted_by AS by, f.promoted_at AS at, "
        "f.slot AS slot, collect(DISTINCT t.turn_id) AS turns, collect(DISTINCT s.session_id) AS sessions",
        {"user": user, "text": text},
    )
    assert len(rows) == 1, rows
    return rows[0]


def _listed(graph: SessionsGraph, user: str, *, candidates: bool = False) -> set[str]:
    return {fact.text for fact in graph.traced_facts(user, candidates=candidates)}


def test_a_statement_the_reader_is_not_sure_of_is_written_with_its_provenance_but_not_listed(
    graph: SessionsGraph, spacy: SpacyBackend
) -> None:
    record(graph, "c1", {"c1-a": f"{UNSURE} {SURE}"})
    graph.reconcile_session("c1-a", backend=spacy)
    held = _fact(graph, "c1", UNSURE)
    assert held["candidate"] is True and held["turns"] == ["c1-a-0"] and held["sessions"] == ["c1-a"]
    assert _fact(graph, "c1", SURE)["candidate"] is None
    assert SURE in _listed(graph, "c1") and UNSURE not in _listed(graph, "c1")
    shown = {fact.text: fact.candidate for fact in graph.traced_facts("c1", candidates=True)}
    assert shown[UNSURE] is True and shown[SURE] is False


def test_a_candidate_stated_again_in_another_session_is_shown(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    record(graph, "c2", {"c2-a": UNSURE, "c2-b": "Busy week at work. " + UNSURE})
    graph.reconcile_session("c2-a", backend=spacy)
    assert _fact(graph, "c2", UNSURE)["candidate"] is True
    graph.reconcile_session("c2-a", backend=spacy)  # the same session again confirms nothing
    assert _fact(graph, "c2", UNSURE)["candidate"] is True
    graph.reconcile_session("c2-b", backend=spacy)
    promoted = _fact(graph, "c2", UNSURE)
    assert promoted["candidate"] is None and promoted["because"] == "stated again" and promoted["at"]
    assert sorted(promoted["sessions"]) == ["c2-a", "c2-b"]
    assert UNSURE in _listed(graph, "c2")
    # Forgetting the session that confirmed it holds it back again, as before that session came.
    graph.forget_session("c2", "c2-b")
    again = _fact(graph, "c2", UNSURE)
    assert again["candidate"] is True and again["because"] is None and again["at"] is None
    assert UNSURE not in _listed(graph, "c2")


def test_a_candidate_taken_into_a_slot_is_shown_and_supersedes_as_before(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    # "heatmaps are in clarity now" is in no slot when read alone, and the gate calls it junk; the project's
    # heatmaps slot, said later in time order but reconciled after it, takes it into its chain.
    texts = {"c3-a": "we're using hotjar for heatmaps", "c3-b": "heatmaps are in clarity now"}
    said = "Heatmaps are in clarity now."  # as the reader writes it
    record(graph, "c3", texts)
    graph.reconcile_session("c3-b", backend=spacy)
    waiting = _fact(graph, "c3", said)
    assert waiting["candidate"] is True and "/" not in waiting["slot"]
    assert reconciled(graph, spacy, "c3", {}, ("c3-a",)) == [("hotjar", "clarity")]
    adopted = _fact(graph, "c3", said)
    assert adopted["candidate"] is None and adopted["because"] == "taken into a slot" and "/" in adopted["slot"]
    taker = graph.store.run("MATCH (f:Fact {user_id: 'c3'})-[:FROM]->(:Turn {turn_id: 'c3-a-0'}) RETURN f.fact_id AS id")
    assert adopted["by"] == [taker[0]["id"]]
    assert said in _listed(graph, "c3")


def test_candidates_are_each_users_own(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    record(graph, "c4", {"c4-a": UNSURE})
    record(graph, "c5", {"c5-a": UNSURE})
    graph.reconcile_session("c4-a", backend=spacy)
    graph.reconcile_session("c5-a", backend=spacy)
    # Another user saying it is no second session of this user's.
    assert _fact(graph, "c4", UNSURE)["candidate"] is True and _fact(graph, "c5", UNSURE)["candidate"] is True
    c4 = graph.traced_facts("c4", candidates=True)
    assert [fact.text for fact in c4] == [UNSURE]
    assert {fact.fact_id for fact in c4}.isdisjoint(fact.fact_id for fact in graph.traced_facts("c5", candidates=True))


def test_recall_shows_a_candidate_only_when_asked(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    from sessions_graph_core.embeddings.vectors import embed_sessions

    record(graph, "c6", {"c6-a": f"{UNSURE} {SURE}"})
    graph.reconcile_session("c6-a", backend=spacy)
    embed_sessions(graph.store, ["c6-a"])
    shown = {fact.text for fact in graph.recall("c6", "what support did I appreciate?", budget_tokens=0).facts}
    asked = {fact.text for fact in graph.recall("c6", "what support did I appreciate?", budget_tokens=0, candidates=True).facts}
    assert UNSURE not in shown and UNSURE in asked
