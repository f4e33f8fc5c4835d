"""Memory files pending extraction -> one extraction run for everything that changed."""

import hashlib

import dagster as dg

from sessions_graph_core import reconcile
from sessions_graph_dagster.jobs import memory_files_job
from sessions_graph_dagster.memory_files import PER_RUN
from sessions_graph_dagster.resources import GraphStoreResource

from .in_flight import UNFINISHED
from .pending_work import memory_versions


@dg.sensor(
    job=memory_files_job,
    minimum_interval_seconds=10,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Asks for an extraction run when memory files changed since they were last reconciled.",
)
def memory_files_sensor(context: dg.SensorEvaluationContext, graph_store: GraphStoreResource) -> dg.SensorResult:
    unfinished = context.instance.get_runs(filters=dg.RunsFilter(job_name=memory_files_job.name, statuses=UNFINISHED), limit=1)
    if unfinished:
        return dg.SensorResult(skip_reason=f"run {unfinished[0].run_id[:8]} is still extracting memory files")
    with graph_store.open() as graph:
        versions = memory_versions(graph.store, reconcile.pending_memories(graph.store, limit=PER_RUN))
    if not versions:
        return dg.SensorResult(skip_reason="no memory file is pending extraction")
    stamped = "\n".join(f"{memory_id}@{version}" for memory_id, version in sorted(versions.items()))
    digest = hashlib.sha256(stamped.encode()).hexdigest()[:16]
    return dg.SensorResult(
        run_requests=[
            dg.RunRequest(run_key=f"memory_files:{len(versions)}:{digest}", tags={"sessions_graph/memory_files": str(len(versions))})
        ]
    )
