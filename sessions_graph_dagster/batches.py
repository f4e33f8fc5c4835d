"""Batching sessions into runs: many partitions per run, one run per contiguous key range.

A run pays seconds of process start-up, so a run reconciles a range of session partitions. Dagster
addresses a multi-partition run as a key range in the order the dynamic partitions were added, so a
batch must be a stretch of neighbouring keys: sessions added in the same tick always are, and a
session that went pending again joins the batch of its pending neighbours or runs on its own.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence

import dagster as dg
from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG

from .partitions import sessions_partitions


def contiguous_batches(ordered_keys: Sequence[str], wanted: Iterable[str], size: int) -> list[list[str]]:
    """`wanted` keys grouped into stretches of neighbours in `ordered_keys`, at most `size` each."""
    wanted_set = set(wanted)
    batches: list[list[str]] = []
    current: list[str] = []
    for key in ordered_keys:
        if key in wanted_set and len(current) < size:
            current.append(key)
            continue
        if current:
            batches.append(current)
        current = [key] if key in wanted_set else []
    if current:
        batches.append(current)
    return batches


def keys_in_range(ordered_keys: Sequence[str], start: str, end: str) -> list[str]:
    if start not in ordered_keys or end not in ordered_keys:
        return []
    return list(ordered_keys[ordered_keys.index(start) : ordered_keys.index(end) + 1])


def run_keys_of(run_tags: Mapping[str, str], ordered_keys: Sequence[str]) -> list[str]:
    """The session partitions a run covers, from its tags (one key, or a range)."""
    if "dagster/partition" in run_tags:
        return [run_tags["dagster/partition"]]
    start, end = run_tags.get(ASSET_PARTITION_RANGE_START_TAG), run_tags.get(ASSET_PARTITION_RANGE_END_TAG)
    return keys_in_range(ordered_keys, start, end) if start and end else []


def batch_run_request(stage: str, batch: Sequence[str], versions: Mapping[str, str], tags: Mapping[str, str]) -> dg.RunRequest:
    """One run over `batch`; its run key names every session at its version, so a change asks for a new run."""
    stamped = [f"{key}@{versions[key]}" for key in batch]
    if len(batch) == 1:
        return dg.RunRequest(run_key=f"{stage}:{stamped[0]}", partition_key=batch[0], tags=dict(tags))
    digest = hashlib.sha256("\n".join(stamped).encode()).hexdigest()[:16]
    return dg.RunRequest(
        run_key=f"{stage}:{batch[0]}..{batch[-1]}:{len(batch)}:{digest}",
        tags={**tags, ASSET_PARTITION_RANGE_START_TAG: batch[0], ASSET_PARTITION_RANGE_END_TAG: batch[-1]},
    )


def session_keys(instance: dg.DagsterInstance) -> list[str]:
    return list(instance.get_dynamic_partitions(sessions_partitions.name))
