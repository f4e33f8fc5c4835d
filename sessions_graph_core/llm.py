"""The one LLM client, for ontology derivation and LLM extraction: Anthropic, OpenAI, or any OpenAI-compatible
server (Ollama, vLLM, llama.cpp, LM Studio), structured output only.

The answer's shape is a pydantic model; its JSON schema is sent closed (no extra properties, every
property required), so both providers' strict modes accept it and the reply validates against it.
An OpenAI-compatible server gets the schema as `response_format` when it takes it, else JSON mode with the
schema in the prompt; a reply that does not validate is sent back once with the error to be repaired.
Replies that validated are kept on disk by (provider, model, prompt), so a re-run never pays for them twice.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import tempfile
import threading
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel
from pydantic import ValidationError as PydanticError

from sessions_graph_core.config.model import Config, load_config
from sessions_graph_core.errors import NoLlmConfiguredError

Provider = Literal["anthropic", "openai", "openai-compatible"]
DEFAULT_MODELS: dict[str, str] = {"anthropic": "claude-sonnet-5-5", "openai": "gpt-5"}
# What a local server is sent as the key when none is configured: the SDK refuses an empty one.
NO_KEY = "none"
JSON_MODE_PROMPT = "\n\nAnswer with one JSON object only, matching this JSON schema:\n{schema}"
REPAIR_PROMPT = ("Your reply was not valid for the schema: {error}\nYour reply was:\n{reply}\n"
                 "Answer again with one JSON object only, matching the schema.")


class LlmReplyError(ValueError):
    """The model's reply to one prompt could not be used (empty, not JSON, or not of the schema's shape)."""
MAX_TOKENS = 16000
# Reconcile runs that ask the model about a text whose reply could not be used, before giving up on it.
MAX_ATTEMPTS = 3

Answer = TypeVar("Answer", bound=BaseModel)


class LlmUsage(BaseModel):
    provider: str
    model: str
    calls: int = 0
    cached: int = 0  # answers read from the reply cache: no call, no tokens
    failed: int = 0  # prompts whose reply could not be used, even after a repair
    input_tokens: int = 0
    output_tokens: int = 0

    def since(self, earlier: LlmUsage) -> LlmUsage:
        """What was used after `earlier` was taken: one run's share of a client used for several."""
        return self.model_copy(
            update={
                "calls": self.calls - earlier.calls,
                "cached": self.cached - earlier.cached,
                "failed": self.failed - earlier.failed,
                "input_tokens": self.input_tokens - earlier.input_tokens,
                "output_tokens": self.output_tokens - earlier.output_tokens,
            }
        )

    def line(self) -> str:
        """The usage in words, for the CLI's closing line."""
        return (f"LLM {self.provider} {self.model}: {self.calls} calls, {self.cached} answered from the cache, "
                f"{self.input_tokens} input and {self.output_tokens} output tokens, {self.failed} replies unusable "
                f"(their texts are asked again on the next run)")


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


class ReplyCache:
    """Validated replies on disk, one file per (provider, model, system, prompt, schema)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    @staticmethod
    def key(*parts: Any) -> str:
        return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> str | None:
        path = self._path(key)
        return path.read_text() if path.is_file() else None

    def put(self, key: str, reply: str) -> None:
        path = self._path(key)
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(handle, "w") as file:
            file.write(reply)
        os.replace(temporary, path)  # a reader never sees half a reply


def cache_dir(config: Config) -> Path:
    return config.store.settings().data_dir / "llm-cache"


class LlmClient:
    """One structured-output call per `ask`, through the provider's official client; usage is tallied."""

    def __init__(
        self, provider: Provider, client: Any, model: str | None = None, *, cache: ReplyCache | None = None,
        max_in_flight: int = 1, max_tokens: int = MAX_TOKENS, max_attempts: int = MAX_ATTEMPTS,
    ) -> None:
        self.provider = provider
        self.client = client
        self.model = model or DEFAULT_MODELS[provider]
        self.cache = cache
        self.max_in_flight = max_in_flight
        self.max_tokens = max_tokens
        self.max_attempts = max_attempts  # reconcile runs that ask about one text before giving up on it
        self.usage = LlmUsage(provider=provider, model=self.model)
        # Whether the server takes a JSON schema as response_format; None until its first answer says.
        self.takes_schema: bool | None = None
        self._lock = threading.Lock()

    @classmethod
    def from_config(
        cls, config: Config | None = None, *, model: str | None = None, needs: str = "derivation", instead: str = ""
    ) -> LlmClient:
        """The configured provider; `model` overrides the config's model for it, which overrides the default.
        Without a key (or a server's URL) it raises NoLlmConfiguredError saying what `needs` the LLM and what
        to do `instead`.
        """
        config = config or load_config()
        settings = config.llm
        provider = settings.usable()
        limits = {"timeout": settings.timeout_s, "max_retries": settings.retries}
        made = {"cache": ReplyCache(cache_dir(config)), "max_in_flight": settings.max_in_flight,
                "max_attempts": settings.max_attempts}
        if provider == "anthropic":
            import anthropic

            key = settings.anthropic_api_key.get_secret_value()  # type: ignore[union-attr]
            return cls("anthropic", anthropic.Anthropic(api_key=key, **limits), model or settings.anthropic_model, **made)
        if provider == "openai":
            import openai

            key = settings.openai_api_key.get_secret_value()  # type: ignore[union-attr]
            return cls("openai", openai.OpenAI(api_key=key, **limits), model or settings.openai_model, **made)
        if provider == "openai-compatible":
            import openai

            key = settings.api_key.get_secret_value() if settings.api_key else ""
            client = openai.OpenAI(base_url=settings.base_url, api_key=key or NO_KEY, **limits)
            return cls("openai-compatible", client, model or settings.model, max_tokens=settings.max_tokens, **made)
        raise NoLlmConfiguredError(needs, instead=instead)

    def ask(self, system: str, prompt: str, answer: type[Answer]) -> Answer:
        """The model's answer of `answer`'s shape; LlmReplyError when its reply cannot be used."""
        schema = closed(answer.model_json_schema())
        key = ReplyCache.key(self.provider, self.model, system, prompt, schema)
        cached = self.cache.get(key) if self.cache else None
        if cached is not None:
            with self._lock:
                self.usage.cached += 1
            return answer.model_validate_json(cached)
        try:
            reply, parsed = self._answer(system, prompt, schema, answer)
        except LlmReplyError:
            with self._lock:
                self.usage.failed += 1
            raise
        if self.cache:
            self.cache.put(key, reply)
        return parsed

    def _answer(self, system: str, prompt: str, schema: dict[str, Any], answer: type[Answer]) -> tuple[str, Answer]:
        if self.provider != "openai-compatible":
            call = self._anthropic if self.provider == "anthropic" else self._openai
            reply = call(system, prompt, schema)
            return reply, self._parsed(reply, answer)
        reply = self._compatible(system, [{"role": "user", "content": prompt}], schema)
        try:
            return reply, self._parsed(reply, answer)
        except LlmReplyError as error:
            # One repair: the reply and what was wrong with it go back to the model.
            repair = REPAIR_PROMPT.format(error=str(error)[:500], reply=reply[:2000])
            messages = [{"role": "user", "content": prompt}, {"role": "assistant", "content": reply},
                        {"role": "user", "content": repair}]
            reply = self._compatible(system, messages, schema)
            return reply, self._parsed(reply, answer)

    def _parsed(self, reply: str, answer: type[Answer]) -> Answer:
        if not reply.strip():
            raise LlmReplyError(f"{self.provider} model {self.model} returned an empty answer")
        try:
            return answer.model_validate_json(reply)
        except PydanticError as error:
            raise LlmReplyError(f"{self.provider} model {self.model} answered outside the schema: {error}") from None

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
        return self._chat([{"role": "system", "content": system}, {"role": "user", "content": prompt}], _schema_format(schema))

    def _compatible(self, system: str, messages: list[dict[str, str]], schema: dict[str, Any]) -> str:
        """A chat with the schema as response_format; JSON mode with the schema in the prompt where the server
        refuses that (remembered for the client's later calls)."""
        import openai

        if self.takes_schema is not False:
            try:
                reply = self._chat([{"role": "system", "content": system}, *messages], _schema_format(schema))
                self.takes_schema = True
                return reply
            except openai.BadRequestError:
                if self.takes_schema:
                    raise
                self.takes_schema = False
        system += JSON_MODE_PROMPT.format(schema=json.dumps(schema))
        return self._chat([{"role": "system", "content": system}, *messages], {"type": "json_object"})

    def _chat(self, messages: list[dict[str, str]], response_format: dict[str, Any]) -> str:
        extra = {"max_tokens": self.max_tokens, "temperature": 0} if self.provider == "openai-compatible" else {}
        completion = self.client.chat.completions.create(
            model=self.model, messages=messages, response_format=response_format, **extra
        )
        usage = completion.usage
        self._tally(usage.prompt_tokens if usage else 0, usage.completion_tokens if usage else 0)
        return completion.choices[0].message.content or ""

    def _tally(self, input_tokens: int, output_tokens: int) -> None:
        with self._lock:
            self.usage.calls += 1
            self.usage.input_tokens += input_tokens
            self.usage.output_tokens += output_tokens


def _schema_format(schema: dict[str, Any]) -> dict[str, Any]:
    return {"type": "json_schema", "json_schema": {"name": "answer", "schema": schema, "strict": True}}
