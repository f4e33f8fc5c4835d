"""Pending sessions -> user partitions and reconcile-and-embed runs, one per user with work (batches.py)."""

import dagster as dg

from sessions_graph_core.sessions.records import pending_by_user
from sessions_graph_dagster.batches import RECONCILE_ASSETS, session_batches
from sessions_graph_dagster.jobs import reconcile_job
from sessions_graph_dagster.partitions import users_partitions
from sessions_graph_dagster.resources import GraphStoreResource
from sessions_graph_dagster.run_requests import in_flight, request_runs

PER_TICK = 2000


@dg.sensor(
    job=reconcile_job,
    minimum_interval_seconds=5,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Adds a partition for every user with pending sessions, and asks for a reconcile-and-embed run "
    "per user naming those sessions.",
)
def pending_sessions_sensor(context: dg.SensorEvaluationContext, graph_store: GraphStoreResource) -> dg.SensorResult:
    busy = in_flight(context.instance)
    with graph_store.open() as store:
        # A user with a run unfinished waits for it: runs on one user queue behind each other anyway (the
        # per-partition limit), and leaving out a few users, not thousands of sessions, keeps the query's
        # cost with the backlog (10,000 sessions pending, 8,000 of them in queued runs: 313 ms on the primary).
        pending = pending_by_user(store, limit=PER_TICK, exclude_users=busy.users)
    return request_runs(
        context.instance,
        "reconcile",
        session_batches({p.session_id: (p.user_id, p.version) for p in pending}, RECONCILE_ASSETS),
        skip_reason=f"no pending sessions ({len(busy.sessions)} in flight)",
        partitions=users_partitions,
    )
