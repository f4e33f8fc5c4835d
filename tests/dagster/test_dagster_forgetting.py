"""Forgetting in the Dagster instance (issue 42): finished runs naming a forgotten id go with their
events, a run still in progress is reported instead (Dagster cannot delete it), a forgotten user's
partition key goes, and what other users' runs recorded stays."""

from __future__ import annotations

import dagster as dg
import pytest

from sessions_graph_dagster.batches import session_tags
from sessions_graph_dagster.forgetting import Request, forget, naming


@pytest.fixture
def instance():
    with dg.instance_for_test() as inst:
        yield inst


def run_naming(instance: dg.DagsterInstance, user: str, session_ids: list[str], status: dg.DagsterRunStatus) -> str:
    run = instance.create_run_for_job(
        dg.GraphDefinition(name="noop", node_defs=[]).to_job(),
        run_config={},
        tags={"dagster/partition": user, **session_tags(session_ids)},
    )
    instance.report_engine_event(f"batch of {len(session_ids)}", run)
    instance.handle_run_event(run.run_id, dg.DagsterEvent(
        event_type_value="PIPELINE_SUCCESS" if status == dg.DagsterRunStatus.SUCCESS else "PIPELINE_START",
        job_name="noop",
    ))
    return run.run_id


def test_finished_runs_naming_a_forgotten_session_go_and_a_running_one_is_reported(instance):
    instance.add_dynamic_partitions("users", ["erased-user", "kept-user"])
    done = run_naming(instance, "erased-user", ["session-to-forget", "session-beside"], dg.DagsterRunStatus.SUCCESS)
    running = run_naming(instance, "erased-user", ["session-to-forget"], dg.DagsterRunStatus.STARTED)
    other = run_naming(instance, "kept-user", ["session-of-kept-user"], dg.DagsterRunStatus.SUCCESS)
    assert set(naming(instance, ["session-to-forget"])) == {done, running}

    report = forget(instance, Request(user_id="erased-user", strings=["session-to-forget"]))
    assert report.runs_deleted == 1 and instance.get_run_by_id(done) is None
    assert list(report.runs_left) == [running] and "STARTED" in report.runs_left[running]
    assert report.found == {f"run {running}": 1}  # the check says what is left, and where
    assert instance.get_run_by_id(other) is not None and report.partitions_deleted == []
    assert instance.get_dynamic_partitions("users") == ["erased-user", "kept-user"]


def test_forgetting_a_user_deletes_their_partition_key_and_runs_even_by_a_short_id(instance):
    instance.add_dynamic_partitions("users", ["bob", "kept-user"])
    mine = run_naming(instance, "bob", [], dg.DagsterRunStatus.SUCCESS)  # a backfill of bob's partition: no session named
    theirs = run_naming(instance, "kept-user", [], dg.DagsterRunStatus.SUCCESS)
    report = forget(instance, Request(user_id="bob", whole_user=True, strings=[]))  # "bob" is too short to search for
    assert report.partitions_deleted == ["bob"] and report.runs_deleted == 1 and report.found == {}
    assert instance.get_run_by_id(mine) is None and instance.get_run_by_id(theirs) is not None
    assert instance.get_dynamic_partitions("users") == ["kept-user"]
