"""The one LLM client, for ontology derivation and LLM extraction: Anthropic first, OpenAI second, structured output only.

The answer's shape is a pydantic model; its JSON schema is sent closed (no extra properties, every
property required), so both providers' strict modes accept it and the reply validates against it.
"""

from __future__ import annotations

import copy
from typing import Any, Literal, TypeVar

from pydantic import BaseModel

from sessions_graph_core.config.model import Config, load_config
from sessions_graph_core.errors import NoLlmConfiguredError

Provider = Literal["anthropic", "openai"]
DEFAULT_MODELS: dict[str, str] = {"anthropic": "claude-sonnet-5-5", "openai": "gpt-5"}
MAX_TOKENS = 16000

Answer = TypeVar("Answer", bound=BaseModel)


class LlmUsage(BaseModel):
    provider: str
    model: str
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0

    def since(self, earlier: LlmUsage) -> LlmUsage:
        """What was used after `earlier` was taken: one run's share of a client used for several."""
        return self.model_copy(
            update={
                "calls": self.calls - earlier.calls,
                "input_tokens": self.input_tokens - earlier.input_tokens,
                "output_tokens": self.output_tokens - earlier.output_tokens,
            }
        )


def closed(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with `$ref`s inlined, titles and defaults dropped, every object closed and fully required."""
    definitions = schema.get("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(item) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            return walk(copy.deepcopy(definitions[node["$ref"].rsplit("/", 1)[-1]]))
        out = {key: walk(value) for key, value in node.items() if key not in {"$defs", "title", "default"}}
        if out.get("type") == "object":
            out["additionalProperties"] = False
            out["required"] = list(out.get("properties", {}))
        return out

    return walk(schema)


class LlmClient:
    """One structured-output call per `ask`, through the provider's official client; usage is tallied."""

    def __init__(self, provider: Provider, client: Any, model: str | None = None) -> None:
        self.provider = provider
        self.client = client
        self.model = model or DEFAULT_MODELS[provider]
        self.usage = LlmUsage(provider=provider, model=self.model)

    @classmethod
    def from_config(
        cls, config: Config | None = None, *, model: str | None = None, needs: str = "derivation", instead: str = ""
    ) -> LlmClient:
        """The configured provider; `model` overrides the config's model for it, which overrides the default.

        Without a key it raises NoLlmConfiguredError saying what `needs` the LLM and what to do `instead`.
        """
        config = config or load_config()
        provider = config.llm.provider()
        if provider == "anthropic":
            import anthropic

            key = config.llm.anthropic_api_key.get_secret_value()  # type: ignore[union-attr]
            return cls("anthropic", anthropic.Anthropic(api_key=key), model or config.llm.anthropic_model)
        if provider == "openai":
            import openai

            key = config.llm.openai_api_key.get_secret_value()  # type: ignore[union-attr]
            return cls("openai", openai.OpenAI(api_key=key), model or config.llm.openai_model)
        raise NoLlmConfiguredError(needs, instead=instead)

    def ask(self, system: str, prompt: str, answer: type[Answer]) -> Answer:
        schema = closed(answer.model_json_schema())
        call = self._anthropic if self.provider == "anthropic" else self._openai
        reply = call(system, prompt, schema)
        if not reply.strip():
            raise ValueError(f"{self.provider} model {self.model} returned an empty answer")
        return answer.model_validate_json(reply)

    def _anthropic(self, system: str, prompt: str, schema: dict[str, Any]) -> str:
        message = self.client.messages.create(
            model=self.model,
            max_tokens=MAX_TOKENS,
            system=system,
            messages=[{"role": "user", "content": prompt}],
            output_config={"format": {"type": "json_schema", "schema": schema}},
        )
        self._tally(message.usage.input_tokens, message.usage.output_tokens)
        return "".join(block.text for block in message.content if block.type == "text")

    def _openai(self, system: str, prompt: str, schema: dict[str, Any]) -> str:
        completion = self.client.chat.completions.create(
            model=self.model,
            messages=[{"role": "system", "content": system}, {"role": "user", "content": prompt}],
            response_format={
                "type": "json_schema",
                "json_schema": {"name": "answer", "schema": schema, "strict": True},
            },
        )
        usage = completion.usage
        self._tally(usage.prompt_tokens if usage else 0, usage.completion_tokens if usage else 0)
        return completion.choices[0].message.content or ""

    def _tally(self, input_tokens: int, output_tokens: int) -> None:
        self.usage.calls += 1
        self.usage.input_tokens += input_tokens
        self.usage.output_tokens += output_tokens
