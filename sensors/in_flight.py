"""Sessions a queued or running run already covers, so a sensor never asks for a second run on them."""

from __future__ import annotations

from collections.abc import Sequence

import dagster as dg

from sessions_graph_dagster.batches import run_keys_of

UNFINISHED = [
    dg.DagsterRunStatus.QUEUED,
    dg.DagsterRunStatus.NOT_STARTED,
    dg.DagsterRunStatus.STARTING,
    dg.DagsterRunStatus.STARTED,
]


def sessions_in_flight(instance: dg.DagsterInstance, ordered_keys: Sequence[str]) -> set[str]:
    """Session keys of every unfinished run, whichever sensor, backfill or person launched it.

    Runs over ranges carry no `dagster/partition` tag, so the instance's per-partition queue limit
    cannot see them; this check does.
    """
    busy: set[str] = set()
    for run in instance.get_runs(filters=dg.RunsFilter(statuses=UNFINISHED)):
        busy.update(run_keys_of(run.tags, ordered_keys))
    return busy
