"""The production profile's Dagster storage: dagster-postgres, keeping its connections open.

Outside the webserver, dagster-postgres opens a new connection for every storage call (SQLAlchemy's
NullPool, so that idle instances hold none). In a drain the daemon, the code server and the run workers
then connect about 27 times a second, and each connection costs about 10 ms of CPU on this machine:
SCRAM authentication on both sides and a new PostgreSQL backend process, whose own CPU no per-process
sample sees because it exits within the call. This storage gives every process a small pool per
storage instead, the way Dagster already does for its webserver (`optimize_for_webserver`).

The pools belong to the process, not to one instance: the code server makes a new instance for every
sensor evaluation (several a second in a drain), and each new dagster-postgres storage first checks its
tables on a connection of its own and then opens its pool's. Here the first instance of a process checks
the tables and opens the pools; every later one uses them.

deploy/dagster.yaml names it as the instance's `storage: custom` class with dagster-postgres's own
config, so run workers get it too (Dagster passes the storage class in the instance reference).
"""

from __future__ import annotations

import os

from dagster._serdes import ConfigurableClassData
from dagster_postgres import DagsterPostgresStorage
from dagster_postgres.utils import get_token_provider_from_config, pg_url_from_config
from sqlalchemy.engine import Engine

# An hour, as the webserver recycles: a connection PostgreSQL or a proxy dropped is replaced within it.
POOL_RECYCLE_S = 3600
# Connections beyond the pool's one (several daemon threads at once) are opened and closed as before.
MAX_OVERFLOW = 8
NO_STATEMENT_TIMEOUT = 0  # the daemon and run workers had none; only the webserver's queries are cut short


# This process's pooled engine of each kind of storage, by database URL. Keyed by pid as well: runs are
# forked from the code server's fork server, and a connection must never be shared across a fork.
_ENGINES: dict[tuple[int, str, str], Engine] = {}


class PooledPostgresStorage(DagsterPostgresStorage):
    """DagsterPostgresStorage whose run, event log and schedule storages each hold one open connection,
    shared by every instance of the process."""

    def __init__(self, postgres_url: str, should_autocreate_tables: bool = True,
                 inst_data: ConfigurableClassData | None = None, token_provider: object | None = None) -> None:
        # The tables were checked (and made, if missing) when the process's first storage was.
        pid = os.getpid()
        checked = (pid, "runs", postgres_url) in _ENGINES
        super().__init__(postgres_url, should_autocreate_tables and not checked, inst_data, token_provider)  # type: ignore[arg-type]
        kinds = {"runs": self._run_storage, "event_log": self._event_log_storage, "schedules": self._schedule_storage}
        for kind, storage in kinds.items():
            engine = _ENGINES.get((pid, kind, postgres_url))
            if engine is None:
                storage.optimize_for_webserver(
                    statement_timeout=NO_STATEMENT_TIMEOUT, pool_recycle=POOL_RECYCLE_S, max_overflow=MAX_OVERFLOW
                )
                engine = _ENGINES[(pid, kind, postgres_url)] = storage._engine
            storage._engine = engine

    @classmethod
    def from_config_value(cls, inst_data: ConfigurableClassData | None, config_value: dict) -> PooledPostgresStorage:  # type: ignore[override]
        return cls(
            inst_data=inst_data,
            postgres_url=pg_url_from_config(config_value),
            should_autocreate_tables=config_value.get("should_autocreate_tables", True),
            token_provider=get_token_provider_from_config(config_value),
        )
