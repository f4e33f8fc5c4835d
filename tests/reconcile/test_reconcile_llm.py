"""The LLM backend through the real anthropic / openai clients, answered by a fake HTTP API that
replays seed 002's extractions: reconciling the story must give exactly the seed's tables."""

from __future__ import annotations

import json

import pytest
from seed002 import STORY, USER, FakeApi, backend, record_session

from sessions_graph_core import SessionsGraph
from sessions_graph_core.clock import to_iso
from sessions_graph_core.config.model import CONFIG_ENV
from sessions_graph_core.errors import NoLlmConfiguredError
from sessions_graph_core.reconcile.extraction.registry import get_backend

SEED_CURRENT_AFTER_1 = [
    ("fact", "Alice owns the orders service.", None, "session-1", []),
    ("fact", "The orders service is built for the checkout team.", None, "session-1", []),
    ("decision", "Use Postgres as the orders service database", "the team already runs Postgres in production", "session-1", []),
    ("fact", "The billing service consumes OrderPlaced events from the orders service.", None, "session-1", []),
    ("fact", "The orders service publishes OrderPlaced events to Kafka.", None, "session-1", []),
]
SEED_CURRENT_AFTER_2 = [
    ("fact", "The orders service is built for the checkout team.", None, "session-1", []),
    ("fact", "The billing service consumes OrderPlaced events from the orders service.", None, "session-1", []),
    ("fact", "The orders service publishes OrderPlaced events to Kafka.", None, "session-1", []),
    ("decision", "Use CockroachDB as the orders service database", "Postgres failover was too slow in the multi-region test",
     "session-2", ["Use Postgres as the orders service database"]),
    ("fact", "Carol owns the orders service.", None, "session-2", ["Alice owns the orders service."]),
]
SEED_AS_OF_MARCH_9 = [
    ("fact", "Alice owns the orders service.", "2026-03-02T09:00:00Z"),
    ("fact", "The orders service is built for the checkout team.", "2026-03-02T09:00:00Z"),
    ("decision", "Use Postgres as the orders service database", "2026-03-02T09:04:00Z"),
    ("fact", "The billing service consumes OrderPlaced events from the orders service.", "2026-03-02T09:11:00Z"),
    ("fact", "The orders service publishes OrderPlaced events to Kafka.", "2026-03-02T09:11:00Z"),
]
SEED_NEARBY = [
    ("billing service", "Bob is on call for the billing service."),
    ("checkout team", "Bob is on the checkout team."),
]
SEED_SLOTS = ["billing service/on-call", "orders service/database", "orders service/owner", "orders service/team"]
QUESTION = "What do you remember about the orders service?"


def current_table(graph: SessionsGraph) -> list[tuple]:
    return [(x.kind, x.text, x.rationale, x.session_id, x.replaced) for x in graph.current_facts(USER, QUESTION)]


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_llm_backend_reproduces_seed_002_tables(graph: SessionsGraph, provider: str) -> None:
    api = FakeApi()
    llm = backend(provider, api)

    first = graph.reconcile_session(record_session(graph, 0), backend=llm)
    assert first.status == "completed", first.error
    assert current_table(graph) == SEED_CURRENT_AFTER_1
    assert [(n.via, n.fact) for n in graph.nearby_facts(USER, QUESTION)] == SEED_NEARBY
    assert graph.known_slots(USER) == SEED_SLOTS

    second = graph.reconcile_session(record_session(graph, 1), backend=llm)
    assert second.status == "completed", second.error
    assert current_table(graph) == SEED_CURRENT_AFTER_2
    assert [x.text for x in graph.fact_history(USER, QUESTION) if x.kind == "fact"] == ["Alice owns the orders service."]
    as_of = [(x.kind, x.text, x.valid_at) for x in graph.facts_as_of(USER, QUESTION, "2026-03-09T00:00:00Z")]
    assert as_of == [(kind, text, to_iso(since)) for kind, text, since in SEED_AS_OF_MARCH_9]
    between = {x.text for x in graph.facts_as_of(USER, QUESTION, "2026-03-16T14:05:00Z")}
    assert "Use CockroachDB as the orders service database" in between
    assert "Alice owns the orders service." in between and "Carol owns the orders service." not in between

    # Session 2's prompt carried the slots in use, so the model could reuse them (seed 002).
    system = api.requests[-1]["system"] if provider == "anthropic" else api.requests[-1]["messages"][0]["content"]
    assert json.dumps(SEED_SLOTS) in system
    schema = (api.requests[-1]["output_config"]["format"]["schema"] if provider == "anthropic"
              else api.requests[-1]["response_format"]["json_schema"]["schema"])
    assert set(schema["properties"]) == {"entities", "facts", "decisions"} and schema["additionalProperties"] is False


def test_seed_counts_of_entities_facts_and_decisions(graph: SessionsGraph) -> None:
    llm = backend("anthropic", FakeApi())
    graph.reconcile_session(record_session(graph, 0), backend=llm)
    graph.reconcile_session(record_session(graph, 1), backend=llm)
    counts = graph.store.run(
        "MATCH (n) WHERE n:Entity OR n:Fact RETURN labels(n)[0] AS label, n.kind AS kind, count(*) AS n ORDER BY label, kind"
    )
    # Seed 002 "About the data": 10 entities, 7 facts, 2 decisions.
    assert [(row["label"], row["kind"], row["n"]) for row in counts] == [
        ("Entity", None, 10), ("Fact", "decision", 2), ("Fact", "fact", 7)
    ]
    edges = graph.store.run("MATCH (:Fact)-[r:SUPERSEDES]->(:Fact) RETURN count(r) AS n")
    assert edges[0]["n"] == 2


def test_rerun_calls_the_model_for_nothing(graph: SessionsGraph) -> None:
    api = FakeApi()
    llm = backend("openai", api)
    sid = record_session(graph, 0)
    graph.reconcile_session(sid, backend=llm)
    calls = len(api.requests)
    again = graph.reconcile_session(sid, backend=llm)
    assert again.status == "completed" and again.texts_extracted == 0
    assert len(api.requests) == calls == 4


def test_same_text_in_a_new_session_is_not_extracted_again_but_is_linked(graph: SessionsGraph) -> None:
    api = FakeApi()
    llm = backend("anthropic", api)
    graph.reconcile_session(record_session(graph, 0), backend=llm)
    calls = len(api.requests)
    repeat = record_session(graph, 0, session_id="session-repeat")
    summary = graph.reconcile_session(repeat, backend=llm)
    assert summary.texts_extracted == 0 and len(api.requests) == calls
    # The repeat restated every fact: each one now has both sessions, and no fact was duplicated.
    for fact in graph.session_facts("session-1"):
        assert graph.sessions_stating(USER, fact.fact_id) == ["session-1", "session-repeat"]
    assert len(graph.session_facts("session-repeat")) == 7
    assert graph.store.run("MATCH (x:Fact) RETURN count(x) AS n")[0]["n"] == 7


def test_without_a_key_the_llm_backend_says_what_it_needs(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "config.toml"))
    with pytest.raises(NoLlmConfiguredError, match="^LLM extraction needs an LLM: set llm.anthropic_api_key .* or use the spacy backend"):
        get_backend("llm")


def test_backend_error_marks_the_session_failed_and_writes_nothing(graph: SessionsGraph) -> None:
    from conftest import snapshot

    sid = record_session(graph, 0)
    before = snapshot(graph.store)
    summary = graph.reconcile_session(sid, backend=backend("anthropic", FakeApi(failing=True)))
    assert summary.status == "failed" and "model overloaded" in (summary.error or "")
    after = graph.store.run(
        "MATCH (s:Session {session_id: $sid}) RETURN s.reconciliation_status AS status, s.reconciliation_error AS error",
        {"sid": sid},
    )
    assert after[0]["status"] == "failed" and after[0]["error"] == summary.error
    assert without(snapshot(graph.store), {"reconciliation_status", "reconciliation_error"}) == before


def without(value: object, keys: set[str]) -> object:
    """The snapshot with some properties dropped wherever they appear."""
    if isinstance(value, dict):
        return {key: without(item, keys) for key, item in value.items() if key not in keys}
    if isinstance(value, list):
        return [without(item, keys) for item in value]
    return value


def test_llm_backend_over_sessions_in_a_row_sees_the_slots_the_session_before_wrote(graph: SessionsGraph) -> None:
    api = FakeApi()
    ids = [record_session(graph, 0), record_session(graph, 1)]

    summaries = list(graph.reconcile_sessions(ids, backend=backend("anthropic", api)))

    assert [s.status for s in summaries] == ["completed", "completed"], [s.error for s in summaries]
    assert current_table(graph) == SEED_CURRENT_AFTER_2
    second = {m["text"] for m in STORY["sessions"][1]["messages"]}
    asked = [body for body in api.requests if body["messages"][0]["content"] in second]
    # The backend reads known slots, so session 2 was extracted only once session 1's slots were written.
    assert asked and all("orders service/owner" in known_slots(body) for body in asked)


def known_slots(body: dict) -> list[str]:
    """The known slots an Anthropic request's system prompt lists."""
    system = body["system"] if isinstance(body["system"], str) else "".join(block["text"] for block in body["system"])
    return json.loads(system.rsplit("Known slots: ", 1)[1])
