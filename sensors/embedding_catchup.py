"""Sessions whose embedding failed, never ran, used another model or fell behind -> batched embedding runs."""

import dagster as dg

from sessions_graph_core import embeddings
from sessions_graph_dagster.batches import session_batches
from sessions_graph_dagster.jobs import embed_job
from sessions_graph_dagster.partitions import sessions_partitions
from sessions_graph_dagster.resources import EmbedderResource, GraphStoreResource
from sessions_graph_dagster.run_requests import request_runs, session_keys, sessions_in_flight

from .pending_work import session_states

PER_TICK = 2000


@dg.sensor(
    job=embed_job,
    minimum_interval_seconds=30,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Asks for embedding runs for sessions whose vectors are missing, failed or from another model.",
)
def embedding_catchup_sensor(
    context: dg.SensorEvaluationContext, graph_store: GraphStoreResource, embedder: EmbedderResource
) -> dg.SensorResult:
    known = session_keys(context.instance)
    busy = sessions_in_flight(context.instance, known)
    with graph_store.open() as graph:
        behind = embeddings.pending_embeddings(graph.store, model=embedder.model, limit=PER_TICK)
        # A session waiting for reconciliation is embedded by its reconcile run.
        states = [
            state
            for state in session_states(graph.store, set(behind) - busy)
            if state.reconciliation_status != "pending"
        ]
    # The model is part of the version: switching models asks for new runs.
    return request_runs(
        context.instance,
        "embed",
        session_batches(known, {s.session_id: f"{s.session_id}@{s.revision}:{embedder.model}" for s in states}),
        skip_reason=f"every session is embedded with {embedder.model}",
        partitions=sessions_partitions,
        known=known,
        users=[s.user_id for s in states],
    )
