"""Fixtures: one real embedded FalkorDB server for the run, a fresh graph for every test."""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from sessions_graph_core import SessionsGraph
from sessions_graph_core.store.base import GraphStore
from sessions_graph_core.store.falkordb.server import EmbeddedServer, _cmdline, _process_alive, terminate
from sessions_graph_core.store.falkordb.store import FalkorDBStore
from sessions_graph_core.store.location import StoreSettings, open_store
from sessions_graph_core.store.schema import SCHEMA

TEST_RUN_ENV = "SESSIONS_GRAPH_TEST_RUN"


def processes_with_env(variable: str, value: str) -> list[int]:
    """The processes (not this one) whose environment holds VARIABLE=value: children inherit it."""
    marker = f"{variable}={value}".encode() + b"\0"
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker in (entry / "environ").read_bytes() and int(entry.name) != os.getpid():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


@pytest.fixture(scope="session", autouse=True)
def no_server_outlives_the_run() -> Iterator[None]:
    """A CLI call leaves the store it started running, with a watcher that stops it when idle: every
    server and watcher this run's code started (the watchers inherit its marker) is stopped when the run ends."""
    run = uuid.uuid4().hex
    os.environ[TEST_RUN_ENV] = run
    yield
    for pid in processes_with_env(TEST_RUN_ENV, run):
        # redis-server overwrites its environment with its process title, so a server is found by its
        # watcher, which names its data directory.
        arguments = _cmdline(pid).split()
        if "sessions_graph_core.store.falkordb.idle" in arguments:
            EmbeddedServer(arguments[-2]).stop()
        terminate(pid, lambda pid=pid: not _process_alive(pid), timeout=10)


# No call with hostile input may take over 5 s (issue 36). Measured on a loaded 2-core machine, the slowest
# is the FIFO nobody writes to, given up on after inputs.READ_TIMEOUT_S (3.0 s, a fixed wall-clock wait, not
# work that load stretches). A real hang (a FIFO read, /dev/zero) never ends.
WATCHDOG_S = 5


class Hung(BaseException):
    """Not an Exception (TimeoutError is an OSError): no `except` in the product, nor CliRunner's, swallows it."""


@pytest.fixture(scope="session", autouse=True)
def word_table_built() -> None:
    """Recall's word table (embeddings/words.py), built before any test: a first recall would otherwise
    build it under a test's watchdog or a client's timeout (about 25 s once per machine; later runs read it
    from the cache directory in milliseconds)."""
    from sessions_graph_core.embeddings.models import load_embedder
    from sessions_graph_core.embeddings.words import word_table

    word_table(load_embedder())


@contextmanager
def watchdog() -> Iterator[None]:
    """A hang becomes a failure: the call inside is interrupted after WATCHDOG_S seconds (SIGALRM, so the
    tests that use it run in pytest's main thread)."""

    def hung(signum: int, frame: object) -> None:
        raise Hung(f"the call did not end within {WATCHDOG_S} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(WATCHDOG_S)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def short_tmp() -> Iterator[Path]:
    """A directory with a short path: Unix socket paths are limited to 107 bytes."""
    path = Path(tempfile.mkdtemp(prefix="sg-", dir="/tmp"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "sessions"


START_NOTES = ("sessions-graph: loading the store in ", "sessions-graph: the store's server (pid ")


def without_start_notes(output: str) -> str:
    """What a command printed, less the store's notes about a slow start, which depend on the machine's load."""
    return "".join(line for line in output.splitlines(keepends=True) if not line.startswith(START_NOTES))


@pytest.fixture
def cli(short_tmp, monkeypatch):
    """Run `sessions-graph` in-process on an embedded store and a config file of its own.

    `cli(*args, code=0)` returns what the command printed and checks its exit code.
    """
    from sessions_graph_core.cli.main import main

    monkeypatch.setenv("SESSIONS_GRAPH_DATA_DIR", str(short_tmp))
    monkeypatch.setenv("SESSIONS_GRAPH_CONFIG", str(short_tmp / "config.toml"))
    monkeypatch.setenv("COLUMNS", "200")  # one line per printed row
    monkeypatch.delenv("MEMGRAPH_URL", raising=False)
    runner = CliRunner()

    def invoke(*args: str, code: int = 0) -> str:
        result = runner.invoke(main, list(args), catch_exceptions=False)
        output = result.output  # stdout and stderr, interleaved as printed (click >= 8.2)
        assert result.exit_code == code, output
        return without_start_notes(output)

    yield invoke
    EmbeddedServer(short_tmp).stop()


@contextmanager
def running_server(prefix: str) -> Iterator[EmbeddedServer]:
    """An embedded server in a fresh short-path directory, stopped and removed afterwards."""
    embedded = EmbeddedServer(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    embedded.ensure_running()
    try:
        yield embedded
    finally:
        embedded.stop()
        shutil.rmtree(embedded.data_dir, ignore_errors=True)


@pytest.fixture(scope="module")
def data_dir() -> Iterator[Path]:
    """A data directory of the module's own with its embedded server running, for code that opens the
    store by directory (through the config file or in child processes)."""
    with running_server("sg-module-") as embedded:
        yield embedded.data_dir


@pytest.fixture(scope="session")
def server() -> Iterator[EmbeddedServer]:
    with running_server("sg-tests-") as embedded:
        yield embedded


@pytest.fixture
def store(server: EmbeddedServer) -> Iterator[FalkorDBStore]:
    """A graph of its own inside the shared server, deleted afterwards."""
    graph_store = FalkorDBStore(server, graph=f"test_{uuid.uuid4().hex[:12]}")
    yield graph_store
    graph_store.delete_all()
    graph_store.close()


# Every backend a store-level test runs on: FalkorDB always, Memgraph where a server is named.
BACKENDS = [
    "falkordb",
    pytest.param(
        "memgraph",
        marks=pytest.mark.skipif(
            not os.environ.get("MEMGRAPH_URL"), reason="MEMGRAPH_URL is not set: no Memgraph server to test against"
        ),
    ),
]


@pytest.fixture(params=BACKENDS)
def backend_store(request: pytest.FixtureRequest, server: EmbeddedServer) -> Iterator[GraphStore]:
    """One store-level test body on every backend: an empty graph with the schema in place, emptied afterwards."""
    if request.param == "memgraph":
        settings = StoreSettings(data_dir=server.data_dir, memgraph_url=os.environ["MEMGRAPH_URL"],
                                 memgraph_user=os.environ.get("MEMGRAPH_USER", ""),
                                 memgraph_password=os.environ.get("MEMGRAPH_PASSWORD", ""))
        opened = open_store(settings)
    else:
        opened = FalkorDBStore(server, graph=f"test_{uuid.uuid4().hex[:12]}")
    opened.delete_all()  # Memgraph holds one graph: start from nothing
    opened.apply_schema(SCHEMA)
    try:
        yield opened
    finally:
        opened.delete_all()
        opened.close()


@pytest.fixture
def graph(store: FalkorDBStore) -> SessionsGraph:
    sessions_graph = SessionsGraph(store)
    sessions_graph.setup()
    return sessions_graph


def snapshot(store: FalkorDBStore) -> list[dict]:
    """Every node and relationship with its properties, for 'nothing changed' assertions."""
    nodes = store.run("MATCH (n) RETURN labels(n) AS labels, properties(n) AS props")
    edges = store.run(
        "MATCH (a)-[r]->(b) RETURN type(r) AS type, properties(a) AS a, properties(b) AS b, properties(r) AS props"
    )
    key = repr
    return sorted(nodes, key=key) + sorted(edges, key=key)


@pytest.fixture(scope="module")
def spacy():
    """The offline statement reader on the real spaCy model (reconcile's reading tests)."""
    from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend

    return SpacyBackend()


@pytest.fixture(scope="session")
def local_llm() -> Iterator[str]:
    """The base URL of one real llama.cpp server (tests/local_llm.py) that every LLM test of the run shares."""
    from local_llm import local_server

    with local_server() as base_url:
        yield base_url
