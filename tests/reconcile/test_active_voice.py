"""Issue 13, thirteenth round: who a statement is about when it puts the thing changed first. A clause no
rule reads that is passive ("standup got moved to 10am", "Jenkins was replaced by GitHub Actions"), says a
thing moved by itself ("the office moved to ...") or says a thing is gone ("Heroku is gone") is read again
in the active voice, with its doer (the agent, else the speaker); and "the N I use" is the speaker's N.
On the real spaCy model, embedder and store; the sentences are our own, not the labelled set's."""

from __future__ import annotations

import pytest
from reading_helpers import slots

from sessions_graph_core import SessionsGraph
from sessions_graph_core.ontology.model import DEFAULT_MODEL
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend, _in_active
from sessions_graph_core.reconcile.nlp import spacy_pipeline


def say(graph: SessionsGraph, user: str, sid: str, at: str, text: str, project: str | None = None) -> None:
    graph.record_session_start(sid, user_id=user, project_key=project, started_at=at)
    graph.record_turns(sid, [{"role": "user", "text": text, "timestamp": at, "turn_id": f"{sid}-0"}], user_id=user)


def change(graph: SessionsGraph, spacy: SpacyBackend, user: str, old: str, new: str, order: tuple) -> None:
    say(graph, user, "old", "2026-01-05T09:00:00Z", old, "shop")
    say(graph, user, "new", "2026-02-05T09:00:00Z", new, "shop")
    for sid in order:
        assert graph.reconcile_session(sid, backend=spacy).status == "completed"


def supersedes(graph: SessionsGraph, user: str) -> int:
    return graph.store.run(f"MATCH (:Fact {{user_id: '{user}'}})-[r:SUPERSEDES]->() RETURN count(r) AS n")[0]["n"]


def active(text: str) -> list[str]:
    return [said for verb in spacy_pipeline()(text) if (said := _in_active(verb))]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Jenkins was replaced by GitHub Actions.", ["GitHub Actions has replaced Jenkins"]),  # the agent does it
        ("standup got moved to 10am", ["we have moved standup to 10am"]),  # no agent: the speaker
        ("My gym membership was cancelled.", ["I have cancelled My gym membership"]),  # "my": the speaker is I
        ("the office moved to Canary Wharf", ["we moved the office to Canary Wharf"]),  # a thing moved
        ("Heroku is gone now.", ["we have dropped Heroku"]),
        ("My sister moved to Denver.", []),  # a person moves by herself
        ("Tom moved to the platform team.", []),  # an untyped name is likely a person
        ("The team moved to Linear.", []),  # so does a group
        ("It got moved to Friday.", []),  # a pronoun is the rules' (and the session's)
        ("Priya is gone this week.", []),  # a person gone is away, not ended
        ("Heroku is not gone.", []),
    ],
)
def test_a_clause_that_puts_the_thing_first_is_said_again_in_the_active_voice(text: str, expected: list) -> None:
    assert active(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Jenkins was replaced by GitHub Actions.", [("@project/ci", "GitHub Actions")]),
        ("standup got moved to 10am", [("standup/schedule", "10am")]),
        ("Postgres was picked for the orders service.", [("orders service/database", "Postgres")]),
        # ends whatever slot held it, ours or, with no speaker said, mine (seventeenth round)
        ("PagerDuty got dropped last month.", [("me/*pagerduty", ""), ("@project/*pagerduty", "")]),
        ("Heroku is gone now.", [("me/*heroku", ""), ("@project/*heroku", "")]),
        ("my mortgage got moved to Nationwide", [("me/mortgage", "Nationwide")]),
        # the ending where it was said, before the new value: the Mazda is what holds now
        ("The Civic is gone, I drive a Mazda 3 now.", [("me/*civic", ""), ("me/car", "Mazda 3")]),
        ("The design team's standup moved to 11.", [("design team's standup/schedule", "11")]),  # another event
    ],
)
def test_the_active_reading_fills_the_slot_the_clause_left_empty(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize("text", ["The flaky test was fixed yesterday.", "The release got delayed again.",
                                  "Our photos were posted on Instagram.", "The bug moved to the backlog."])
def test_a_passive_that_states_no_attribute_stays_in_no_slot(spacy: SpacyBackend, text: str) -> None:
    assert slots(spacy, text) == []


def test_the_active_reading_keeps_the_words_as_said(spacy: SpacyBackend) -> None:
    facts = [f for f in spacy.extract(["Jenkins was replaced by GitHub Actions."], DEFAULT_MODEL)[0].facts if f.slot]
    assert [f.text for f in facts] == ["Jenkins was replaced by GitHub Actions."]


def test_a_rule_reading_is_not_read_again(spacy: SpacyBackend) -> None:
    # "be hosted on" is a verb of an attribute: the rules read it, and nothing is added
    assert slots(spacy, "The marketing site was moved to Netlify.") == [("marketing site/hosting", "Netlify")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("the phone I use now is a Pixel 8", [("me/phone", "Pixel 8")]),
        ("The editor I use these days is Zed.", [("me/editor", "Zed")]),
        ("The database we use is Postgres.", [("@project/database", "Postgres")]),
        ("The phone my sister uses is a Pixel.", [("my sister/phone", "Pixel")]),  # hers, not ours
        ("The bank Tom uses is Monzo.", [("tom/bank", "Monzo")]),
    ],
)
def test_the_n_someone_uses_is_theirs(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize("order", [("old", "new"), ("new", "old")])
def test_a_moved_event_supersedes_its_old_time_in_either_order(graph: SessionsGraph, spacy: SpacyBackend, order: tuple) -> None:
    change(graph, spacy, "av1", "Our standup is at 9:30.", "Standup got moved to 10am.", order)
    now = [x for x in graph.current_facts("av1", "standup") if x.slot == "standup/schedule"]
    assert [(x.value, x.replaced) for x in now] == [("10am", ["Our standup is at 9:30."])]


@pytest.mark.parametrize("order", [("old", "new"), ("new", "old")])
def test_a_passive_replacement_supersedes_in_either_order(graph: SessionsGraph, spacy: SpacyBackend, order: tuple) -> None:
    change(graph, spacy, "av2", "Our CI is Jenkins.", "Jenkins was replaced by GitHub Actions last quarter.", order)
    now = [x for x in graph.current_facts("av2", "shop") if x.slot == "shop/ci"]
    assert [(x.value, x.replaced) for x in now] == [("GitHub Actions", ["Our CI is Jenkins."])]


@pytest.mark.parametrize("order", [("old", "new"), ("new", "old")])
def test_a_thing_gone_ends_the_slot_that_held_it(graph: SessionsGraph, spacy: SpacyBackend, order: tuple) -> None:
    change(graph, spacy, "av3", "We use PagerDuty for alerting.", "PagerDuty is gone now.", order)
    assert supersedes(graph, "av3") == 1


@pytest.mark.parametrize("order", [("old", "new"), ("new", "old")])
def test_a_thing_of_mine_in_the_passive_ends_mine(graph: SessionsGraph, spacy: SpacyBackend, order: tuple) -> None:
    change(graph, spacy, "av4", "My car is a Honda Civic.", "The Civic is gone, I drive a Mazda 3 now.", order)
    now = [x for x in graph.current_facts("av4", "me") if x.slot == "me/car"]
    assert [x.value for x in now] == ["Mazda 3"]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Our standup is at 9:30.", "The design team's standup moved to 11."),  # another team's event
        ("We use PagerDuty for alerting.", "Priya is gone this week."),  # a person away
        ("My manager is Sofia.", "The phone my sister uses is a Pixel."),
        ("My phone is an iPhone 12.", "The phone my sister uses is a Pixel."),  # hers
    ],
)
def test_what_is_said_of_another_holder_supersedes_nothing(graph: SessionsGraph, spacy: SpacyBackend, old: str, new: str) -> None:
    change(graph, spacy, "av5", old, new, ("old", "new"))
    assert supersedes(graph, "av5") == 0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Finally moved to Lisbon.", [("me/location", "Lisbon")]),  # a framing word before the dropped speaker
        ("Anyway, started at Globex in May.", [("me/employer", "Globex")]),
        ("Also fixed the flaky test.", []),  # still no fact
    ],
)
def test_a_framing_word_before_a_dropped_speaker(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Octopus supplies our electricity now.", [("@project/electricity", "Octopus")]),
        ("Gusto does our payroll.", [("@project/payroll", "Gusto")]),
        ("Google bought our company.", []),  # no verb of serving
        ("Stripe emailed our customers.", []),
    ],
)
def test_a_name_serving_a_thing_of_ours_is_that_things_value(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The helpdesk is Freshdesk now.", [("@project/helpdesk", "Freshdesk")]),  # tagged PERSON, still a value
        ("the crm is pipedrive now", [("@project/crm", "pipedrive")]),  # a name typed in lower case
        ("The CRM is Pipedrive now.", [("@project/crm", "Pipedrive")]),
        ("We switched the helpdesk to Freshdesk.", [("@project/helpdesk", "Freshdesk")]),
        ("We moved the docs build to MkDocs.", [("@project/docs", "MkDocs")]),  # a word of it names an attribute
        ("The winner is Ana.", []),  # a person's role said with "the" is no thing of ours
        ("The capital of France is Paris.", []),  # "of" says whose
        ("The issue is memory.", []),  # a common word is no name
        ("The backend is in golang now.", [("backend/language", "golang")]),  # a rule that reads it comes first
    ],
)
def test_the_thing_said_with_the_is_ours(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize("order", [("old", "new"), ("new", "old")])
def test_the_thing_moved_supersedes_ours_in_either_order(graph: SessionsGraph, spacy: SpacyBackend, order: tuple) -> None:
    change(graph, spacy, "av6", "Our helpdesk is Zendesk.", "The helpdesk is Freshdesk now.", order)
    now = [x for x in graph.current_facts("av6", "shop") if x.slot == "shop/helpdesk"]
    assert [(x.value, x.replaced) for x in now] == [("Freshdesk", ["Our helpdesk is Zendesk."])]
