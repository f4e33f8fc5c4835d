"""Batching sessions into runs: many partitions per run, one run per contiguous key range.

A run pays seconds of process start-up, so a run reconciles a range of session partitions. Dagster
addresses a multi-partition run as a key range in the order the dynamic partitions were added, so a
batch must be a stretch of neighbouring keys: sessions added in the same tick always are, and a
session that went pending again joins the batch of its pending neighbours or runs on its own.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG

# Memory files are few and small: one unpartitioned run extracts up to this many.
MEMORY_FILES_PER_RUN = 500


@dataclass(frozen=True)
class Batch:
    """The work of one run: each item's key -> its stamp (the key at its current version), and tags of its own."""

    stamps: dict[str, str]
    tags: dict[str, str] = field(default_factory=dict)


def batch_size() -> int:
    """Sessions per run (SESSIONS_GRAPH_BATCH_SIZE); 1 gives the one-run-per-session baseline the benchmark compares."""
    return max(1, int(os.environ.get("SESSIONS_GRAPH_BATCH_SIZE", "100")))


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


def session_batches(known: Sequence[str], stamps: Mapping[str, str]) -> list[Batch]:
    """The sessions of `stamps` in runs of neighbours, `known` being the session partitions in the order they were added.

    The sessions not yet known are added after them in the order of `stamps`, so they form one stretch.
    """
    known_set = set(known)
    ordered = [*known, *(key for key in stamps if key not in known_set)]
    return [
        Batch({key: stamps[key] for key in keys}, {"sessions_graph/sessions": str(len(keys))})
        for keys in contiguous_batches(ordered, stamps, batch_size())
    ]


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
