"""Seed 002's story and a fake LLM API that replays its recorded extractions.

The fake sits at the network boundary only: the real anthropic / openai clients build the
requests, and an httpx transport answers them as the providers' APIs would.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anthropic
import httpx
import httpx2
import openai

from sessions_graph_core import SessionsGraph
from sessions_graph_core.llm import LlmClient
from sessions_graph_core.reconcile.extraction.llm import LlmBackend

STORY = json.loads((Path(__file__).parent / "data" / "seed002_story.json").read_text())
USER = "agent-team"


def extraction_for(text: str, extra: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    if extra and text in extra:
        return extra[text]
    for session in STORY["sessions"]:
        for message in session["messages"]:
            if message["text"] == text:
                return {key: message[key] for key in ("entities", "facts", "decisions")}
    raise AssertionError(f"the fake model was asked about text the story does not hold: {text!r}")


class FakeApi:
    """Answers Anthropic Messages and OpenAI Chat Completions requests; keeps what it was sent."""

    def __init__(self, *, failing: bool = False, extra: dict[str, dict[str, Any]] | None = None) -> None:
        self.requests: list[dict[str, Any]] = []
        self.failing = failing
        self.extra = extra or {}

    def handle(self, request: httpx.Request | httpx2.Request) -> httpx.Response | httpx2.Response:
        # The anthropic SDK speaks httpx2, the openai SDK httpx: answer in the caller's own types.
        http = httpx2 if isinstance(request, httpx2.Request) else httpx
        body = json.loads(request.content)
        self.requests.append(body)
        if self.failing:
            return http.Response(500, json={"type": "error", "error": {"type": "api_error", "message": "model overloaded"}})
        if request.url.path.endswith("/messages"):
            reply = json.dumps(extraction_for(body["messages"][0]["content"], self.extra))
            return http.Response(200, json={
                "id": f"msg_{len(self.requests)}", "type": "message", "role": "assistant", "model": body["model"],
                "content": [{"type": "text", "text": reply}], "stop_reason": "end_turn", "stop_sequence": None,
                "usage": {"input_tokens": 10, "output_tokens": 10},
            })
        if request.url.path.endswith("/chat/completions"):
            reply = json.dumps(extraction_for(body["messages"][1]["content"], self.extra))
            return http.Response(200, json={
                "id": f"chatcmpl-{len(self.requests)}", "object": "chat.completion", "created": 0, "model": body["model"],
                "choices": [{"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": "stop"}],
            })
        return http.Response(404, json={"error": {"message": f"no such endpoint {request.url.path}"}})


def backend(provider: str, api: FakeApi) -> LlmBackend:
    if provider == "anthropic":
        http2 = httpx2.Client(transport=httpx2.MockTransport(api.handle))
        client: Any = anthropic.Anthropic(api_key="test-key", http_client=http2, max_retries=0)
    else:
        http = httpx.Client(transport=httpx.MockTransport(api.handle))
        client = openai.OpenAI(api_key="test-key", http_client=http, max_retries=0)
    return LlmBackend(LlmClient(provider, client))  # type: ignore[arg-type]


def record_session(graph: SessionsGraph, index: int, *, user: str = USER, session_id: str | None = None) -> str:
    """Store one of the story's sessions as turns (one user message per recorded message)."""
    session = STORY["sessions"][index]
    sid = session_id or session["session"]
    graph.record_session_start(sid, user_id=user, started_at=session["startedAt"])
    graph.record_turns(
        sid,
        [
            {"role": "user", "text": m["text"], "timestamp": m["at"], "turn_id": f"{sid}-m{m['seq']}"}
            for m in session["messages"]
        ],
    )
    return sid
