"""Pending sessions -> session partitions and batched reconciliation runs."""

import os

import dagster as dg

from sessions_graph_dagster.batches import batch_run_request, contiguous_batches, session_keys
from sessions_graph_dagster.jobs import STAGE_TAG, reconcile_job
from sessions_graph_dagster.partitions import sessions_partitions, users_partitions
from sessions_graph_dagster.resources import GraphStoreResource

from .in_flight import sessions_in_flight
from .pending_work import pending_sessions

PER_TICK = 2000


def batch_size() -> int:
    """Sessions per run (SESSIONS_GRAPH_BATCH_SIZE); 1 gives the one-run-per-session baseline the benchmark compares."""
    return max(1, int(os.environ.get("SESSIONS_GRAPH_BATCH_SIZE", "100")))


@dg.sensor(
    job=reconcile_job,
    minimum_interval_seconds=5,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Adds a partition for every pending session and user, and asks for batched reconciliation runs.",
)
def pending_sessions_sensor(context: dg.SensorEvaluationContext, graph_store: GraphStoreResource) -> dg.SensorResult:
    known = session_keys(context.instance)
    busy = sessions_in_flight(context.instance, known)
    with graph_store.open() as graph:
        pending = pending_sessions(graph.store, exclude=busy, limit=PER_TICK)
    if not pending:
        return dg.SensorResult(skip_reason=f"no pending sessions ({len(busy)} in flight)")
    known_set = set(known)
    new_sessions = [p.session_id for p in pending if p.session_id not in known_set]
    known_users = set(context.instance.get_dynamic_partitions(users_partitions.name))
    new_users = sorted({p.user_id for p in pending} - known_users)
    # New keys are appended in this order, so a tick's new sessions form one contiguous stretch.
    ordered = known + new_sessions
    versions = {p.session_id: str(p.revision) for p in pending}
    batches = contiguous_batches(ordered, versions, batch_size())
    requests = [
        batch_run_request("reconcile", batch, versions, {STAGE_TAG: "reconcile", "sessions_graph/sessions": str(len(batch))})
        for batch in batches
    ]
    partition_requests = [sessions_partitions.build_add_request(new_sessions)] if new_sessions else []
    partition_requests += [users_partitions.build_add_request(new_users)] if new_users else []
    return dg.SensorResult(run_requests=requests, dynamic_partitions_requests=partition_requests)
