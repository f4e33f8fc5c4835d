"""The gate a candidate model must pass: the sessions it is tried on, and how its extractions are scored."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from pydantic import BaseModel

from sessions_graph_core.ontology.model import (
    CATCH_ALL_LABELS,
    OntologyModel,
)
from sessions_graph_core.reconcile.extraction.base import Extraction
from sessions_graph_core.store.base import GraphStore
from sessions_graph_core.text import comparable

DELTA_BUDGET = 64
HOLDOUT_FROM = 8
HOLDOUT_SHARE = 0.25
HOLDOUT_MAX = 8
TOLERANCE = 0.01
# Subjects spaCy leaves as pronouns are the speaker: the user's own relations.
SPEAKER_WORDS = {"", "i", "we", "me", "us", "my", "our"}


# -- sampling --------------------------------------------------------------------------------


class Split(BaseModel):
    sample: list[str]
    train: list[str]
    gate: list[str]
    in_sample: bool


def split(delta: Sequence[str], user_id: str, milestone: int) -> Split:
    """The sample (at most 64) and its hold-out, the same for the same user, milestone and delta."""
    rng = random.Random(f"{user_id}:{milestone}")
    picked = sorted(rng.sample(range(len(delta)), DELTA_BUDGET)) if len(delta) > DELTA_BUDGET else range(len(delta))
    sample = [delta[i] for i in picked]
    if len(sample) < HOLDOUT_FROM:
        return Split(sample=sample, train=sample, gate=sample, in_sample=True)
    size = min(HOLDOUT_MAX, max(1, round(len(sample) * HOLDOUT_SHARE)))
    held = set(rng.sample(range(len(sample)), size))
    return Split(
        sample=sample,
        train=[sid for i, sid in enumerate(sample) if i not in held],
        gate=[sid for i, sid in enumerate(sample) if i in held],
        in_sample=False,
    )


# -- measuring a model -----------------------------------------------------------------------


class Score(BaseModel):
    catch_all_share: float
    coverage: float
    mentions: int
    user_turns: int


class Message(BaseModel):
    session_id: str
    role: str
    text: str


def messages(store: GraphStore, user_id: str, session_ids: Sequence[str]) -> list[Message]:
    rows = store.run(
        "MATCH (s:Session {user_id: $uid})-[:HAS_TURN]->(t:Turn) WHERE s.session_id IN $sids "
        "AND t.kind = 'message' AND t.text <> '' "
        "RETURN s.session_id AS session_id, coalesce(t.role, 'tool') AS role, t.text AS text, t.seq AS seq "
        "ORDER BY session_id, seq",
        {"uid": user_id, "sids": list(session_ids)},
    )
    return [Message(session_id=row["session_id"], role=row["role"], text=row["text"]) for row in rows]


@cache
def _lemmas(label: str) -> str:
    """A relation label in the form spaCy gives predicates: "works_on" -> "work on"."""
    from sessions_graph_core.reconcile.nlp import lemma, spacy_pipeline

    return " ".join(lemma(token) for token in spacy_pipeline()(label.replace("_", " ")))


def _typed_relation(extraction: Extraction, model: OntologyModel) -> bool:
    """Whether a statement of the text fits one of the model's relation types, endpoints included."""
    labels = set(model.labels())
    types = {comparable(entity.name): entity.type for entity in extraction.entities}
    for fact in extraction.facts:
        if not (fact.predicate and fact.object):
            continue
        subject = comparable(fact.subject or "")
        head = "User" if subject in SPEAKER_WORDS else types.get(subject)
        tail = types.get(comparable(fact.object))
        if head not in labels or tail not in labels:
            continue
        for relation in model.relation_types:
            if _lemmas(relation.label) == fact.predicate.lower() and (
                (not relation.start_labels or head in relation.start_labels)
                and (not relation.end_labels or tail in relation.end_labels)
            ):
                return True
    return False


def _is_catch_all(kind: str, labels: set[str]) -> bool:
    # A type the model does not declare types nothing either: it counts with the catch-alls.
    return kind in CATCH_ALL_LABELS or kind not in labels


def measure(extractions: Sequence[Extraction], roles: Sequence[str], model: OntologyModel) -> Score:
    labels = set(model.labels())
    kinds = [entity.type for extraction in extractions for entity in extraction.entities]
    user = [extraction for extraction, role in zip(extractions, roles, strict=True) if role == "user"]
    typed = sum(1 for extraction in user if _typed_relation(extraction, model))
    return Score(
        catch_all_share=round(sum(_is_catch_all(kind, labels) for kind in kinds) / len(kinds), 4) if kinds else 0.0,
        coverage=round(typed / len(user), 4) if user else 0.0,
        mentions=len(kinds),
        user_turns=len(user),
    )


def passes(score: Score, base: Score) -> bool:
    return score.catch_all_share <= base.catch_all_share + TOLERANCE and score.coverage >= base.coverage - TOLERANCE


def agreement(base: Sequence[Extraction], other: Sequence[Extraction], merges: dict[str, str]) -> float:
    """The share of mentions both models type that get the same type, the base's merged types resolved."""
    same = both = 0
    for left, right in zip(base, other, strict=True):
        theirs = {comparable(entity.name): entity.type for entity in right.entities}
        for entity in left.entities:
            kind = theirs.get(comparable(entity.name))
            if kind is not None:
                both += 1
                same += merges.get(entity.type, entity.type) == kind
    return round(same / both, 4) if both else 1.0
