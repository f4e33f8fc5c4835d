"""The code location and its assets, materialised on an ephemeral instance against the real store."""

from __future__ import annotations

import dagster as dg
import pytest
from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG
from dagster_helpers import SAMPLES, import_transcript, resources_for, status_of

from sessions_graph_dagster.definitions import defs
from sessions_graph_dagster.resources import GraphStoreResource
from sessions_graph_dagster.sessions import reconciled_session


@pytest.fixture
def instance():
    with dg.DagsterInstance.ephemeral() as inst:
        yield inst


def range_tags(keys: list[str]) -> dict[str, str]:
    return {ASSET_PARTITION_RANGE_START_TAG: keys[0], ASSET_PARTITION_RANGE_END_TAG: keys[-1]}


def test_definitions_load_and_name_what_the_ui_shows():
    dg.Definitions.validate_loadable(defs)
    repo = defs.get_repository_def()
    assert {job.name for job in repo.get_all_jobs()} >= {"reconcile_sessions"}
    assert {sensor.name for sensor in repo.sensor_defs} >= {"pending_sessions_sensor"}


def test_a_batch_of_sessions_reconciles_in_one_run(instance, graph, store):
    sids = [import_transcript(graph, path) for path in SAMPLES]
    instance.add_dynamic_partitions("sessions", sids)
    result = dg.materialize(
        [reconciled_session], instance=instance, resources=resources_for(store), tags=range_tags(sids)
    )
    assert result.success
    events = result.asset_materializations_for_node("reconciled_session")
    assert sorted(event.partition for event in events) == sorted(sids)
    metadata = events[0].metadata
    assert metadata["sessions"].value == 3
    assert metadata["failed"].value == 0
    assert metadata["entities"].value > 0 and metadata["facts"].value > 0
    assert metadata["backend"].value == "spacy"
    assert "orders-2" in metadata["sessions_table"].value
    assert [status_of(graph, sid) for sid in sids] == ["completed"] * 3
    entities = graph.store.run("MATCH (e:Entity {user_id: 'alice'}) RETURN count(e) AS n")[0]["n"]
    assert entities > 0


def test_a_missing_session_fails_its_partition_without_retries(instance, graph, store):
    instance.add_dynamic_partitions("sessions", ["never-recorded"])
    result = dg.materialize(
        [reconciled_session],
        instance=instance,
        resources=resources_for(store),
        partition_key="never-recorded",
        raise_on_error=False,
    )
    assert not result.success
    kinds = [event.event_type_value for event in result.all_events]
    assert "STEP_UP_FOR_RETRY" not in kinds
    failure = next(event for event in result.all_events if event.event_type_value == "STEP_FAILURE")
    assert "never-recorded" in failure.step_failure_data.user_failure_data.description
    status = instance.get_status_by_partition(
        dg.AssetKey("reconciled_session"), ["never-recorded"], reconciled_session.partitions_def
    )
    assert status["never-recorded"] == dg.AssetPartitionStatus.FAILED


def test_an_unreachable_store_is_retried_with_backoff(instance, short_tmp):
    instance.add_dynamic_partitions("sessions", ["any-session"])
    closed_port = GraphStoreResource(memgraph_url="bolt://127.0.0.1:9")  # discard port: nothing listens
    resources = {**resources_for_unreachable(), "graph_store": closed_port}
    result = dg.materialize(
        [reconciled_session], instance=instance, resources=resources, partition_key="any-session", raise_on_error=False
    )
    kinds = [event.event_type_value for event in result.all_events]
    assert kinds.count("STEP_UP_FOR_RETRY") == 3
    assert not result.success


def resources_for_unreachable() -> dict[str, object]:
    from sessions_graph_dagster.resources import EmbedderResource, ExtractorResource

    return {"extractor": ExtractorResource(backend="spacy"), "embedder": EmbedderResource()}
