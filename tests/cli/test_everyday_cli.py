"""The CLI as a person uses it day to day: text that looks like options, piped output, --json,
pending memory files, re-imports, finished sessions and the config's effective defaults."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import EXAMPLES

from sessions_graph_core import SessionsGraph
from sessions_graph_core.cli.main import main
from sessions_graph_core.config.model import store_settings
from sessions_graph_core.store.falkordb.server import EmbeddedServer

FRONTMATTER = "---\ndescription: Prefer real stores in tests\n---\nUse the embedded store, -h and --user are words here."


def test_text_that_starts_with_dashes_is_text(cli):
    saved = cli("memory", "save", "--user", "alice", "--path", "/memories/feedback/testing.md", FRONTMATTER)
    assert "at /memories/feedback/testing.md" in saved
    assert "description: Prefer real stores in tests" in cli("memory", "view", "--user", "alice", "/memories/feedback/testing.md")
    cli("memory", "create", "--user", "alice", "/memories/t.md", "-5 degrees at night")
    cli("memory", "insert", "--user", "alice", "/memories/t.md", "1", "--user bob")
    listing = json.loads(cli("memory", "list", "--user", "alice", "--json"))
    contents = {row["path"]: row["content"] for row in listing}
    assert contents["/memories/feedback/testing.md"] == FRONTMATTER
    assert contents["/memories/t.md"] == "-5 degrees at night\n--user bob"
    assert "Memory recall for: --what database" in cli("recall", "--user", "alice", "--what database")
    # Options are still options wherever they stand, and -- still ends them.
    assert "at /memories/x.md" in cli("memory", "save", "hello", "--user", "alice", "--path", "/memories/x.md")
    assert "at /memories/y.md" in cli("memory", "save", "--user", "alice", "--path", "/memories/y.md", "--", "--path")


def test_a_dash_reads_standard_input(cli):
    runner = CliRunner()
    result = runner.invoke(main, ["memory", "save", "--user", "alice", "--path", "/memories/in.md", "-"], input=FRONTMATTER)
    assert result.exit_code == 0, result.output
    assert json.loads(cli("memory", "list", "--user", "alice", "--json"))[0]["content"] == FRONTMATTER


@pytest.fixture
def piped(short_tmp):
    """Run the installed command with stdout a pipe, as `... | grep` does, on the test's store."""
    env = {**os.environ, "SESSIONS_GRAPH_DATA_DIR": str(short_tmp), "SESSIONS_GRAPH_CONFIG": str(short_tmp / "config.toml")}
    env.pop("COLUMNS", None)
    env.pop("MEMGRAPH_URL", None)
    command = str(Path(sys.executable).with_name("sessions-graph"))

    def run(*args: str) -> subprocess.CompletedProcess:
        done = subprocess.run([command, *args], env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return done

    yield run
    EmbeddedServer(short_tmp).stop()


def test_piped_tables_are_never_cut_and_listings_have_json(piped):
    long_path = "/memories/projects/orders/" + "a-rather-long-note-name-" * 4 + "database.md"
    memory_id = piped("memory", "save", "--user", "alice", "--path", long_path, "v1").stdout.split()[1]
    piped("memory", "create", "--user", "alice", long_path, "version two of the note, long enough to be cut at 80 columns")
    piped("memory", "create", "--user", "alice", long_path, "version three")
    listing = piped("memory", "list", "--user", "alice").stdout
    row = next(line for line in listing.splitlines() if memory_id in line)
    assert long_path in row  # the whole id and path on one line, wider than any 80-column terminal
    versions = piped("memory", "versions", "--user", "alice", long_path).stdout
    assert "version two of the note, long enough to be cut at 80 columns" in versions
    assert [v["content"] for v in json.loads(piped("memory", "versions", "--user", "alice", "--json", long_path).stdout)][:2] == [
        "version two of the note, long enough to be cut at 80 columns", "v1"]
    piped("session", "import", str(EXAMPLES / "orders-1.jsonl"))
    for args in (("session", "list", "--user", "alice"), ("session", "show", "--user", "alice", "orders-1"), ("memory", "list", "--user", "alice"),
                 ("memory", "search", "--user", "alice", "version"), ("store", "status"), ("config", "show")):
        data = json.loads(piped(*args, "--json").stdout)
        assert data, args


def test_embed_pending_includes_memory_files_and_prints_no_blank_lines(piped):
    piped("session", "import", str(EXAMPLES / "orders-1.jsonl"))
    first = piped("embed", "--pending")
    assert "orders-1:" in first.stdout
    piped("memory", "save", "--user", "alice", "The orders service moved to CockroachDB.")
    piped("memory", "save", "--user", "bob", "Tomatoes need afternoon shade.")
    again = piped("embed", "--pending")
    assert again.stdout.splitlines() == [
        "memory files of alice: 1 memory files, 1 vectors (paraphrase-MiniLM-L3-v2)",
        "memory files of bob: 1 memory files, 1 vectors (paraphrase-MiniLM-L3-v2)",
    ]
    assert again.stderr == ""
    assert piped("embed", "--pending").stdout == "nothing to embed\n"


def test_an_unchanged_reimport_starts_no_new_run_and_a_finished_session_says_so(cli):
    cli("session", "import", str(EXAMPLES / "orders-1.jsonl"))
    assert cli("reconcile", "--session", "orders-1").startswith("OK orders-1: ")
    with SessionsGraph(settings=store_settings()) as graph:
        before = graph.store.run("MATCH (s:Session {session_id: 'orders-1'}) RETURN s.revision AS r, s.reconciliation_status AS st")
    again = cli("session", "import", str(EXAMPLES / "orders-1.jsonl"))
    assert "orders-1: 0 new turns of 8 (user alice), already reconciled, nothing to do" in again
    with SessionsGraph(settings=store_settings()) as graph:
        after = graph.store.run("MATCH (s:Session {session_id: 'orders-1'}) RETURN s.revision AS r, s.reconciliation_status AS st")
        assert graph.get_pending_reconciliation_sessions() == []
    assert after == before == [{"r": before[0]["r"], "st": "completed"}]
    assert cli("reconcile", "--session", "orders-1") == "OK orders-1: already reconciled, no new turns (8 turns)\n"
    assert cli("reconcile", "--pending") == "No sessions to reconcile.\n"


def test_config_show_gives_every_unset_key_its_effective_default_and_source(cli, short_tmp):
    cli("config", "set", "recall.turns_k", "12")
    shown = {row["key"]: row for row in json.loads(cli("config", "show", "--json"))["keys"]}
    assert shown["recall.turns_k"] == {"key": "recall.turns_k", "value": "12", "from": "file"}
    from sessions_graph_core.recall.config import RecallConfig

    assert shown["recall.text_k"] == {"key": "recall.text_k", "value": str(RecallConfig().text_k), "from": "default"}
    assert shown["recall.embedding_model"]["value"] == "paraphrase-MiniLM-L3-v2"
    assert shown["store.data_dir"] == {"key": "store.data_dir", "value": str(short_tmp), "from": "env SESSIONS_GRAPH_DATA_DIR"}
    assert shown["extraction.backend"]["value"] == "spacy"
    assert shown["llm.anthropic_model"]["value"] != "(unset)"
    unset = [key for key, row in shown.items() if row["value"] == "(unset)"]
    # What is left unset has no default: there is no user, key or file until one is given.
    assert set(unset) <= {"identity.user_id", "store.password", "extraction.model", "extraction.relation_threshold",
                          "extraction.chunk_size", "extraction.chunk_overlap", "llm.anthropic_api_key",
                          "llm.openai_api_key", "llm.base_url", "llm.api_key", "llm.model", "ontology.path"}
