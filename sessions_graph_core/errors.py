"""The errors and messages more than one module raises, each written once.

Every error here says what was wrong and how to fix it. Input errors are `ValidationError`
(validation.py), raised where the input is checked.
"""

from __future__ import annotations

from sessions_graph_core.validation import ValidationError

LLM_KEYS = ("set llm.anthropic_api_key or llm.openai_api_key (or ANTHROPIC_API_KEY / OPENAI_API_KEY), "
            "or llm.model and llm.base_url for an OpenAI-compatible server")


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


class NotFoundError(ValidationError):
    """An id the caller holds nothing under. Another user's item and a missing one raise the same error
    with the same text, so no call tells a caller what other users hold (the CLI exits 1 on it)."""


def no_session(session_id: str, user_id: str) -> NotFoundError:
    """The one message for a session id that is missing or another user's."""
    return NotFoundError(
        f"no session {session_id!r} of user {user_id!r}: `sessions-graph session list` shows the user's sessions"
    )


def no_fact(fact_id: str, user_id: str) -> NotFoundError:
    """The one message for a fact id that is missing or another user's."""
    return NotFoundError(f"no fact {fact_id!r} of user {user_id!r}: the Facts page lists the user's facts")


def no_memory(memory_id: str, user_id: str) -> NotFoundError:
    """The one message for a memory id that is missing or another user's."""
    return NotFoundError(f"no memory {memory_id} of user {user_id!r}: `sessions-graph memory list` shows the user's memories")
