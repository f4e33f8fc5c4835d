"""The reader's lemmas are cached by word, part of speech and morphology: a cached lemma is the one the
lemmatiser gives that token, whichever token asked first."""

from __future__ import annotations

from sessions_graph_core.reconcile import nlp


def _token(text: str, word: str):
    return next(t for t in nlp.spacy_pipeline()(text) if t.text == word)


def test_the_same_word_as_another_part_of_speech_gets_its_own_lemma() -> None:
    nlp._LEMMAS.clear()
    verb = _token("I saw the play last night.", "saw")
    noun = _token("The saw is in the shed.", "saw")
    assert (verb.pos_, noun.pos_) == ("VERB", "NOUN")
    assert nlp.lemma(verb) == "see"
    assert nlp.lemma(noun) == "saw"
    assert nlp.lemma(verb) == "see"  # from the cache now, not the noun's entry


def test_every_word_of_a_text_gets_the_uncached_lemma() -> None:
    nlp._LEMMAS.clear()
    doc = nlp.spacy_pipeline()("We moved to Bilbao. She was moving houses, and the movers were late; I'm off Spotify.")
    first = [nlp.lemma(t) for t in doc]
    again = [nlp.lemma(t) for t in doc]
    assert first == again == [nlp._lemma(t) for t in doc]
    assert {"move", "be", "mover"} <= set(first)


def test_the_cache_is_emptied_when_full(monkeypatch) -> None:
    nlp._LEMMAS.clear()
    monkeypatch.setattr(nlp, "LEMMAS_CACHED", 3)
    doc = nlp.spacy_pipeline()("Priya rewrote the billing service twice.")
    lemmas = [nlp.lemma(t) for t in doc]
    assert len(nlp._LEMMAS) <= 3
    assert lemmas == [nlp._lemma(t) for t in doc]
    assert "rewrite" in lemmas
