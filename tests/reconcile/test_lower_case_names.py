"""Issue 13's eighth round, with the real spaCy model and the real store: chat typed in lower case names
a value without its capital ("our crm is hubspot"), and the small model tags such a word a noun, a verb
or an adjective. In "POSS N is v" (and "POSS N is with/in/on v") a bare word is the value when it is
tagged a noun, or when it is no word of the embedder's vocabulary; a word of the vocabulary tagged
otherwise ("my code is broken") is no name."""

from __future__ import annotations

import pytest
from reading_helpers import record, slots

from sessions_graph_core import SessionsGraph
from sessions_graph_core.reconcile import tokens
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend


def test_a_lower_case_word_outside_the_vocabulary_is_no_common_word() -> None:
    assert not any(tokens.common_word(word) for word in ("pipedrive", "thunderbird", "1password", "freeagent"))
    # a word of the vocabulary, as it is or less a plain suffix
    assert all(tokens.common_word(word) for word in ("spark", "moved", "recordings", "broken"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("our crm is hubspot", [("@project/crm", "hubspot")]),  # tagged a noun
        ("my vpn is nordvpn", [("me/vpn", "nordvpn")]),
        ("my hairdresser is lena", [("me/hairdresser", "lena")]),
        ("my mail client is thunderbird", [("me/mail client", "thunderbird")]),  # tagged an adjective
        ("my coworking space is wework", [("me/coworking space", "wework")]),  # tagged a verb
        ("our status page is on instatus", [("@project/status page", "instatus")]),  # with a preposition
        ("my insurance is with aviva", [("me/insurance", "aviva")]),
        ("Our CTO is Maria.", [("@project/cto", "Maria")]),  # a capitalised name, as before
    ],
)
def test_a_lower_case_value_of_a_possessed_thing_fills_its_slot(spacy: SpacyBackend, text: str,
                                                                 expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "my code is broken",  # a word of the vocabulary tagged an adjective: a state, no name
        "our backlog is huge",
        "my manager is great",
        "our standup is over",
        "my keys are in the car",  # an article: a common noun
    ],
)
def test_a_word_of_the_vocabulary_is_no_value(spacy: SpacyBackend, text: str) -> None:
    assert slots(spacy, text) == []


@pytest.mark.parametrize("order", [("old", "new"), ("new", "old")])
@pytest.mark.parametrize(
    ("old", "new", "about", "slot", "value"),
    [
        ("our crm is hubspot", "our crm is pipedrive now", "shop", "shop/crm", "pipedrive"),
        ("my vpn is nordvpn", "i use mullvad for vpn now", "me", "me/vpn", "mullvad"),  # another shape's slot
        ("my insurance is with aviva", "my insurance is with admiral now", "me", "me/insurance", "admiral"),
    ],
)
def test_a_lower_case_change_supersedes_in_either_order(graph: SessionsGraph, spacy: SpacyBackend, order: tuple,
                                                        old: str, new: str, about: str, slot: str, value: str) -> None:
    record(graph, "ln1", {"old": old, "new": new})
    for sid in order:
        assert graph.reconcile_session(sid, backend=spacy).status == "completed"
    now = [x for x in graph.current_facts("ln1", about) if x.slot == slot]
    # (a statement's text is stored as a sentence: "Our crm is hubspot.")
    assert [(x.value, [r.lower().rstrip(".") for r in x.replaced]) for x in now] == [(value, [old])]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("our crm is hubspot", "our helpdesk is zendesk"),  # another thing of ours
        ("my bike is a canyon", "my brother's bike is a trek"),  # the same thing, someone else's
        ("my mobile carrier is vodafone", "i bank with monzo"),
    ],
)
def test_lower_case_values_of_other_things_stay_apart(graph: SessionsGraph, spacy: SpacyBackend,
                                                      old: str, new: str) -> None:
    record(graph, "ln2", {"old": old, "new": new})
    for sid in ("new", "old"):
        assert graph.reconcile_session(sid, backend=spacy).status == "completed"
    assert graph.store.run("MATCH (:Fact {user_id: 'ln2'})-[r:SUPERSEDES]->() RETURN count(r) AS n")[0]["n"] == 0
