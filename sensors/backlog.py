"""The graph's backlog -> an observation of `pending_work` each time it changes (so its plots show the
backlog rising as sessions arrive and falling as the runs drain it, in all and per user), and an
evaluation of its check `nothing_waits_too_long` each time the check's outcome changes: a stall shows
on the asset even when no count moves and no run starts."""

import json
from datetime import UTC, datetime

import dagster as dg

from sessions_graph_core.backlog import Backlog, backlog
from sessions_graph_dagster.backlog import (
    CAUGHT_UP_CHECK,
    HISTORY,
    WAITS_CHECK,
    caught_up_verdict,
    observation,
    pending_work,
    plotted_users,
    waits_verdict,
)
from sessions_graph_dagster.partitions import users_partitions
from sessions_graph_dagster.resources import EmbedderResource, GraphStoreResource

# The sensors may not import the asset modules (tests/test_architecture.py): the asset by its key.
embedded_session_key = dg.AssetKey("embedded_session")


@dg.sensor(
    minimum_interval_seconds=15,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Observes pending_work (sessions to reconcile and embed, memory files to extract, per user) when it "
    f"changes, and evaluates its check {WAITS_CHECK} when the outcome changes.",
)
def backlog_sensor(
    context: dg.SensorEvaluationContext, graph_store: GraphStoreResource, embedder: EmbedderResource
) -> dg.SensorResult:
    seen = {"last": None, "history": [], "users": [], "verdict": None, **(json.loads(context.cursor) if context.cursor else {})}
    with graph_store.open() as store:
        now = backlog(store, model=embedder.name())
    at = datetime.now(UTC)
    counts = [now.reconcile, now.embed, now.memory_files, [[u.user_id, u.pending, u.failed] for u in now.users]]
    verdict = waits_verdict(now, at)
    # The session named and whether it passed: its age alone moves on every tick.
    outcome = [verdict["passed"], verdict["metadata"]["oldest_session"]]
    events: list[dg.AssetObservation | dg.AssetCheckEvaluation] = []
    history, users = seen["history"], seen["users"]
    if counts != seen["last"]:
        history = [*history, [at.strftime("%m-%d %H:%M:%S"), now.total]][-HISTORY:]
        plotted = plotted_users(now, seen["users"])
        events.append(observation(now, [(when, total) for when, total in history], plotted))
        events += _partitions_caught_up(context.instance, now, seen["last"])
        # Those of them with work now: the next observation shows their series once more, at 0 if drained.
        users = [user.user_id for user in now.users if user.user_id in plotted]
    if outcome != seen["verdict"]:
        events.append(dg.AssetCheckEvaluation(asset_key=pending_work.key, check_name=WAITS_CHECK, **verdict))
    if not events:
        return dg.SensorResult(skip_reason=f"the backlog is unchanged: {now.total} pending "
                               f"({now.reconcile} to reconcile, {now.embed} to embed, {now.memory_files} memory files); "
                               f"{verdict['description']}")
    cursor = {"last": counts, "history": history, "users": users, "verdict": outcome}
    return dg.SensorResult(asset_events=events, cursor=json.dumps(cursor))


def _partitions_caught_up(
    instance: dg.DagsterInstance, now: Backlog, before: list | None
) -> list[dg.AssetCheckEvaluation]:
    """The caught_up check of each user partition whose backlog changed since the last observation: failing
    while the user's sessions wait, passing again once they are done. Users without a partition yet (the
    pending-sessions sensor adds it) are left for a later tick."""
    was = {user_id: (pending, failed) for user_id, pending, failed in (before[3] if before else [])}
    users = {user.user_id: user for user in now.users}
    counts = {user_id: (user.pending, user.failed) for user_id, user in users.items()}
    changed = [user_id for user_id in sorted(set(was) | set(counts)) if was.get(user_id) != counts.get(user_id)]
    return [
        dg.AssetCheckEvaluation(
            asset_key=embedded_session_key, check_name=CAUGHT_UP_CHECK, partition=user_id,
            **caught_up_verdict(user_id, users.get(user_id)),
        )
        for user_id in changed
        if instance.has_dynamic_partition(users_partitions.name, user_id)
    ]
