"""Resources: the graph store, and the extractor, embedder and LLM the assets run with."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import dagster as dg
from pydantic import Field

from sessions_graph_core.config.model import load_config, store_settings
from sessions_graph_core.llm import LlmClient
from sessions_graph_core.reconcile.extraction.base import ExtractionBackend
from sessions_graph_core.reconcile.extraction.registry import BACKENDS, get_backend
from sessions_graph_core.store.base import GraphStore
from sessions_graph_core.store.location import StoreSettings, open_store


class GraphStoreResource(dg.ConfigurableResource):
    """The embedded FalkorDB of a data directory by default; Memgraph when `memgraph_url` is set.

    Unset fields fall back to what the CLI and the hooks read: the config file's [store] section with
    the environment over it (SESSIONS_GRAPH_DATA_DIR, MEMGRAPH_URL ...), so the sensors and assets
    read the store the hooks write, and the same definitions run locally and in production.
    """

    data_dir: str | None = Field(default=None, description="Embedded store directory (default: the config's store.data_dir)")
    graph: str = Field(default="sessions_graph", description="Graph name inside the store")
    memgraph_url: str | None = Field(default=None, description="bolt:// URL of Memgraph (default: the config's store.url)")
    memgraph_user: str | None = None
    memgraph_password: str | None = None

    def settings(self) -> StoreSettings:
        """The configured store with the fields set here over it."""
        configured = store_settings()
        changes: dict[str, object] = {"graph": self.graph}
        if self.data_dir:
            changes["data_dir"] = Path(self.data_dir)
        if self.memgraph_url:
            changes["memgraph_url"] = self.memgraph_url
            changes["memgraph_user"] = self.memgraph_user or configured.memgraph_user
            changes["memgraph_password"] = self.memgraph_password or configured.memgraph_password
        return configured.replace(**changes)

    @contextmanager
    def open(self) -> Iterator[GraphStore]:
        """The store, closed afterwards."""
        store = open_store(self.settings())
        try:
            yield store
        finally:
            store.close()


class ExtractorResource(dg.ConfigurableResource):
    """Which extraction backend reconciliation uses; unset picks GLiNER when its weights are local, else spaCy."""

    backend: str | None = Field(default=None, description=f"one of {', '.join(BACKENDS)}")

    def load(self) -> ExtractionBackend:
        return get_backend(self.backend)


class EmbedderResource(dg.ConfigurableResource):
    """The embedding model every session's vectors must come from."""

    model: str | None = Field(default=None, description="default: recall.embedding_model of the config file, else the packaged model")
    alongside: bool = Field(
        default=True,
        description="A run that reconciles and embeds embeds each reconciled session in a second process while the "
        "next are reconciled (both cores on one run); off: one stage after the other",
    )

    def name(self) -> str:
        return self.model or load_config().recall.model()


class LlmResource(dg.ConfigurableResource):
    """The LLM ontology derivation asks: Anthropic when its key is configured, else OpenAI (config file or environment)."""

    model: str | None = Field(default=None, description="overrides the configured model of the chosen provider")

    def configured(self) -> bool:
        return load_config().llm.usable() is not None

    def client(self) -> LlmClient:
        """Raises NoLlmConfiguredError when neither key is set."""
        return LlmClient.from_config(model=self.model)
