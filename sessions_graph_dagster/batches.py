"""Batching sessions into runs: a run per user partition, its sessions named in the run's config.

Session work is partitioned by user (partitions.py says why), so a run covers up to batch_size()
sessions of one user: the run's partition is the user, the session ids travel in its run config
(what the assets do) and in a tag (what the UI's run list shows).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

SESSIONS_TAG = "sessions_graph/sessions"
SESSION_IDS_TAG = "sessions_graph/session_ids"
IDS_IN_TAG = 10  # a tag is for reading at a glance; the run config holds all of them
# The assets each job's run config names sessions for (the sensors may not import the asset modules;
# tests/dagster/test_dagster.py checks these are the jobs' assets).
RECONCILE_ASSETS = ("reconciled_session", "embedded_session")
EMBED_ASSETS = ("embedded_session",)

# Memory files are few and small: one unpartitioned run extracts up to this many.
MEMORY_FILES_PER_RUN = 500


@dataclass(frozen=True)
class Batch:
    """The work of one run: each item's key -> its stamp (the key at its current version), the run's
    partition (None: an unpartitioned run), its config and tags of its own."""

    stamps: dict[str, str]
    tags: dict[str, str] = field(default_factory=dict)
    partition: str | None = None
    run_config: dict[str, Any] = field(default_factory=dict)


def batch_size() -> int:
    """Sessions per run (SESSIONS_GRAPH_BATCH_SIZE); 1 gives the one-run-per-session baseline the benchmark compares."""
    return max(1, int(os.environ.get("SESSIONS_GRAPH_BATCH_SIZE", "100")))


def selection_config(session_ids: Sequence[str], assets: Sequence[str]) -> dict[str, Any]:
    """The run config that tells each of `assets` which sessions the run covers (sessions.SessionSelection)."""
    return {"ops": {asset: {"config": {"session_ids": list(session_ids)}} for asset in assets}}


def session_ids_of(run_config: Mapping[str, Any]) -> list[str]:
    """The sessions a run's config names (empty for a run over whole users, such as a backfill)."""
    ids: list[str] = []
    for op in (run_config or {}).get("ops", {}).values():
        ids += (op or {}).get("config", {}).get("session_ids", [])
    return list(dict.fromkeys(ids))


def session_tags(session_ids: Sequence[str]) -> dict[str, str]:
    shown = ",".join(session_ids[:IDS_IN_TAG])
    more = len(session_ids) - IDS_IN_TAG
    return {SESSIONS_TAG: str(len(session_ids)), SESSION_IDS_TAG: shown + (f" (+{more} more)" if more > 0 else "")}


def session_batches(work: Mapping[str, tuple[str, str]], assets: Sequence[str]) -> list[Batch]:
    """`work` (session id -> (its user, its stamp)) in runs of at most batch_size() sessions of one user each."""
    by_user: dict[str, list[str]] = {}
    for session_id, (user_id, _) in work.items():
        by_user.setdefault(user_id, []).append(session_id)
    size = batch_size()
    batches = []
    for user_id, session_ids in sorted(by_user.items()):
        for start in range(0, len(session_ids), size):
            chunk = session_ids[start : start + size]
            batches.append(
                Batch(
                    {session_id: work[session_id][1] for session_id in chunk},
                    tags=session_tags(chunk),
                    partition=user_id,
                    run_config=selection_config(chunk, assets),
                )
            )
    return batches
