"""`sessions-graph reconcile` and `sessions-graph ontology load` against a real embedded store."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import EXAMPLES

from sessions_graph_core import SessionsGraph
from sessions_graph_core.sessions.jsonl import read_transcript
from sessions_graph_core.store.falkordb.store import FalkorDBStore

CLEARED = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "SESSIONS_GRAPH_LLM_ANTHROPIC_API_KEY",
           "SESSIONS_GRAPH_LLM_OPENAI_API_KEY", "SESSIONS_GRAPH_USER", "MEMGRAPH_URL")
SCHEMA = """
entity_types:
  - name: Service
    description: a running software service
  - name: Team
  - name: Technology
relation_types:
  - name: owns
    source: Person
    target: Service
"""


@pytest.fixture
def cli(cli, short_tmp, monkeypatch):  # type: ignore[no-untyped-def]
    for name in CLEARED:
        monkeypatch.delenv(name, raising=False)
    (short_tmp / "config.toml").write_text('[extraction]\nbackend = "spacy"\n')
    return cli


def with_graph(data_dir: Path):  # type: ignore[no-untyped-def]
    graph = SessionsGraph(FalkorDBStore.open(data_dir, keep_running=True))
    graph.setup()
    return graph


def import_sessions(data_dir: Path, *names: str) -> None:
    graph = with_graph(data_dir)
    for name in names:
        transcript = read_transcript(EXAMPLES / name)
        header = transcript.header
        graph.record_session_start(header.session_id, user_id=header.user_id, started_at=header.started_at)
        graph.record_turns(header.session_id, transcript.turns, user_id=header.user_id)
        graph.end_session(header.session_id)
    graph.close()


def test_pending_sweep_does_memory_files_first_then_sessions(cli, short_tmp) -> None:  # type: ignore[no-untyped-def]
    import_sessions(short_tmp, "orders-1.jsonl", "orders-2.jsonl")
    graph = with_graph(short_tmp)
    graph.save_memory("alice", "Dave maintains the search service.", path="/memories/notes/search.md")
    graph.close()
    out = cli("reconcile", "--pending")
    lines = [line for line in out.splitlines() if line.startswith(("OK", "FAILED"))]
    assert lines[0] == "OK memory /memories/notes/search.md: 1 chunk(s)"
    assert lines[1].startswith("OK orders-1: 8/8 unique texts reconciled")
    assert lines[2].startswith("OK orders-2: 4/4 unique texts reconciled")
    assert cli("reconcile", "--pending") == "No sessions to reconcile.\n"
    graph = with_graph(short_tmp)
    labels = graph.store.run("MATCH (n:Entity {name_key: 'carol'}) RETURN labels(n) AS labels")
    assert sorted(labels[0]["labels"]) == ["Entity", "Person"]  # the CLI enforces the ontology
    graph.close()


def test_one_session_and_its_errors(cli, short_tmp) -> None:  # type: ignore[no-untyped-def]
    import_sessions(short_tmp, "orders-1.jsonl")
    assert cli("reconcile", "--session", "orders-1").startswith("OK orders-1: 8/8 unique texts reconciled")
    assert cli("reconcile", "--session", "orders-1") == "OK orders-1: already reconciled, no new turns (8 turns)\n"
    assert "no session 'nope'" in cli("reconcile", "--session", "nope", code=1)
    assert "exactly one of --session ID or --pending" in cli("reconcile", code=2)
    assert "exactly one of --session ID or --pending" in cli("reconcile", "--session", "x", "--pending", code=2)
    # --user does not narrow the sweep, so it is refused there rather than ignored.
    assert "--user goes with --session" in cli("reconcile", "--pending", "--user", "alice", code=2)


def test_a_failing_backend_prints_failed_and_exits_1(cli, short_tmp, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import_sessions(short_tmp, "orders-1.jsonl")
    (short_tmp / "config.toml").write_text('[extraction]\nbackend = "llm"\n')
    out = cli("reconcile", "--pending", code=1)
    assert "FAILED: extraction backend: LLM extraction needs an LLM" in out


def test_ontology_load_adopts_a_version_and_rejects_a_bad_file(cli, short_tmp) -> None:  # type: ignore[no-untyped-def]
    schema = short_tmp / "coding.yaml"
    schema.write_text(SCHEMA)
    out = cli("ontology", "load", "--file", str(schema), "--user", "alice")
    assert out.strip() == "Adopted version 1 for alice: 10 node types, 1 relation types, derive=extend"
    # Used exactly as given, the file lacks the Person type its relation names.
    out = cli("ontology", "load", "--file", str(schema), "--user", "alice", "--derive", "off", code=2)
    assert "relation 'owns' names undeclared node type 'Person'" in out
    schema.write_text(SCHEMA.replace("  - name: Technology", "  - name: Technology\n  - name: Person"))
    out = cli("ontology", "load", "--file", str(schema), "--user", "alice", "--derive", "off")
    assert out.strip() == "Adopted version 2 for alice: 4 node types, 1 relation types, derive=off"
    bad = short_tmp / "bad.yaml"
    bad.write_text("entity_types:\n  - name: 'Bad Label; DROP'\n")
    out = cli("ontology", "load", "--file", str(bad), "--user", "alice", code=2)
    assert "FAILED: The schema does not validate" in out and "not a safe type name" in out
    graph = with_graph(short_tmp)
    assert graph.adopted_ontology("alice").version == 2
    graph.close()
    assert "No user: pass --user" in cli("ontology", "load", "--file", str(schema), code=2)


def test_hybrid_reconcile_against_a_local_server_ends_with_the_llm_usage_line(cli, short_tmp, local_llm) -> None:  # type: ignore[no-untyped-def]
    from local_llm import MODEL

    for key, value in [("llm.model", MODEL), ("llm.base_url", local_llm), ("llm.provider", "openai-compatible"),
                       ("llm.max_in_flight", "1"), ("llm.max_tokens", "48"), ("extraction.backend", "spacy+llm")]:
        cli("config", "set", key, value)
    import_sessions(short_tmp, "orders-1.jsonl")
    out = cli("reconcile", "--pending")
    assert [line for line in out.splitlines() if line.startswith("OK")], out
    usage = out.strip().splitlines()[-1]
    assert usage.startswith(f"LLM openai-compatible {MODEL}: ") and "answered from the cache" in usage, out


def test_session_show_says_how_many_texts_the_model_never_read(cli, short_tmp, local_llm) -> None:  # type: ignore[no-untyped-def]
    from local_llm import MODEL

    from sessions_graph_core.config.model import load_config
    from sessions_graph_core.llm import LlmClient
    from sessions_graph_core.reconcile.extraction.hybrid import HybridBackend

    cli("config", "set", "llm.model", MODEL, "llm.base_url", local_llm, "llm.provider", "openai-compatible",
        "llm.max_in_flight", "1", "llm.max_attempts", "1")
    config = load_config().model_copy(deep=True)
    config.llm.max_tokens = 8  # below what the config allows: every reply is cut short, and its repair too
    graph = with_graph(short_tmp)
    for sid, text in (("gap-old", "Alice works at Google."), ("gap-new", "I live in Seattle. Alice freelances now.")):
        graph.record_session_start(sid, user_id="gap-user", started_at="2026-03-01T09:00:00Z")
        graph.record_turns(sid, [{"role": "user", "text": text, "turn_id": f"{sid}-0"}], user_id="gap-user")
        summary = graph.reconcile_session(sid, backend=HybridBackend(LlmClient.from_config(config)))
    graph.close()
    assert (summary.status, summary.texts_given_up) == ("completed", 1), summary
    out = cli("session", "show", "--user", "gap-user", "gap-new")
    assert out.splitlines()[-1] == ("1 text(s) the model could not read in llm.max_attempts runs: given up, kept as "
                                    "read without the model"), out
    assert "could not read" not in cli("session", "show", "--user", "gap-user", "gap-old")
