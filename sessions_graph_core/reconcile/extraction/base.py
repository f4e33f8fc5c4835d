"""What every extraction backend answers with: entities, facts and decisions.

Every backend answers `extract(texts, ontology, known_slots)` with one `Extraction` per text:
spaCy (extraction/spacy.py) is the default and always works offline; GLiNER (extraction/gliner.py) is
used when its weights are present locally; an LLM (extraction/llm.py) when the caller configures one.
extraction/registry.py chooses among them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Protocol

from pydantic import BaseModel, Field

from sessions_graph_core.ontology.model import OntologyModel


class ExtractedEntity(BaseModel):
    name: str
    type: str


# How a clause is said: as something that is so, as advice, only as another clause's time or condition, or as a
# question without its mark (reconcile/reading/mood.py reads it from the parse).
Mood = Literal["stated", "advised", "hanging", "asked"]


class ExtractedFact(BaseModel):
    """A fact or a decision. `slot` names what it is about ("orders service/owner"); "" means none."""

    text: str
    kind: Literal["fact", "decision"] = "fact"
    slot: str = ""
    about: list[str] = Field(default_factory=list)
    subject: str | None = None
    predicate: str | None = None
    object: str | None = None
    rationale: str | None = None
    confidence: float | None = None
    # What the slot holds after this statement ("Carol" for "orders service/owner"); "" when the
    # statement ends the slot ("we stopped using Sentry"); None when the backend did not say.
    value: str | None = None
    # Whether the statement says its slot's value did not change ("I still live in Porto", "as before"):
    # it then repeats the statement before it in the slot, whatever words it says the value in.
    kept: bool = False
    # How the clause is said (reading/mood.py): "stated" as something that is so, else as advice ("Keep it to
    # one page; ..."), only another clause's time or condition ("When she was 12.") or a question without its
    # mark. Backends that do not read the parse leave it "stated".
    mood: Mood = "stated"


class Extraction(BaseModel):
    entities: list[ExtractedEntity] = Field(default_factory=list)
    facts: list[ExtractedFact] = Field(default_factory=list)
    # The model's reply for this text could not be used: what the reading holds without it is written (hybrid:
    # the rules' statements), but no Chunk, so its turn stays unreconciled and the next run asks again, up to
    # llm.max_attempts runs. Never stored (a failed reading is not kept on a Chunk).
    failed: bool = Field(default=False, exclude=True)


class ExtractionBackend(Protocol):
    name: str
    # Whether extract() uses `known_slots`: such a backend's extraction of a session waits for the writes
    # of the same user's session before it (reconcile_sessions).
    reads_known_slots: bool

    # A backend may also have `extract_entities(texts, ontology)`, one extraction without facts per text:
    # reconciliation reads a tool's arguments and output with it (their statements are never written).
    def extract(self, texts: Sequence[str], ontology: OntologyModel, known_slots: Sequence[str]) -> list[Extraction]:
        """One extraction per text, in order."""
