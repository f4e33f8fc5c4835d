"""Offline supersession on the real store with the real spaCy model: seed 002's story and everyday changes."""

from __future__ import annotations

import pytest

from sessions_graph_core import SessionsGraph
from sessions_graph_core.ontology.model import DEFAULT_MODEL
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend
from tests.seed002 import USER, record_session


def say(graph: SessionsGraph, user: str, sid: str, at: str, *texts: str, project: str | None = None) -> None:
    graph.record_session_start(sid, user_id=user, project_key=project, started_at=at)
    graph.record_turns(sid, [{"role": "user", "text": text, "timestamp": at, "turn_id": f"{sid}-{n}"} for n, text in enumerate(texts)], user_id=user)


def test_seed_002_story_gives_the_seeds_recall_table_offline(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    for index in (0, 1):
        assert graph.reconcile_session(record_session(graph, index), backend=spacy).status == "completed"
    now = graph.current_facts(USER, "What do you remember about the orders service?")
    owner = next(x for x in now if x.slot == "orders service/owner")
    database = next(x for x in now if x.slot == "orders service/database")
    assert "Carol" in owner.text and owner.replaced == ["Alice owns the orders service."]
    assert "CockroachDB" in database.text and database.kind == "decision"
    assert database.rationale == "Postgres failover was too slow in the multi-region test"
    assert len(database.replaced) == 1 and "Postgres" in database.replaced[0]
    assert not any("Alice owns" in x.text for x in now)
    history = {x.text for x in graph.fact_history(USER, "orders service")}
    assert "Alice owns the orders service." in history and any("use Postgres" in text for text in history)


def test_a_change_weeks_later_supersedes_and_recall_shows_what_it_replaced(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    say(graph, "u1", "s1", "2026-01-05T09:00:00Z", "I live in Austin these days.")
    say(graph, "u1", "s2", "2026-01-20T09:00:00Z", "Please summarise the meeting notes.")
    say(graph, "u1", "s3", "2026-02-02T09:00:00Z", "Last month I relocated to Seattle.")
    for sid in ("s3", "s1", "s2"):  # out of order: the chain follows when things were said
        graph.reconcile_session(sid, backend=spacy)
    now = graph.current_facts("u1", "me")
    assert [(x.slot, x.replaced) for x in now if x.slot == "me/location"] == [("me/location", ["I live in Austin these days."])]
    assert [x.text for x in graph.facts_as_of("u1", "me", "2026-01-10T00:00:00Z")] == ["I live in Austin these days."]


def test_a_place_the_tagger_calls_a_person_is_still_where_we_moved(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    """spaCy's small model tags York a PERSON in "we moved to York on Saturday"; no one moves to a person."""
    say(graph, "u1", "s1", "2026-01-05T09:00:00Z", "We live in Headingley in Leeds right now.")
    say(graph, "u1", "s2", "2026-02-02T09:00:00Z", "Update: we moved to York on Saturday! The flat is lovely.")
    for sid in ("s1", "s2"):
        graph.reconcile_session(sid, backend=spacy)
    now = [(x.slot, x.value, x.replaced) for x in graph.current_facts("u1", "me") if x.slot == "me/location"]
    assert now == [("me/location", "York", ["We live in Headingley in Leeds right now."])]
    for sid in ("s1", "s2"):
        graph.embed_session(sid)
    # "live" names the slot: its current value is the first row a small budget keeps.
    first = graph.recall("u1", "Where do I live?", budget_tokens=60).facts[0].line()
    assert first.startswith("FACT (current): me -[location @ 2026-02-02]-> York (was: Headingley)"), first


def test_a_tool_the_tagger_calls_a_person_is_no_place(spacy: SpacyBackend) -> None:
    """The embedder puts "Graphite" (a code-review tool, tagged PERSON) nearer a database than a place."""
    assert not [f.slot for f in spacy.extract(["We moved to Graphite on Friday."], DEFAULT_MODEL)[0].facts if f.slot.endswith("location")]


def test_we_is_the_sessions_project(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    say(graph, "u2", "a", "2026-01-05T09:00:00Z", "Our CI is Jenkins.", project="invoicer")
    say(graph, "u2", "b", "2026-02-05T09:00:00Z", "We migrated CI from Jenkins to Buildkite.", project="invoicer")
    for sid in ("a", "b"):
        graph.reconcile_session(sid, backend=spacy)
    now = graph.current_facts("u2", "invoicer")
    assert [(x.slot, x.replaced) for x in now] == [("invoicer/ci", ["Our CI is Jenkins."])]


def test_an_ending_with_no_new_value_ends_the_slot(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    say(graph, "u3", "a", "2026-01-05T09:00:00Z", "We use Sentry for error tracking.", project="shop")
    say(graph, "u3", "b", "2026-02-05T09:00:00Z", "We stopped using Sentry.", project="shop")
    for sid in ("a", "b"):
        graph.reconcile_session(sid, backend=spacy)
    ended = [x for x in graph.current_facts("u3", "shop") if x.slot == "shop/error tracking"]
    assert [(x.text, x.replaced) for x in ended] == [("We stopped using Sentry.", ["We use Sentry for error tracking."])]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I work at Shopify.", "I live in Lisbon."),  # another attribute of the same subject
        ("My brother lives in Leeds.", "I live in York."),  # the same attribute of another subject
        ("I visited Rome last year.", "I visited Kyoto in April."),  # multi-valued
    ],
)
def test_statements_that_do_not_conflict_never_supersede(graph: SessionsGraph, spacy: SpacyBackend, old: str, new: str) -> None:
    say(graph, "u4", "a", "2026-01-05T09:00:00Z", old)
    say(graph, "u4", "b", "2026-02-05T09:00:00Z", new)
    for sid in ("b", "a"):
        graph.reconcile_session(sid, backend=spacy)
    assert graph.store.run("MATCH (:Fact {user_id: 'u4'})-[r:SUPERSEDES]->() RETURN count(r) AS n")[0]["n"] == 0
    assert graph.store.run("MATCH (f:Fact {user_id: 'u4'}) RETURN count(f) AS n")[0]["n"] == 2


def test_a_restatement_reconciled_first_is_one_node_holding_from_the_earlier_time(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    say(graph, "u5", "a", "2026-01-05T09:00:00Z", "The web app is hosted on Fly.io.")
    say(graph, "u5", "b", "2026-02-05T09:00:00Z", "The web app runs on Fly.io.")
    for sid in ("b", "a"):
        graph.reconcile_session(sid, backend=spacy)
    rows = graph.store.run("MATCH (f:Fact {user_id: 'u5', slot: 'web app/hosting'}) RETURN f.valid_at AS at, f.superseded_at AS gone")
    assert rows == [{"at": "2026-01-05T09:00:00.000000Z", "gone": None}]


def test_tool_call_arguments_state_no_facts(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    graph.record_session_start("t", user_id="u6", started_at="2026-01-05T09:00:00Z")
    graph.record_turns("t", [
        {"role": "assistant", "type": "tool_call", "tool_name": "Edit",
         "tool_input": {"note": "Bob owns the billing service."}, "timestamp": "2026-01-05T09:00:00Z"},
        # The same kind of words said by the user are a fact: the gate is the tool call, not the text.
        {"role": "user", "text": "Alice owns the orders service.", "timestamp": "2026-01-05T09:01:00Z"},
    ], user_id="u6")
    assert graph.reconcile_session("t", backend=spacy).status == "completed"
    rows = graph.store.run("MATCH (f:Fact {user_id: 'u6'}) RETURN f.slot AS slot")
    assert rows == [{"slot": "orders service/owner"}]


def test_recall_shows_the_slots_reading_current_first_with_what_it_replaced(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    from sessions_graph_core.recall.search import RecallConfig

    for index in (0, 1):
        graph.embed_session(graph.reconcile_session(record_session(graph, index), backend=spacy).session_id)
    recalled = graph.recall(USER, "Who owns the orders service?", config=RecallConfig(lanes=("entities", "facts")))
    lines = [fact.line() for fact in recalled.facts]
    # The slots' current values first, each with the value and the statement it replaced (Bob's
    # on-call slot of the billing service, which "he is on call" fills, is current too).
    current = [line for line in lines if line.startswith("FACT (current)")]
    assert lines[: len(current)] == current and len(current) == 3, lines
    owner = next(line for line in current if "-[owner" in line)
    database = next(line for line in current if "-[database" in line)
    assert any(line.startswith("FACT (current): billing service -[on-call @ 2026-03-02]-> Bob") for line in current)
    assert owner.startswith("FACT (current): orders service -[owner @ 2026-03-16]-> Carol (was: Alice) -- ")
    assert 'replaces: "Alice owns the orders service."' in owner
    assert not any("-[owner @ 2026-03-02]-> Alice" in line for line in lines)  # the stale value is never current
    assert database.startswith("FACT (current): orders service -[database @ 2026-03-16]-> CockroachDB (was: Postgres) -- ")
    assert '"The orders service is switching to CockroachDB."' in database
    assert "(because: Postgres failover was too slow in the multi-region test)" in database
    assert "FACT (current) row holds now" in recalled.render()
    then = graph.recall(USER, "Who owns the orders service?", config=RecallConfig(lanes=("entities", "facts")),
                        as_of="2026-03-10T00:00:00Z")
    assert any(f.line().startswith("FACT (as of 2026-03-10): orders service -[owner @ 2026-03-02]-> Alice -- ")
               for f in then.facts), [f.line() for f in then.facts]


def test_recall_shows_an_ended_slot_as_none_with_the_value_it_ended(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    from sessions_graph_core.recall.search import RecallConfig

    say(graph, "u7", "a", "2026-01-05T09:00:00Z", "We use Sentry for error tracking.", project="shop")
    say(graph, "u7", "b", "2026-02-05T09:00:00Z", "We stopped using Sentry.", project="shop")
    for sid in ("b", "a"):
        graph.embed_session(graph.reconcile_session(sid, backend=spacy).session_id)
    recalled = graph.recall("u7", "Do we still use Sentry for error tracking?", config=RecallConfig(lanes=("entities", "facts")))
    lines = [fact.line() for fact in recalled.facts]
    assert lines and lines[0].startswith("FACT (current): shop -[error tracking @ 2026-02-05]-> (none) (was: Sentry) -- "), lines
    assert not any("-> Sentry" in line for line in lines)


@pytest.mark.parametrize("order", [("a", "b"), ("b", "a")])
@pytest.mark.parametrize(
    ("old", "new", "slot", "values"),
    [
        ("We use PagerDuty for alerts.", "We've cancelled PagerDuty.", "shop/alerts", ["PagerDuty", ""]),
        ("Logs go to Papertrail.", "We replaced Papertrail with Loki.", "shop/logs", ["Papertrail", "Loki"]),
        ("I use Spotify for music.", "I cancelled Spotify and switched to Apple Music.", "me/music", ["Spotify", "", "Apple Music"]),
        ("My car is a Honda Civic.", "I sold the Civic last week.", "me/car", ["Honda Civic", ""]),  # by its short name
        ("I'm a member of the chess club.", "I left the chess club.", "me/chess club membership", ["chess club", ""]),
    ],
)
def test_a_change_that_names_only_the_old_value_joins_the_slot_that_held_it(
    graph: SessionsGraph, spacy: SpacyBackend, order: tuple[str, str], old: str, new: str, slot: str, values: list[str]
) -> None:
    say(graph, "u8", "a", "2026-01-05T09:00:00Z", old, project="shop")
    say(graph, "u8", "b", "2026-02-05T09:00:00Z", new, project="shop")
    for sid in order:  # whichever is reconciled first
        graph.reconcile_session(sid, backend=spacy)
    chain = graph.store.run(  # the subject's slots ("sold the Civic" also ends "civic/owner")
        "MATCH (f:Fact {user_id: 'u8'}) WHERE f.slot STARTS WITH $holder RETURN f.slot AS slot, f.value AS value, "
        "f.superseded_at IS NULL AS current ORDER BY f.rank", {"holder": slot.split("/")[0] + "/"}
    )
    assert [(row["slot"], row["value"]) for row in chain] == [(slot, value) for value in values]
    assert [row["current"] for row in chain] == [False] * (len(values) - 1) + [True]
    edges = graph.store.run("MATCH (:Fact {user_id: 'u8'})-[r:SUPERSEDES]->() RETURN count(r) AS n")[0]["n"]
    assert edges == len(values) - 1


def test_a_change_waiting_for_its_slot_is_no_known_slot(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    from sessions_graph_core.reconcile import facts

    say(graph, "u9", "a", "2026-01-05T09:00:00Z", "We've cancelled PagerDuty.", project="shop")
    graph.reconcile_session("a", backend=spacy)
    waiting = graph.store.run("MATCH (f:Fact {user_id: 'u9'}) RETURN f.slot AS slot")
    assert waiting == [{"slot": "shop/*pagerduty"}]
    assert facts.known_slots(graph.store, "u9") == []


@pytest.mark.parametrize("order", [("a", "b"), ("b", "a")])
def test_a_shorter_mention_of_a_holder_is_the_same_slot(graph: SessionsGraph, spacy: SpacyBackend, order: tuple[str, str]) -> None:
    say(graph, "u10", "a", "2026-01-05T09:00:00Z", "The data warehouse is BigQuery.", project="shop")
    say(graph, "u10", "b", "2026-02-05T09:00:00Z", "We've moved the warehouse to Snowflake.", project="shop")
    for sid in order:
        graph.reconcile_session(sid, backend=spacy)
    rows = graph.store.run("MATCH (f:Fact {user_id: 'u10'}) WHERE f.slot <> '' RETURN f.slot AS slot, f.value AS value, "
                           "f.superseded_at IS NULL AS current ORDER BY f.rank")
    first = "data warehouse" if order == ("a", "b") else "warehouse"  # the mention reconciled first names it
    assert rows == [{"slot": f"{first}/database", "value": "BigQuery", "current": False},
                    {"slot": f"{first}/database", "value": "Snowflake", "current": True}]


def test_two_holders_that_a_short_mention_could_mean_stay_apart(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    say(graph, "u11", "a", "2026-01-05T09:00:00Z", "The data warehouse is BigQuery.", "The events warehouse is Redshift.")
    say(graph, "u11", "b", "2026-02-05T09:00:00Z", "We've moved the warehouse to Snowflake.")
    for sid in ("a", "b"):
        graph.reconcile_session(sid, backend=spacy)
    assert graph.store.run("MATCH (:Fact {user_id: 'u11'})-[r:SUPERSEDES]->() RETURN count(r) AS n")[0]["n"] == 0


def test_a_pronoun_in_a_later_turn_is_the_person_an_earlier_turn_named(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    say(graph, "u20", "a", "2026-01-05T09:00:00Z", "Dana lives in Lisbon.")
    say(graph, "u20", "b", "2026-02-05T09:00:00Z", "I had coffee with Dana yesterday.", "She lives in Porto now.")
    for sid in ("b", "a"):
        graph.reconcile_session(sid, backend=spacy)
    now = graph.current_facts("u20", "Dana")
    assert [(x.slot, x.text, x.replaced) for x in now if x.slot] == [
        ("dana/location", "She lives in Porto now.", ["Dana lives in Lisbon."])
    ]


def test_a_pronoun_nothing_in_the_session_names_waits_and_names_no_entity(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    say(graph, "u21", "a", "2026-01-05T09:00:00Z", "She moved to Berlin.", "It runs on Postgres now.")
    graph.reconcile_session("a", backend=spacy)
    rows = graph.store.run("MATCH (f:Fact {user_id: 'u21'}) RETURN f.slot AS slot, f.subject AS subject ORDER BY f.slot")
    # Each waits in a slot of its own (see test_frames.py for what it joins later), said as the pronoun.
    assert [(row["slot"].split("/")[1], row["subject"]) for row in rows] == [("**location", "they"), ("**database", "it")]
    assert all(row["slot"].startswith(("@person", "@thing")) for row in rows)
    assert graph.store.run("MATCH (n:Entity {user_id: 'u21'}) WHERE n.name STARTS WITH '@' RETURN count(n) AS n")[0]["n"] == 0


@pytest.mark.parametrize("order", [("a", "b"), ("b", "a")])
def test_a_name_stopped_ends_the_slot_that_held_it_whatever_word_named_that_slot(
    graph: SessionsGraph, spacy: SpacyBackend, order: tuple[str, str]
) -> None:
    # "billing" is not the attribute Stripe's kind names ("payments"): the ending also waits for whatever
    # held Stripe, and where both readings land in one slot they are one statement (see the Sentry test).
    say(graph, "u22", "a", "2026-01-05T09:00:00Z", "We use Stripe for billing.", project="shop")
    say(graph, "u22", "b", "2026-02-05T09:00:00Z", "We stopped using Stripe.", project="shop")
    for sid in order:
        graph.reconcile_session(sid, backend=spacy)
    rows = graph.store.run("MATCH (f:Fact {user_id: 'u22', slot: 'shop/billing'}) RETURN f.value AS value, "
                           "f.superseded_at IS NULL AS current ORDER BY f.rank")
    assert rows == [{"value": "Stripe", "current": False}, {"value": "", "current": True}]


@pytest.mark.parametrize("order", [("a", "b"), ("b", "a")])
def test_an_events_schedule_is_one_slot_whether_said_in_the_singular_or_the_plural(
    graph: SessionsGraph, spacy: SpacyBackend, order: tuple[str, str]
) -> None:
    say(graph, "u23", "a", "2026-01-05T09:00:00Z", "Our retro is on Fridays.", project="shop")
    say(graph, "u23", "b", "2026-02-05T09:00:00Z", "Retros are on Thursdays now.", project="shop")
    for sid in order:
        graph.reconcile_session(sid, backend=spacy)
    now = graph.current_facts("u23", "retro")
    assert [(x.slot, x.value, x.replaced) for x in now if x.slot] == [
        ("retro/schedule", "Thursdays", ["Our retro is on Fridays."])
    ]


@pytest.mark.parametrize("order", [("a", "b"), ("b", "a")])
def test_a_slot_named_by_a_word_of_no_attribute_is_the_slot_of_its_values_kind(
    graph: SessionsGraph, spacy: SpacyBackend, order: tuple[str, str]
) -> None:
    # "dashboards" names no attribute; Grafana and Datadog are both monitoring (listed), and the
    # other slot is named "monitoring": one slot, whichever statement is reconciled first.
    say(graph, "u24", "a", "2026-01-05T09:00:00Z", "We use Grafana for dashboards.", project="shop")
    say(graph, "u24", "b", "2026-02-05T09:00:00Z", "Our monitoring is Datadog now.", project="shop")
    for sid in order:
        graph.reconcile_session(sid, backend=spacy)
    rows = graph.store.run("MATCH (f:Fact {user_id: 'u24'}) WHERE f.slot <> '' RETURN f.value AS value, "
                           "f.superseded_at IS NULL AS current ORDER BY f.rank")
    assert rows == [{"value": "Grafana", "current": False}, {"value": "Datadog", "current": True}]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("We use Grafana for dashboards.", "We use Datadog for alerting."),  # neither slot is named by the kind
        ("We use Sentry for errors.", "We use PostHog for analytics."),  # two kinds
        ("I live in Porto.", "I work in Lisbon."),  # places are never matched by their kind
    ],
)
def test_values_of_one_kind_in_slots_not_named_by_it_stay_apart(graph: SessionsGraph, spacy: SpacyBackend, old: str, new: str) -> None:
    say(graph, "u25", "a", "2026-01-05T09:00:00Z", old, project="shop")
    say(graph, "u25", "b", "2026-02-05T09:00:00Z", new, project="shop")
    for sid in ("b", "a"):
        graph.reconcile_session(sid, backend=spacy)
    assert graph.store.run("MATCH (:Fact {user_id: 'u25'})-[r:SUPERSEDES]->() RETURN count(r) AS n")[0]["n"] == 0


@pytest.mark.parametrize(
    ("old", "new", "slot"),
    [
        ("Our app is hosted on Render.", "It's on Fly.io now.", "app/hosting"),
        ("Kim lives in Boston.", "She moved to Chicago in May.", "kim/location"),
    ],
)
def test_a_pronoun_its_session_leaves_open_is_the_only_holder_of_that_attribute(
    graph: SessionsGraph, spacy: SpacyBackend, old: str, new: str, slot: str
) -> None:
    # The old statement in the store first; a pronoun reconciled before any holder exists waits for one
    # (tests/reconcile/test_frames.py).
    say(graph, "u26", "a", "2026-01-05T09:00:00Z", old)
    say(graph, "u26", "b", "2026-02-05T09:00:00Z", new)
    for sid in ("a", "b"):
        graph.reconcile_session(sid, backend=spacy)
    rows = graph.store.run("MATCH (f:Fact {user_id: 'u26'}) WHERE f.slot <> '' RETURN f.slot AS slot, f.text AS text, "
                           "f.superseded_at IS NULL AS current ORDER BY f.rank")
    assert rows == [{"slot": slot, "text": old, "current": False}, {"slot": slot, "text": new, "current": True}]


def test_a_pronoun_that_could_be_either_of_two_holders_joins_neither(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    say(graph, "u27", "a", "2026-01-05T09:00:00Z", "The app is hosted on Render.", "The docs site is hosted on Netlify.")
    say(graph, "u27", "b", "2026-02-05T09:00:00Z", "It's on Fly.io now.")
    for sid in ("a", "b"):
        graph.reconcile_session(sid, backend=spacy)
    rows = graph.store.run("MATCH (f:Fact {user_id: 'u27'}) WHERE f.text STARTS WITH 'It' RETURN f.slot AS slot")
    assert [row["slot"].startswith("@thing") for row in rows] == [True]  # still waiting
    assert graph.store.run("MATCH (:Fact {user_id: 'u27'})-[r:SUPERSEDES]->() RETURN count(r) AS n")[0]["n"] == 0
