"""The LLM path against a real model: a llama.cpp server from registry packages (tests/local_llm.py) answers as
any OpenAI-compatible endpoint would. The small model's quality is not tested, the protocol is: structured
output, the reply cache, a reply that breaks the schema, a server that stalls, doctor's call, seed 002's
extraction and reconcile end to end."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import openai
import pytest
from local_llm import MODEL
from pydantic import BaseModel
from seed002 import STORY, record_session

from sessions_graph_core import SessionsGraph
from sessions_graph_core.cli.doctor import check_llm
from sessions_graph_core.config.model import Config, ConfigError, load_config, set_value
from sessions_graph_core.llm import LlmClient, LlmReplyError
from sessions_graph_core.ontology.model import DEFAULT_MODEL
from sessions_graph_core.reconcile.extraction.llm import LlmBackend

ENDPOINT_VARIABLES = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY")


class Owner(BaseModel):
    owner: str


class Triple(BaseModel):
    subject: str
    attribute: str
    value: str


class Triples(BaseModel):
    facts: list[Triple]


def local_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, base_url: str, extra: str = "") -> Config:
    for name in ENDPOINT_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SESSIONS_GRAPH_DATA_DIR", str(tmp_path / "data"))
    path = tmp_path / "config.toml"
    path.write_text(f'[llm]\nprovider = "openai-compatible"\nbase_url = "{base_url}"\nmodel = "{MODEL}"\n'
                    f"max_tokens = 96\nmax_in_flight = 1\n{extra}")
    return load_config(path, env={"SESSIONS_GRAPH_DATA_DIR": str(tmp_path / "data")})


def test_structured_answer_from_the_real_server_then_from_the_cache(local_llm, tmp_path, monkeypatch) -> None:
    config = local_config(tmp_path, monkeypatch, local_llm)
    llm = LlmClient.from_config(config)
    answer = llm.ask("Name who owns the service.", "Alice owns the orders service.", Owner)
    assert isinstance(answer, Owner) and answer.owner.strip()
    assert llm.takes_schema is True  # llama.cpp takes the schema as response_format
    assert (llm.usage.calls, llm.usage.cached) == (1, 0) and llm.usage.input_tokens > 0 and llm.usage.output_tokens > 0

    again = LlmClient.from_config(config)  # a re-run: a new client, the same cache on disk
    assert again.ask("Name who owns the service.", "Alice owns the orders service.", Owner) == answer
    assert (again.usage.calls, again.usage.cached, again.usage.input_tokens) == (0, 1, 0)


def test_a_reply_cut_short_breaks_the_schema_is_repaired_once_then_fails_that_text_alone(
    local_llm, tmp_path, monkeypatch
) -> None:
    # 16 tokens cannot hold seed 002's extraction object: the reply is cut inside the JSON.
    config = local_config(tmp_path, monkeypatch, local_llm).model_copy(deep=True)
    config.llm.max_tokens = 16
    llm = LlmClient.from_config(config)
    with pytest.raises(LlmReplyError, match="answered outside the schema"):
        llm.ask("Extract.", "Carol owns the orders service now.", Triples)
    assert (llm.usage.calls, llm.usage.failed) == (2, 1)  # the reply and its one repair

    texts = ["Carol owns the orders service now.", "Bob is on call for billing."]
    extractions = LlmBackend(llm).extract(texts, DEFAULT_MODEL, [])
    assert [len(x.facts) + len(x.entities) for x in extractions] == [0, 0]
    assert llm.usage.failed == 3  # each text failed on its own, and extract() went on to the next


@pytest.fixture
def stalled_server() -> Iterator[str]:
    """A TCP server that accepts connections and never answers: a model server that hangs."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
    stop.set()
    thread.join()
    for connection in held:
        connection.close()
    listener.close()


def test_a_stalled_server_times_out_after_the_bounded_retries(stalled_server, tmp_path, monkeypatch) -> None:
    config = local_config(tmp_path, monkeypatch, stalled_server, "timeout_s = 0.5\nretries = 1\n")
    llm = LlmClient.from_config(config)
    with pytest.raises(openai.APITimeoutError):
        llm.ask("Name who owns the service.", "Alice owns the orders service.", Owner)
    assert llm.usage.calls == 0


def test_doctor_calls_the_endpoint_and_says_what_failed(local_llm, stalled_server, tmp_path, monkeypatch) -> None:
    good = check_llm(local_config(tmp_path, monkeypatch, local_llm))
    assert good.status == "pass" and "structured" in good.detail, good
    closed_port = local_llm.rsplit(":", 1)[0] + ":1/v1"
    down = check_llm(local_config(tmp_path, monkeypatch, closed_port))
    assert (down.status, down.detail.split(":")[0]) == ("fail", "unreachable"), down
    stalled = check_llm(local_config(tmp_path, monkeypatch, stalled_server, "timeout_s = 0.5\nretries = 0\n"))
    assert (stalled.status, stalled.detail.split(":")[0]) == ("fail", "unreachable"), stalled


def test_bad_endpoint_settings_are_refused_naming_the_key_and_change_nothing(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    set_value("llm.model", MODEL, path)
    before = path.read_bytes()
    for key, value, said in [("llm.base_url", "ftp://127.0.0.1/v1", "llm.base_url"),
                             ("llm.base_url", "127.0.0.1:8080", "llm.base_url"),
                             ("llm.model", "smol\x07lm", "llm.model")]:
        with pytest.raises(ConfigError, match=said):
            set_value(key, value, path)
        assert path.read_bytes() == before
    path.write_text('[llm]\nbase_url = "http://127.0.0.1:8080/v1"\n')
    with pytest.raises(ConfigError, match="llm.model is not"):
        load_config(path, env={})
    path.write_text('[llm]\nprovider = "openai-compatible"\nmodel = "m"\n')
    with pytest.raises(ConfigError, match="needs llm.base_url"):
        load_config(path, env={})


def test_seed_002_story_reconciled_end_to_end_through_the_real_model(
    local_llm, graph: SessionsGraph, tmp_path, monkeypatch
) -> None:
    llm = LlmClient.from_config(local_config(tmp_path, monkeypatch, local_llm))
    texts = [message["text"] for message in STORY["sessions"][0]["messages"]]
    result = graph.reconcile_session(record_session(graph, 0), backend=LlmBackend(llm))
    assert result.status == "completed", result.error
    # Every text was asked once (or failed on its own and said so); what the model said went through the
    # same normalisation as the rules' statements, so whatever it put in a slot has a subject and a value.
    assert llm.usage.calls >= len(texts) and llm.usage.calls <= 2 * len(texts)
    assert llm.usage.input_tokens > 0
    for fact in graph.current_facts("agent-team", "orders service"):
        assert fact.text.strip()
