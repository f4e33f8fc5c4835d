"""The derivation LLM through the real anthropic / openai clients, answered by a fake HTTP API."""

from __future__ import annotations

from pathlib import Path

import pytest
from derivation_helpers import GOOD, FakeLlmApi, fake_llm

from sessions_graph_core.config.model import load_config
from sessions_graph_core.errors import LLM_KEYS, NoLlmConfiguredError
from sessions_graph_core.llm import LlmClient, closed
from sessions_graph_core.ontology.derive.candidates import Proposal

PROMPT = "Candidate 1 of 1: propose a variation of your own."


def objects(schema: object) -> list[dict]:
    if isinstance(schema, list):
        return [found for item in schema for found in objects(item)]
    if not isinstance(schema, dict):
        return []
    own = [schema] if schema.get("type") == "object" else []
    return own + [found for value in schema.values() for found in objects(value)]


def test_closed_schema_inlines_references_and_closes_every_object() -> None:
    schema = closed(Proposal.model_json_schema())
    assert "$defs" not in str(schema) and "$ref" not in str(schema) and "'title'" not in str(schema)
    found = objects(schema)
    assert len(found) == 5  # the proposal, a node, a relation, and a change each for merge and retire
    for item in found:
        assert item["additionalProperties"] is False
        assert item["required"] == list(item["properties"])


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_structured_answer_parsed_and_usage_tallied(provider: str) -> None:
    api = FakeLlmApi([GOOD])
    llm = fake_llm(provider, api)
    first = llm.ask("system text", PROMPT, Proposal)
    llm.ask("system text", PROMPT, Proposal)
    assert [node.label for node in first.add_node_types] == ["Service", "Database", "Cluster"]
    body = api.requests[0]
    if provider == "anthropic":
        assert body["model"] == "claude-sonnet-5-5" and body["system"] == "system text"
        schema = body["output_config"]["format"]["schema"]
        per_call = (len(PROMPT) // 4, 120)
    else:
        assert body["model"] == "gpt-5" and body["messages"][0] == {"role": "system", "content": "system text"}
        assert body["response_format"]["json_schema"]["strict"] is True
        schema = body["response_format"]["json_schema"]["schema"]
        per_call = (len(PROMPT) // 4, 90)
    assert schema == closed(Proposal.model_json_schema())
    usage = llm.usage
    assert (usage.provider, usage.calls) == (provider, 2)
    assert (usage.input_tokens, usage.output_tokens) == (2 * per_call[0], 2 * per_call[1])


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_an_empty_or_malformed_answer_is_an_error(provider: str) -> None:
    with pytest.raises(ValueError, match="empty answer"):
        fake_llm(provider, FakeLlmApi([""])).ask("s", PROMPT, Proposal)
    with pytest.raises(ValueError, match="add_relation_types"):
        fake_llm(provider, FakeLlmApi(['{"add_node_types": []}'])).ask("s", PROMPT, Proposal)


def config_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str):
    for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "SESSIONS_GRAPH_LLM_ANTHROPIC_API_KEY",
                 "SESSIONS_GRAPH_LLM_OPENAI_API_KEY", "SESSIONS_GRAPH_LLM_ANTHROPIC_MODEL", "SESSIONS_GRAPH_LLM_OPENAI_MODEL"):
        monkeypatch.delenv(name, raising=False)
    path = tmp_path / "config.toml"
    path.write_text(text)
    return load_config(path)


def test_anthropic_first_openai_second_and_neither_says_what_it_needs(tmp_path, monkeypatch) -> None:
    both = config_with(tmp_path, monkeypatch, '[llm]\nanthropic_api_key = "a"\nopenai_api_key = "o"\n')
    chosen = LlmClient.from_config(both)
    assert (chosen.provider, chosen.model) == ("anthropic", "claude-sonnet-5-5")
    assert chosen.client.api_key == "a"
    assert LlmClient.from_config(both, model="claude-opus-9").model == "claude-opus-9"

    openai_only = config_with(tmp_path, monkeypatch, '[llm]\nopenai_api_key = "o"\nopenai_model = "gpt-5-mini"\n')
    chosen = LlmClient.from_config(openai_only)
    assert (chosen.provider, chosen.model, chosen.client.api_key) == ("openai", "gpt-5-mini", "o")

    with pytest.raises(NoLlmConfiguredError, match="derivation needs an LLM") as raised:
        LlmClient.from_config(config_with(tmp_path, monkeypatch, ""))
    assert str(raised.value) == f"derivation needs an LLM: {LLM_KEYS}"
