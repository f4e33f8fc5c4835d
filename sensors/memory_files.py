"""Memory files pending extraction -> one extraction run for everything that changed."""

import dagster as dg

from sessions_graph_core.memory.notes import memory_versions
from sessions_graph_core.reconcile import pipeline as reconcile
from sessions_graph_dagster.batches import MEMORY_FILES_PER_RUN, Batch
from sessions_graph_dagster.jobs import memory_files_job
from sessions_graph_dagster.resources import GraphStoreResource
from sessions_graph_dagster.run_requests import request_runs, unfinished_runs


@dg.sensor(
    job=memory_files_job,
    minimum_interval_seconds=10,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Asks for an extraction run when memory files changed since they were last reconciled.",
)
def memory_files_sensor(context: dg.SensorEvaluationContext, graph_store: GraphStoreResource) -> dg.SensorResult:
    unfinished = unfinished_runs(context.instance, job_name=memory_files_job.name)
    if unfinished:
        return dg.SensorResult(skip_reason=f"run {unfinished[0].run_id[:8]} is still extracting memory files")
    with graph_store.open() as store:
        versions = memory_versions(store, reconcile.pending_memories(store, limit=MEMORY_FILES_PER_RUN))
    # The asset extracts every pending file, so one unpartitioned run covers them all.
    stamps = {memory_id: f"{memory_id}@{version}" for memory_id, version in sorted(versions.items())}
    batches = [Batch(stamps, {"sessions_graph/memory_files": str(len(stamps))})] if stamps else []
    return request_runs(context.instance, "memory_files", batches, skip_reason="no memory file is pending extraction")
