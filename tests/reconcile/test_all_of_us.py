"""Issue 13's fourteenth round, with the real spaCy model and the real store: "everyone", "the whole team".

Words that say how much of a group, not which one, leave it the group it was: "the whole team", "the entire
company" are the team, so ours, and "everyone" with nothing to narrow it is all of us, as "we" is
(reading/subjects.Subjects.name, tokens.no_word_of_the_name); "the company" with no one's name before it is us, not whom we work
for (Reader.our_group). The sentences are our own, not the labelled set's."""

from __future__ import annotations

import pytest
from reading_helpers import record, slots

from sessions_graph_core import SessionsGraph
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("everyone talks in Mattermost now", [("@project/chat", "Mattermost")]),
        ("Everybody is on Zulip these days.", [("@project/chat", "Zulip")]),
        ("the whole team uses Notion now", [("@project/docs", "Notion")]),
        ("The entire company uses Notion now.", [("@project/docs", "Notion")]),  # not the company's employer
        ("the whole company is on Slack now", [("@project/chat", "Slack")]),
        ("everyone moved to Denver", [("@project/location", "Denver")]),  # a team's move, not my home
        ("The whole database is on Postgres now.", [("@project/database", "Postgres")]),  # "whole" says how much
    ],
)
def test_all_of_us_is_us(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "everyone at my gym uses Strava",  # narrowed: not us
        "everyone else uses Notion",
        "Everyone likes pizza.",  # a liking is no slot
        "the whole company is on Teams now",  # a group has no employer by the embedder's guess ("Teams/LOC")
    ],
)
def test_everyone_narrowed_or_liking_is_no_slot_of_ours(spacy: SpacyBackend, text: str) -> None:
    assert slots(spacy, text) == []


def test_my_company_is_still_whom_i_work_for(spacy: SpacyBackend) -> None:
    assert slots(spacy, "my company is Acme") == [("me/employer", "Acme")]


def _current(graph: SessionsGraph, user: str, about: str, slot: str) -> list:
    return [(x.value, x.replaced) for x in graph.current_facts(user, about) if x.slot == slot]


def test_everyone_on_a_new_chat_supersedes_ours(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    record(graph, "au1", {"old": "Our team chat is Slack.", "new": "everyone talks in Mattermost now."})
    for sid in ("new", "old"):
        graph.reconcile_session(sid, backend=spacy)
    assert _current(graph, "au1", "shop", "shop/chat") == [("Mattermost", ["Our team chat is Slack."])]


def test_the_whole_team_on_new_docs_supersedes_ours(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    record(graph, "au2", {"old": "We keep our docs in Confluence.", "new": "The whole team uses Notion now."})
    for sid in ("old", "new"):
        graph.reconcile_session(sid, backend=spacy)
    assert _current(graph, "au2", "shop", "shop/docs") == [("Notion", ["We keep our docs in Confluence."])]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Our team chat is Slack.", "Everyone at my climbing gym chats on Discord."),  # not us
        ("I live in Lisbon.", "Everyone moved to the Porto office."),  # the team, not my home
        ("Our team chat is Slack.", "Everyone still talks in Slack."),  # a restatement
    ],
)
def test_all_of_us_never_supersedes_what_it_does_not_change(graph: SessionsGraph, spacy: SpacyBackend, old: str, new: str) -> None:
    record(graph, "au3", {"old": old, "new": new})
    for sid in ("old", "new"):
        graph.reconcile_session(sid, backend=spacy)
    rows = graph.store.run("MATCH (:Fact {user_id: 'au3'})-[r:SUPERSEDES]->() RETURN count(r) AS n")
    assert rows[0]["n"] == 0
