"""What is still not a statement of fact when read alone (issue 38, fourteenth round).

An item of a list is a sentence of its own: read with the line before it, a clause runs two items together
("The old router stays in the hallway. - Label the new cables ..."). A clause that is one of two alternatives
("Either the cron job writes logs to the old volume.") says nothing is so, whoever says it; what an imperative
asks to make sure of ("That the image no longer has a shell.", from "Make sure that ...") is advice.
A base form the tagger took for a present ("If the build feels slow, start/VBP from the cached image") is advice
in the assistant's words, as a base form tagged as one is. Our own sentences, the real model.
"""

from __future__ import annotations

import pytest
from test_said_as_so import kept

from sessions_graph_core.ontology.model import DEFAULT_MODEL
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend

LIST = ("The plan for the move:\n- The old router stays in the hallway until the fibre is live.\n"
        "- Label the new cables before Friday.\n- The spare switch lives in the attic.")


def test_an_item_of_a_list_is_a_sentence_of_its_own(spacy: SpacyBackend) -> None:
    said = [fact.text for fact in spacy.extract([LIST], DEFAULT_MODEL)[0].facts]
    assert "The spare switch lives in the attic." in said
    assert not any(" - " in text for text in said), said


def test_the_assistants_list_keeps_its_statements_not_its_steps(spacy: SpacyBackend) -> None:
    assert kept(spacy, LIST, by_assistant=True) == ["The spare switch lives in the attic."]


@pytest.mark.parametrize(
    ("text", "left"),
    [
        ("Either the exporter still writes to the old bucket, or the credentials expired last night.", []),
        # The second alternative is no statement either: read as one, it ended a slot of the project's.
        ("The disk on the staging box is full, so either the cron job writes logs to the old volume, or the rotation "
         "stopped.", []),
    ],
)
def test_a_clause_that_holds_only_beside_another_is_no_statement(spacy: SpacyBackend, text: str,
                                                                 left: list[str]) -> None:
    for by_assistant in (True, False):
        assert kept(spacy, text, by_assistant=by_assistant) == left


def test_the_second_of_two_alternatives_fills_no_slot(spacy: SpacyBackend) -> None:
    text = "The disk on the staging box is full, so either the cron job writes logs to the old volume, or the rotation stopped."
    found = spacy.extract([text], DEFAULT_MODEL)[0].facts
    assert {fact.mood for fact in found if fact.slot} == {"hanging"}


def test_what_advice_asks_to_make_sure_of_is_advice(spacy: SpacyBackend) -> None:
    # Read alone, "That the image no longer has a shell." filled the image's terminal with "shell".
    found = spacy.extract(["Make sure that the image no longer has a shell."], DEFAULT_MODEL)[0].facts
    assert [fact.mood for fact in found if fact.text.startswith("That")] == ["advised"]
    assert kept(spacy, "Make sure that the image no longer has a shell.", by_assistant=True) == []


def test_what_someone_told_stays_a_statement(spacy: SpacyBackend) -> None:
    found = spacy.extract(["Ana told me last week that she lives in Lima now."], DEFAULT_MODEL)[0].facts
    assert {(fact.slot, fact.mood) for fact in found} == {("ana/location", "stated")}


def test_either_with_its_or_said_stays(spacy: SpacyBackend) -> None:
    assert kept(spacy, "Either Tom or Ana runs the release.", by_assistant=False) == ["Either Tom or Ana runs the release."]


def test_a_base_form_tagged_as_a_present_is_advice_in_the_assistants_words(spacy: SpacyBackend) -> None:
    text = "If Docker Desktop feels sluggish, start from the Colima profile in the dotfiles repo."
    found = spacy.extract([text], DEFAULT_MODEL)[0].facts
    assert [fact.mood for fact in found if "Colima profile" in fact.text] == ["advised"]
    assert kept(spacy, text, by_assistant=True) == []
    assert kept(spacy, text, by_assistant=False) != [], "the user's own imperative stays"


@pytest.mark.parametrize(
    "text",
    [
        "The VPN profile: reuse the config from the old laptop.",  # the colon hung on the heading, not on "reuse"
        "Parking: set up a monthly pass for the office garage.",  # "set" tagged as a past
    ],
)
def test_advice_under_a_heading_is_advised(spacy: SpacyBackend, text: str) -> None:
    assert {fact.mood for fact in spacy.extract([text], DEFAULT_MODEL)[0].facts} == {"advised"}
    assert kept(spacy, text, by_assistant=True) == []
