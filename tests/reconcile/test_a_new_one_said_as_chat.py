"""Issue 13's nineteenth round, with the real spaCy model and the real store: the new statement of a change
said as chat says it. "got a new GP: Dr. Mensah" and "found a new hairdresser, marco" name the new one after
its noun (the colon or comma may hang on the noun, the name may be typed in lower case, and a noun no
attribute lists is its own slot, as "my hairdresser is lena" says); "shared secrets are kept in Doppler now"
keeps a thing of ours in a name, as "we use 1Password for shared secrets" says; "my running shoes are
hokas/VBN now" is a name the tagger took for a passive; "the practice gave me a new GP, Dr. Lund" is mine.
Each with keeps that must not supersede."""

from __future__ import annotations

import pytest
from reading_helpers import record, slots, superseded

from sessions_graph_core import SessionsGraph
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("got a new GP: Dr. Mensah", [("me/doctor", "Dr. Mensah")]),  # the colon hung on the noun
        ("I got a new dentist, Dr. Kim.", [("me/dentist", "Dr. Kim")]),  # as before
        ("found a new hairdresser, marco", [("me/hairdresser", "marco")]),  # no listed noun, a lower-case name
        ("got a new accountant: raj patel", [("me/accountant", "raj patel")]),
        ("my brother got a new accountant: raj patel", [("my brother/accountant", "raj patel")]),  # his, not mine
        ("the practice gave me a new GP, Dr. Lund", [("me/doctor", "Dr. Lund")]),  # given to me: mine
        ("the practice gave my mum a new GP, Dr. Lund", [("my mum/doctor", "Dr. Lund")]),  # hers
        ("I made a new friend, Sam", []),  # one friend more, not a new one in place of another
        ("also got a new running app, nike run club, for the playlists", []),  # no name after the noun
        ("shared secrets are kept in Doppler now", [("@project/shared secrets", "Doppler")]),
        ("we keep our passwords in bitwarden", [("@project/passwords", "bitwarden")]),
        ("I keep my bike in the garage", []),  # no name kept in
        ("my running shoes are hokas now", [("me/running shoes", "hokas")]),
        ("the servers are patched now", []),  # a verb WordNet knows is a passive
    ],
)
def test_a_new_statement_said_as_chat_fills_its_slot(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize(
    ("old", "new", "replaced"),
    [
        ("my GP is Dr. Hughes", "got a new GP: Dr. Mensah", [("Dr. Hughes", "Dr. Mensah")]),
        ("my hairdresser is lena", "found a new hairdresser, marco", [("lena", "marco")]),
        ("My accountant is Linda Park.", "got a new accountant: raj patel", [("Linda Park", "raj patel")]),
        ("we use 1Password for shared secrets", "shared secrets are kept in Doppler now", [("1Password", "Doppler")]),
        ("We keep our passwords in LastPass.", "passwords are kept in bitwarden now", [("LastPass", "bitwarden")]),
        ("my running shoes are brooks", "my running shoes are hokas now", [("brooks", "hokas")]),
        # keeps: another person's, a second one of a kind, another thing kept
        ("My accountant is Linda Park.", "my brother got a new accountant: raj patel", []),
        ("I have a friend, Sam", "I made a new friend, Jo", []),
        ("We keep our passwords in LastPass.", "our feature flags are kept in launchdarkly now", []),
        ("my running shoes are brooks", "my hiking boots are salomons now", []),
    ],
)
def test_the_new_one_said_as_chat_supersedes_the_old(graph: SessionsGraph, spacy: SpacyBackend, old: str, new: str,
                                                      replaced: list) -> None:
    record(graph, "nc1", {"old": old, "new": new})
    for sid in ("old", "new"):
        assert graph.reconcile_session(sid, backend=spacy).status == "completed"
    assert superseded(graph, "nc1") == replaced

