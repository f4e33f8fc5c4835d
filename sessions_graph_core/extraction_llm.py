"""LLM extraction (seed 002): entities, facts in slots and decisions with rationale, as structured output.

Anthropic is used when ANTHROPIC_API_KEY is set, else OpenAI with OPENAI_API_KEY. Without either
the backend says so and nothing else changes.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any, Literal

from .extraction import ExtractedEntity, ExtractedFact, Extraction
from .ontology import OntologyModel

DEFAULT_MODELS = {"anthropic": "claude-sonnet-5-5", "openai": "gpt-4.1-mini"}
MAX_TOKENS = 4096

SYSTEM_PROMPT = """You maintain an engineering team's long-term memory.
From the user's message extract:
- entities: people, teams, services, technologies, events mentioned (canonical names). `kind` is one of
  the entity types {types}, or another short lowercase noun when none fits.
- facts: durable statements. `slot` is a stable key for what the fact is about, e.g.
  "orders service/owner"; reuse an existing slot when the message updates it, else "".
- decisions: choices the team made, with rationale; slot like "orders service/database".
`about` lists entity names each fact/decision concerns. Known slots: {slots}"""

_STRING = {"type": "string"}
_NAMES = {"type": "array", "items": _STRING}


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


EXTRACTION_SCHEMA = _object(
    {
        "entities": {"type": "array", "items": _object({"name": _STRING, "kind": _STRING})},
        "facts": {"type": "array", "items": _object({"text": _STRING, "slot": _STRING, "about": _NAMES})},
        "decisions": {
            "type": "array",
            "items": _object({"text": _STRING, "rationale": _STRING, "slot": _STRING, "about": _NAMES}),
        },
    }
)


class LlmNotConfiguredError(RuntimeError):
    """No API key: LLM extraction cannot run."""


def parse_reply(text: str) -> Extraction:
    data = json.loads(text)
    entities = [ExtractedEntity(name=item["name"], type=item["kind"]) for item in data.get("entities", [])]
    statements = [
        ExtractedFact(text=item["text"], slot=item.get("slot", ""), about=item.get("about", []))
        for item in data.get("facts", [])
    ]
    statements += [
        ExtractedFact(
            text=item["text"],
            kind="decision",
            slot=item.get("slot", ""),
            about=item.get("about", []),
            rationale=item.get("rationale") or None,
        )
        for item in data.get("decisions", [])
    ]
    return Extraction(entities=entities, facts=statements)


class LlmBackend:
    """One structured-output call per text, through the official client of the provider."""

    name = "llm"

    def __init__(self, provider: Literal["anthropic", "openai"], client: Any, model: str | None = None) -> None:
        self.provider = provider
        self.client = client
        self.model = model or DEFAULT_MODELS[provider]

    @classmethod
    def from_env(cls, model: str | None = None) -> LlmBackend:
        if os.environ.get("ANTHROPIC_API_KEY"):
            import anthropic

            return cls("anthropic", anthropic.Anthropic(), model)
        if os.environ.get("OPENAI_API_KEY"):
            import openai

            return cls("openai", openai.OpenAI(), model)
        raise LlmNotConfiguredError(
            "LLM extraction needs an API key: set ANTHROPIC_API_KEY (or OPENAI_API_KEY), "
            "or use the spacy backend, which needs none"
        )

    def extract(self, texts: Sequence[str], ontology: OntologyModel, known_slots: Sequence[str] = ()) -> list[Extraction]:
        system = SYSTEM_PROMPT.replace("{types}", ", ".join(ontology.labels())).replace(
            "{slots}", json.dumps(list(known_slots))
        )
        results = []
        for text in texts:
            reply = self._anthropic(system, text) if self.provider == "anthropic" else self._openai(system, text)
            results.append(parse_reply(reply))
        return results

    def _anthropic(self, system: str, text: str) -> str:
        message = self.client.messages.create(
            model=self.model,
            max_tokens=MAX_TOKENS,
            system=system,
            messages=[{"role": "user", "content": text}],
            output_config={"format": {"type": "json_schema", "schema": EXTRACTION_SCHEMA}},
        )
        reply = "".join(block.text for block in message.content if block.type == "text")
        if not reply.strip():
            raise ValueError("the model returned an empty extraction")
        return reply

    def _openai(self, system: str, text: str) -> str:
        completion = self.client.chat.completions.create(
            model=self.model,
            messages=[{"role": "system", "content": system}, {"role": "user", "content": text}],
            response_format={
                "type": "json_schema",
                "json_schema": {"name": "memory_extraction", "schema": EXTRACTION_SCHEMA, "strict": True},
            },
        )
        reply = completion.choices[0].message.content
        if not reply:
            raise ValueError("the model returned an empty extraction")
        return reply
