"""What the session sensors share: new keys become partitions, the rest become batched run requests."""

import os
from collections.abc import Mapping, Sequence

import dagster as dg

from sessions_graph_dagster.batches import batch_run_request, contiguous_batches
from sessions_graph_dagster.jobs import STAGE_TAG
from sessions_graph_dagster.partitions import sessions_partitions, users_partitions


def batch_size() -> int:
    """Sessions per run (SESSIONS_GRAPH_BATCH_SIZE); 1 gives the one-run-per-session baseline the benchmark compares."""
    return max(1, int(os.environ.get("SESSIONS_GRAPH_BATCH_SIZE", "100")))


def session_runs(
    instance: dg.DagsterInstance,
    stage: str,
    known: Sequence[str],
    users: Mapping[str, str],
    versions: Mapping[str, str],
) -> dg.SensorResult:
    """Runs for the sessions in `versions` (session -> version), adding the partitions they still lack.

    `users` maps each session to its user, whose partition is added too.
    """
    known_set = set(known)
    new_sessions = [key for key in versions if key not in known_set]
    new_users = sorted(set(users.values()) - set(instance.get_dynamic_partitions(users_partitions.name)))
    # New keys are appended in this order, so a tick's new sessions form one contiguous stretch.
    batches = contiguous_batches([*known, *new_sessions], versions, batch_size())
    requests = [
        batch_run_request(stage, batch, versions, {STAGE_TAG: stage, "sessions_graph/sessions": str(len(batch))})
        for batch in batches
    ]
    partition_requests = [sessions_partitions.build_add_request(new_sessions)] if new_sessions else []
    partition_requests += [users_partitions.build_add_request(new_users)] if new_users else []
    return dg.SensorResult(run_requests=requests, dynamic_partitions_requests=partition_requests)
