"""Hybrid reading (`extraction.backend = "spacy+llm"`): the rules read every text, and the model is asked only
where they leave a gap.

Two gaps are asked about, each against the user's current slots (the known slots) of one subject:
- a text about a known subject that the rules put in none of that subject's slots ("Last month I relocated
  to Seattle" when the rules read no slot of "me" from it): which of the subject's slots does it give a new
  value, if any;
- a statement the rules put in a new slot whose subject already holds a current slot of a similar attribute
  ("me/vehicle" beside a current "me/car"): does it give that slot a new value.
The model's answer is constrained to the candidate slots or "none", so it can only add a statement in a
slot the user already has (which then supersedes that slot's current value); what the rules read is kept
as it is. A reply that cannot be used leaves the rules' reading alone for that text, and is counted.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, Field, create_model

from sessions_graph_core.config.model import Config
from sessions_graph_core.llm import LlmClient, LlmReplyError
from sessions_graph_core.ontology.model import OntologyModel
from sessions_graph_core.reconcile.extraction.base import ExtractedFact, Extraction
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend
from sessions_graph_core.reconcile.statements import SELF
from sessions_graph_core.reconcile.tokens import FIRST_PERSON
from sessions_graph_core.text import comparable, words

log = logging.getLogger(__name__)

NONE = "none"
VALUE_CHARS = 60
# Cosine of two attribute names (the default embedder) at or above which they count as similar; a shared
# word counts too ("home city" and "city").
SIMILAR_ATTRIBUTES = 0.6
SYSTEM_PROMPT = """You keep a user's memory as slots named "subject/attribute"; each slot holds one current value.
Read the statement and answer which of the listed slots it gives a new value, and that value in a few words.
Answer "none" when it gives none of them a new value (it is about something else, or repeats the value)."""


class Gap(BaseModel):
    """One question for the model: does `statement` give one of `slots` (a subject's current slots) a new value."""

    text: int
    statement: str
    slots: list[str]


def subject_of(slot: str) -> str:
    return slot.rpartition("/")[0]


def mentions(text: str, subject: str) -> bool:
    """Whether the text is about the subject: the speaker for "me", else the subject's name in it."""
    if subject == SELF:
        return bool(FIRST_PERSON & {word.lower() for word in words(text)})
    return f" {comparable(subject)} " in f" {comparable(text)} "


class HybridBackend:
    name = "spacy+llm"
    reads_known_slots = True  # the gaps are found against them

    def __init__(self, llm: LlmClient, rules: SpacyBackend | None = None) -> None:
        self.llm = llm
        self.rules = rules or SpacyBackend()

    @classmethod
    def from_config(cls, config: Config | None = None) -> HybridBackend:
        client = LlmClient.from_config(config, needs="hybrid reading", instead="use the spacy backend, which needs none")
        return cls(client)

    def extract(self, texts: Sequence[str], ontology: OntologyModel, known_slots: Sequence[str] = ()) -> list[Extraction]:
        read = self.rules.extract(texts, ontology, known_slots)
        gaps = [gap for n, text in enumerate(texts) for gap in self.gaps(n, text, read[n], known_slots)]
        with ThreadPoolExecutor(max_workers=self.llm.max_in_flight) as pool:
            answers = list(pool.map(self._asked, gaps))
        for gap, (added, failed) in zip(gaps, answers, strict=True):
            # The rules' statements are written all the same; the text's turn stays unreconciled, so the model
            # is asked again next run (up to llm.max_attempts runs), and what it adds then adds to them.
            read[gap.text].failed |= failed
            if added is not None and (added.slot, added.value) not in {(f.slot, f.value) for f in read[gap.text].facts}:
                read[gap.text].facts.append(added)
        return read

    def gaps(self, n: int, text: str, read: Extraction, known_slots: Sequence[str]) -> list[Gap]:
        """The questions this text leaves: known subjects it speaks of but the rules slotted nothing of, and
        new slots beside a current slot of a similar attribute."""
        known = list(dict.fromkeys(known_slots))
        slotted = {subject_of(fact.slot) for fact in read.facts if fact.slot}
        found = [Gap(text=n, statement=text, slots=[slot for slot in known if subject_of(slot) == subject])
                 for subject in dict.fromkeys(subject_of(slot) for slot in known)
                 if subject not in slotted and mentions(text, subject)]
        for fact in read.facts:
            if fact.slot and fact.slot not in known:
                beside = similar_slots(fact.slot, known)
                if beside:
                    found.append(Gap(text=n, statement=fact.text, slots=beside))
        return found

    def _asked(self, gap: Gap) -> tuple[ExtractedFact | None, bool]:
        """ask's statement, and whether the model's reply could not be used."""
        try:
            return self.ask(gap), False
        except LlmReplyError as error:
            log.warning("hybrid reading: the model's answer for one statement could not be used: %s", error)
            return None, True

    def ask(self, gap: Gap) -> ExtractedFact | None:
        """The statement the model adds for the gap, or None when it said none; LlmReplyError when its reply
        could not be used."""
        choice: Any = Literal[tuple([*gap.slots, NONE])]  # the grammar lets the model name a listed slot only
        # A value is a few words; the bound also keeps a small model from running on to the token limit.
        answer: type[BaseModel] = create_model("SlotAnswer", slot=(choice, ...),
                                               value=(str, Field(..., max_length=VALUE_CHARS)))
        prompt = f"Slots: {json.dumps(gap.slots)}\nStatement: {gap.statement}"
        said = self.llm.ask(SYSTEM_PROMPT, prompt, answer)
        fields = said.model_dump()
        slot, value = fields["slot"], " ".join(str(fields["value"]).split())
        if slot == NONE or not value:
            return None
        subject = subject_of(slot)
        return ExtractedFact(text=gap.statement, slot=slot, about=[subject], subject=subject, value=value)


def similar_slots(slot: str, known: Sequence[str]) -> list[str]:
    """The known slots of the slot's subject whose attribute is like its own (a shared word, or near in meaning)."""
    subject, attribute = subject_of(slot), slot.rpartition("/")[2]
    mine = [other for other in known if subject_of(other) == subject and other != slot]
    if not mine:
        return []
    attributes = [other.rpartition("/")[2] for other in mine]
    return [other for other, score in zip(mine, _closeness(attribute, attributes), strict=True)
            if set(attribute.split()) & set(other.rpartition("/")[2].split()) or score >= SIMILAR_ATTRIBUTES]


def _closeness(attribute: str, others: list[str]) -> list[float]:
    from sessions_graph_core.embeddings.models import load_embedder

    vectors = load_embedder().embed([attribute, *others])
    return [float(score) for score in np.asarray(vectors[1:] @ vectors[0])]
