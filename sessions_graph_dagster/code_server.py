"""The production profile's code server: Dagster's `dagster api grpc`, with each run forked from a process
that has already imported the definitions and loaded the spaCy pipeline.

Dagster's code server starts every run as a new interpreter (multiprocessing's spawn), which imports
dagster and the definitions again (1.3 CPU-s here) and loads spaCy again (1.2 CPU-s). A drain of a backlog is
a run per user, and the queue hands a run over only when the reconcile slot is free, so that start-up is
paid by every run and the slot stands idle through it. Here the runs come from a fork server that pays it
once: a run is a fork of that process, its imports and the pipeline already in memory.
The embedding model is not preloaded: onnxruntime starts threads when a model is loaded, and a fork
keeps none of them.

    python -m sessions_graph_dagster.code_server -s SOCKET -m sessions_graph_dagster.definitions -a defs ...

takes the arguments of `dagster api grpc` (devtools/local_platform.code_server_command).
"""

from __future__ import annotations

import multiprocessing
import sys
from typing import Any

from dagster._cli import main as dagster_main
from dagster._grpc import server as grpc_server

# What the fork server imports before it forks a run (multiprocessing's preload).
PRELOAD = ["sessions_graph_dagster.preload"]


class ForkingApiServer(grpc_server.DagsterApiServer):
    """Dagster's API server, starting runs from the fork server instead of a fresh interpreter each."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not isinstance(getattr(self, "_mp_ctx", None), multiprocessing.context.BaseContext):
            # Dagster names the context it starts runs with `_mp_ctx`; a release that changes that must
            # fail here, not silently start runs the slow way.
            raise RuntimeError(
                "dagster's DagsterApiServer no longer keeps its multiprocessing context in _mp_ctx: "
                "sessions_graph_dagster.code_server needs updating (or start `dagster api grpc` instead)"
            )
        self._mp_ctx = fork_server()


def fork_server() -> multiprocessing.context.BaseContext:
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return context


def main() -> None:
    grpc_server.DagsterApiServer = ForkingApiServer  # dagster's `api grpc` looks the class up when it starts
    sys.argv = ["dagster", "api", "grpc", *sys.argv[1:]]
    dagster_main()


if __name__ == "__main__":
    main()
