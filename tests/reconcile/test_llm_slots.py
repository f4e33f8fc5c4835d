"""The LLM backend (real anthropic/openai clients, fake HTTP transport) writes the spaCy backend's slots."""

from __future__ import annotations

import pytest

from sessions_graph_core import SessionsGraph
from sessions_graph_core.ontology.model import DEFAULT_MODEL
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend
from tests.seed002 import FakeApi, backend

MOVED = "We finally moved, I live in Porto now."
MIGRATED = "CI moved to Buildkite last sprint."
NOISY = "Edited the handler."
ANSWERS = {
    MOVED: {"entities": [{"name": "Porto", "kind": "place"}],
            "facts": [{"text": "The user lives\nin Porto.", "slot": "User/Home", "about": ["user", "Porto"]}], "decisions": []},
    MIGRATED: {"entities": [{"name": "Buildkite", "kind": "technology"}], "facts": [],
               "decisions": [{"text": "Use Buildkite for CI", "rationale": "", "slot": "our team/Continuous-Integration",
                              "about": ["Buildkite"]}]},
    NOISY: {"entities": [], "facts": [{"text": "Handler edited.", "slot": "",
                                       "about": ["services/orders/events.py:12", "{\"a\": 1}", "orders service"]}],
            "decisions": []},
}


def say(graph: SessionsGraph, sid: str, at: str, text: str) -> None:
    graph.record_session_start(sid, user_id="u", project_key="invoicer", started_at=at)
    graph.record_turns(sid, [{"role": "user", "text": text, "timestamp": at}], user_id="u")


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_llm_statements_land_in_the_slots_the_spacy_backend_writes(graph: SessionsGraph, provider: str) -> None:
    llm = backend(provider, FakeApi(extra=ANSWERS))
    say(graph, "s1", "2026-01-05T09:00:00Z", "I live in Lisbon.")
    say(graph, "s2", "2026-01-06T09:00:00Z", "Our CI is Jenkins.")
    say(graph, "s3", "2026-02-05T09:00:00Z", MOVED)
    say(graph, "s4", "2026-02-06T09:00:00Z", MIGRATED)
    for sid in ("s1", "s2"):
        graph.reconcile_session(sid, backend=SpacyBackend())
    for sid in ("s3", "s4"):
        assert graph.reconcile_session(sid, backend=llm).status == "completed"
    me = [(x.slot, x.text, x.replaced) for x in graph.current_facts("u", "me")]
    assert me == [("me/location", "The user lives in Porto.", ["I live in Lisbon."])]
    ci = [(x.slot, x.kind, x.replaced) for x in graph.current_facts("u", "invoicer")]
    assert ci == [("invoicer/ci", "decision", ["Our CI is Jenkins."])]


def test_llm_statements_pass_the_quality_gate() -> None:
    fact = backend("anthropic", FakeApi(extra=ANSWERS)).extract([NOISY], DEFAULT_MODEL)[0].facts[0]
    assert fact.about == ["orders service"]
