"""Forgetting reaches every byte (issue 42): after `forget` no file under the data directory, the log
directory or the Dagster instance holds a forgotten word, and the receipt says what went where.

Each test plants words no other source says, writes them everywhere sessions-graph writes (the
graph, its vectors, the store's log, the failure log, a Dagster run's config, tags and metadata),
forgets, and reads every file byte by byte itself.
"""

from __future__ import annotations

import threading
from pathlib import Path

import dagster as dg
import pytest
from dagster_helpers import resources_for
from forget_helpers import FORGOTTEN_USER, KEPT_TEXT, KEPT_USER, PLANTED, WORDS, files_holding, receipt

from sessions_graph_core import SessionsGraph
from sessions_graph_core.errors import StoreUnreachableError
from sessions_graph_core.failures import LOG_DIR_ENV, record_failure
from sessions_graph_core.store.falkordb.store import FalkorDBStore
from sessions_graph_dagster.sessions import reconciled_session


@pytest.fixture
def places(cli, short_tmp, tmp_path, monkeypatch) -> dict[str, Path]:
    """The data directory (the `cli` fixture's), a log directory and a SQLite Dagster instance."""
    logs, home = tmp_path / "logs", tmp_path / "dagster_home"
    home.mkdir()
    monkeypatch.setenv(LOG_DIR_ENV, str(logs))
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    return {"data": short_tmp, "logs": logs, "dagster": home}


def written_everywhere(places: dict[str, Path], user: str, session_id: str, text: str) -> SessionsGraph:
    """A reconciled, embedded session with `text`, a memory file, a failure-log entry and a Dagster run naming it."""
    graph = SessionsGraph(FalkorDBStore.open(places["data"], keep_running=True))
    graph.setup()
    for sid, owner, said in ((session_id, user, text), ("zz-session-kept", KEPT_USER, KEPT_TEXT)):
        graph.record_session_start(sid, user_id=owner)
        graph.record_turns(sid, [{"role": "user", "text": said}], user_id=owner)
        graph.end_session(sid)
        graph.reconcile_session(sid)
        graph.embed_session(sid)
    path, content = PLANTED["memory"]
    graph.memory_store(user, session_id=session_id).create(path, content + "\n")
    graph.reconcile_memory(graph.get_pending_memories()[0])
    record_failure("hook", ValueError(f"could not read {text!r}"), session_id=session_id)
    with dg.DagsterInstance.get() as instance:
        instance.add_dynamic_partitions("users", [user, KEPT_USER])
        dg.materialize([reconciled_session], instance=instance, resources=resources_for(graph.store),
                       partition_key=user, run_config={"ops": {"reconciled_session": {"config": {"session_ids": [session_id]}}}})
    return graph


def test_forgetting_a_session_a_memory_file_and_a_user_leaves_no_word_on_disk(cli, places):
    session_id, text = PLANTED["session"]
    graph = written_everywhere(places, FORGOTTEN_USER, session_id, text)
    before = files_holding(places, WORDS)
    assert any("appendonlydir" in name for name in before) and any("failures" in name for name in before)
    assert any("dagster_home" in name for name in before)  # the scan sees them where they are

    by_session = receipt(cli, "--session", session_id, "--user", FORGOTTEN_USER)
    assert by_session["graph"]["sessions"] == 1 and by_session["check"]["clean"], by_session
    assert by_session["log"]["rewritten"] and not by_session["log"]["not_rewritten"]
    assert by_session["own_logs"]["lines_removed"]["failures.jsonl"] == 1
    assert by_session["dagster"]["runs_deleted"] == 1
    assert by_session["check"]["strings"] >= 2
    assert files_holding(places, ("zz-session-forgotten", "Quuxberry", "Zorblaxian")) == {}

    by_file = receipt(cli, "--memory", PLANTED["memory"][0], "--user", FORGOTTEN_USER)
    assert by_file["graph"]["memories"] == 1 and by_file["check"]["clean"], by_file
    assert files_holding(places, ("frobnitz", "Frobnitzdb", "Wibblewort")) == {}

    by_user = receipt(cli, "--user", FORGOTTEN_USER)
    assert by_user["dagster"]["partitions_deleted"] == [FORGOTTEN_USER] and by_user["check"]["clean"], by_user
    assert files_holding(places, WORDS) == {}
    # What another user said stays, on disk and in the graph.
    assert files_holding(places, ("Alice owns the orders service",))
    assert graph.get_session("zz-session-kept") is not None
    graph.close()


def test_forgetting_a_user_beside_a_concurrent_reconcile_leaves_no_word(cli, places):
    session_id, text = PLANTED["session"]
    graph = written_everywhere(places, FORGOTTEN_USER, session_id, text)
    others = [f"zz-busy-{n}" for n in range(6)]
    for sid in others:
        graph.record_session_start(sid, user_id=KEPT_USER)
        graph.record_turns(sid, [{"role": "user", "text": f"Carol owns the search service number {sid}."}], user_id=KEPT_USER)
        graph.end_session(sid)

    def reconcile_others() -> None:
        busy = SessionsGraph(FalkorDBStore.open(places["data"], keep_running=True))
        for sid in others:
            busy.reconcile_session(sid)
        busy.close()

    worker = threading.Thread(target=reconcile_others)
    worker.start()
    forgot = receipt(cli, "--user", FORGOTTEN_USER)
    worker.join()
    assert forgot["check"]["clean"], forgot
    assert files_holding(places, WORDS) == {}
    assert graph.get_session("zz-busy-5") is not None
    graph.close()


def test_a_leftover_fails_the_check_and_is_named_without_its_text(cli, places):
    session_id, text = PLANTED["session"]
    written_everywhere(places, FORGOTTEN_USER, session_id, text).close()
    stray = places["logs"] / "notes-a-person-kept.txt"
    stray.write_text(f"copied by hand: {text}\n")
    out = cli("forget", "--session", session_id, "--user", FORGOTTEN_USER, "--yes", code=1)
    assert "FOUND in 1 " in out and str(stray) in out and "Quuxberry" not in out


def test_a_forget_that_died_before_the_log_rewrite_has_it_done_by_the_next_forget(cli, places, monkeypatch):
    session_id, text = PLANTED["session"]
    graph = SessionsGraph(FalkorDBStore.open(places["data"], keep_running=True))
    graph.setup()
    graph.record_session_start(session_id, user_id=FORGOTTEN_USER)
    graph.record_turns(session_id, [{"role": "user", "text": text}], user_id=FORGOTTEN_USER)

    def dies(self):
        raise StoreUnreachableError("the store went away")

    with monkeypatch.context() as crash:
        crash.setattr(SessionsGraph, "erase_history", dies)
        cli("forget", "--session", session_id, "--user", FORGOTTEN_USER, "--yes", code=1)
    assert graph.get_session(session_id) is None and files_holding(places, ("Quuxberry",))  # forgotten, but in the log

    # Run again it finds no session, and rewrites the log the first run left before saying so.
    assert "no session" in cli("forget", "--session", session_id, "--user", FORGOTTEN_USER, "--yes", code=1)
    assert files_holding(places, ("Quuxberry", session_id)) == {}
    graph.close()
