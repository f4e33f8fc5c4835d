"""The learned junk gate: which statements the reader is not sure of, written as candidates (issue 38).

Chat junk (reactions, platitudes, pronoun subjects, fragments, words to the other speaker) has no single
shape, so hand-written refusals (statements.worth_stating) leave much of it. This gate is a logistic
regression over the default embedder's vector of the statement's text and a few lexical features,
trained on the labelled samples of tests/data/junk_facts; its weights are learned_gate.json, which
benchmarks/train_learned_gate.py writes from those labels. It refuses nothing: a statement it scores as
junk is still written, with its provenance and in its slot's chain, but as a candidate that `facts` and
recall do not show until it is confirmed (facts.promote_confirmed, questions.adopt_questions). Refusing lost
supersessions (docs/import.md, sixth round); holding back changes none.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np
from pydantic import BaseModel

from sessions_graph_core.reconcile.facts import Statement
from sessions_graph_core.reconcile.statements import names_in_particular

WEIGHTS_FILE = Path(__file__).with_name("learned_gate.json")
# A LoCoMo-style speaker label the reader keeps in the text ("Dave: I booked a trip").
_SPEAKER = re.compile(r"^[A-Z][\w.'-]*( [A-Z][\w.'-]*)?:\s")
_POINTING = {"it", "they", "she", "he", "this", "that", "these", "those", "there", "it's", "that's", "they're"}
_TO_THE_OTHER = re.compile(r"\byou(r|'re|'ve|'ll)?\b", re.I)
LEXICAL = ("in a slot", "speaker label", "pointing subject", "first person", "to the other speaker",
           "log words", "ends ! or ?")


class GateWeights(BaseModel):
    """A trained gate: the embedder it reads, its coefficients (the embedder's dimensions, then LEXICAL),
    and the junk probability at or above which a statement is held back as a candidate."""

    model: str
    lexical: list[str]
    bias: float
    coefficients: list[float]
    threshold: float
    trained_on: int  # labelled rows (distinct texts)


def lexical(text: str, slot: str | None) -> list[float]:
    """The cheap features, in LEXICAL's order."""
    body = _SPEAKER.sub("", text.strip(), count=1)
    first = body.split(" ", 1)[0].lower().strip(",.!?") if body else ""
    return [
        float(bool(slot)),
        float(body != text.strip()),
        float(first in _POINTING),
        float(first in {"i", "i'm", "i've", "i'll", "i'd", "my", "me"}),
        float(_TO_THE_OTHER.search(body) is not None),
        math.log1p(len(body.split())),
        float(body.rstrip().endswith(("!", "?"))),
    ]


def features(texts: Sequence[str], slots: Sequence[str | None], vectors: np.ndarray) -> np.ndarray:
    """One row per text: its embedder vector, then its lexical features."""
    extra = np.array([lexical(text, slot) for text, slot in zip(texts, slots, strict=True)], dtype=np.float64)
    return np.hstack([vectors.astype(np.float64), extra.reshape(len(texts), len(LEXICAL))])


def probabilities(gate: GateWeights, rows: np.ndarray) -> np.ndarray:
    """The junk probability of each feature row."""
    return 1.0 / (1.0 + np.exp(-(rows @ np.asarray(gate.coefficients) + gate.bias)))


@cache
def shipped() -> GateWeights:
    """The weights that ship with the package."""
    return GateWeights.model_validate_json(WEIGHTS_FILE.read_text())


def held_back(items: Sequence[Statement], named: set[str]) -> set[str]:
    """The ids of the statements to write as candidates: facts (not decisions) that name nothing in
    particular (statements.names_in_particular; nor, by `named`, the keys of the entities that are a person,
    an organisation or a place, one they are about: "Bob is on the checkout team.") and that the gate calls
    junk. A statement that names something is left shown: the gate calls plain ones junk ("The Celery
    scheduler retries failed jobs three times." 0.49, "Bob is on call for the billing service." 0.88), which
    its training rows of tool output taught it."""
    judged = [item for item in items
              if item.kind == "fact" and not names_in_particular(item.text) and named.isdisjoint(item.about)]
    refused = junk([item.text for item in judged])
    return {item.fact_id for item in judged if item.text in refused}


def junk(texts: Sequence[str]) -> set[str]:
    """Those of `texts` that the gate calls junk, each scored as read alone (in no slot)."""
    texts = list(dict.fromkeys(texts))
    if not texts:
        return set()
    gate = shipped()
    try:
        from sessions_graph_core.embeddings.models import load_embedder  # here: only reconciling loads the model

        vectors = load_embedder(gate.model).embed(texts)
    except Exception:  # noqa: BLE001 - no embedder on this host: every statement is shown, as before the gate
        return set()
    scores = probabilities(gate, features(texts, [None] * len(texts), vectors))
    return {text for text, score in zip(texts, scores, strict=True) if score >= gate.threshold}
