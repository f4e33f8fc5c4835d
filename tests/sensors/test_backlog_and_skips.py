"""The backlog sensor observes pending_work when the backlog changes, and a sensor whose runs were
already launched says so in its tick instead of leaving Dagster to skip it without a reason."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import dagster as dg
import pytest
from dagster._core.storage.tags import RUN_KEY_TAG
from dagster_helpers import SAMPLES, import_transcript, resources_for

from sensors.backlog import backlog_sensor
from sensors.pending_sessions import pending_sessions_sensor
from sessions_graph_core.clock import format_utc
from sessions_graph_core.embeddings import vectors as embeddings
from sessions_graph_core.reconcile import pipeline as reconcile
from sessions_graph_dagster.definitions import defs


@pytest.fixture
def instance():
    with dg.DagsterInstance.ephemeral() as inst:
        yield inst


def tick(sensor, instance, store, cursor=None) -> dg.SensorResult:
    context = dg.build_sensor_context(instance=instance, cursor=cursor, resources=resources_for(store), definitions=defs)
    return sensor(context)


def observed(result: dg.SensorResult) -> dict[str, object]:
    [event] = [event for event in result.asset_events if isinstance(event, dg.AssetObservation)]
    assert event.asset_key == dg.AssetKey("pending_work")
    return {key: value.value for key, value in event.metadata.items()}


def checked(result: dg.SensorResult) -> dg.AssetCheckEvaluation | None:
    """The tick's evaluation of pending_work's check, if the outcome changed."""
    evaluations = [event for event in result.asset_events if isinstance(event, dg.AssetCheckEvaluation)]
    assert all(event.asset_key == dg.AssetKey("pending_work") for event in evaluations)
    assert [event.check_name for event in evaluations] in ([], ["nothing_waits_too_long"])
    return evaluations[0] if evaluations else None


def pending_an_hour_ago(graph, sid: str) -> None:
    """The session went pending an hour ago and nothing has run since: a stall, as the sensor finds it later."""
    an_hour_ago = format_utc(datetime.now(UTC) - timedelta(hours=1))
    graph.store.run("MATCH (s:Session {session_id: $sid}) SET s.pending_since = $at", {"sid": sid, "at": an_hour_ago})


def test_a_session_waiting_past_the_limit_fails_the_check_naming_it_and_its_age(instance, graph, store, monkeypatch):
    monkeypatch.setenv("SESSIONS_GRAPH_MAX_WAIT_S", "600")
    sid = import_transcript(graph, SAMPLES[0])
    first = tick(backlog_sensor, instance, store)
    fresh = checked(first)
    assert fresh.passed and f"session {sid} of user bob has waited 0." in fresh.description

    pending_an_hour_ago(graph, sid)
    stalled = tick(backlog_sensor, instance, store, cursor=first.cursor)
    assert stalled.asset_events and not [e for e in stalled.asset_events if isinstance(e, dg.AssetObservation)]
    verdict = checked(stalled)  # no count moved, and still the stall is reported
    assert not verdict.passed and verdict.severity == dg.AssetCheckSeverity.ERROR
    assert f"session {sid} of user bob has waited 60.0 min" in verdict.description
    assert "the limit is 10.0 min" in verdict.description
    assert verdict.metadata["oldest_session"].value == sid and verdict.metadata["waited_s"].value >= 3600

    unchanged = tick(backlog_sensor, instance, store, cursor=stalled.cursor)
    assert unchanged.asset_events == [] and f"session {sid} of user bob has waited 60.0 min" in (
        unchanged.skip_reason.skip_message
    )
    reconcile.reconcile_session(graph.store, sid)
    embeddings.embed_session(graph.store, sid)
    done = tick(backlog_sensor, instance, store, cursor=stalled.cursor)
    assert checked(done).passed and checked(done).description == "no session waits"


def test_a_bad_wait_limit_is_refused_with_the_fix(monkeypatch, graph, store, instance):
    monkeypatch.setenv("SESSIONS_GRAPH_MAX_WAIT_S", "ten minutes")
    with pytest.raises(ValueError, match="SESSIONS_GRAPH_MAX_WAIT_S='ten minutes': give the longest wait in seconds"):
        tick(backlog_sensor, instance, store)


def test_each_user_has_a_pending_and_failed_series_that_falls_back_to_zero(instance, graph, store):
    sids = {path.stem: import_transcript(graph, path) for path in SAMPLES}
    first = tick(backlog_sensor, instance, store)
    figures = observed(first)
    assert (figures["pending/alice"], figures["pending/bob"], figures["failed/alice"]) == (2, 1, 0)
    assert "| bob | 1 | 0 | " in figures["users"]

    garden = sids["garden-1"]
    reconcile.reconcile_session(graph.store, garden)
    graph.store.run("MATCH (s:Session {session_id: $sid}) SET s.embedding_status = 'failed'", {"sid": garden})
    failing = observed(tick(backlog_sensor, instance, store, cursor=first.cursor))
    assert (failing["pending/bob"], failing["failed/bob"], failing["failed"]) == (0, 1, 1)

    embeddings.embed_session(graph.store, garden)
    drained = observed(tick(backlog_sensor, instance, store, cursor=first.cursor))
    assert (drained["pending/bob"], drained["failed/bob"], drained["pending/alice"]) == (0, 0, 2)


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


def test_the_check_run_from_the_ui_gives_the_sensors_verdict(graph, store, monkeypatch):
    from sessions_graph_dagster.checks import nothing_waits_too_long

    monkeypatch.setenv("SESSIONS_GRAPH_MAX_WAIT_S", "600")
    sid = import_transcript(graph, SAMPLES[0])
    pending_an_hour_ago(graph, sid)
    result = nothing_waits_too_long(**{name: value for name, value in resources_for(store).items() if name != "extractor"})
    assert not result.passed and f"session {sid} of user bob has waited 60.0 min" in result.description


def caught_up(result: dg.SensorResult) -> dict[str, dg.AssetCheckEvaluation]:
    """The tick's evaluations of embedded_session's caught_up check, by user partition."""
    return {
        event.partition: event for event in result.asset_events
        if isinstance(event, dg.AssetCheckEvaluation) and event.check_name == "caught_up"
    }


def test_a_user_partition_with_work_waiting_does_not_read_as_caught_up(instance, graph, store):
    sids = {path.stem: import_transcript(graph, path) for path in SAMPLES}
    instance.add_dynamic_partitions("users", ["alice", "bob"])
    first = tick(backlog_sensor, instance, store)
    checks = caught_up(first)
    assert sorted(checks) == ["alice", "bob"]
    assert all(event.asset_key == dg.AssetKey("embedded_session") for event in checks.values())
    assert not checks["bob"].passed and checks["bob"].severity == dg.AssetCheckSeverity.WARN
    assert checks["bob"].description.startswith("bob: 1 sessions wait for their runs, 0 failed; waiting longest: garden-1")

    garden = sids["garden-1"]
    reconcile.reconcile_session(graph.store, garden)
    embeddings.embed_session(graph.store, garden)
    later = caught_up(tick(backlog_sensor, instance, store, cursor=first.cursor))
    assert list(later) == ["bob"]  # alice's backlog did not change
    assert later["bob"].passed and later["bob"].description == "bob: every session is reconciled and embedded"


def test_a_user_without_a_partition_yet_gets_no_evaluation(instance, graph, store):
    import_transcript(graph, SAMPLES[0])
    assert caught_up(tick(backlog_sensor, instance, store)) == {}
