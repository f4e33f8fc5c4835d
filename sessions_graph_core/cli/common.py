"""What every `sessions-graph` command shares: the consoles and the opened, set-up graph."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.markup import escape

from sessions_graph_core.config.model import store_settings
from sessions_graph_core.graph import SessionsGraph
from sessions_graph_core.store.falkordb.server import StoreError
from sessions_graph_core.store.location import open_store
from sessions_graph_core.validation import ValidationError

console = Console()
errors = Console(stderr=True)


def human_bytes(size: int) -> str:
    value = float(size)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"


@contextmanager
def opened_graph() -> Iterator[SessionsGraph]:
    """The configured store with its schema in place; errors become one clear line and exit 1."""
    try:
        settings = store_settings()
    except ValidationError as exc:  # a malformed config file: it names the file and the key
        errors.print(f"[red]error:[/red] {escape(str(exc))}")
        sys.exit(2)
    try:
        graph = SessionsGraph(open_store(settings))
    except (StoreError, ConnectionError) as exc:
        errors.print(f"[red]error:[/red] {exc}")
        sys.exit(1)
    try:
        graph.setup()
        yield graph
    except ValidationError as exc:
        errors.print(f"[red]error:[/red] {exc}")
        sys.exit(2)
    finally:
        graph.close()
