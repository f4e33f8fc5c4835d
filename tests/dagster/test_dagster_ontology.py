"""The derivation-milestone sensor and the user-ontology asset, on the real store, the LLM behind a fake HTTP API."""

from __future__ import annotations

import dagster as dg
import pytest
from dagster_helpers import resources_for
from derivation_helpers import GOOD, USER, FakeLlmApi, fake_llm, record

from sensors.derivation_milestones import derivation_milestones_sensor
from sessions_graph_core.llm import LlmClient
from sessions_graph_dagster.definitions import defs
from sessions_graph_dagster.ontology import user_ontology
from sessions_graph_dagster.resources import LlmResource

API = FakeLlmApi([GOOD])


class FakeApiLlm(LlmResource):
    """The real Anthropic client, its HTTP answered by the fake API: the only stand-in is the network."""

    def configured(self) -> bool:
        return True

    def client(self) -> LlmClient:
        return fake_llm("anthropic", API)


@pytest.fixture
def instance():
    with dg.DagsterInstance.ephemeral() as inst:
        yield inst


@pytest.fixture
def no_llm_key(monkeypatch, tmp_path):
    monkeypatch.setenv("SESSIONS_GRAPH_CONFIG", str(tmp_path / "absent.toml"))
    for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def sensor_result(instance, store, llm: LlmResource) -> dg.SensorResult:
    context = dg.build_sensor_context(instance=instance, resources={**resources_for(store), "llm": llm}, definitions=defs)
    return derivation_milestones_sensor(context)


def test_user_ontology_depends_on_the_same_users_sessions():
    mapping = defs.resolve_assets_def("user_ontology").get_partition_mapping(dg.AssetKey("reconciled_session"))
    assert isinstance(mapping, dg.IdentityPartitionMapping)


def test_a_milestone_asks_for_one_run_and_the_run_adopts_a_version(instance, graph, store):
    record(graph, 0)
    assert sensor_result(instance, store, FakeApiLlm()).run_requests == []  # one session: no milestone yet
    record(graph, 1)

    result = sensor_result(instance, store, FakeApiLlm())
    assert [(r.run_key, r.partition_key) for r in result.run_requests] == [(f"derive:{USER}:2", USER)]
    assert [list(r.partition_keys) for r in result.dynamic_partitions_requests] == [[USER]]

    instance.add_dynamic_partitions("users", [USER])
    resources = {**resources_for(store), "llm": FakeApiLlm()}
    materialized = dg.materialize([user_ontology], instance=instance, resources=resources, partition_key=USER)
    metadata = materialized.asset_materializations_for_node("user_ontology")[0].metadata
    assert metadata["outcome"].value == "adopted"
    assert metadata["milestone"].value == 2
    assert metadata["adopted_version"].value == 1
    assert metadata["llm_calls"].value > 0
    assert "| 1 | True |" in metadata["candidates"].value or "| 0 | True |" in metadata["candidates"].value

    after = sensor_result(instance, store, FakeApiLlm())
    assert after.run_requests == []  # milestone 2 is done; the next is 4, read from the graph
    assert "no user has reached" in after.skip_reason.skip_message


def test_without_an_llm_key_the_sensor_says_so_and_the_asset_fails_clearly(instance, graph, store, no_llm_key):
    record(graph, 0)
    record(graph, 1)
    skipped = sensor_result(instance, store, LlmResource())
    assert skipped.run_requests == []
    assert "no LLM key is configured" in skipped.skip_reason.skip_message
    assert skipped.cursor == f"skipped: {skipped.skip_reason.skip_message}"  # the tick list prints the cursor

    instance.add_dynamic_partitions("users", [USER])
    result = dg.materialize(
        [user_ontology], instance=instance, resources={**resources_for(store), "llm": LlmResource()},
        partition_key=USER, raise_on_error=False,
    )
    assert not result.success
    kinds = [event.event_type_value for event in result.all_events]
    assert "STEP_UP_FOR_RETRY" not in kinds
