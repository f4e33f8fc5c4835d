"""Issue 13's seventeenth round, with the real spaCy model and the real store: endings and team changes said
in everyday shapes the reader missed. A subscription that ran out by itself ("expired", "lapsed", "I let
it lapse"); an ending said with a verb and its particle ("turned off", "switched off") or other verbs
("killed", "axed", "we're done with", "nobody uses X anymore"); a person giving up, stepping away from or
handing off a thing they hold (the thing's role that holds them ends); a thing of a listed kind taking over
from another ("Buildkite has taken over from Jenkins"); "ended up choosing X" as the choice; a rental held as a subscription is ("I rent a garage"); a name renewed no
more or run out ("we didn't renew Miro", "the contract with Bright Cleaning ended"); "moved off/prt Heroku"; an ending whose doer and speaker are unsaid ("Netflix got cancelled") is mine
or ours; a thing said bare on a name is ours ("payroll is on Deel now"); a name the small parser hangs on the verb as an
adverbial noun ("dropped Zoom/npadvmod"); a dropped speaker before a comma ("Sold the Golf, I ..."); a
name in lower case ended ("i cancelled nordvpn"); "dropped A for B" as a change, not an ending; a verb of
an attribute read as a plural noun ("our team chats/NNS on Discord"); a bare hour ("at 4"); a holder said
with and without a word of its kind ("the checkout service" / "checkout"); "what" is no value ("X is
still what we use"). The sentences are our own, not the labelled set's."""

from __future__ import annotations

import pytest
from reading_helpers import record, slots

from sessions_graph_core import SessionsGraph
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a subscription that ran out ends, and whatever held its name
        ("My Headspace subscription expired in May.", [("me/headspace subscription", ""), ("me/*headspace", "")]),
        ("We let the Figma licence lapse.", [("@project/figma licence", ""), ("@project/*figma", "")]),
        ("I cancelled my Crunchyroll sub", [("me/crunchyroll sub", ""), ("me/*crunchyroll", "")]),
        # a verb and its particle that end
        ("we switched off Intercom last week", [("@project/*intercom", "")]),
        ("We turned off the New Relic integration.", [("@project/monitoring", "")]),
        # a person who gives a thing up no longer holds its role
        ("Tom gave up the payments service.", [("tom/*@payments service", ""), ("payments service/*@tom", "")]),
        # the parser's misreadings: a name as an adverbial noun, a dropped speaker before a comma
        ("We dropped Zoom at the end of the month.", [("@project/*zoom", "")]),
        ("Sold the Golf in March, I take the bus now.", [("golf/owner", ""), ("me/*golf", "")]),
        ("i cancelled nordvpn", [("me/*nordvpn", "")]),
        # a change, not an ending
        ("we dropped Trello for Asana", [("@project/issue tracker", "Asana"), ("@project/*trello", "Asana")]),
        ("Our team chats on Discord.", [("@project/chat", "Discord")]),
        ("Retro is at 4 now.", [("retro/schedule", "4")]),
        ("The team tracks everything in Jira.", [("@project/issue tracker", "Jira")]),
        # more verbs and shapes of ending: killed, axed, done with, nobody uses, stepped away from, handed off
        ("We axed Mixpanel last quarter.", [("@project/*mixpanel", "")]),
        ("We turned off PagerDuty.", [("@project/*pagerduty", "")]),  # not PagerDuty as a state we turned to
        ("We're done with Bitbucket.", [("@project/*bitbucket", "")]),
        ("Nobody uses Asana anymore.", [("@project/issue tracker", "")]),
        ("Leo stepped away from the search service.", [("search service/*@leo", "")]),
        ("Leo handed off the search service.", [("search service/*@leo", "")]),
        # a thing that takes over from another replaces it; ending up with a choice is the choice
        ("Buildkite has taken over from Jenkins.", [("@project/ci", "Buildkite")]),
        ("We ended up choosing Render for hosting.", [("@project/hosting", "Render")]),
        # a thing of ours no attribute names, ended; a role given up said "as <thing> lead"
        ("We shut down the status page.", [("@project/status page", "")]),
        ("Jon stepped down as infra lead.", [("infra/lead", "")]),
        # the passive: a particle after the name ("switched New Relic off"), "replaced with"
        ("New Relic was switched off last week.", [("@project/*new relic", "")]),
        ("Travis got replaced with GitHub Actions.",
         [("@project/ci", "GitHub Actions"), ("@project/*travis", "GitHub Actions")]),
        # all of ours; "'s" hung on the noun as its case
        ("Everything runs on Azure these days.", [("@project/hosting", "Azure")]),
        ("Frontend's on Vercel these days.", [("frontend/hosting", "Vercel")]),
        # what another team ends waits for a slot of that team's own
        ("The design team stopped using Jira.", [("design team/issue tracker", ""), ("design team/*@jira", "")]),
        # what one rents is held as a subscription is; a name renewed or ended by itself ends too
        ("I rent a garage on Mill Lane.", [("me/garage rental", "garage")]),
        ("I stopped renting the garage.", [("me/garage rental", "")]),
        ("We didn't renew Miro this year.", [("@project/miro subscription", ""), ("@project/*miro", "")]),
        ("Our contract with Bright Cleaning ended in May.",
         [("@project/bright cleaning contract", ""), ("@project/*bright cleaning", "")]),
        # "moved off/prt Heroku": the particle's object is what was left
        ("We moved off Heroku.", [("@project/hosting", ""), ("@project/*heroku", "")]),
        ("We've moved off Intercom.", [("@project/*intercom", "")]),
        # an ending that says neither who did it nor who speaks waits for a slot of mine as well as of ours
        ("Netflix got cancelled last week.", [("me/*netflix", ""), ("@project/*netflix", "")]),
        ("We cancelled Netflix.", [("@project/*netflix", "")]),  # the speaker said: ours only
        # a thing said bare, as a team says what it does, on a name: ours, as "the helpdesk is Freshdesk" is
        ("payroll is on Deel now", [("@project/payroll", "Deel")]),
        ("Support is on Zendesk now.", [("@project/support", "Zendesk")]),
    ],
)
def test_an_ending_or_a_change_said_otherwise_is_read(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The lease ran out in June.", []),  # no membership named, and the month it ran out is no schedule
        ("I cancelled lunch", []),  # a word of the vocabulary in lower case is no name
        ("We dropped Zoom for cost reasons.", [("@project/*zoom", "")]),  # a reason is no new value
        ("Linear is still what we use for tickets", [("@project/issue tracker", "Linear")]),  # "what" ends nothing
        ("Born in Spain, I moved to Leeds in 2019.", [("me/location", "Leeds")]),  # a participle with no object
        ("error logs in Datadog", []),  # a plural noun that is no verb of an attribute
        ("Nobody lives in Leeds anymore.", []),  # no home of ours ended
        ("Maria has taken over from Leo.", []),  # a person taking over names no role here
        ("These days our logs end up in Loki.", []),  # "end up" ends nothing
        ("Everything is fine.", []),  # all of ours, in no state of any attribute
        ("The meeting ended at 5.", []),  # no subscription ran out
        ("I rented a bike for the weekend.", []),  # a rental once, in the past, holds nothing now
        ("Coffee is on the table.", []),  # no name
    ],
)
def test_what_is_not_such_an_ending_is_not_read_as_one(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


def _replaced(graph: SessionsGraph, spacy: SpacyBackend, user: str, about: str, texts: dict[str, str],
              order: tuple[str, ...] = ("old", "new")) -> list[str]:
    """What the statements about `about` now replace, after reconciling the sessions in `order`."""
    record(graph, user, texts)
    for sid in order:
        graph.reconcile_session(sid, backend=spacy)
    return [text.rstrip(".").lower() for fact in graph.current_facts(user, about) for text in fact.replaced]


@pytest.mark.parametrize(
    ("about", "old", "new"),
    [
        ("me", "I have a Headspace subscription", "My Headspace subscription expired in May."),
        ("shop", "We pay for a Figma licence", "We let the Figma licence lapse."),
        ("shop", "We have a Zoom subscription", "We dropped Zoom at the end of the month."),
        ("me", "I drive a VW Golf", "Sold the Golf in March, I take the bus now."),
        ("shop", "We track issues in Trello", "we dropped Trello for Asana"),
        ("retro", "Our retro is at 3.", "Retro is at 4 now."),
        ("shop", "Our CI runs on Jenkins.", "Buildkite has taken over from Jenkins."),
        ("shop", "Our issue tracker is Asana.", "Nobody uses Asana anymore."),
        ("shop", "We host our code on Bitbucket.", "We're done with Bitbucket."),
        ("infra", "Jon leads the infra team.", "Jon stepped down as infra lead."),
        ("shop", "Our status page is on Instatus.", "We shut down the status page."),
        ("shop", "We host on AWS.", "Everything runs on Azure these days."),
        ("shop", "Our CI is Travis.", "Travis got replaced with GitHub Actions."),
        ("frontend", "The frontend is hosted on Netlify.", "Frontend's on Vercel these days."),
        ("me", "I rent a garage on Mill Lane.", "I gave up the garage."),
        ("shop", "We have a Miro licence.", "We didn't renew Miro this year."),
        ("me", "I have a Duolingo Plus subscription.", "I let Duolingo Plus expire."),
        ("shop", "We use Intercom for support chat.", "We've moved off Intercom."),
        ("me", "I have a Netflix subscription.", "Netflix got cancelled last week."),
        ("shop", "Our payroll is on Gusto.", "payroll is on Deel now"),
        ("checkout", "The checkout service is hosted on Heroku.", "checkout moved to Fly.io last week"),
    ],
)
def test_such_a_statement_supersedes_the_old(graph: SessionsGraph, spacy: SpacyBackend, about: str, old: str,
                                             new: str) -> None:
    replaced = _replaced(graph, spacy, "e1", about, {"old": old, "new": new})
    assert old.rstrip(".").lower() in replaced


@pytest.mark.parametrize("order", [("old", "new"), ("new", "old")])
@pytest.mark.parametrize("new", ["Tom gave up the payments service.", "Tom stepped away from the payments service.",
                                 "Tom handed off the payments service."])
def test_a_person_who_gives_up_a_thing_no_longer_owns_it(graph: SessionsGraph, spacy: SpacyBackend, order: tuple,
                                                         new: str) -> None:
    texts = {"old": "Tom owns the payments service.", "new": new}
    assert _replaced(graph, spacy, "e2", "payments service", texts, order) == ["tom owns the payments service"]


@pytest.mark.parametrize(
    ("about", "old", "new"),
    [
        ("payments service", "Tom owns the payments service.", "Ana gave up the payments service."),  # not its owner
        ("shop", "We use Linear for tickets", "Linear is still what we use for tickets"),  # a restatement
        ("me", "I have a Headspace subscription", "My sister's Calm subscription expired."),  # another's
        ("shop", "We have a Zoom subscription", "We dropped Slack at the end of the month."),  # another thing
        ("checkout", "The checkout service is hosted on Heroku.", "the checkout engine moved to Fly.io"),
        ("retro", "Our retro is at 3.", "Standup is at 4 now."),  # another event
        ("shop", "Our issue tracker is Asana.", "Nobody uses Slack anymore."),  # another tool
        ("payments service", "Tom owns the payments service.", "Ana stepped away from the payments service."),
        ("payments service", "Tom owns the payments service.", "Tom gave up coffee."),  # no thing of his role
        ("payments service", "Tom owns the payments service.", "Tom left the platform team."),
        ("shop", "We use Jira for tickets.", "The design team stopped using Jira."),  # their Jira, not ours
        ("me", "I rent a garage on Mill Lane.", "My neighbour gave up her garage."),
        ("me", "I have a Netflix subscription.", "We cancelled Netflix for the office."),  # ours, not mine
        ("shop", "Our payroll is on Gusto.", "accounting is on Xero now"),  # another thing of ours
    ],
)
def test_what_is_not_a_change_of_it_supersedes_nothing(graph: SessionsGraph, spacy: SpacyBackend, about: str,
                                                       old: str, new: str) -> None:
    assert _replaced(graph, spacy, "e3", about, {"old": old, "new": new}) == []
