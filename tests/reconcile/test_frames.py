"""The general mechanisms of issue 13's sixth round, with the real spaCy model, the real embedder and
the real store: the attribute a clause states by its nearest prototype frame when no rule names one
(the value masked, the subject-object inversion of "X hired me" / "X is where I live"), words of no
attribute that the embedder puts near each other naming one slot of a holder, "my work laptop" as a
laptop of mine, and the speaker's holder kept when a named team tracks a thing."""

from __future__ import annotations

import pytest
from reading_helpers import slots

from sessions_graph_core import SessionsGraph
from sessions_graph_core.ontology.model import DEFAULT_MODEL
from sessions_graph_core.reconcile import facts, frames
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend


def say(graph: SessionsGraph, user: str, sid: str, at: str, text: str, project: str | None = None) -> None:
    graph.record_session_start(sid, user_id=user, project_key=project, started_at=at)
    graph.record_turns(sid, [{"role": "user", "text": text, "timestamp": at, "turn_id": f"{sid}-0"}], user_id=user)


def change(graph: SessionsGraph, spacy: SpacyBackend, user: str, old: str, new: str, order: tuple,
           project: str | None = None) -> None:
    """The old statement, the new one a month later, reconciled in `order` ("old"/"new" first)."""
    say(graph, user, "old", "2026-01-05T09:00:00Z", old, project)
    say(graph, user, "new", "2026-02-05T09:00:00Z", new, project)
    for sid in order:
        assert graph.reconcile_session(sid, backend=spacy).status == "completed"


def test_the_prototypes_are_made_from_the_attribute_file_with_the_value_masked() -> None:
    made = frames.prototypes()
    assert ("location", "I live in something") in made and ("employer", "I am hired by something") in made
    assert ("database", "our database is something") in made
    assert all(frames.MASK in text for _, text in made)
    assert {name for name, _ in made} >= {"location", "employer", "ci", frames.NO_SLOT}


@pytest.mark.parametrize(
    ("masked", "expected"),
    [
        ("something hired me", "employer"),
        ("something is where I live now", "location"),
        ("I visited something", frames.NO_SLOT),  # a multi-valued frame is a class of its own
        ("I called something", frames.NO_SLOT),  # an event, not a name
        ("we talked to something about pricing", None),  # nothing clearly nearest
    ],
)
def test_a_masked_clause_takes_the_clearly_nearest_frame(masked: str, expected: str | None) -> None:
    assert frames.classify(masked) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Globex hired me last spring.", [("me/employer", "Globex")]),  # the subject is the value
        ("Acme Corp took me on as a contractor.", [("me/employer", "Acme Corp")]),
        ("Florence is where I live now.", [("me/location", "Florence")]),  # a name the tagger calls a noun
        ("Home for me is Leipzig these days.", [("me/location", "Leipzig")]),
        ("Our wiki moved to Outline.", [("@project/docs", "Outline")]),
        # No rule: a schedule verb with no time is no schedule, but the frame says what the meetings are on.
        ("Meetings happen on Google Meet now.", [("meetings/video calls", "Google Meet")]),
    ],
)
def test_a_clause_no_rule_slots_takes_its_frames_attribute(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I visited Prague in May.",
        "I met Lukas at the conference.",
        "I called Dana yesterday.",
        "I'm reading Dune.",
        "Home is where I live.",  # the attribute's own word is no value of it
        "Initrode pays my salary now.",  # near employer, but not near enough
    ],
)
def test_multi_valued_events_and_unclear_frames_fill_no_slot(spacy: SpacyBackend, text: str) -> None:
    assert slots(spacy, text) == []


def test_a_qualified_thing_of_mine_is_mine(spacy: SpacyBackend) -> None:
    assert slots(spacy, "My work phone is a Pixel 7.") == [("me/work phone", "Pixel 7")]
    assert slots(spacy, "My home city is Braga.") == [("me/location", "Braga")]  # "home" says the same attribute
    assert slots(spacy, "The orders service database is Postgres.") == [("orders service/database", "Postgres")]


def test_a_named_team_keeps_its_own_tracker(spacy: SpacyBackend) -> None:
    assert slots(spacy, "The web team tracks tickets in Linear.") == [("web team/issue tracker", "Linear")]


@pytest.mark.parametrize("order", [("old", "new"), ("new", "old")])
def test_an_inverted_statement_supersedes_in_either_order(graph: SessionsGraph, spacy: SpacyBackend, order: tuple) -> None:
    change(graph, spacy, "fr1", "I work for Initech.", "Globex hired me last month.", order)
    now = [x for x in graph.current_facts("fr1", "me") if x.slot == "me/employer"]
    assert [(x.value, x.replaced) for x in now] == [("Globex", ["I work for Initech."])]


def test_near_words_of_no_attribute_name_one_slot_of_a_holder(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    say(graph, "fr2", "a", "2026-01-05T09:00:00Z", "Our expense reports go through Expensify.", project="shop")
    say(graph, "fr2", "b", "2026-02-05T09:00:00Z", "Expenses now go through Ramp.", project="shop")
    for sid in ("b", "a"):
        graph.reconcile_session(sid, backend=spacy)
    now = [x for x in graph.current_facts("fr2", "shop") if x.slot.startswith("shop/expense")]
    assert [(x.slot, x.value, x.replaced) for x in now] == [
        ("shop/expenses", "Ramp", ["Our expense reports go through Expensify."])]


def test_words_the_embedder_puts_apart_stay_two_slots(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    assert facts._word_similarity("frontend", "backend") < facts.SAME_WORD_SIMILARITY
    say(graph, "fr3", "a", "2026-01-05T09:00:00Z", "Our backups go to Wasabi.", project="shop")
    say(graph, "fr3", "b", "2026-02-05T09:00:00Z", "Our expense reports go through Expensify.", project="shop")
    for sid in ("a", "b"):
        graph.reconcile_session(sid, backend=spacy)
    now = {x.slot: x.replaced for x in graph.current_facts("fr3", "shop")}
    assert now == {"shop/backups": [], "shop/expense reports": []}


def test_a_team_other_than_ours_holds_what_it_does_itself(spacy: SpacyBackend) -> None:
    assert slots(spacy, "The mobile team tracks bugs in Jira.") == [("mobile team/issue tracker", "Jira")]
    assert slots(spacy, "We deploy the API on Render.") == [("api/hosting", "Render")]  # ours: the thing's own


@pytest.mark.parametrize("order", [("old", "new"), ("new", "old")])
def test_a_pronoun_reconciled_before_its_holder_waits_for_it(graph: SessionsGraph, spacy: SpacyBackend, order: tuple) -> None:
    change(graph, spacy, "fr4", "Our invoicing app is hosted on Render.", "It's on Fly.io now.", order, project="shop")
    now = [x for x in graph.current_facts("fr4", "invoicing app") if x.slot.endswith("/hosting")]
    assert [(x.slot, x.value, x.replaced) for x in now] == [
        ("invoicing app/hosting", "Fly.io", ["Our invoicing app is hosted on Render."])]
    assert not [row for row in graph.store.run("MATCH (f:Fact {user_id: 'fr4'}) WHERE f.slot STARTS WITH '@' RETURN f.slot")]


def test_a_waiting_pronoun_with_two_holders_to_choose_from_stays_waiting(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    say(graph, "fr5", "new", "2026-02-05T09:00:00Z", "It's on Fly.io now.", project="shop")
    graph.reconcile_session("new", backend=spacy)
    graph.record_session_start("ab", user_id="fr5", project_key="shop", started_at="2026-01-05T09:00:00Z")
    graph.record_turns("ab", [{"role": "user", "text": text, "timestamp": "2026-01-05T09:00:00Z", "turn_id": f"ab-{n}"}
                              for n, text in enumerate(["Our invoicing app is hosted on Render.",
                                                        "Our landing page is hosted on Netlify."])], user_id="fr5")
    graph.reconcile_session("ab", backend=spacy)
    assert {x.slot: x.replaced for x in graph.current_facts("fr5", "shop") if x.slot.endswith("/hosting")} == {}
    hosting = {x.slot: x.replaced for who in ("invoicing app", "landing page") for x in graph.current_facts("fr5", who)}
    assert hosting == {"invoicing app/hosting": [], "landing page/hosting": []}
    waits = graph.store.run("MATCH (f:Fact {user_id: 'fr5'}) WHERE f.slot STARTS WITH '@' RETURN f.subject AS subject, f.value AS value")
    assert waits == [{"subject": "it", "value": "Fly.io"}]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm a paralegal now.", [("me/occupation", "paralegal")]),  # no list names it
        ("I am a midwife.", [("me/occupation", "midwife")]),
        ("I'm a morning person.", []),  # what one is that is no job
        ("I'm a Steelers fan.", []),
    ],
)
def test_a_job_no_list_names_is_an_occupation_by_the_embedder(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


def test_an_unlisted_job_supersedes_the_old_one(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    say(graph, "fr6", "a", "2026-01-05T09:00:00Z", "I'm a bartender.")
    say(graph, "fr6", "b", "2026-02-05T09:00:00Z", "I work as a paralegal now.")
    for sid in ("b", "a"):
        graph.reconcile_session(sid, backend=spacy)
    now = [x for x in graph.current_facts("fr6", "me") if x.slot == "me/occupation"]
    assert [(x.value, x.replaced) for x in now] == [("paralegal", ["I'm a bartender."])]


@pytest.mark.parametrize("order", [("old", "new"), ("new", "old")])
def test_a_change_naming_its_old_value_finds_it_under_another_name(graph: SessionsGraph, spacy: SpacyBackend, order: tuple) -> None:
    change(graph, spacy, "fr7", "Our docs site is hosted on Ghost.", "We moved the help center from Ghost to Hashnode.", order, project="shop")
    now = [x for x in graph.current_facts("fr7", "docs site") if x.slot == "docs site/hosting"]
    assert [(x.value, x.replaced) for x in now] == [("Hashnode", ["Our docs site is hosted on Ghost."])]


@pytest.mark.parametrize("order", [("old", "new"), ("new", "old")])
def test_a_change_of_mine_never_ends_what_someone_else_holds(graph: SessionsGraph, spacy: SpacyBackend, order: tuple) -> None:
    change(graph, spacy, "fr8", "My sister works at Google.", "I left Google.", order)
    assert graph.store.run("MATCH (:Fact {user_id: 'fr8'})-[r:SUPERSEDES]->() RETURN count(r) AS n")[0]["n"] == 0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Started at Hooli on Monday.", [("me/employer", "Hooli")]),
        ("moved to Bilbao last week, loving it", [("me/location", "Bilbao")]),
        ("Based in Lisbon now.", [("me/location", "Lisbon")]),
        ("Moving to Oslo next month.", []),  # not done yet: no past tense, no speaker put in
    ],
)
def test_a_sentence_that_drops_the_speaker_is_read_with_i(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


def test_a_dropped_speaker_adds_only_what_fills_a_slot(spacy: SpacyBackend) -> None:
    facts = spacy.extract(["Fixed the flaky test."], DEFAULT_MODEL)[0].facts
    assert not any(f.slot or f.subject == "I" for f in facts)
