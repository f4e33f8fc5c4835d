"""The production profile: Dagster on a real PostgreSQL (deploy/dagster.yaml over the laptop template),
the daemon and webserver as processes of their own, the graph on a standalone FalkorDB primary with a
replica that recall reads from."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import dagster as dg
import psycopg2
import pytest
import yaml
from dagster_helpers import SAMPLES, import_transcript
from dagster_postgres import PostgresEventLogStorage, PostgresRunStorage, PostgresScheduleStorage
from dagster_postgres.utils import pg_url_from_config
from service_helpers import REPO, running_postgres, standalone_pair

from devtools.local_platform import PRODUCTION, _environment, prepare_home, running_platform
from devtools.progress import failure_text, runs, wait_until_drained
from sessions_graph_core import SessionsGraph
from sessions_graph_core.store.location import StoreSettings, open_store
from sessions_graph_dagster.definitions import defs
from sessions_graph_dagster.instance_storage import PooledPostgresStorage
from sessions_graph_dagster.pools import POOLS, RECONCILE_POOL


@pytest.fixture(scope="module")
def postgres():
    with running_postgres() as server:
        yield server


@pytest.fixture
def home():
    path = Path(tempfile.mkdtemp(prefix="sg-prod-", dir="/tmp"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_production_instance_keeps_everything_in_postgres(postgres, home):
    with _environment(postgres.env):
        prepare_home(home, profile=PRODUCTION)
        with dg.DagsterInstance.from_config(str(home)) as instance:
            assert isinstance(instance.run_storage, PostgresRunStorage)
            assert isinstance(instance.event_log_storage, PostgresEventLogStorage)
            assert isinstance(instance.schedule_storage, PostgresScheduleStorage)
            instance.add_dynamic_partitions("users", ["alice", "bob"])
            assert instance.has_dynamic_partition("users", "bob")
    written = yaml.safe_load((home / "dagster.yaml").read_text())
    laptop = yaml.safe_load((REPO / "dagster.yaml").read_text())
    # Only the storage differs: queue, pools, launcher and retries are the laptop's.
    assert {key: value for key, value in written.items() if key != "storage"} == laptop
    assert written["storage"]["custom"]["config"]["postgres_db"]["password"] == {"env": "DAGSTER_PG_PASSWORD"}
    assert postgres.env["DAGSTER_PG_PASSWORD"] not in (home / "dagster.yaml").read_text()


def connections_made(postgres) -> int:
    """How many connections the server has accepted since it started (its own statistics)."""
    env = postgres.env
    with psycopg2.connect(host=env["DAGSTER_PG_HOST"], port=env["DAGSTER_PG_PORT"], user=env["DAGSTER_PG_USER"],
                          password=env["DAGSTER_PG_PASSWORD"], dbname="postgres") as conn, conn.cursor() as cursor:
        cursor.execute("SELECT sum(sessions) FROM pg_stat_database")
        return int(cursor.fetchone()[0])


def storage_calls(instance: dg.DagsterInstance, calls: int) -> None:
    for n in range(calls):
        instance.get_runs(limit=1)
        instance.add_dynamic_partitions("users", [f"pooled-{n}"])


def test_every_process_keeps_its_postgres_connections_open(postgres, home):
    """dagster-postgres connects anew for every storage call outside the webserver (instance_storage.py says
    what that cost); the profile's storage keeps one connection per storage, in run workers too."""
    with _environment(postgres.env):
        prepare_home(home, profile=PRODUCTION)
        with dg.DagsterInstance.from_config(str(home)) as instance:
            ref = instance.get_ref()
            before = connections_made(postgres)
            storage_calls(instance, 40)
            pooled = connections_made(postgres) - before - 1  # the count's own connection
        # What a run worker gets: the instance reference the launcher hands it names the same storage.
        assert ref.storage_data.class_name == PooledPostgresStorage.__name__
        with dg.DagsterInstance.from_ref(ref) as worker:
            before = connections_made(postgres)
            storage_calls(worker, 40)
            in_worker = connections_made(postgres) - before - 1
        env = postgres.env
        plain = PostgresRunStorage(pg_url_from_config({"postgres_db": {
            "hostname": env["DAGSTER_PG_HOST"], "port": env["DAGSTER_PG_PORT"], "username": env["DAGSTER_PG_USER"],
            "password": env["DAGSTER_PG_PASSWORD"], "db_name": env["DAGSTER_PG_DB"], "scheme": "postgresql+psycopg2",
        }}))
        before = connections_made(postgres)
        for _ in range(40):
            plain.get_runs(limit=1)
        unpooled = connections_made(postgres) - before - 1
    assert pooled <= 2 and in_worker <= 3
    assert unpooled >= 20  # the count sees connections that live for one call (most of the 40)


def test_instances_made_one_after_another_share_the_process_connections(postgres, home):
    """The code server makes an instance from the reference for every sensor evaluation: after the first,
    none checks the tables or opens a pool of its own."""
    with _environment(postgres.env):
        prepare_home(home, profile=PRODUCTION)
        with dg.DagsterInstance.from_config(str(home)) as instance:
            ref = instance.get_ref()
        before = connections_made(postgres)
        for _ in range(10):
            with dg.DagsterInstance.from_ref(ref) as evaluation:
                storage_calls(evaluation, 2)
        made = connections_made(postgres) - before - 1
    assert made <= 3


def test_every_pool_has_its_limit_before_any_run_claims_a_slot(postgres, home):
    """Two runs that both give a pool its first limit race on PostgreSQL and one fails (pools.py)."""
    used = {asset.op.pool for asset in defs.assets if isinstance(asset, dg.AssetsDefinition) and asset.op.pool}
    assert used and used <= set(POOLS)
    with _environment(postgres.env):
        prepare_home(home, profile=PRODUCTION)
        with dg.DagsterInstance.from_config(str(home)) as instance:
            limits = {limit.name: (limit.limit, limit.from_default) for limit in instance.event_log_storage.get_pool_limits()}
            assert {pool: limits.get(pool) for pool in used} == {pool: (1, True) for pool in used}
            instance.event_log_storage.set_concurrency_slots(RECONCILE_POOL, 8)
        prepare_home(home, profile=PRODUCTION)  # a restart keeps a limit a person set
        with dg.DagsterInstance.from_config(str(home)) as instance:
            kept = {limit.name: limit.limit for limit in instance.event_log_storage.get_pool_limits()}
            assert kept[RECONCILE_POOL] == 8
            instance.event_log_storage.delete_concurrency_limit(RECONCILE_POOL)  # the module's database is shared


def test_the_workspace_loads_the_code_server_of_the_home(postgres, home):
    with _environment(postgres.env):
        workspace = prepare_home(home, profile=PRODUCTION)
    assert yaml.safe_load(workspace.read_text()) == {
        "load_from": [{"grpc_server": {"socket": str(home.resolve() / "code.sock"), "location_name": "sessions_graph"}}]
    }
    assert prepare_home(home / "laptop") == REPO / "workspace.yaml"


def test_a_home_too_deep_for_the_code_servers_socket_is_refused_and_nothing_is_made(postgres, home):
    deep = home / ("d" * 60) / ("e" * 60)
    with _environment(postgres.env), pytest.raises(ValueError, match="longer than a Unix socket path may be"):
        prepare_home(deep, profile=PRODUCTION)
    assert not deep.exists()


def processes_of(leader: int, word: bytes) -> list[int]:
    """The processes in the process group `leader` leads whose command line holds `word`."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            group = os.getpgid(int(entry.name))
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
        except (ValueError, OSError):
            continue
        if group == leader and word in command:
            found.append(int(entry.name))
    return found


def code_servers_of(leader: int) -> list[int]:
    return processes_of(leader, b"sessions_graph_dagster.code_server")


def test_missing_postgres_settings_say_which_variable(home, monkeypatch):
    for name in ("DAGSTER_PG_HOST", "DAGSTER_PG_PORT", "DAGSTER_PG_USER", "DAGSTER_PG_PASSWORD", "DAGSTER_PG_DB"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(Exception, match="DAGSTER_PG_"):
        prepare_home(home, profile=PRODUCTION)


def test_sessions_drain_through_postgres_dagster_into_the_standalone_store(postgres, home):
    with standalone_pair() as servers:
        env = {**postgres.env, **servers.env(replica_acks=1), "SESSIONS_GRAPH_BATCH_SIZE": "100"}
        settings = StoreSettings(
            data_dir=home / "unused", falkordb_url=servers.primary.url, falkordb_password=servers.password,
            read_url=servers.replica.url, replica_acks=1,
        )
        with running_platform(home / "dagster_home", env, profile=PRODUCTION) as platform:
            with SessionsGraph(open_store(settings)) as graph:
                graph.setup()
                sids = sorted(import_transcript(graph, path) for path in SAMPLES)
                try:
                    wait_until_drained(platform.url, graph.store, timeout=500)
                except TimeoutError as error:
                    log = platform.logs["daemon"].read_text(errors="replace").splitlines()
                    pytest.fail(f"{error}\ndaemon log, last lines:\n" + "\n".join(log[-40:]))
            finished = runs(platform.url)
            # The daemon and the webserver load the code from the one code server: neither spawns its own.
            code_server, daemon, webserver = (process.pid for process in platform.processes)
            assert code_servers_of(daemon) == code_servers_of(webserver) == []
            assert code_servers_of(code_server) == [code_server]
            # Its runs were forked from one fork server that loaded the definitions before the first run.
            assert len(processes_of(code_server, b"sessions_graph_dagster.preload")) == 1
            # Every run must succeed the first time (a run retry hides the failure it retried); a failure
            # names the run and carries the error its event log recorded.
            unsuccessful = [
                f"{r.job_name} {r.status} {r.tags.get('sessions_graph/session_ids')}:\n{failure_text(platform.url, r.run_id)}"
                for r in finished
                if r.status != "SUCCESS"
            ]
        assert finished and not unsuccessful, "\n\n".join(unsuccessful)
        assert {run.job_name for run in finished} >= {"reconcile_sessions"}
        with open_store(settings.for_reads()) as replica:
            rows = replica.run(
                "MATCH (s:Session) RETURN s.session_id AS sid, s.reconciliation_status AS reconciled, "
                "s.embedding_status AS embedded ORDER BY sid"
            )
            assert [(r["sid"], r["reconciled"], r["embedded"]) for r in rows] == [(sid, "completed", "completed") for sid in sids]
            recalled = SessionsGraph(replica).recall("alice", "What database does the orders service use?")
            assert "CockroachDB" in recalled.render()
        # The replica killed (issue 41): recall reads the primary and says so once, and a command that only
        # reads waits for no replica although replica_acks=1.
        os.kill(servers.replica.pid(), signal.SIGKILL)
        shell = {**os.environ, **env, "SESSIONS_GRAPH_DATA_DIR": str(home / "unused"),
                 "SESSIONS_GRAPH_CONFIG": str(home / "config.toml")}
        recall = sessions_graph(shell, "recall", "--user", "alice", "What database does the orders service use?")
        assert recall.returncode == 0 and "CockroachDB" in recall.stdout, recall.stderr
        assert recall.stderr.count(f"The FalkorDB replica at {servers.replica.address} (store.read_url) is unreachable") == 1
        assert f"Reading from the primary at {servers.primary.url} instead." in recall.stderr
        listed = sessions_graph(shell, "session", "list", "--user", "alice")
        assert listed.returncode == 0 and "orders-1" in listed.stdout, listed.stderr


def sessions_graph(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    """The CLI as a user's shell runs it."""
    command = [str(Path(sys.executable).with_name("sessions-graph")), *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
