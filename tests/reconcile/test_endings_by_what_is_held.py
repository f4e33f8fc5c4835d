"""Issue 13's twenty-first round, with the real spaCy model, WordNet and the real store: an ending recognised
without a list of its phrasings, and matched against what the user already holds. A verb no rule names ends
what it is said of where WordNet's senses of it end a thing held ("axed", "junked", "relinquished", a phrasal
verb: "bowed out"), not through a pause ("paused", "froze"); a name said to be no longer done with, whatever
the verb ("I don't watch Netflix anymore"), "no more X", "off X", "X is out"; a thing that ended by itself
("the Box account closed"); what "used to" be so, a "former" role. What such an ending names ends only a slot that holds that value, said the same
way or another way ("k8s" / "Kubernetes"), in whichever order the two are reconciled, once. The
sentences are our own, not the labelled set's."""

from __future__ import annotations

import pytest

from sessions_graph_core import SessionsGraph
from sessions_graph_core.reconcile import senses
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend
from tests.reconcile.reading_helpers import reconciled, slots


@pytest.mark.parametrize("word", ["axe", "junk", "fold", "relinquish", "forgo", "trash", "bow_out", "close_down", "let_go"])
def test_a_verb_whose_senses_end_a_thing_ends(word: str) -> None:
    assert senses.ends(word)


@pytest.mark.parametrize("word", ["pause", "suspend", "freeze", "use", "move", "switch", "start", "pay", "host", "end_up",
                                  "take_over", "hand_over", "shelve"])
def test_a_verb_that_pauses_or_keeps_ends_nothing(word: str) -> None:
    assert not senses.ends(word)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # verbs no list names, judged by WordNet
        ("We junked Zapier last month.", [("@project/*zapier", "")]),
        ("I trashed my Peloton account.", [("me/peloton account", ""), ("me/*peloton", "")]),
        ("We forwent Datadog this year.", [("@project/*datadog", "")]),
        ("I've let The Economist go.", [("me/*economist", "")]),
        # a name no longer done with, whatever the verb
        ("I don't watch Netflix anymore.", [("me/*netflix", "")]),
        ("We no longer bother with Zapier.", [("@project/*zapier", "")]),
        ("No more CircleCI for us.", [("@project/ci", "")]),
        ("I'm off Spotify now.", [("me/*spotify", "")]),
        ("Jenkins is out, GitHub Actions is in.", [("@project/ci", "")]),
        # another person's is theirs
        ("My sister doesn't watch Netflix anymore.", [("my sister/*@netflix", "")]),
        # what an ending verb ends from, of or with
        ("We dropped out of the Saturday league.", [("@project/saturday league", "")]),
        ("I quit from Acme.", [("me/*acme", "")]),
        ("I've stopped going to PureGym.", [("me/*puregym", "")]),
        # what used to be so, and a former role
        ("I used to work at Acme.", [("me/employer", ""), ("me/*acme", "")]),
        ("We used to be on Heroku.", [("@project/hosting", ""), ("@project/*heroku", "")]),
        ("Acme is my former employer.", [("me/employer", "")]),
        ("Dana is our previous CTO.", [("@project/cto", "")]),
    ],
)
def test_an_ending_said_without_a_listed_verb_is_read(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize(
    "text",
    ["I paused my Headspace membership for a month.", "I froze my PureGym membership while my knee heals.",
     "The new iPhone is out.", "Slack stopped working this morning.", "I'm off work today.",
     "I don't use Slack.", "Maria left.", "We used Zapier to glue our forms.", "I quit going to yoga with Dana."],
)
def test_a_pause_a_release_or_a_plain_negation_ends_nothing(spacy: SpacyBackend, text: str) -> None:
    assert [slot for slot, _ in slots(spacy, text) if "*" in slot or slot.endswith(("membership", "phone"))] == []


@pytest.mark.parametrize("order", [("old", "new"), ("new", "old"), ("new", "old", "new")])
@pytest.mark.parametrize(
    ("old", "new", "held"),
    [
        ("Our error tracking is Rollbar.", "We junked Rollbar.", "Rollbar"),
        ("I'm subscribed to The Economist.", "I've let The Economist go.", "Economist"),
        ("I have a Netflix subscription.", "I don't watch Netflix anymore.", "Netflix"),
        ("Our CI runs on CircleCI.", "No more CircleCI for us.", "CircleCI"),
        # the value said another way: a numeronym
        ("Our orchestrator is Kubernetes.", "We axed k8s.", "Kubernetes"),
        ("I work at Acme.", "I used to work at Acme, now I freelance.", "Acme"),
        ("My gym is PureGym.", "I've stopped going to PureGym.", "PureGym"),
    ],
)
def test_an_ending_of_a_value_held_supersedes_it_in_any_order_once(graph: SessionsGraph, spacy: SpacyBackend,
                                                                   order: tuple, old: str, new: str, held: str) -> None:
    user = f"h{abs(hash((old, order))) % 10**8}"
    assert reconciled(graph, spacy, user, {"old": old, "new": new}, order) == [(held, "")]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I have a Netflix subscription.", "My sister doesn't watch Netflix anymore."),
        ("We use Jira for tickets.", "We junked Asana years before I joined."),
        ("I have a gym membership at PureGym.", "I paused my PureGym membership for a month."),
        ("I have an iPhone 14.", "The new iPhone is out."),
        ("I work at Google.", "We trashed Google Docs."),
    ],
)
def test_an_ending_of_what_the_user_does_not_hold_supersedes_nothing(graph: SessionsGraph, spacy: SpacyBackend,
                                                                      old: str, new: str) -> None:
    user = f"k{abs(hash(old)) % 10**8}"
    assert reconciled(graph, spacy, user, {"old": old, "new": new}, ("new", "old")) == []


@pytest.mark.parametrize("order", [("old", "new"), ("new", "old"), ("old", "new", "old", "new")])
@pytest.mark.parametrize(
    ("old", "new", "held"),
    [
        # a thing the user said they use, read in no slot: the ending of it ends that statement
        ("We use Zapier to glue our forms to the CRM.", "We ditched Zapier last month.", "Zapier"),
        ("I'm on Spotify Premium.", "I'm off Spotify now.", "Spotify Premium"),
        # a role of a thing the person said they do, given up
        ("I volunteer at the food bank on Sundays.", "I stepped away from the food bank this autumn.", "I"),
    ],
)
def test_an_ending_of_a_thing_said_in_no_slot_supersedes_it_in_any_order_once(
        graph: SessionsGraph, spacy: SpacyBackend, order: tuple, old: str, new: str, held: str) -> None:
    user = f"s{abs(hash((old, order))) % 10**8}"
    assert reconciled(graph, spacy, user, {"old": old, "new": new}, order) == [(held, "")]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("We use Zapier to glue our forms to the CRM.", "The marketing team ditched Zapier."),
        ("My sister uses Zapier for her shop.", "We ditched Zapier last month."),
        ("My sister volunteers at the food bank.", "I stepped away from the food bank this autumn."),
    ],
)
def test_an_ending_said_by_someone_else_ends_no_statement_in_no_slot(graph: SessionsGraph, spacy: SpacyBackend,
                                                                     old: str, new: str) -> None:
    user = f"t{abs(hash(old + new)) % 10**8}"
    assert reconciled(graph, spacy, user, {"old": old, "new": new}, ("new", "old")) == []
