"""Forgetting on the production profile (issue 42): the graph on a standalone FalkorDB primary with a
replica, Dagster on PostgreSQL. After `forget` neither server's directory, the log directory, the
Dagster home nor any row of any table of the Dagster database holds a forgotten word."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import dagster as dg
import psycopg2
import pytest
from forget_helpers import FORGOTTEN_USER, KEPT_TEXT, KEPT_USER, PLANTED, WORDS, files_holding, receipt
from service_helpers import running_postgres, standalone_pair

from devtools.local_platform import PRODUCTION, prepare_home
from sessions_graph_core import SessionsGraph
from sessions_graph_core.config.model import store_settings
from sessions_graph_core.failures import LOG_DIR_ENV, record_failure
from sessions_graph_core.store.location import open_store
from sessions_graph_dagster.resources import EmbedderResource, ExtractorResource, GraphStoreResource
from sessions_graph_dagster.sessions import reconciled_session


@pytest.fixture(scope="module")
def postgres():
    with running_postgres() as server:
        yield server


@pytest.fixture(scope="module")
def pair():
    with standalone_pair() as servers:
        yield servers


@pytest.fixture
def production(cli, postgres, pair, tmp_path, monkeypatch) -> dict[str, Path]:
    """The CLI, the resources and the Dagster instance all on the production profile's services."""
    for name, value in postgres.env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("SESSIONS_GRAPH_STORE_URL", pair.primary.url)
    monkeypatch.setenv("SESSIONS_GRAPH_STORE_PASSWORD", pair.password)
    monkeypatch.setenv("SESSIONS_GRAPH_STORE_READ_URL", pair.replica.url)
    monkeypatch.setenv("SESSIONS_GRAPH_STORE_REPLICA_ACKS", "1")
    home = Path(tempfile.mkdtemp(prefix="sg-fp-", dir="/tmp"))
    prepare_home(home, profile=PRODUCTION)
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    monkeypatch.setenv(LOG_DIR_ENV, str(tmp_path / "logs"))
    yield {"primary": pair.primary.data_dir, "replica": pair.replica.data_dir, "logs": tmp_path / "logs", "dagster": home}
    shutil.rmtree(home, ignore_errors=True)


def rows_holding(postgres, words: tuple[str, ...]) -> dict[str, int]:
    """Every table of the Dagster database, each row read as text: how many rows hold a word, by table."""
    env = postgres.env
    found = {}
    with psycopg2.connect(host=env["DAGSTER_PG_HOST"], port=env["DAGSTER_PG_PORT"], user=env["DAGSTER_PG_USER"],
                          password=env["DAGSTER_PG_PASSWORD"], dbname=env["DAGSTER_PG_DB"]) as conn, conn.cursor() as cursor:
        cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        for (table,) in cursor.fetchall():
            cursor.execute(f'SELECT t::text FROM "{table}" t')
            held = sum(1 for (row,) in cursor.fetchall() if any(word in row for word in words))
            if held:
                found[table] = held
    return found


def test_forgetting_on_the_production_profile_leaves_no_word_in_either_server_or_postgres(cli, production, postgres):
    session_id, text = PLANTED["session"]
    graph = SessionsGraph(open_store(store_settings()))
    graph.setup()
    for sid, owner, said in ((session_id, FORGOTTEN_USER, text), ("zz-session-kept", KEPT_USER, KEPT_TEXT)):
        graph.record_session_start(sid, user_id=owner)
        graph.record_turns(sid, [{"role": "user", "text": said}], user_id=owner)
        graph.end_session(sid)
    path, content = PLANTED["memory"]
    graph.memory_store(FORGOTTEN_USER, session_id=session_id).create(path, content + "\n")
    graph.reconcile_memory(graph.get_pending_memories()[0])
    record_failure("hook", ValueError(f"could not read {text!r}"), session_id=session_id)
    with dg.DagsterInstance.from_config(str(production["dagster"])) as instance:
        instance.add_dynamic_partitions("users", [FORGOTTEN_USER, KEPT_USER])
        resources = {"graph_store": GraphStoreResource(), "extractor": ExtractorResource(backend="spacy"), "embedder": EmbedderResource()}
        assert dg.materialize([reconciled_session], instance=instance, resources=resources, partition_key=FORGOTTEN_USER,
                              run_config={"ops": {"reconciled_session": {"config": {"session_ids": [session_id]}}}}).success
    assert rows_holding(postgres, WORDS) and files_holding(production, WORDS)  # the scans see them where they are

    by_session = receipt(cli, "--session", session_id, "--user", FORGOTTEN_USER)
    assert by_session["check"]["clean"], json.dumps(by_session, indent=1)
    assert sorted(by_session["log"]["rewritten"]) == sorted((server / "address").read_text().strip()
                                                            for server in (production["primary"], production["replica"]))
    assert by_session["dagster"]["runs_deleted"] == 1
    receipt(cli, "--memory", path, "--user", FORGOTTEN_USER)
    by_user = receipt(cli, "--user", FORGOTTEN_USER)
    assert by_user["dagster"]["partitions_deleted"] == [FORGOTTEN_USER] and by_user["check"]["clean"], by_user
    assert files_holding(production, WORDS) == {}
    assert rows_holding(postgres, WORDS) == {}
    assert graph.get_session("zz-session-kept") is not None
    graph.store.delete_all()
    graph.close()

