"""Seed 002's story and a fake LLM API that replays its recorded extractions.

The fake sits at the network boundary only: the real anthropic / openai clients build the
requests, and an httpx transport answers them as the providers' APIs would.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fake_llm import FakeLlmHttp, llm_client

from sessions_graph_core import SessionsGraph
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


class FakeApi(FakeLlmHttp):
    """The fake LLM answering extraction prompts with the story's labels for the message."""

    def __init__(self, *, failing: bool = False, extra: dict[str, dict[str, Any]] | None = None) -> None:
        super().__init__(lambda prompt: json.dumps(extraction_for(prompt, extra)), failing=failing)


def backend(provider: str, api: FakeApi) -> LlmBackend:
    return LlmBackend(llm_client(provider, api))


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
        user_id=user,
    )
    return sid
