"""Issue 13's eighteenth round (helper h13s), with the real spaCy model and the real store: a value said
another way is the value the slot holds (facts.same_value: case, "the", a version said on one side only, an abbreviation, a
shortened name the embedder puts near the full one), so it restates and never supersedes; a decision said as
what the decision is ("the plan is to use X for Y", "the decision on Y is X") is the choice it says, "settled
on X" is read whatever the tagger calls X, a later "it" after "we changed our minds on Y" is Y, and a thing
named as a slot of ours and as the holder of its value's kind is one slot (facts.same_things). The sentences
are our own, not the labelled set's."""

from __future__ import annotations

import pytest
from reading_helpers import record, slots

from sessions_graph_core import SessionsGraph
from sessions_graph_core.ontology.model import DEFAULT_MODEL
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend
from sessions_graph_core.reconcile.facts import same_value


def _changed(graph: SessionsGraph, user: str, spacy: SpacyBackend, old: str, new: str, about: str) -> list[tuple]:
    """(slot, value, what it replaced) of each current statement about `about` once both are reconciled,
    the new one first (the harder order) then the old."""
    record(graph, user, {"old": old, "new": new})
    for sid in ("new", "old"):
        graph.reconcile_session(sid, backend=spacy)
    return [(x.slot, x.value, [t.rstrip(".").lower() for t in x.replaced])
            for x in graph.current_facts(user, about) if x.slot]


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("GitHub", "github"),
        ("the Slack", "Slack"),
        ("MySQL 8", "MySQL"),
        ("postgres 16", "PostgreSQL"),
        ("Amazon Web Services", "AWS"),
        ("TypeScript", "TS"),  # the capitals inside a word start one
        ("i18n", "internationalization"),
        ("Mongo", "MongoDB"),
        ("Lena Park", "Lena"),
    ],
)
def test_a_value_said_another_way_is_the_same_value(one: str, other: str) -> None:
    assert same_value(one, other) and same_value(other, one)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("iPhone 14", "iPhone 15"),  # two versions
        ("Python 3.11", "Python 3.12"),
        ("Pixel 7", "Pixel Fold"),
        ("Java", "JavaScript"),  # a prefix the embedder puts far
        ("React", "React Native"),
        ("Dr. Kim", "Dr. Kimura"),
        ("York", "New York"),
        ("9am", "9:30am"),
        ("Sam", "Samantha"),  # too short to say
        ("JS", "Java"),
    ],
)
def test_another_value_is_not_the_same(one: str, other: str) -> None:
    assert not same_value(one, other) and not same_value(other, one)


@pytest.mark.parametrize(
    ("old", "new", "about", "slot"),
    [
        ("our database is MySQL", "we're still on mysql 8 for the database", "shop", "shop/database"),
        ("I live in Los Angeles", "I still live in LA", "me", "me/location"),
        ("our cloud provider is Amazon Web Services", "our cloud provider is still AWS", "shop", "shop/hosting"),
        ("my manager is Lena Park", "Lena is still my manager, she's great", "me", "me/manager"),
    ],
)
def test_a_restatement_said_another_way_supersedes_nothing(graph: SessionsGraph, spacy: SpacyBackend, old: str,
                                                          new: str, about: str, slot: str) -> None:
    held = [(s, replaced) for s, _, replaced in _changed(graph, "r1", spacy, old, new, about) if s == slot]
    assert held and all(replaced == [] for _, replaced in held) and len(held) == 1


def test_another_version_still_supersedes(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    held = _changed(graph, "r2", spacy, "my phone is an iPhone 13", "my phone is an iPhone 15 now", "me")
    assert [(v, r) for s, v, r in held if s == "me/phone"] == [("iPhone 15", ["my phone is an iphone 13"])]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("the plan is to use Vue for the storefront", [("storefront/framework", "Vue")]),
        ("the decision on CI is Jenkins, since it is free", [("@project/ci", "Jenkins")]),
        ("our pick for payments is Braintree", [("@project/payments", "Braintree")]),
        ("we settled on RabbitMQ for the job queue", [("@project/job queue", "RabbitMQ")]),
        ("Decision: NATS for the event bus.", [("@project/message broker", "NATS")]),  # noted with a colon
        ("plan: use Memcached for caching", [("@project/cache", "Memcached")]),
    ],
)
def test_a_decision_said_as_what_it_is_is_the_choice(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("we're sticking with MySQL for the warehouse", [("warehouse/database", "MySQL")]),
        ("we reverted to Jenkins for CI", [("@project/ci", "Jenkins")]),
        ("we ended up going with MySQL for the database", [("@project/database", "MySQL")]),
    ],
)
def test_a_choice_kept_taken_back_or_landed_on_is_a_decision(spacy: SpacyBackend, text: str, expected: list) -> None:
    facts = [f for f in spacy.extract([text], DEFAULT_MODEL)[0].facts if f.slot]
    assert [(f.slot, f.value) for f in facts] == expected and all(f.kind == "decision" for f in facts)


def test_ending_up_somewhere_ends_nothing(spacy: SpacyBackend) -> None:
    assert all(value for _, value in slots(spacy, "we ended up using Redis for the cache"))


@pytest.mark.parametrize("text", ["the plan is simple", "the decision is final", "my phone plan is Vodafone",
                                  "Decision: we go with Okta for SSO"])
def test_a_decision_noun_with_no_choice_chooses_nothing(spacy: SpacyBackend, text: str) -> None:
    read = slots(spacy, text)
    assert all(not slot.startswith(("decision/", "@project/decision")) for slot, _ in read) and len(read) <= 1


def test_a_decision_keeps_its_reason(spacy: SpacyBackend) -> None:
    facts = [f for f in spacy.extract(["the decision on CI is Jenkins, since it is free"], DEFAULT_MODEL)[0].facts if f.slot]
    assert [(f.kind, f.rationale) for f in facts] == [("decision", "it is free")]


def test_it_after_changing_our_minds_on_a_thing_is_that_thing(spacy: SpacyBackend) -> None:
    assert slots(spacy, "we changed our minds on the storefront: it'll be Vue") == [("storefront/framework", "Vue")]


def test_a_later_decision_supersedes_the_earlier(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    held = _changed(graph, "d1", spacy, "we chose Jenkins for CI because it is free",
                    "the decision on CI is now CircleCI, since builds got slow", "shop")
    assert [(v, r) for s, v, r in held if s == "shop/ci"] == [("CircleCI", ["we chose jenkins for ci because it is free"])]


def test_a_thing_named_as_our_slot_and_as_a_holder_is_one_slot(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    held = _changed(graph, "d2", spacy, "we settled on Terraform for infra",
                    "we moved infra to Pulumi last month", "infra")
    assert [(v, r) for _, v, r in held if v in {"Terraform", "Pulumi"}] == [
        ("Pulumi", ["we settled on terraform for infra"])]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("we chose Vue for the storefront", "the data team chose Dash for their dashboards"),  # another team's
        ("let's use Sentry for error tracking", "let's use Grafana for dashboards"),  # another thing
        ("the plan is to use Vue for the storefront", "the plan is to use Flutter for the mobile app"),
    ],
)
def test_another_decision_supersedes_nothing(graph: SessionsGraph, spacy: SpacyBackend, old: str, new: str) -> None:
    record(graph, "d3", {"old": old, "new": new})
    for sid in ("new", "old"):
        graph.reconcile_session(sid, backend=spacy)
    rows = graph.store.run("MATCH (:Fact {user_id: 'd3'})-[r:SUPERSEDES]->(:Fact) RETURN count(r) AS n")
    assert rows[0]["n"] == 0


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("we've decided to move billing to Paddle because Stripe got too expensive", "Stripe got too expensive"),
        ("we agreed to use NATS for the message bus since it is simple", "it is simple"),
    ],
)
def test_what_was_decided_gives_the_decision_its_reason(spacy: SpacyBackend, text: str, reason: str) -> None:
    facts = [f for f in spacy.extract([text], DEFAULT_MODEL)[0].facts if f.slot]
    assert facts and all(f.kind == "decision" and f.rationale == reason for f in facts)


@pytest.mark.parametrize(
    "new",
    [
        "we scrapped the plan to use NATS",
        "we walked back the move to NATS",
        "we reversed the NATS decision",
    ],
)
def test_a_decision_taken_back_supersedes_it(graph: SessionsGraph, spacy: SpacyBackend, new: str) -> None:
    record(graph, "d4", {"old": "we agreed to use NATS for the message bus", "new": new})
    for sid in ("new", "old"):
        graph.reconcile_session(sid, backend=spacy)
    rows = graph.store.run("MATCH (n:Fact {user_id: 'd4'})-[:SUPERSEDES]->(o:Fact) RETURN n.value AS value, o.value AS old")
    assert [(row["value"], row["old"]) for row in rows] == [("", "NATS")]


def test_taking_back_another_choice_supersedes_nothing(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    record(graph, "d5", {"old": "we use RabbitMQ for the message bus", "new": "we scrapped the plan to use NATS"})
    for sid in ("new", "old"):
        graph.reconcile_session(sid, backend=spacy)
    rows = graph.store.run("MATCH (:Fact {user_id: 'd5'})-[r:SUPERSEDES]->(:Fact) RETURN count(r) AS n")
    assert rows[0]["n"] == 0


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I drive a Honda Civic", "I still drive the same car"),
        ("our CI runs on Jenkins", "nothing changed, we still use our usual CI"),
        ("we host the shop on Render", "we're still on the same host"),
    ],
)
def test_a_value_that_points_back_supersedes_nothing(graph: SessionsGraph, spacy: SpacyBackend, old: str, new: str) -> None:
    record(graph, "r3", {"old": old, "new": new})
    for sid in ("new", "old"):
        graph.reconcile_session(sid, backend=spacy)
    rows = graph.store.run("MATCH (:Fact {user_id: 'r3'})-[r:SUPERSEDES]->(:Fact) RETURN count(r) AS n")
    assert rows[0]["n"] == 0


def test_a_value_that_points_back_is_no_value(spacy: SpacyBackend) -> None:
    assert slots(spacy, "I still drive the same car") == []
    assert slots(spacy, "my current phone is a Pixel 8") == [("me/phone", "Pixel 8")]
