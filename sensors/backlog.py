"""The graph's backlog -> an observation of `pending_work` each time it changes (so its plots show the
backlog rising as sessions arrive and falling as the runs drain it)."""

import json
from datetime import UTC, datetime

import dagster as dg

from sessions_graph_core.backlog import backlog
from sessions_graph_dagster.backlog import HISTORY, observation
from sessions_graph_dagster.resources import EmbedderResource, GraphStoreResource


@dg.sensor(
    minimum_interval_seconds=15,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Observes pending_work (sessions to reconcile and embed, memory files to extract) when it changes.",
)
def backlog_sensor(
    context: dg.SensorEvaluationContext, graph_store: GraphStoreResource, embedder: EmbedderResource
) -> dg.SensorResult:
    seen = json.loads(context.cursor) if context.cursor else {"last": None, "history": []}
    with graph_store.open() as store:
        now = backlog(store, model=embedder.name())
    counts = [now.reconcile, now.embed, now.memory_files]
    if counts == seen["last"]:
        return dg.SensorResult(skip_reason=f"the backlog is unchanged: {now.total} pending "
                               f"({now.reconcile} to reconcile, {now.embed} to embed, {now.memory_files} memory files)")
    history = [*seen["history"], [datetime.now(UTC).strftime("%m-%d %H:%M:%S"), now.total]][-HISTORY:]
    return dg.SensorResult(
        asset_events=[observation(now, [(at, total) for at, total in history])],
        cursor=json.dumps({"last": counts, "history": history}),
    )
