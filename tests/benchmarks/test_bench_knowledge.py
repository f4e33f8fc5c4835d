"""benchmarks/bench_knowledge.py leaves no store server behind when it is interrupted (Ctrl-C), and its baseline runs."""

from __future__ import annotations

import json
import shutil

import pytest
from benchmark_modules import load_benchmark

from sessions_graph_core.store.falkordb.server import EmbeddedServer, _process_alive


def test_a_child_store_is_stopped_by_its_pid_and_removed_when_the_run_is_interrupted() -> None:
    """On Ctrl-C, subprocess.run kills the child before its own cleanup: the server it started (in a session of
    its own, so the Ctrl-C does not reach it) ran on. The parent now owns the directory and stops it."""
    with pytest.raises(KeyboardInterrupt), load_benchmark("bench_knowledge").store_directory() as directory:
        server = EmbeddedServer(directory)
        server.ensure_running()  # what the child's FalkorDBStore.open does before it is killed
        pid = server.pid()
        assert pid is not None and _process_alive(pid)
        raise KeyboardInterrupt
    assert not _process_alive(pid)
    assert not directory.exists()


def test_the_baseline_package_runs_the_harness() -> None:
    """The baseline is the package at BASELINE_COMMIT, whose API is older than the harness: a child on it must
    still measure every case (it failed on record_turns' user_id, added since, and the benchmark stopped)."""
    bench = load_benchmark("bench_knowledge")
    data = json.loads(bench.DATA.read_text())
    cases = data["cases"][:2]
    tree = bench.baseline_tree()
    try:
        results = bench.run_child(tree, cases, data["distractors"])
    finally:
        shutil.rmtree(tree, ignore_errors=True)
    assert set(results["results"]) == {case["id"] for case in cases} and results["failed"] == 0
