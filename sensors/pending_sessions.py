"""Pending sessions -> session partitions and batched reconciliation runs."""

import dagster as dg

from sessions_graph_core.sessions.records import pending_sessions
from sessions_graph_dagster.batches import session_batches
from sessions_graph_dagster.jobs import reconcile_job
from sessions_graph_dagster.partitions import sessions_partitions
from sessions_graph_dagster.resources import GraphStoreResource
from sessions_graph_dagster.run_requests import request_runs, session_keys, sessions_in_flight

PER_TICK = 2000


@dg.sensor(
    job=reconcile_job,
    minimum_interval_seconds=5,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Adds a partition for every pending session and user, and asks for batched reconcile-and-embed runs.",
)
def pending_sessions_sensor(context: dg.SensorEvaluationContext, graph_store: GraphStoreResource) -> dg.SensorResult:
    known = session_keys(context.instance)
    busy = sessions_in_flight(context.instance, known)
    with graph_store.open() as store:
        pending = pending_sessions(store, exclude=busy, limit=PER_TICK)
    return request_runs(
        context.instance,
        "reconcile",
        session_batches(known, {p.session_id: f"{p.session_id}@{p.revision}" for p in pending}),
        skip_reason=f"no pending sessions ({len(busy)} in flight)",
        partitions=sessions_partitions,
        known=known,
        users=[p.user_id for p in pending],
    )
