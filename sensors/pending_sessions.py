"""Pending sessions -> session partitions and batched reconciliation runs."""

import dagster as dg

from sessions_graph_dagster.batches import session_keys
from sessions_graph_dagster.jobs import reconcile_job
from sessions_graph_dagster.resources import GraphStoreResource

from .in_flight import sessions_in_flight
from .pending_work import pending_sessions
from .session_runs import session_runs

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
    with graph_store.open() as graph:
        pending = pending_sessions(graph.store, exclude=busy, limit=PER_TICK)
    if not pending:
        return dg.SensorResult(skip_reason=f"no pending sessions ({len(busy)} in flight)")
    return session_runs(
        context.instance,
        "reconcile",
        known,
        users={p.session_id: p.user_id for p in pending},
        versions={p.session_id: str(p.revision) for p in pending},
    )
