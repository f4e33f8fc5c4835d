"""`sessions-graph derive` and `sessions-graph ontology show` against a real embedded store."""

from __future__ import annotations

import pytest
from derivation_helpers import BAD, GOOD, USER, FakeLlmApi, fake_llm, record

from sessions_graph_core import SessionsGraph
from sessions_graph_core.llm import LlmClient
from sessions_graph_core.store.falkordb.store import FalkorDBStore

KEY_VARIABLES = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "SESSIONS_GRAPH_LLM_ANTHROPIC_API_KEY",
                 "SESSIONS_GRAPH_LLM_OPENAI_API_KEY", "SESSIONS_GRAPH_USER")


@pytest.fixture
def keyless(short_tmp, monkeypatch) -> None:
    """No LLM key from anywhere, spaCy extraction, and a terminal wide enough for the version table."""
    for name in KEY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    config = short_tmp / "config.toml"
    config.write_text('[extraction]\nbackend = "spacy"\n')
    monkeypatch.setenv("SESSIONS_GRAPH_CONFIG", str(config))
    monkeypatch.setenv("COLUMNS", "160")


def sessions_in(data_dir, count: int) -> None:
    store = FalkorDBStore.open(data_dir, keep_running=True)
    graph = SessionsGraph(store)
    graph.setup()
    for index in range(count):
        record(graph, index)
    graph.close()


def test_without_a_key_derive_says_it_needs_one_and_exits_2(cli, keyless, short_tmp) -> None:
    sessions_in(short_tmp, 2)
    out = cli("derive", "--user", USER, code=2)
    assert "FAILED: derivation needs an LLM: set llm.anthropic_api_key or llm.openai_api_key" in out
    assert "No user: pass --user" in cli("derive", code=2)
    assert "No user: pass --user" in cli("ontology", "show", code=2)
    plain = cli("ontology", "show", "--user", USER)
    assert f"{USER}: version 0 (default), derive=extend" in plain and "versions" not in plain
    assert "works_for: User|Person -> Organization" in plain


def test_derive_prints_the_run_report_and_ontology_show_tells_the_story(cli, keyless, short_tmp, monkeypatch) -> None:
    sessions_in(short_tmp, 2)
    api = FakeLlmApi([GOOD, BAD])
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    chosen = []

    def configured(config, *, model=None):
        # The configured provider and model, with the fake API in place of the network.
        assert config.llm.usable() == "anthropic"
        chosen.append(model)
        return fake_llm("anthropic", api, model)

    monkeypatch.setattr(LlmClient, "from_config", staticmethod(configured))
    out = cli("derive", "--user", USER, "--seeds", "2", "--model", "claude-test-1")
    assert chosen == ["claude-test-1"]
    assert f"{USER}: adopted (milestone 2)" in out
    assert "delta 2 sessions, 2 sampled, gate in-sample" in out
    assert "base (version 0): catch-all" in out
    assert "PASS" in out and "fail" in out and "+5 ~0 -0" in out and "+0 ~0 -6" in out
    assert "adopted version 1: 0 entities relabelled, 2 sessions re-extracted" in out
    assert "rejected versions 2" in out
    assert "LLM anthropic claude-test-1: 2 calls" in out

    nothing = cli("derive", "--user", USER)
    assert f"{USER}: nothing to do (milestone 2)" in nothing and len(api.requests) == 2

    story = cli("ontology", "show", "--user", USER)
    assert f"{USER}: version 1 (derived), derive=extend" in story
    assert "Service [global] a service" in story and "owns: User|Person|Organization -> Service" in story
    rows = [line for line in story.splitlines() if line.startswith("│")]
    assert any("│ 1 " in row and "adopted" in row and "derived" in row and "+5 ~0 -0" in row for row in rows)
    assert any("│ 2 " in row and "rejected" in row and "+0 ~0 -6" in row for row in rows)
