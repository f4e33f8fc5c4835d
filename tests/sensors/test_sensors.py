"""The sensors, evaluated with Dagster's sensor-context helper against the real embedded store."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import dagster as dg
import pytest
from dagster._core.storage.tags import RUN_KEY_TAG
from dagster_helpers import SAMPLES, import_transcript, resources_for, status_of

from sensors.embedding_catchup import embedding_catchup_sensor
from sensors.memory_files import memory_files_sensor
from sensors.pending_sessions import pending_sessions_sensor
from sessions_graph_core.clock import format_utc
from sessions_graph_core.embeddings import vectors as embeddings
from sessions_graph_core.reconcile import pipeline as reconcile
from sessions_graph_dagster.batches import session_ids_of
from sessions_graph_dagster.definitions import defs
from sessions_graph_dagster.policies import EMBED_MAX_FAILURES
from sessions_graph_dagster.sessions import embedded_session, reconciled_session

BROKEN_MODEL = "/nonexistent/no-such-model"


@pytest.fixture
def instance():
    with dg.DagsterInstance.ephemeral() as inst:
        yield inst


def evaluate(sensor, instance, store, cursor=None, model=None) -> dg.SensorResult:
    resources = resources_for(store, model=model)
    return sensor(dg.build_sensor_context(instance=instance, cursor=cursor, resources=resources, definitions=defs))


def apply_partitions(instance: dg.DagsterInstance, result: dg.SensorResult) -> None:
    for request in result.dynamic_partitions_requests:
        instance.add_dynamic_partitions(request.partitions_def_name, list(request.partition_keys))


def test_pending_sessions_add_user_partitions_and_one_run_per_user(instance, graph, store):
    sids = [import_transcript(graph, path) for path in SAMPLES]
    result = evaluate(pending_sessions_sensor, instance, store)

    added = {r.partitions_def_name: list(r.partition_keys) for r in result.dynamic_partitions_requests}
    assert added == {"users": ["alice", "bob"]}  # no partition per session
    by_user = {request.partition_key: request for request in result.run_requests}
    assert sorted(by_user) == ["alice", "bob"]
    alice = by_user["alice"]
    assert sorted(session_ids_of(alice.run_config)) == ["orders-1", "orders-2"]
    assert alice.run_config["ops"]["reconciled_session"]["config"]["session_ids"] == session_ids_of(alice.run_config)
    assert alice.run_config["ops"]["embedded_session"]["config"]["session_ids"] == session_ids_of(alice.run_config)
    assert alice.tags["sessions_graph/sessions"] == "2"
    assert sorted(alice.tags["sessions_graph/session_ids"].split(",")) == ["orders-1", "orders-2"]
    assert alice.run_key.startswith("reconcile:alice:2:")
    assert session_ids_of(by_user["bob"].run_config) == ["garden-1"]
    assert sorted(session_ids_of(alice.run_config) + session_ids_of(by_user["bob"].run_config)) == sorted(sids)
    assert result.cursor is None  # the graph holds the state, not the cursor


def test_same_state_same_run_key_and_new_revision_new_key(instance, graph, store):
    sid = import_transcript(graph, SAMPLES[0])
    first = evaluate(pending_sessions_sensor, instance, store)
    apply_partitions(instance, first)
    [key] = [r.run_key for r in first.run_requests]
    assert key.startswith(f"reconcile:{sid}@1/")
    assert first.run_requests[0].partition_key == "bob"

    again = evaluate(pending_sessions_sensor, instance, store)
    assert [r.run_key for r in again.run_requests] == [key]  # Dagster launches a run key once
    apply_partitions(instance, again)  # the daemon skips a key it has
    assert instance.get_dynamic_partitions("users") == ["bob"]

    graph.record_turns(sid, [{"role": "user", "text": "One more thing about the garden."}], user_id="bob", first_position=100)
    graph.end_turn(sid)
    changed = evaluate(pending_sessions_sensor, instance, store)
    [changed_key] = [r.run_key for r in changed.run_requests]
    assert changed_key.startswith(f"reconcile:{sid}@2/")


def run_as_the_daemon(instance, store, request: dg.RunRequest, assets) -> None:
    """Launches the request as the daemon would: its partition, config and run key, on the real store."""
    instance.add_dynamic_partitions("users", [request.partition_key])
    result = dg.materialize(
        assets,
        instance=instance,
        resources=resources_for(store),
        partition_key=request.partition_key,
        run_config=request.run_config,
        tags={**request.tags, RUN_KEY_TAG: request.run_key},
    )
    assert result.success


def test_a_session_forgotten_and_imported_again_is_reconciled_again(instance, graph, store):
    sid = import_transcript(graph, SAMPLES[0])
    [first] = evaluate(pending_sessions_sensor, instance, store).run_requests
    run_as_the_daemon(instance, store, first, [reconciled_session, embedded_session])
    assert status_of(graph, sid) == "completed"

    graph.forget_session("bob", sid)
    import_transcript(graph, SAMPLES[0])  # back at revision 1, as the first import was
    [again] = evaluate(pending_sessions_sensor, instance, store).run_requests
    assert again.run_key != first.run_key
    run_as_the_daemon(instance, store, again, [reconciled_session, embedded_session])
    assert status_of(graph, sid) == "completed"
    assert "every session is embedded" in evaluate(embedding_catchup_sensor, instance, store).skip_reason.skip_message


def test_a_session_forgotten_imported_and_reconciled_by_hand_is_embedded_again(instance, graph, store):
    sid = reconciled(graph)
    [first] = evaluate(embedding_catchup_sensor, instance, store).run_requests
    run_as_the_daemon(instance, store, first, [embedded_session])

    graph.forget_session("bob", sid)
    sid = reconciled(graph)  # `reconcile --pending` by hand: the session waits for its vectors only
    [again] = evaluate(embedding_catchup_sensor, instance, store).run_requests
    assert again.run_key != first.run_key
    run_as_the_daemon(instance, store, again, [embedded_session])
    assert "every session is embedded" in evaluate(embedding_catchup_sensor, instance, store).skip_reason.skip_message


def test_sessions_in_an_unfinished_run_are_not_requested_again(instance, graph, store):
    [import_transcript(graph, path) for path in SAMPLES]
    first = evaluate(pending_sessions_sensor, instance, store)
    apply_partitions(instance, first)
    job = defs.resolve_job_def("reconcile_sessions")
    alice = next(r for r in first.run_requests if r.partition_key == "alice")
    # As the daemon launches it: the request's partition becomes the run's partition tag.
    instance.create_run_for_job(job, run_config=alice.run_config, tags={**alice.tags, "dagster/partition": "alice"},
                                status=dg.DagsterRunStatus.STARTED)

    # A session of alice's that came after her run was asked for waits for that run to finish.
    import_transcript(graph, next(path for path in SAMPLES if "orders" in path.name), session_id="orders-later")
    rest = evaluate(pending_sessions_sensor, instance, store)
    assert [session_ids_of(r.run_config) for r in rest.run_requests] == [["garden-1"]]

    # A run over a whole user (a backfill names no sessions) holds back all of that user's sessions.
    bob = next(r for r in first.run_requests if r.partition_key == "bob")
    instance.create_run_for_job(job, tags={"dagster/partition": "bob"}, status=dg.DagsterRunStatus.STARTED)
    blocked = evaluate(pending_sessions_sensor, instance, store)
    assert blocked.run_requests == []
    assert "2 in flight" in blocked.skip_reason.skip_message
    assert bob.partition_key in instance.get_dynamic_partitions("users")


def test_batch_size_splits_a_users_backlog(instance, graph, store, monkeypatch):
    monkeypatch.setenv("SESSIONS_GRAPH_BATCH_SIZE", "2")
    for path in SAMPLES:
        import_transcript(graph, path)
    for index in range(3):
        import_transcript(graph, SAMPLES[0], session_id=f"copy-{index}")  # bob's
    result = evaluate(pending_sessions_sensor, instance, store)
    assert sorted((r.partition_key, r.tags["sessions_graph/sessions"]) for r in result.run_requests) == [
        ("alice", "2"), ("bob", "2"), ("bob", "2"),
    ]


def test_a_tick_asks_for_whole_runs_of_the_users_waiting_longest(instance, graph, store, monkeypatch):
    import sensors.pending_sessions

    monkeypatch.setenv("SESSIONS_GRAPH_BATCH_SIZE", "2")
    monkeypatch.setattr(sensors.pending_sessions, "PER_TICK", 4)
    for index in range(2):  # pending in turn: alice, bob, carol, alice, bob, carol
        for user in ("alice", "bob", "carol"):
            graph.record_session_start(f"{user}-{index}", user_id=user)
            graph.record_turns(f"{user}-{index}", [{"role": "user", "text": f"{user} works on ticket {index}."}], user_id=user)
            assert graph.end_session(f"{user}-{index}")
    result = evaluate(pending_sessions_sensor, instance, store)
    # The 4 longest waiting overall would be runs of 2, 1 and 1 sessions; whole users give two runs of 2.
    assert [(r.partition_key, session_ids_of(r.run_config)) for r in result.run_requests] == [
        ("alice", ["alice-0", "alice-1"]), ("bob", ["bob-0", "bob-1"]),
    ]


def test_nothing_pending_skips(instance, graph, store):
    result = evaluate(pending_sessions_sensor, instance, store)
    assert result.run_requests == []
    assert "no pending sessions" in result.skip_reason.skip_message


def test_embedding_catchup_asks_for_reconciled_sessions_without_vectors(instance, graph, store):
    reconciled = [import_transcript(graph, path) for path in SAMPLES[:2]]
    for sid in reconciled:
        assert reconcile.reconcile_session(graph.store, sid).status == "completed"
    waiting = import_transcript(graph, SAMPLES[2])  # still pending: its reconcile run embeds it

    result = evaluate(embedding_catchup_sensor, instance, store)
    asked = sorted(sid for r in result.run_requests for sid in session_ids_of(r.run_config))
    assert asked == sorted(reconciled) and waiting not in asked
    assert all(list(r.run_config["ops"]) == ["embedded_session"] for r in result.run_requests)
    request = result.run_requests[0]
    assert request.tags["sessions_graph/stage"] == "embed"

    apply_partitions(instance, result)
    switched = evaluate(embedding_catchup_sensor, instance, store, model="another-model")
    assert [r.run_key for r in switched.run_requests] != [request.run_key]


def test_embedding_catchup_skips_when_everything_is_embedded(instance, graph, store):
    sid = import_transcript(graph, SAMPLES[0])
    reconcile.reconcile_session(graph.store, sid)
    embeddings.embed_session(graph.store, sid)
    result = evaluate(embedding_catchup_sensor, instance, store)
    assert result.run_requests == []
    assert "every session is embedded" in result.skip_reason.skip_message


def test_memory_files_sensor_asks_once_per_change(instance, graph, store):
    assert evaluate(memory_files_sensor, instance, store).run_requests == []
    memory = graph.memory_store("alice")
    memory.create("/memories/notes.md", "Alice prefers CockroachDB.")
    first = evaluate(memory_files_sensor, instance, store)
    again = evaluate(memory_files_sensor, instance, store)
    assert len(first.run_requests) == 1
    assert first.run_requests[0].run_key == again.run_requests[0].run_key
    memory.str_replace("/memories/notes.md", "CockroachDB", "Postgres")
    edited = evaluate(memory_files_sensor, instance, store)
    assert edited.run_requests[0].run_key != first.run_requests[0].run_key

    job = defs.resolve_job_def("extract_memory_files")
    instance.create_run_for_job(job, status=dg.DagsterRunStatus.STARTED)
    assert evaluate(memory_files_sensor, instance, store).run_requests == []


def catch_up_with_the_broken_model(instance, store) -> dg.SensorResult:
    return evaluate(embedding_catchup_sensor, instance, store, model=BROKEN_MODEL)


def reconciled(graph) -> str:
    sid = import_transcript(graph, SAMPLES[0])
    assert reconcile.reconcile_session(graph.store, sid).status == "completed"
    return sid


def embed_with_the_broken_model(instance, store, sid: str) -> dict:
    """Runs the embedding asset on the session with a model that cannot load; returns the failure's metadata."""
    result = dg.materialize(
        [embedded_session],
        instance=instance,
        resources=resources_for(store, model=BROKEN_MODEL),
        partition_key="bob",
        run_config={"ops": {"embedded_session": {"config": {"session_ids": [sid]}}}},
        raise_on_error=False,
    )
    assert not result.success
    failure = next(event for event in result.all_events if event.event_type_value == "STEP_FAILURE")
    return {key: value.value for key, value in failure.step_failure_data.user_failure_data.metadata.items()}


def failed_an_hour_ago(graph, sid: str) -> None:
    """The last failure moved back past its backoff, as if the sensor ticked again much later."""
    an_hour_ago = format_utc(datetime.now(UTC) - timedelta(hours=1))
    graph.store.run("MATCH (s:Session {session_id: $sid}) SET s.embedded_at = $at", {"sid": sid, "at": an_hour_ago})


def failures_in_a_row(graph, sid: str) -> int:
    return graph.store.run("MATCH (s:Session {session_id: $sid}) RETURN s.embedding_failures AS n", {"sid": sid})[0]["n"]


def test_a_failed_embedding_is_asked_for_again_after_its_backoff_under_a_new_run_key(instance, graph, store):
    sid = reconciled(graph)
    first = catch_up_with_the_broken_model(instance, store)
    [key] = [r.run_key for r in first.run_requests]
    assert key.startswith(f"embed:{sid}@1/") and key.endswith(f":{BROKEN_MODEL}")
    apply_partitions(instance, first)

    metadata = embed_with_the_broken_model(instance, store, sid)
    assert metadata["failed"] == 1 and metadata["retries_exhausted"] == 0
    assert f"| {sid} | bob | failed | 1 |" in metadata["sessions_table"]
    backing_off = catch_up_with_the_broken_model(instance, store)
    assert backing_off.run_requests == []
    assert "1 failed sessions wait for their retry" in backing_off.skip_reason.skip_message

    failed_an_hour_ago(graph, sid)
    retry = catch_up_with_the_broken_model(instance, store)
    [retry_key] = [r.run_key for r in retry.run_requests]
    assert retry_key.startswith(f"{key}:failed:")

    embed_with_the_broken_model(instance, store, sid)
    assert failures_in_a_row(graph, sid) == 2
    failed_an_hour_ago(graph, sid)
    [second_retry_key] = [r.run_key for r in catch_up_with_the_broken_model(instance, store).run_requests]
    assert second_retry_key not in (first.run_requests[0].run_key, retry_key)


def test_a_failed_session_in_flight_is_not_asked_for_again(instance, graph, store):
    sid = reconciled(graph)
    apply_partitions(instance, catch_up_with_the_broken_model(instance, store))
    embed_with_the_broken_model(instance, store, sid)
    failed_an_hour_ago(graph, sid)
    job = defs.resolve_job_def("embed_sessions")
    config = {"ops": {"embedded_session": {"config": {"session_ids": [sid]}}}}
    instance.create_run_for_job(job, run_config=config, tags={"dagster/partition": "bob"}, status=dg.DagsterRunStatus.STARTED)
    assert catch_up_with_the_broken_model(instance, store).run_requests == []


def test_a_session_that_keeps_failing_is_no_longer_asked_for_until_the_model_changes(instance, graph, store):
    sid = reconciled(graph)
    apply_partitions(instance, catch_up_with_the_broken_model(instance, store))
    for _ in range(EMBED_MAX_FAILURES - 1):
        embed_with_the_broken_model(instance, store, sid)
    last = embed_with_the_broken_model(instance, store, sid)
    assert failures_in_a_row(graph, sid) == EMBED_MAX_FAILURES
    assert last["retries_exhausted"] == 1
    failed_an_hour_ago(graph, sid)

    given_up = catch_up_with_the_broken_model(instance, store)
    assert given_up.run_requests == []
    reason = given_up.skip_reason.skip_message
    assert f"failed {EMBED_MAX_FAILURES} times in a row and are no longer retried ({sid})" in reason

    working = evaluate(embedding_catchup_sensor, instance, store)  # the default model has not failed on it
    assert [session_ids_of(r.run_config) for r in working.run_requests] == [[sid]]
    embeddings.embed_session(graph.store, sid)
    assert failures_in_a_row(graph, sid) == 0
    assert "every session is embedded" in evaluate(embedding_catchup_sensor, instance, store).skip_reason.skip_message
