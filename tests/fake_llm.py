"""The one fake LLM in the tests: the providers' HTTP APIs, answered at the network boundary.

The real anthropic and openai SDKs build every request; an HTTP transport answers Anthropic Messages
and OpenAI Chat Completions as the providers would, usage included, with whatever `reply` says for
the prompt. Derivation (tests/derivation_helpers.py) and LLM extraction (tests/seed002.py) differ only
in that function.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import anthropic
import httpx
import httpx2
import openai

from sessions_graph_core.llm import LlmClient

OUTPUT_TOKENS = {"anthropic": 120, "openai": 90}


class FakeLlmHttp:
    """Answers both providers' endpoints with `reply(prompt)`; keeps every request body it was sent."""

    def __init__(self, reply: Callable[[str], str], *, failing: bool = False) -> None:
        self.reply = reply
        self.failing = failing
        self.requests: list[dict[str, Any]] = []

    def handle(self, request: httpx.Request | httpx2.Request) -> httpx.Response | httpx2.Response:
        # The anthropic SDK speaks httpx2, the openai SDK httpx: answer in the caller's own types.
        http = httpx2 if isinstance(request, httpx2.Request) else httpx
        body = json.loads(request.content)
        self.requests.append(body)
        if self.failing:
            return http.Response(500, json={"type": "error", "error": {"type": "api_error", "message": "model overloaded"}})
        if request.url.path.endswith("/messages"):
            prompt = body["messages"][0]["content"]
            return http.Response(200, json={
                "id": f"msg_{len(self.requests)}", "type": "message", "role": "assistant", "model": body["model"],
                "content": [{"type": "text", "text": self.reply(prompt)}], "stop_reason": "end_turn",
                "stop_sequence": None,
                "usage": {"input_tokens": len(prompt) // 4, "output_tokens": OUTPUT_TOKENS["anthropic"]},
            })
        if request.url.path.endswith("/chat/completions"):
            prompt = body["messages"][1]["content"]
            tokens = (len(prompt) // 4, OUTPUT_TOKENS["openai"])
            return http.Response(200, json={
                "id": f"chatcmpl-{len(self.requests)}", "object": "chat.completion", "created": 0, "model": body["model"],
                "choices": [{"index": 0, "message": {"role": "assistant", "content": self.reply(prompt)},
                             "finish_reason": "stop"}],
                "usage": {"prompt_tokens": tokens[0], "completion_tokens": tokens[1], "total_tokens": sum(tokens)},
            })
        return http.Response(404, json={"error": {"message": f"no such endpoint {request.url.path}"}})


def llm_client(provider: str, api: FakeLlmHttp, model: str | None = None) -> LlmClient:
    """The product's LLM client over the provider's real SDK, whose HTTP goes to `api`."""
    if provider == "anthropic":
        client: Any = anthropic.Anthropic(
            api_key="test-key", http_client=httpx2.Client(transport=httpx2.MockTransport(api.handle)), max_retries=0
        )
    else:
        client = openai.OpenAI(
            api_key="test-key", http_client=httpx.Client(transport=httpx.MockTransport(api.handle)), max_retries=0
        )
    return LlmClient(provider, client, model)  # type: ignore[arg-type]
