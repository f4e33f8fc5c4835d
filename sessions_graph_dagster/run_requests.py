"""How every sensor asks for runs: a request per batch of pending work, keyed by that work's versions,
with the dynamic partitions the work still lacks added in the same tick.

A run key names every item of its run at its current version, so Dagster launches a run once per
version of its work, and a change (a new turn, another model, a failure to retry, a new milestone)
asks for a new one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable, Sequence

import dagster as dg
from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG

from .batches import Batch, run_keys_of
from .jobs import STAGE_TAG
from .partitions import sessions_partitions, users_partitions

UNFINISHED = [
    dg.DagsterRunStatus.QUEUED,
    dg.DagsterRunStatus.NOT_STARTED,
    dg.DagsterRunStatus.STARTING,
    dg.DagsterRunStatus.STARTED,
]


def request_runs(
    instance: dg.DagsterInstance,
    stage: str,
    batches: Sequence[Batch],
    *,
    skip_reason: str,
    partitions: dg.DynamicPartitionsDefinition | None = None,
    known: Collection[str] = (),
    users: Iterable[str] = (),
) -> dg.SensorResult:
    """A run request per batch, and add requests for the partitions the batches and `users` lack.

    With `partitions`, a batch's keys are partitions of it (one key, or a stretch of neighbours) and
    `known` holds the keys it already has, read once a tick by the caller; without, the keys are ids
    inside one unpartitioned run. `users` are the users the work belongs to, whose partitions it needs.
    """
    if not batches:
        return dg.SensorResult(skip_reason=skip_reason)
    adds = []
    if partitions is not None:
        adds += _added(partitions, [key for batch in batches for key in batch.stamps], known)
    wanted_users = sorted(set(users))
    if wanted_users:
        adds += _added(users_partitions, wanted_users, instance.get_dynamic_partitions(users_partitions.name))
    return dg.SensorResult(
        run_requests=[_run_request(stage, batch, partitioned=partitions is not None) for batch in batches],
        dynamic_partitions_requests=adds,
    )


def _added(
    partitions: dg.DynamicPartitionsDefinition, keys: Sequence[str], known: Collection[str]
) -> list[dg.AddDynamicPartitionsRequest]:
    known_set = set(known)
    new = [key for key in keys if key not in known_set]
    return [partitions.build_add_request(new)] if new else []


def _run_request(stage: str, batch: Batch, *, partitioned: bool) -> dg.RunRequest:
    keys = list(batch.stamps)
    tags = {STAGE_TAG: stage, **batch.tags}
    if partitioned and len(keys) == 1:
        return dg.RunRequest(run_key=f"{stage}:{batch.stamps[keys[0]]}", partition_key=keys[0], tags=tags)
    digest = hashlib.sha256("\n".join(batch.stamps.values()).encode()).hexdigest()[:16]
    if not partitioned:
        return dg.RunRequest(run_key=f"{stage}:{len(keys)}:{digest}", tags=tags)
    return dg.RunRequest(
        run_key=f"{stage}:{keys[0]}..{keys[-1]}:{len(keys)}:{digest}",
        tags={**tags, ASSET_PARTITION_RANGE_START_TAG: keys[0], ASSET_PARTITION_RANGE_END_TAG: keys[-1]},
    )


def session_keys(instance: dg.DagsterInstance) -> list[str]:
    return list(instance.get_dynamic_partitions(sessions_partitions.name))


def unfinished_runs(instance: dg.DagsterInstance, *, job_name: str | None = None) -> Sequence[dg.DagsterRun]:
    return instance.get_runs(filters=dg.RunsFilter(job_name=job_name, statuses=UNFINISHED))


def sessions_in_flight(instance: dg.DagsterInstance, ordered_keys: Sequence[str]) -> set[str]:
    """Session keys of every unfinished run, whichever sensor, backfill or person launched it.

    Runs over ranges carry no `dagster/partition` tag, so the instance's per-partition queue limit
    cannot see them; this check does.
    """
    busy: set[str] = set()
    for run in unfinished_runs(instance):
        busy.update(run_keys_of(run.tags, ordered_keys))
    return busy
