"""`pending_work`: the graph's backlog as an asset a person can watch, observed by backlog_sensor
whenever it changes. Its page plots each count over time, and each user's waiting and failed sessions
as series of their own; each observation also carries a markdown chart of the recent changes.

Its check, `nothing_waits_too_long`, judges liveness by the work done, not by a process being up:
it fails while any session has waited longer than policies.max_wait(), naming the one that waited longest.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import dagster as dg

from sessions_graph_core.backlog import Backlog
from sessions_graph_core.embeddings.vectors import UserBacklog

from .policies import max_wait
from .reporting import bar_chart, table

pending_work = dg.AssetSpec(
    "pending_work",
    group_name="sessions_graph",
    kinds={"graph"},
    description="What waits in the graph: sessions to reconcile, sessions to embed, memory files to extract "
    "(observed by backlog_sensor each time it changes; see Plots, with a series per user).",
)

WAITS_CHECK = "nothing_waits_too_long"
# On embedded_session, per user partition: a user whose sessions wait does not read as up to date.
CAUGHT_UP_CHECK = "caught_up"

# How many earlier observations the chart shows.
HISTORY = 20
# Users with a series of their own on the Plots tab, those with the most unfinished sessions first.
PLOTTED_USERS = 20


def plotted_users(now: Backlog, shown_before: Sequence[str]) -> list[str]:
    """The users whose series the observation carries: those with unfinished work now, and those shown
    the last time (so a user's series falls back to 0 instead of stopping at their last backlog)."""
    busiest = sorted(now.users, key=lambda user: (-(user.pending + user.failed), user.user_id))
    return list(dict.fromkeys([*(user.user_id for user in busiest[:PLOTTED_USERS]), *shown_before]))[:PLOTTED_USERS * 2]


def observation(now: Backlog, history: Sequence[tuple[str, int]], users: Sequence[str] = ()) -> dg.AssetObservation:
    """The backlog now, with a chart of `history`: (time, total) of the latest observations, oldest first,
    and a pending and a failed series for each of `users`."""
    by_user = {user.user_id: user for user in now.users}
    series = {}
    for user_id in users:
        user = by_user.get(user_id)
        series[f"pending/{user_id}"] = user.pending if user else 0
        series[f"failed/{user_id}"] = user.failed if user else 0
    return dg.AssetObservation(
        asset_key=pending_work.key,
        metadata={
            "total": now.total,
            "reconcile": now.reconcile,
            "embed": now.embed,
            "memory_files": now.memory_files,
            "failed": sum(user.failed for user in now.users),
            **series,
            "users": table(
                ("user", "pending", "failed", "waiting longest", "since (UTC)"),
                [(u.user_id, u.pending, u.failed, u.oldest or "", (u.oldest_since or "")[:19]) for u in now.users],
            ),
            "recent": bar_chart(("observed (UTC)", "pending"), list(history)),
        },
    )


def waits_verdict(now: Backlog, at: datetime) -> dict[str, Any]:
    """The check's outcome at `at`, as both an AssetCheckResult and an AssetCheckEvaluation take it:
    failed when the session that has waited longest waited more than max_wait()."""
    limit = max_wait()
    oldest = now.oldest
    waited = at - datetime.fromisoformat(oldest.oldest_since) if oldest and oldest.oldest_since else None
    passed = waited is None or waited <= limit
    if waited is None:
        description = "no session waits"
    else:
        description = (
            f"session {oldest.oldest} of user {oldest.user_id} has waited {_minutes(waited.total_seconds())} "
            f"(pending since {oldest.oldest_since[:19]} UTC; the limit is {_minutes(limit.total_seconds())})"
        )
        if not passed:
            description += (
                ": no run has completed its work. Look at the sensors' ticks and the runs of its partition; "
                "`sessions-graph reconcile --pending` does it by hand"
            )
    return dict(
        passed=passed,
        severity=dg.AssetCheckSeverity.ERROR,
        description=description,
        metadata={
            "oldest_session": oldest.oldest if oldest else "",
            "oldest_user": oldest.user_id if oldest else "",
            "waited_s": round(waited.total_seconds()) if waited is not None else 0,
            "limit_s": round(limit.total_seconds()),
            "users_waiting": sum(1 for user in now.users if user.pending),
            "failed": sum(user.failed for user in now.users),
        },
    )


def caught_up_verdict(user_id: str, user: UserBacklog | None) -> dict[str, Any]:
    """One user's partition: passed once none of the user's sessions waits or failed, a warning until then."""
    pending, failed = (user.pending, user.failed) if user else (0, 0)
    description = f"{user_id}: every session is reconciled and embedded"
    if pending or failed:
        description = f"{user_id}: {pending} sessions wait for their runs, {failed} failed"
        if user and user.oldest:
            description += f"; waiting longest: {user.oldest}, pending since {(user.oldest_since or '')[:19]} UTC"
    return dict(
        passed=not (pending or failed),
        severity=dg.AssetCheckSeverity.WARN,
        description=description,
        metadata={"pending": pending, "failed": failed, "oldest_session": (user.oldest or "") if user else ""},
    )


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:.1f} min"

