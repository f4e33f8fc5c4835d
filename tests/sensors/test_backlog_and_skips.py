"""The backlog sensor observes pending_work when the backlog changes, and a sensor whose runs were
already launched says so in its tick instead of leaving Dagster to skip it without a reason."""

from __future__ import annotations

import json

import dagster as dg
import pytest
from dagster._core.storage.tags import RUN_KEY_TAG
from dagster_helpers import SAMPLES, import_transcript, resources_for

from sensors.backlog import backlog_sensor
from sensors.pending_sessions import pending_sessions_sensor
from sessions_graph_dagster.definitions import defs


@pytest.fixture
def instance():
    with dg.DagsterInstance.ephemeral() as inst:
        yield inst


def tick(sensor, instance, store, cursor=None) -> dg.SensorResult:
    context = dg.build_sensor_context(instance=instance, cursor=cursor, resources=resources_for(store), definitions=defs)
    return sensor(context)


def observed(result: dg.SensorResult) -> dict[str, object]:
    [event] = result.asset_events
    assert isinstance(event, dg.AssetObservation) and event.asset_key == dg.AssetKey("pending_work")
    return {key: value.value for key, value in event.metadata.items()}


def test_the_backlog_is_observed_when_it_changes_and_charted(instance, graph, store):
    import_transcript(graph, SAMPLES[0])
    first = tick(backlog_sensor, instance, store)
    figures = observed(first)
    assert (figures["reconcile"], figures["embed"], figures["memory_files"], figures["total"]) == (1, 1, 0, 2)

    unchanged = tick(backlog_sensor, instance, store, cursor=first.cursor)
    assert unchanged.asset_events == []
    assert "the backlog is unchanged: 2 pending (1 to reconcile, 1 to embed, 0 memory files)" in unchanged.skip_reason.skip_message

    for path in SAMPLES[1:]:
        import_transcript(graph, path)
    graph.memory_store("alice").create("/memories/a.md", "Orders moved to CockroachDB.")
    grown = tick(backlog_sensor, instance, store, cursor=first.cursor)
    figures = observed(grown)
    assert (figures["reconcile"], figures["memory_files"], figures["total"]) == (3, 1, 7)
    chart = figures["recent"]
    rows = [line for line in chart.splitlines() if line.startswith("| ") and "█" in line]
    assert [row.split("|")[2].strip() for row in rows] == ["2", "7"]  # oldest first
    assert rows[1].count("█") > rows[0].count("█")  # the bars scale with the backlog
    assert len(json.loads(grown.cursor)["history"]) == 2


def test_a_sensor_whose_runs_were_all_launched_says_so(instance, graph, store):
    import_transcript(graph, SAMPLES[0])
    asked = tick(pending_sessions_sensor, instance, store)
    [request] = asked.run_requests
    for add in asked.dynamic_partitions_requests:
        instance.add_dynamic_partitions(add.partitions_def_name, list(add.partition_keys))
    job = defs.resolve_job_def("reconcile_sessions")
    instance.create_run_for_job(
        job, tags={RUN_KEY_TAG: request.run_key}, run_config=request.run_config, status=dg.DagsterRunStatus.SUCCESS
    )
    again = tick(pending_sessions_sensor, instance, store)
    assert again.run_requests == []
    assert f"nothing new: the 1 run(s) this work needs were already launched (run keys {request.run_key})" in (
        again.skip_reason.skip_message
    )


def test_ticks_never_list_partition_keys(instance, graph, store, monkeypatch):
    """A tick's cost must not grow with the partitions ever made (issue 17): listing them fails the test."""
    for path in SAMPLES:
        import_transcript(graph, path)
    instance.add_dynamic_partitions("users", [f"user-{n}" for n in range(50)])

    def listed(*args, **kwargs):
        raise AssertionError("a sensor tick listed every partition key")

    monkeypatch.setattr(dg.DagsterInstance, "get_dynamic_partitions", listed)
    assert observed(tick(backlog_sensor, instance, store))["reconcile"] == 3
    asked = tick(pending_sessions_sensor, instance, store)
    assert sorted(request.partition_key for request in asked.run_requests) == ["alice", "bob"]
