"""Where the store is, in one model, and the one function that opens it.

The config file's [store] section, the hook settings cache, the Dagster resource and the CLI all
resolve to a `StoreSettings` and open it with `open_store`. A plain value class, neither pydantic nor a
dataclass: the hook path builds one from its cache and must not pay for either import (values.py).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from sessions_graph_core.validation import ValidationError
from sessions_graph_core.values import Value

if TYPE_CHECKING:  # a hook reads StoreSettings from its cache, and only a hook that opens the store needs more
    from sessions_graph_core.store.base import GraphStore

DEFAULT_GRAPH = "sessions_graph"
# A store a command started stops after this long without a command: long enough to stay up through a
# working session's pauses, short enough not to hold its memory all day after the last one.
DEFAULT_IDLE_SECONDS = 1800
# How long a standalone server may take to answer a statement before the caller is told it did not: a
# stopped (SIGSTOP) server accepts connections and never replies, and a read must answer or fail within 10 s.
DEFAULT_TIMEOUT_S = 5.0


def default_data_dir() -> Path:
    import platformdirs  # here, not at the top: a hook takes its data directory from its settings cache

    return Path(os.environ.get("SESSIONS_GRAPH_DATA_DIR") or platformdirs.user_data_dir("sessions-graph"))


class StoreSettings(Value):
    """The embedded FalkorDB in `data_dir`; a standalone FalkorDB server when `falkordb_url` is set; the
    Memgraph server at `memgraph_url` when that is set.

    `idle_seconds`: an embedded server that a command starts and leaves running stops itself after this
    long without a command (0: never).

    `read_url` names a replica of the standalone server: recall reads there, so reads scale out and
    never wait behind the writers on the primary. `replica_acks` makes every write wait until that many
    replicas hold it (WAIT), so losing the primary loses nothing a writer was told is done. `timeout_s`: how
    long a standalone server may take to answer a statement before it is reported as not answering.
    """

    __slots__ = ("data_dir", "graph", "memgraph_url", "memgraph_user", "memgraph_password", "memgraph_database",
                 "falkordb_url", "falkordb_password", "read_url", "replica_acks", "read_only", "idle_seconds", "timeout_s")
    _hidden = frozenset({"memgraph_password", "falkordb_password"})  # never printed, never cached

    data_dir: Path
    graph: str
    memgraph_url: str | None
    memgraph_user: str
    memgraph_password: str
    memgraph_database: str
    falkordb_url: str | None
    falkordb_password: str
    read_url: str | None
    replica_acks: int
    read_only: bool
    idle_seconds: float
    timeout_s: float

    def __init__(
        self, data_dir: Path | str, graph: str = DEFAULT_GRAPH, memgraph_url: str | None = None, memgraph_user: str = "",
        memgraph_password: str = "", memgraph_database: str = "memgraph", falkordb_url: str | None = None,
        falkordb_password: str = "", read_url: str | None = None, replica_acks: int = 0, read_only: bool = False,
        idle_seconds: float = DEFAULT_IDLE_SECONDS, timeout_s: float = DEFAULT_TIMEOUT_S,
    ) -> None:
        if (read_url or replica_acks) and not falkordb_url:
            raise ValidationError(
                "store.read_url and store.replica_acks name replicas of a standalone FalkorDB server: "
                "set store.url to its falkordb://HOST:PORT, or unset them"
            )
        self._fill(Path(data_dir), graph, memgraph_url, memgraph_user, memgraph_password, memgraph_database, falkordb_url,
                   falkordb_password, read_url, replica_acks, read_only, idle_seconds, timeout_s)

    @property
    def backend(self) -> str:
        return "memgraph" if self.memgraph_url else "falkordb"

    @property
    def embedded(self) -> bool:
        """The embedded FalkorDB in `data_dir`, whose server a command starts itself (not a server of its own)."""
        return not (self.memgraph_url or self.falkordb_url)

    def where(self) -> str:
        """The store in words, for messages."""
        return self.memgraph_url or self.falkordb_url or f"embedded FalkorDB in {self.data_dir}"

    def for_reads(self) -> StoreSettings:
        """Where recall reads: the replica at `read_url` when one is set, else the same store."""
        if not self.read_url:
            return self
        return self.replace(falkordb_url=self.read_url, read_url=None, replica_acks=0, read_only=True)

    def cacheable(self) -> dict[str, str] | None:
        """What a cache may keep of it: the embedded store's place; None for a server, whose password it needs."""
        if not self.embedded:
            return None
        return {"data_dir": str(self.data_dir), "graph": self.graph, "idle_seconds": self.idle_seconds}


def open_store(settings: StoreSettings, *, keep_running: bool = False) -> GraphStore:
    """The store the settings name; `keep_running` leaves an embedded server this call starts up for the next
    process, until it has been idle for `settings.idle_seconds`."""
    if settings.memgraph_url:
        from sessions_graph_core.store.memgraph import MemgraphStore

        return MemgraphStore(
            settings.memgraph_url,
            user=settings.memgraph_user,
            password=settings.memgraph_password,
            database=settings.memgraph_database,
        )
    from sessions_graph_core.store.falkordb.store import FalkorDBStore

    if settings.falkordb_url:
        return FalkorDBStore.connect(
            settings.falkordb_url,
            password=settings.falkordb_password,
            graph=settings.graph,
            replica_acks=settings.replica_acks,
            read_only=settings.read_only,
            timeout_s=settings.timeout_s,
        )
    return FalkorDBStore.open(
        settings.data_dir, graph=settings.graph, keep_running=keep_running, idle_seconds=settings.idle_seconds
    )


# How long the server reads go to first may take to answer before they go to the other one instead.
REPLICA_PROBE_S = 2.0


def reads_moved(trouble: object, role: str, url: str) -> str:
    """The note a command prints when its reads go to the other server: what was wrong, and where they go."""
    return f"{trouble}. Reading from the {role} at {url} instead."


def open_reads(
    settings: StoreSettings,
    *,
    keep_running: bool = False,
    primary_first: bool = False,
    on_switch: Callable[[str], None],
) -> GraphStore:
    """Where reads go: the replica at `read_url`, or the store itself when none is set. A replica that does not
    answer (down, stopped, still loading) gives way to the primary, and `on_switch` gets a note that says so.

    `primary_first`: a command that reads what its user just wrote (`session list`) reads the primary, and the
    replica only when the primary does not answer (stopped, restarting), again with the note.

    A server that answers the probe and then stops answering (stopped or killed a moment later) gives way the
    same way, at the first read it leaves unanswered."""
    if not settings.read_url:
        return open_store(settings, keep_running=keep_running)
    first, then = (settings, settings.for_reads()) if primary_first else (settings.for_reads(), settings)
    role = "replica" if primary_first else "primary"
    store = open_store(first)
    trouble = store.trouble(REPLICA_PROBE_S)
    if trouble is None:
        from sessions_graph_core.store.falkordb.store import FalkorDBStore

        assert isinstance(store, FalkorDBStore) and then.falkordb_url, "read_url is only set beside a FalkorDB store.url"
        store.read_elsewhere_when_silent(then.falkordb_url, role, on_switch)
        return store
    store.close()
    on_switch(reads_moved(trouble, role, then.falkordb_url or ""))
    return open_store(then)
