"""The errors and messages more than one module raises, each written once.

Every error here says what was wrong and how to fix it. Input errors are `ValidationError`
(validation.py), raised where the input is checked.
"""

from __future__ import annotations

from sessions_graph_core.validation import ValidationError

LLM_KEYS = "set llm.anthropic_api_key or llm.openai_api_key (or ANTHROPIC_API_KEY / OPENAI_API_KEY)"


class NoLlmConfiguredError(RuntimeError):
    """Neither API key is configured, so the work that asks an LLM (derivation, LLM extraction) cannot run."""

    def __init__(self, needs: str, *, instead: str = "") -> None:
        message = f"{needs} needs an LLM: {LLM_KEYS}"
        super().__init__(f"{message}, or {instead}" if instead else message)


class StoreUnreachableError(ConnectionError):
    """The store cannot be reached: the embedded server would not start, or the Memgraph server did not answer."""


def foreign_session(session_id: str) -> ValidationError:
    """A session id another user already holds: refused, nothing written."""
    return ValidationError(f"Session {session_id!r} belongs to another user; pick a session id unique to this user")
