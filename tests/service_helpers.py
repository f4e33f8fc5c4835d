"""Real servers for the production-profile tests: a standalone FalkorDB primary with a replica, and a
PostgreSQL from Debian's package (scripts/postgres). Each lives in a directory of its own under /tmp,
binds 127.0.0.1 and is stopped by its pid."""

from __future__ import annotations

import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from sessions_graph_core.store.falkordb.service import StandaloneServer

REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class StandalonePair:
    primary: StandaloneServer
    replica: StandaloneServer
    password: str

    def env(self, *, replica_acks: int = 1) -> dict[str, str]:
        """What a process needs to write to the primary and recall from the replica."""
        return {
            "SESSIONS_GRAPH_STORE_URL": self.primary.url,
            "SESSIONS_GRAPH_STORE_READ_URL": self.replica.url,
            "SESSIONS_GRAPH_STORE_PASSWORD": self.password,
            "SESSIONS_GRAPH_STORE_REPLICA_ACKS": str(replica_acks),
        }


@contextmanager
def standalone_pair() -> Iterator[StandalonePair]:
    """A primary on 127.0.0.1 with a password and a replica following it, both stopped afterwards."""
    root = Path(tempfile.mkdtemp(prefix="sg-standalone-", dir="/tmp"))
    password = secrets.token_urlsafe(16)
    primary, replica = StandaloneServer(root / "primary"), StandaloneServer(root / "replica")
    try:
        primary.start(password=password, port=free_port())
        replica.start(password=password, port=free_port(), replica_of=primary.address)
        yield StandalonePair(primary, replica, password)
    finally:
        replica.stop()
        primary.stop()
        shutil.rmtree(root, ignore_errors=True)


@dataclass
class Postgres:
    data_dir: Path
    env: dict[str, str]


@contextmanager
def running_postgres() -> Iterator[Postgres]:
    """scripts/postgres start in a fresh directory; its variables (DAGSTER_PG_*); stopped by pid afterwards."""
    root = Path(tempfile.mkdtemp(prefix="sg-pg-", dir="/tmp"))
    script = REPO / "scripts" / "postgres"
    try:
        subprocess.run(["bash", str(script), "start", str(root)], check=True, capture_output=True, text=True)
        env = {}
        for line in (root / "env").read_text().splitlines():
            name, _, value = line.removeprefix("export ").partition("=")
            env[name] = value.strip("'")
        yield Postgres(root, env)
    finally:
        subprocess.run(["bash", str(script), "stop", str(root)], check=False, capture_output=True)
        shutil.rmtree(root, ignore_errors=True)
