"""`pending_work`: the graph's backlog as an asset a person can watch, observed by backlog_sensor
whenever it changes. Its page plots each count over time; each observation also carries a
markdown chart of the recent changes."""

from __future__ import annotations

from collections.abc import Sequence

import dagster as dg

from sessions_graph_core.backlog import Backlog

from .reporting import bar_chart

pending_work = dg.AssetSpec(
    "pending_work",
    group_name="sessions_graph",
    kinds={"graph"},
    description="What waits in the graph: sessions to reconcile, sessions to embed, memory files to extract "
    "(observed by backlog_sensor each time it changes; see Plots).",
)

# How many earlier observations the chart shows.
HISTORY = 20


def observation(now: Backlog, history: Sequence[tuple[str, int]]) -> dg.AssetObservation:
    """The backlog now, with a chart of `history`: (time, total) of the latest observations, oldest first."""
    return dg.AssetObservation(
        asset_key=pending_work.key,
        metadata={
            "total": now.total,
            "reconcile": now.reconcile,
            "embed": now.embed,
            "memory_files": now.memory_files,
            "recent": bar_chart(("observed (UTC)", "pending"), list(history)),
        },
    )
