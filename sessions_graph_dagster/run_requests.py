"""How every sensor asks for runs: a request per batch of pending work, keyed by that work's versions,
with the user partitions the work still lacks added in the same tick.

A run key names every item of its run at its current version, so Dagster launches a run once per
version of its work, and a change (a new turn, another model, a failure to retry, a new milestone)
asks for a new one.

What a tick costs grows with the work it finds and the runs still unfinished, never with the number of
partitions or sessions ever seen: no tick lists partition keys, and the sessions of unfinished runs
come from those runs' configs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import dagster as dg
from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG, RUN_KEY_TAG

from .batches import Batch, session_ids_of
from .jobs import STAGE_TAG
from .partitions import users_partitions

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
) -> dg.SensorResult:
    """A run request per batch; with `partitions`, an add request for the batches' partitions.

    The add request names every partition of the tick, known or not: the daemon adds those it lacks
    and skips the others, checking each key once, so checking them here first (a database round trip
    per key on PostgreSQL, which Dagster reaches without a connection pool) would only pay that twice.
    """
    if not batches:
        return dg.SensorResult(skip_reason=skip_reason)
    requests = [_run_request(stage, batch) for batch in batches]
    launched = _launched(instance, [request.run_key for request in requests])
    if len(launched) == len(requests):
        # Dagster would skip these itself, silently: say why in the tick.
        shown = ", ".join(sorted(launched)[:3]) + (" ..." if len(launched) > 3 else "")
        return dg.SensorResult(
            skip_reason=f"nothing new: the {len(requests)} run(s) this work needs were already launched (run keys {shown})"
        )
    kept = [(batch, request) for batch, request in zip(batches, requests, strict=True) if request.run_key not in launched]
    adds = []
    if partitions is not None:
        wanted = list(dict.fromkeys(batch.partition for batch, _ in kept if batch.partition))
        adds.append(partitions.build_add_request(wanted))
    return dg.SensorResult(run_requests=[request for _, request in kept], dynamic_partitions_requests=adds)


def _launched(instance: dg.DagsterInstance, run_keys: Sequence[str | None]) -> set[str]:
    """The run keys among `run_keys` some run already carries (Dagster launches a run key once).
    One query by tag for this tick's keys: its cost follows the tick's work, not the runs or partitions ever made."""
    keys = [key for key in run_keys if key]
    if not keys:
        return set()
    runs = instance.get_runs(filters=dg.RunsFilter(tags={RUN_KEY_TAG: keys}))
    return {run.tags[RUN_KEY_TAG] for run in runs} & set(keys)


def _run_request(stage: str, batch: Batch) -> dg.RunRequest:
    keys = list(batch.stamps)
    tags = {STAGE_TAG: stage, **batch.tags}
    if len(keys) == 1:
        run_key = f"{stage}:{batch.stamps[keys[0]]}"
    else:
        digest = hashlib.sha256("\n".join(batch.stamps.values()).encode()).hexdigest()[:16]
        run_key = f"{stage}:{batch.partition or ''}:{len(keys)}:{digest}"
    return dg.RunRequest(run_key=run_key, partition_key=batch.partition, run_config=batch.run_config, tags=tags)


def unfinished_runs(instance: dg.DagsterInstance, *, job_name: str | None = None) -> Sequence[dg.DagsterRun]:
    return instance.get_runs(filters=dg.RunsFilter(job_name=job_name, statuses=UNFINISHED))


@dataclass
class InFlight:
    """What unfinished runs cover: the sessions they name, and the users they work on (their partitions;
    a backfill names no sessions and covers its users whole)."""

    sessions: set[str] = field(default_factory=set)
    users: set[str] = field(default_factory=set)


def in_flight(instance: dg.DagsterInstance) -> InFlight:
    """The work of every unfinished run, whichever sensor, backfill or person launched it."""
    busy = InFlight()
    for run in unfinished_runs(instance):
        busy.sessions.update(session_ids_of(run.run_config))
        busy.users.update(_users_of_run(instance, run.tags))
    return busy


def _users_of_run(instance: dg.DagsterInstance, tags: Mapping[str, str]) -> list[str]:
    if "dagster/partition" in tags:
        return [tags["dagster/partition"]]
    start, end = tags.get(ASSET_PARTITION_RANGE_START_TAG), tags.get(ASSET_PARTITION_RANGE_END_TAG)
    if not (start and end):
        return []
    # A backfill over a range of users: rare, and bounded by the number of users, not of sessions.
    return users_partitions.get_partition_keys_in_range(dg.PartitionKeyRange(start, end), dynamic_partitions_store=instance)
