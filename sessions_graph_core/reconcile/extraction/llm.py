"""LLM extraction (seed 002): entities, facts in slots and decisions with rationale, as structured output.

The provider is the configured one (llm.provider; else Anthropic when its key is set, then OpenAI, then an
OpenAI-compatible server at llm.base_url); without any the backend says so and nothing else changes.
A reply that cannot be used fails its own text alone: that text gets an empty extraction marked failed (so
reconciliation leaves it to be asked again), the failure is logged and counted in the client's usage, and the
other texts go on.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from pydantic import BaseModel

from sessions_graph_core.config.model import Config
from sessions_graph_core.llm import LlmClient, LlmReplyError
from sessions_graph_core.ontology.model import OntologyModel
from sessions_graph_core.reconcile import statements
from sessions_graph_core.reconcile.extraction.base import ExtractedEntity, ExtractedFact, Extraction
from sessions_graph_core.reconcile.lexicon import Lexicon, lexicon

SYSTEM_PROMPT = """You maintain an engineering team's long-term memory.
From the user's message extract:
- entities: people, teams, services, technologies, events mentioned (canonical names). `kind` is one of
  the entity types {types}, or another short lowercase noun when none fits.
- facts: durable statements. `slot` is a stable key for what the fact is about, e.g.
  "orders service/owner"; reuse an existing slot when the message updates it, else "".
- decisions: choices the team made, with rationale; slot like "orders service/database".
`about` lists entity names each fact/decision concerns. A slot's subject is "me" for the user themselves
and "we" for the user's team or project. Known slots: {slots}"""


log = logging.getLogger(__name__)


class EntityAnswer(BaseModel):
    name: str
    kind: str


class FactAnswer(BaseModel):
    text: str
    slot: str
    about: list[str]


class DecisionAnswer(BaseModel):
    text: str
    rationale: str
    slot: str
    about: list[str]


class ExtractionAnswer(BaseModel):
    """Seed 002's extraction schema: entities, facts in slots, decisions with rationale."""

    entities: list[EntityAnswer]
    facts: list[FactAnswer]
    decisions: list[DecisionAnswer]

    def extraction(self, lex: Lexicon) -> Extraction:
        """The answer with the spaCy backend's subjects, attributes and quality gate, so both write one slot."""
        said = [ExtractedFact(text=f.text, slot=f.slot, about=f.about) for f in self.facts]
        said += [
            ExtractedFact(text=d.text, kind="decision", slot=d.slot, about=d.about, rationale=d.rationale or None)
            for d in self.decisions
        ]
        kept = [fact for fact in (statements.normalised(item, lex) for item in said) if fact is not None]
        return Extraction(entities=[ExtractedEntity(name=e.name, type=e.kind) for e in self.entities], facts=kept)


class LlmBackend:
    """One structured-output call per text, through the provider client the derivation uses too."""

    name = "llm"
    reads_known_slots = True  # they go into the prompt, so the model reuses the user's slot names

    def __init__(self, llm: LlmClient) -> None:
        self.llm = llm

    @classmethod
    def from_config(cls, config: Config | None = None) -> LlmBackend:
        client = LlmClient.from_config(config, needs="LLM extraction", instead="use the spacy backend, which needs none")
        return cls(client)

    def extract(self, texts: Sequence[str], ontology: OntologyModel, known_slots: Sequence[str] = ()) -> list[Extraction]:
        system = SYSTEM_PROMPT.replace("{types}", ", ".join(ontology.labels())).replace(
            "{slots}", json.dumps(list(known_slots))
        )
        lex = lexicon(ontology.single_valued())
        with ThreadPoolExecutor(max_workers=self.llm.max_in_flight) as pool:
            return list(pool.map(lambda text: self._one(system, text, lex), texts))

    def _one(self, system: str, text: str, lex: Lexicon) -> Extraction:
        try:
            return self.llm.ask(system, text, ExtractionAnswer).extraction(lex)
        except LlmReplyError as error:
            log.warning("LLM extraction of one text failed, the run goes on without it: %s (text: %.80r)", error, text)
            return Extraction(failed=True)
