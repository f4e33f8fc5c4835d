"""benchmarks/bench_knowledge.py leaves no store server behind when it is interrupted (Ctrl-C)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from sessions_graph_core.store.falkordb.server import EmbeddedServer, _process_alive


def bench():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_knowledge.py"
    spec = importlib.util.spec_from_file_location("bench_knowledge_for_tests", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_a_child_store_is_stopped_by_its_pid_and_removed_when_the_run_is_interrupted() -> None:
    """On Ctrl-C, subprocess.run kills the child before its own cleanup: the server it started (in a session of
    its own, so the Ctrl-C does not reach it) ran on. The parent now owns the directory and stops it."""
    with pytest.raises(KeyboardInterrupt), bench().store_directory() as directory:
        server = EmbeddedServer(directory)
        server.ensure_running()  # what the child's FalkorDBStore.open does before it is killed
        pid = server.pid()
        assert pid is not None and _process_alive(pid)
        raise KeyboardInterrupt
    assert not _process_alive(pid)
    assert not directory.exists()
