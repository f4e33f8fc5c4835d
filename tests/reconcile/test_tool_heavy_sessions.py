"""Facts worth reading from tool-heavy sessions (issue 38), with the real spaCy model and the real store.

A Claude Code or Codex session is mostly tool traffic and the assistant's narration. Tool output (a test run,
a file listing, a log) states nothing; the assistant's "I" is the assistant; a lead-in ("Personal note:", "FYI",
"Update -", a quote marker) no longer hides the statement after it; a reason said as a purpose, after a dash or
in the next sentence stays with its decision; "your" is no holder. The sentences are our own.
"""

from __future__ import annotations

import pytest
from reading_helpers import slots

from sessions_graph_core import SessionsGraph
from sessions_graph_core.ontology.model import DEFAULT_MODEL
from sessions_graph_core.reconcile import statements
from sessions_graph_core.reconcile.extraction.base import ExtractedFact
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend

START = "2026-01-05T09:00:00Z"


def facts_of(graph: SessionsGraph, spacy: SpacyBackend, user: str, turns: list[dict]) -> list[tuple[str, str]]:
    """(text, slot) of every fact one session of these turns writes."""
    graph.record_session_start(f"{user}-s", user_id=user, project_key="shop", started_at=START)
    graph.record_turns(f"{user}-s", [{"timestamp": START, **turn} for turn in turns], user_id=user)
    assert graph.reconcile_session(f"{user}-s", backend=spacy).status == "completed"
    rows = graph.store.run("MATCH (f:Fact {user_id: $user}) RETURN f.text AS text, f.slot AS slot ORDER BY text", {"user": user})
    return [(row["text"], row["slot"]) for row in rows]


def test_tool_output_and_the_assistants_narration_state_nothing(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    found = facts_of(graph, spacy, "tools", [
        {"role": "user", "text": "Alice owns the orders service."},
        {"role": "assistant", "text": "Let me run the tests. I'll check the schema first."},
        {"role": "assistant", "type": "tool_call", "tool_name": "Bash", "tool_input": {"command": "pytest -q"}},
        {"type": "tool_result", "tool_name": "Bash", "output": "42 passed in 3.1s\nBob owns the billing service."},
        {"role": "assistant", "text": "The reader event handlers 54→ reader.onload = handle 55→ }"},
    ])
    assert found == [("Alice owns the orders service.", "orders service/owner")]


def test_the_assistant_saying_what_the_user_holds_is_kept(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    found = facts_of(graph, spacy, "said-back", [{"role": "assistant", "text": "The orders service runs on Postgres."}])
    assert [slot for _, slot in found] == ["orders service/database"]


@pytest.mark.parametrize("lead", ["Personal note: ", "FYI, ", "Update - ", "> ", "Thanks. Heads-up: "])
def test_a_lead_in_does_not_hide_the_statement(spacy: SpacyBackend, lead: str) -> None:
    assert slots(spacy, f"{lead}I relocated to Amsterdam.") == [("me/location", "Amsterdam")]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("We moved to GitLab to cut costs.", "to cut costs"),
        ("We dropped Sentry — too noisy.", "too noisy"),
        ("We went with Buildkite. The reason: CircleCI was too expensive.", "CircleCI was too expensive"),
        ("We went with Buildkite. That's because CircleCI was too expensive.", "CircleCI was too expensive"),
        ("We moved CI to Buildkite because CircleCI was too slow.", "CircleCI was too slow"),  # as before
    ],
)
def test_a_stated_reason_stays_with_its_decision(spacy: SpacyBackend, text: str, reason: str) -> None:
    [decision] = [fact for fact in spacy.extract([text], DEFAULT_MODEL)[0].facts if fact.slot]
    assert decision.rationale == reason


def test_a_colon_after_a_statement_is_no_reason(spacy: SpacyBackend) -> None:
    read = spacy.extract(["I moved to Lisbon: Priya is my manager now."], DEFAULT_MODEL)[0].facts
    assert [(fact.slot, fact.rationale) for fact in read if fact.slot] == [("me/location", None), ("me/manager", None)]


@pytest.mark.parametrize(
    "text",
    ["Whether it would be considered malware.", "If we get permission errors.", "How art can show emotions."],
)
def test_a_question_or_a_condition_is_no_statement(spacy: SpacyBackend, text: str) -> None:
    assert spacy.extract([text], DEFAULT_MODEL)[0].facts == []


def test_your_is_no_holder_and_my_brother_is(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    found = facts_of(graph, spacy, "possessive", [
        {"role": "user", "text": "Your manager is Ingrid Solberg."},
        {"role": "user", "text": "My brother lives in Leeds."},
    ])
    assert [slot for _, slot in found] == ["my brother/location"]


def test_what_cannot_be_read_on_its_own_is_no_fact(graph: SessionsGraph, spacy: SpacyBackend) -> None:
    """Markdown run together, a question, a request, a hanging clause, an unnamed subject, words to the
    other speaker and the assistant's talk that names nothing in particular give no fact; the statements
    beside them are kept."""
    found = facts_of(graph, spacy, "readable", [
        {"role": "assistant", "text": "Summary:** - **Parser:** reads the config files 2. **Cache:** keeps results."},
        {"role": "user", "text": "Does the worker retry failed jobs? Let's rename the queue module."},
        {"role": "assistant", "text": "While the parser skips comments in the header."},
        {"role": "user", "text": "It was so much fun. They bring lots of joy."},
        {"role": "user", "text": "Your kind words mean a lot. Thanks, Dana!"},
        {"role": "user", "text": "I bought a sailboat last spring."},
        {"role": "assistant", "text": "The format includes indentation."},
        {"role": "assistant", "text": "The Celery scheduler retries failed jobs three times."},
    ])
    assert [text for text, _ in found] == ["I bought a sailboat last spring.", "The Celery scheduler retries failed jobs three times."]


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("The orders service runs on Postgres.", True),
        ("The orders service runs on Postgres: - `db.py` - moved the pool.", False),
        ("The changes to the orders service are: 1.", False),
        ("2. The orders service runs on Postgres.", False),
        ("The orders service runs on **Postgres**.", False),
    ],
)
def test_markdown_run_together_is_no_statement_even_in_a_slot(text: str, kept: bool) -> None:
    fact = ExtractedFact(text=text, slot="orders service/database", subject="orders service", value="Postgres")
    assert statements.worth_stating(fact, by_assistant=True) is kept
