"""Where the store is, in one model, and the one function that opens it.

The config file's [store] section, the hook settings cache, the Dagster resource and the CLI all
resolve to a `StoreSettings` and open it with `open_store`. A plain dataclass, not pydantic: the
hook path builds one from its cache and must not pay for pydantic's import.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

from sessions_graph_core.store.base import GraphStore

DEFAULT_GRAPH = "sessions_graph"


def default_data_dir() -> Path:
    return Path(os.environ.get("SESSIONS_GRAPH_DATA_DIR") or platformdirs.user_data_dir("sessions-graph"))


@dataclass(frozen=True)
class StoreSettings:
    """The embedded FalkorDB in `data_dir`, or the Memgraph server at `memgraph_url` when it is set."""

    data_dir: Path
    graph: str = DEFAULT_GRAPH
    memgraph_url: str | None = None
    memgraph_user: str = ""
    memgraph_password: str = field(default="", repr=False)  # never printed, never cached
    memgraph_database: str = "memgraph"

    def __post_init__(self) -> None:
        object.__setattr__(self, "data_dir", Path(self.data_dir))

    @property
    def backend(self) -> str:
        return "memgraph" if self.memgraph_url else "falkordb"

    def where(self) -> str:
        """The store in words, for messages."""
        return self.memgraph_url or f"embedded FalkorDB in {self.data_dir}"

    def cacheable(self) -> dict[str, str] | None:
        """What a cache may keep of it: the embedded store's place; None for a server, whose password it needs."""
        return None if self.memgraph_url else {"data_dir": str(self.data_dir), "graph": self.graph}


def open_store(settings: StoreSettings, *, keep_running: bool = False) -> GraphStore:
    """The store the settings name; `keep_running` leaves an embedded server up for the next process."""
    if settings.memgraph_url:
        from sessions_graph_core.store.memgraph import MemgraphStore

        return MemgraphStore(
            settings.memgraph_url,
            user=settings.memgraph_user,
            password=settings.memgraph_password,
            database=settings.memgraph_database,
        )
    from sessions_graph_core.store.falkordb.store import FalkorDBStore

    return FalkorDBStore.open(settings.data_dir, graph=settings.graph, keep_running=keep_running)
