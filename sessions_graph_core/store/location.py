"""Which store to open and where its data lives, from the environment."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs
from pydantic import BaseModel, SecretStr

from sessions_graph_core.store.base import GraphStore


def default_data_dir() -> Path:
    return Path(os.environ.get("SESSIONS_GRAPH_DATA_DIR") or platformdirs.user_data_dir("sessions-graph"))


class StoreSettings(BaseModel):
    """The embedded store in `data_dir`, or Memgraph when `memgraph_url` is set."""

    data_dir: Path
    graph: str = "sessions_graph"
    memgraph_url: str | None = None
    memgraph_user: str = ""
    memgraph_password: SecretStr = SecretStr("")
    memgraph_database: str = "memgraph"

    @classmethod
    def from_env(cls) -> StoreSettings:
        env = os.environ
        return cls(
            data_dir=default_data_dir(),
            memgraph_url=env.get("MEMGRAPH_URL") or None,
            memgraph_user=env.get("MEMGRAPH_USER", ""),
            memgraph_password=SecretStr(env.get("MEMGRAPH_PASSWORD", "")),
            memgraph_database=env.get("MEMGRAPH_DATABASE") or "memgraph",
        )

    @classmethod
    def from_config(cls) -> StoreSettings:
        """The config file's [store] section, with the environment (MEMGRAPH_URL ...) overriding it."""
        from sessions_graph_core.config.model import load_config

        return load_config().store.settings()

    @property
    def backend(self) -> str:
        return "memgraph" if self.memgraph_url else "falkordb"


def open_store(settings: StoreSettings | None = None, *, keep_running: bool = False) -> GraphStore:
    settings = settings or StoreSettings.from_config()
    if settings.memgraph_url:
        from sessions_graph_core.store.memgraph import MemgraphStore

        return MemgraphStore(
            settings.memgraph_url,
            user=settings.memgraph_user,
            password=settings.memgraph_password.get_secret_value(),
            database=settings.memgraph_database,
        )
    from sessions_graph_core.store.falkordb.store import FalkorDBStore

    return FalkorDBStore.open(settings.data_dir, graph=settings.graph, keep_running=keep_running)
