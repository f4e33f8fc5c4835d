"""Sessions whose embedding failed, never ran or used another model -> batched embedding runs.

A session that failed is asked for again with backoff, and not at all after too many failures in a
row (policies.next_embedding_attempt); its run key names the time of its last failure, so Dagster
takes each retry for a new run. Sessions in flight or embedded with the model are never asked for.
"""

from datetime import UTC, datetime

import dagster as dg

from sessions_graph_core.embeddings import vectors as embeddings
from sessions_graph_core.sessions.records import SessionState, session_states
from sessions_graph_dagster.batches import EMBED_ASSETS, session_batches
from sessions_graph_dagster.jobs import embed_job
from sessions_graph_dagster.partitions import users_partitions
from sessions_graph_dagster.policies import EMBED_MAX_FAILURES, next_embedding_attempt
from sessions_graph_dagster.resources import EmbedderResource, GraphStoreResource
from sessions_graph_dagster.run_requests import in_flight, request_runs

PER_TICK = 2000
AT_ONCE = datetime.min.replace(tzinfo=UTC)


def _failures_with(state: SessionState, model: str) -> int:
    """Failures in a row with `model`; a session that last failed with another model starts afresh."""
    if state.embedding_status != "failed" or state.embedding_model != model:
        return 0
    return max(state.embedding_failures, 1)


def _next_attempt(state: SessionState, model: str) -> datetime | None:
    """When the session may be asked for (AT_ONCE when it has not failed with `model`); None once given up."""
    failures = _failures_with(state, model)
    if not failures:
        return AT_ONCE
    return next_embedding_attempt(failures, datetime.fromisoformat(state.embedded_at))


def _stamp(state: SessionState, model: str) -> str:
    # The model is part of the version: switching models asks for new runs. So is the last failure:
    # without it a retry would carry the key of the run that failed, which Dagster never launches again.
    version = f"{state.version}:{model}"
    return f"{version}:failed:{state.embedded_at}" if _failures_with(state, model) else version


def _held_back(waiting: list[datetime], given_up: list[SessionState]) -> str:
    """What the sensor does not ask for this tick, and why."""
    parts = []
    if waiting:
        parts.append(f"{len(waiting)} failed sessions wait for their retry (the next at {min(waiting):%H:%M:%S} UTC)")
    if given_up:
        names = ", ".join(state.session_id for state in given_up[:5])
        parts.append(
            f"{len(given_up)} sessions failed {EMBED_MAX_FAILURES} times in a row and are no longer retried "
            f"({names}): re-run their partitions once the cause is fixed"
        )
    return "; ".join(parts)


@dg.sensor(
    job=embed_job,
    minimum_interval_seconds=30,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Asks for embedding runs for sessions whose vectors are missing, failed or from another model; "
    f"failed ones again with backoff, up to {EMBED_MAX_FAILURES} failures in a row.",
)
def embedding_catchup_sensor(
    context: dg.SensorEvaluationContext, graph_store: GraphStoreResource, embedder: EmbedderResource
) -> dg.SensorResult:
    model = embedder.name()
    busy = in_flight(context.instance)
    with graph_store.open() as store:
        behind = embeddings.pending_embeddings(store, model=model, limit=PER_TICK)
        # A session waiting for reconciliation is embedded by its reconcile run.
        states = [
            state
            for state in session_states(store, set(behind) - busy.sessions)
            if state.reconciliation_status != "pending" and state.user_id not in busy.users
        ]
    now = datetime.now(UTC)
    attempts = {state.session_id: _next_attempt(state, model) for state in states}
    due = [state for state in states if (at := attempts[state.session_id]) is not None and at <= now]
    waiting = [at for at in attempts.values() if at is not None and at > now]
    given_up = [state for state in states if attempts[state.session_id] is None]
    not_asked = _held_back(waiting, given_up)
    if due and not_asked:
        context.log.info(not_asked)
    return request_runs(
        context.instance,
        "embed",
        session_batches({state.session_id: (state.user_id, _stamp(state, model)) for state in due}, EMBED_ASSETS),
        skip_reason=not_asked or f"every session is embedded with {model}",
        partitions=users_partitions,
    )
