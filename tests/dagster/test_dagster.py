"""The code location and its assets, materialised on an ephemeral instance against the real store."""

from __future__ import annotations

import json
import os
import uuid

import dagster as dg
import numpy as np
import pytest
from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG
from dagster_helpers import SAMPLES, import_transcript, resources_for, status_of

from sessions_graph_core import SessionsGraph
from sessions_graph_core.config.model import CONFIG_ENV, ENV_ALIASES, ENV_PREFIX, set_value
from sessions_graph_core.embeddings.models import DEFAULT_EMBEDDING_MODEL
from sessions_graph_core.failures import LOG_DIR_ENV, recent_failures
from sessions_graph_core.integrations.hooks import run_hook
from sessions_graph_dagster.batches import EMBED_ASSETS, RECONCILE_ASSETS
from sessions_graph_dagster.checks import embedding_model_consistent, no_orphans, ontology_conformance
from sessions_graph_dagster.definitions import defs
from sessions_graph_dagster.memory_files import extracted_memory_files
from sessions_graph_dagster.resources import EmbedderResource, GraphStoreResource
from sessions_graph_dagster.sessions import embedded_session, reconciled_session


@pytest.fixture
def instance():
    with dg.DagsterInstance.ephemeral() as inst:
        yield inst


USERS = ["alice", "bob"]  # the samples' users, in the order their partitions are added


def range_tags(keys: list[str]) -> dict[str, str]:
    return {ASSET_PARTITION_RANGE_START_TAG: keys[0], ASSET_PARTITION_RANGE_END_TAG: keys[-1]}


def named(*session_ids: str, assets=("reconciled_session",)) -> dict:
    return {"ops": {asset: {"config": {"session_ids": list(session_ids)}} for asset in assets}}


def test_definitions_load_and_name_what_the_ui_shows():
    dg.Definitions.validate_loadable(defs)
    repo = defs.get_repository_def()
    assert {job.name for job in repo.get_all_jobs()} >= {"reconcile_sessions", "embed_sessions", "extract_memory_files"}
    assert {sensor.name for sensor in repo.sensor_defs} >= {
        "pending_sessions_sensor",
        "embedding_catchup_sensor",
        "memory_files_sensor",
        "hook_spool_sensor",
    }
    # One group, so the global lineage page shows every edge without expanding a group.
    asset_graph = defs.resolve_asset_graph()
    groups = {key.path[-1]: asset_graph.get(key).group_name for key in asset_graph.get_all_asset_keys()}
    assert set(groups.values()) == {"sessions_graph"}, groups
    assert {"reconciled_session", "embedded_session", "pending_work"} <= set(groups)
    embedded = defs.resolve_assets_def("embedded_session")
    mapping = embedded.get_partition_mapping(dg.AssetKey("reconciled_session"))
    assert isinstance(mapping, dg.IdentityPartitionMapping)
    # The sensors name the sessions of a run for exactly the assets of the job they launch.
    for job, names in (("reconcile_sessions", RECONCILE_ASSETS), ("embed_sessions", EMBED_ASSETS)):
        assets = defs.resolve_job_def(job).asset_layer.executable_asset_keys
        assert sorted(key.path[-1] for key in assets) == sorted(names)


def test_the_named_sessions_of_a_user_reconcile_in_one_run(instance, graph, store):
    sids = [import_transcript(graph, path) for path in SAMPLES]
    instance.add_dynamic_partitions("users", USERS)
    result = dg.materialize(
        [reconciled_session], instance=instance, resources=resources_for(store), partition_key="alice",
        run_config=named("orders-1", "orders-2"),
    )
    assert result.success
    [event] = result.asset_materializations_for_node("reconciled_session")
    assert event.partition == "alice"
    metadata = {key: value.value for key, value in event.metadata.items()}
    assert metadata["sessions"] == 2 and metadata["failed"] == 0
    assert metadata["session_ids"] == "orders-1,orders-2"
    assert metadata["entities"] > 0 and metadata["facts"] > 0 and metadata["superseded_facts"] >= 0
    assert metadata["backend"] == "spacy"
    assert "sessions_table" not in metadata  # the batch's table is in the run's log
    logged = " ".join(entry.user_message for entry in instance.all_logs(result.run_id))
    assert "Reconciled 2 of 2 sessions of 1 users" in logged and "| orders-2 | alice | completed |" in logged
    assert [status_of(graph, sid) for sid in sids] == ["pending", "completed", "completed"]  # garden-1 is bob's


def test_a_backfill_of_users_covers_all_their_sessions(instance, graph, store):
    sids = [import_transcript(graph, path) for path in SAMPLES]
    instance.add_dynamic_partitions("users", USERS)
    result = dg.materialize([reconciled_session], instance=instance, resources=resources_for(store), tags=range_tags(USERS))
    assert result.success
    events = result.asset_materializations_for_node("reconciled_session")
    assert sorted(event.partition for event in events) == USERS
    # Each user partition carries its own user's figures, not the run's.
    figures = {event.partition: {key: value.value for key, value in event.metadata.items()} for event in events}
    assert figures["alice"]["sessions"] == 2 and figures["bob"]["sessions"] == 1
    assert figures["bob"]["session_ids"] == "garden-1" and "garden-1" not in figures["alice"]["session_ids"]
    texts = {user: sum(len(graph.get_turns(sid)) for sid in sids if graph.get_session(sid).user_id == user) for user in USERS}
    assert all(0 < figures[user]["texts"] <= texts[user] for user in USERS)
    assert figures["alice"]["texts"] != figures["bob"]["texts"]
    assert all("sessions_table" not in figures[user] and "users" not in figures[user] for user in USERS)
    assert [status_of(graph, sid) for sid in sids] == ["completed"] * 3


def test_a_missing_or_foreign_session_is_rejected_without_retries_and_the_partition_keeps_its_status(instance, graph, store):
    import_transcript(graph, SAMPLES[0])  # garden-1, bob's
    [import_transcript(graph, path) for path in SAMPLES if "orders-1" in path.name]  # alice's
    instance.add_dynamic_partitions("users", USERS)
    healthy = dg.materialize([reconciled_session], instance=instance, resources=resources_for(store), partition_key="alice")
    assert healthy.success
    result = dg.materialize(
        [reconciled_session], instance=instance, resources=resources_for(store), partition_key="alice",
        run_config=named("never-recorded", "garden-1"), raise_on_error=False,
    )
    assert not result.success
    kinds = [event.event_type_value for event in result.all_events]
    assert "STEP_UP_FOR_RETRY" not in kinds
    failure = next(event for event in result.all_events if event.event_type_value == "STEP_FAILURE")
    description = failure.step_failure_data.user_failure_data.description
    assert description.startswith("Rejected, nothing was changed:")
    assert "never-recorded (no such session)" in description and "garden-1 (user bob)" in description
    assert "own user's partition" in description
    assert status_of(graph, "garden-1") == "pending"
    # A rejected launch is canceled, not failed: alice's partition still reads as her last real run left it.
    assert instance.get_run_by_id(result.run_id).status == dg.DagsterRunStatus.CANCELED
    status = instance.get_status_by_partition(dg.AssetKey("reconciled_session"), ["alice"], reconciled_session.partitions_def)
    assert status["alice"] == dg.AssetPartitionStatus.MATERIALIZED


def test_an_unreachable_store_is_retried_with_backoff(instance, store):
    instance.add_dynamic_partitions("users", ["alice"])
    unreachable = GraphStoreResource(memgraph_url="bolt://127.0.0.1:9")  # the discard port: nothing listens
    result = dg.materialize(
        [reconciled_session],
        instance=instance,
        resources=resources_for(store, graph_store=unreachable),
        partition_key="alice",
        run_config=named("any-session"),
        raise_on_error=False,
    )
    kinds = [event.event_type_value for event in result.all_events]
    assert kinds.count("STEP_UP_FOR_RETRY") == 3
    assert not result.success


SESSION_ASSETS = [reconciled_session, embedded_session, no_orphans, ontology_conformance, embedding_model_consistent]


def reconcile_and_embed(instance, graph, store, **resource_options) -> tuple[list[str], dg.ExecuteInProcessResult]:
    sids = [import_transcript(graph, path) for path in SAMPLES]
    return sids, materialize_sessions(instance, store, **resource_options)


def materialize_sessions(instance, store, **resource_options) -> dg.ExecuteInProcessResult:
    instance.add_dynamic_partitions("users", USERS)
    return dg.materialize(
        SESSION_ASSETS, instance=instance, resources=resources_for(store, **resource_options), tags=range_tags(USERS)
    )


def run_check(check, instance, resources, run_config=None) -> dg.AssetCheckEvaluation:
    """Run one check alone (over every user), without materialising its asset first, which would repair what it looks for."""
    job = dg.define_asset_job("check_only", selection=dg.AssetSelection.checks(check))
    definitions = dg.Definitions(
        assets=[reconciled_session, embedded_session], asset_checks=[check], jobs=[job], resources=resources
    )
    result = definitions.resolve_job_def("check_only").execute_in_process(
        instance=instance, run_config=run_config or {}, raise_on_error=False
    )
    return result.get_asset_check_evaluations()[0]


def checks_of(result: dg.ExecuteInProcessResult) -> dict[str, bool]:
    return {evaluation.check_name: evaluation.passed for evaluation in result.get_asset_check_evaluations()}


def test_reconcile_then_embed_in_one_run_and_the_checks_pass(instance, graph, store):
    sids, result = reconcile_and_embed(instance, graph, store)
    assert result.success
    embedded = result.asset_materializations_for_node("embedded_session")
    assert sorted(event.partition for event in embedded) == USERS
    figures = {event.partition: {key: value.value for key, value in event.metadata.items()} for event in embedded}
    assert figures["alice"]["sessions"] == 2 and figures["bob"]["sessions"] == 1
    # The reconcile step embedded each session in a process beside it; the embed step wrote what was left.
    reconciled = {event.partition: event.metadata for event in result.asset_materializations_for_node("reconciled_session")}
    assert all(reconciled[user]["passages_embedded_alongside"].value > 0 for user in USERS)
    assert all(figures[user]["model"] == EmbedderResource().name() for user in USERS)
    assert all(figures[user]["recall_ms"] > 0 for user in USERS)  # one recall for the user after embedding
    assert checks_of(result) == {"no_orphans": True, "ontology_conformance": True, "embedding_model_consistent": True}
    statuses = graph.store.run(
        "MATCH (s:Session) RETURN s.embedding_status AS status, s.embedding_model AS model"
    )
    assert {(row["status"], row["model"]) for row in statuses} == {("completed", EmbedderResource().name())}


def test_the_reconcile_job_embedding_alongside_leaves_the_graph_one_stage_after_the_other_leaves(
    instance, graph, store, server
):
    from sessions_graph_core.store.falkordb.store import FalkorDBStore
    from tests.embeddings.test_alongside import timeless
    from tests.embeddings.test_embeddings import vectors

    _, result = reconcile_and_embed(instance, graph, store)
    assert result.success
    sequential_store = FalkorDBStore(server, graph=f"test_{uuid.uuid4().hex[:12]}")
    try:
        sequential = SessionsGraph(sequential_store)
        sequential.setup()
        with dg.DagsterInstance.ephemeral() as other:
            _, alone = reconcile_and_embed(other, sequential, sequential_store, alongside=False)
        assert alone.success
        assert not any("passages_embedded_alongside" in event.metadata
                       for event in alone.asset_materializations_for_node("reconciled_session"))
        assert timeless(store) == timeless(sequential_store)
        (names, together), (sequential_names, apart) = vectors(store), vectors(sequential_store)
        assert names == sequential_names and len(names) > 20 and np.array_equal(together, apart)
    finally:
        sequential_store.delete_all()
        sequential_store.close()


def test_a_run_that_only_reconciles_or_has_one_session_embeds_nothing_alongside(instance, graph, store):
    for path in SAMPLES:
        import_transcript(graph, path)
    instance.add_dynamic_partitions("users", USERS)
    only_reconciles = dg.materialize([reconciled_session], instance=instance, resources=resources_for(store),
                                     partition_key="alice", run_config=named("orders-1", "orders-2"))
    one_session = dg.materialize([reconciled_session, embedded_session], instance=instance, resources=resources_for(store),
                                 partition_key="bob", run_config=named("garden-1", assets=RECONCILE_ASSETS))
    for result in (only_reconciles, one_session):
        assert result.success
        [event] = result.asset_materializations_for_node("reconciled_session")
        assert "passages_embedded_alongside" not in event.metadata
    assert graph.store.run("MATCH (p:Passage {user_id: 'alice'}) RETURN count(p) AS n")[0]["n"] == 0
    assert graph.get_pending_embedding_sessions() == ["orders-1", "orders-2"]


def test_embedding_gives_turns_recorded_before_recalls_evidence_their_evidence(instance, graph, store):
    for path in SAMPLES:
        import_transcript(graph, path)
    older = graph.store.run(  # as an older version recorded them: no per-turn evidence (recall/evidence.py)
        "MATCH (t:Turn {user_id: 'alice'}) REMOVE t.concept_words, t.says_when RETURN count(t) AS n"
    )[0]["n"]
    assert older > 0
    result = materialize_sessions(instance, store)
    assert result.success
    figures = {
        event.partition: event.metadata["turns_given_evidence"].value
        for event in result.asset_materializations_for_node("embedded_session")
    }
    assert figures == {"alice": older, "bob": 0}
    missing = "MATCH (t:Turn) WHERE t.concept_words IS NULL OR t.says_when IS NULL RETURN count(t) AS n"
    assert graph.store.run(missing)[0]["n"] == 0


def test_orphan_check_fails_on_an_orphan_chunk_and_entity(instance, graph, store):
    sids, _ = reconcile_and_embed(instance, graph, store)
    graph.store.run("MATCH (:Turn)-[r:HAS_CHUNK]->(c:Chunk {user_id: 'alice'}) WITH r LIMIT 1 DELETE r")
    graph.store.run("CREATE (:Entity {user_id: 'alice', entity_key: 'ghost|Topic', name: 'ghost', type: 'Topic'})")
    evaluation = run_check(no_orphans, instance, resources_for(store))
    assert not evaluation.passed
    assert evaluation.metadata["orphan_chunks"].value == 1
    assert evaluation.metadata["orphan_entities"].value == 1


def test_model_check_fails_when_the_configured_model_changes(instance, graph, store):
    reconcile_and_embed(instance, graph, store)
    evaluation = run_check(embedding_model_consistent, instance, resources_for(store, model="another-model"))
    assert not evaluation.passed
    assert evaluation.metadata["sessions_on_other_model"].value == 3
    assert evaluation.metadata["vectors_from_other_models"].value > 0


def test_conformance_check_fails_above_the_users_share(instance, graph, store):
    reconcile_and_embed(instance, graph, store)
    graph.store.run("MATCH (e:Entity {user_id: 'bob'}) SET e.ontology_conformant = false")
    run_config = {"ops": {"reconciled_session_ontology_conformance": {"config": {"min_share": 0.9}}}}
    evaluation = run_check(ontology_conformance, instance, resources_for(store), run_config)
    assert not evaluation.passed
    assert evaluation.metadata["lowest_share"].value == 0.0
    assert "| bob |" in evaluation.metadata["shares"].value
    relaxed = run_check(ontology_conformance, instance, resources_for(store), {"ops": {"reconciled_session_ontology_conformance": {"config": {"min_share": 0.0}}}})
    assert relaxed.passed


def test_memory_files_are_extracted(instance, graph, store):
    memory = graph.memory_store("alice")
    memory.create("/memories/projects/orders/database.md", "The orders service moved from Postgres to CockroachDB.")
    memory.create("/memories/people.md", "Carol owns the orders service.")
    result = dg.materialize([extracted_memory_files], instance=instance, resources=resources_for(store))
    metadata = result.asset_materializations_for_node("extracted_memory_files")[0].metadata
    assert metadata["files"].value == 2 and metadata["failed"].value == 0
    assert metadata["entities"].value > 0
    pending = graph.store.run("MATCH (m:Memory {extraction_status: 'pending'}) RETURN count(m) AS n")[0]["n"]
    assert pending == 0


def test_the_store_resource_reads_the_store_the_hooks_write(data_dir, tmp_path, monkeypatch):
    for variable in list(os.environ):
        if variable.startswith(ENV_PREFIX) or variable in ENV_ALIASES:
            monkeypatch.delenv(variable)
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "config.toml"))
    monkeypatch.setenv(LOG_DIR_ENV, str(tmp_path / "log"))
    set_value("identity.user_id", "alice")
    set_value("store.data_dir", str(data_dir))  # in the config file only, as `sessions-graph config set` puts it
    sid = f"hooked-{uuid.uuid4().hex[:8]}"
    run_hook("SessionStart", json.dumps({"session_id": sid}))
    assert recent_failures() == []
    with GraphStoreResource().open() as store:
        assert SessionsGraph(store).get_session(sid).user_id == "alice"
    monkeypatch.setenv("SESSIONS_GRAPH_DATA_DIR", str(tmp_path / "elsewhere"))  # the environment still wins
    assert GraphStoreResource().settings().data_dir == tmp_path / "elsewhere"
    assert GraphStoreResource(data_dir=str(data_dir)).settings().data_dir == data_dir


def test_the_embedder_resource_uses_the_configured_model(tmp_path, monkeypatch):
    for variable in list(os.environ):
        if variable.startswith(ENV_PREFIX) or variable in ENV_ALIASES:
            monkeypatch.delenv(variable)
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "config.toml"))
    assert EmbedderResource().name() == DEFAULT_EMBEDDING_MODEL
    set_value("recall.embedding_model", "mage:BAAI/bge-small-en-v1.5")  # what recall embeds questions with
    assert EmbedderResource().name() == "mage:BAAI/bge-small-en-v1.5"
    assert EmbedderResource(model="other").name() == "other"


def test_a_run_that_asks_a_model_reports_its_llm_usage(instance, graph, store, local_llm, tmp_path, monkeypatch):
    from local_llm import MODEL

    from sessions_graph_dagster.resources import ExtractorResource

    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "config.toml"))
    for key, value in [("llm.model", MODEL), ("llm.base_url", local_llm), ("llm.provider", "openai-compatible"),
                       ("llm.max_in_flight", "1"), ("llm.max_tokens", "48"), ("llm.max_attempts", "1")]:
        set_value(key, value)
    import_transcript(graph, next(path for path in SAMPLES if path.stem == "orders-1"))
    instance.add_dynamic_partitions("users", USERS)
    resources = {**resources_for(store), "extractor": ExtractorResource(backend="spacy+llm")}
    result = dg.materialize([reconciled_session], instance=instance, resources=resources, partition_key="alice",
                            run_config=named("orders-1"))
    assert result.success
    [event] = result.asset_materializations_for_node("reconciled_session")
    metadata = {key: value.value for key, value in event.metadata.items()}
    assert metadata["backend"] == "spacy+llm" and metadata["llm"] == f"openai-compatible {MODEL}"
    assert {"llm_calls", "llm_cached", "llm_input_tokens", "llm_output_tokens", "llm_failed"} <= set(metadata)
    assert metadata["llm_input_tokens"] >= 0 and metadata["llm_calls"] >= 0
    # A text whose reply could not be used is counted; with llm.max_attempts 1 it is given up at once (the
    # rules' reading kept), so none waits for the next run. Each had a failed reply.
    assert metadata["texts_failed"] == 0 and 0 <= metadata["texts_given_up"] <= metadata["llm_failed"]
