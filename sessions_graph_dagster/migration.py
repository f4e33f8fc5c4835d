"""Moving a Dagster instance from per-session partitions (the set "sessions") to per-user ones.

    DAGSTER_HOME=... python -m sessions_graph_dagster.migration [--dry-run]

1. adds a `users` partition for every user in the graph;
2. records, for each user with reconciled sessions, a materialization of reconciled_session and
   embedded_session on the user's partition that says so (no run re-does work already done: the
   graph holds each session's state, and the sensors pick up whatever is still pending);
3. deletes the old per-session partition keys, which every tick and page of the old scheme read.

The old materialization events stay in the event log under their session keys (run history keeps
them); the asset pages show the user partitions from then on. Safe to run twice.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import dagster as dg
from rich.progress import track

from sessions_graph_core.sessions.records import completed_sessions_by_user, users_of
from sessions_graph_core.store.base import GraphStore

from .partitions import users_partitions
from .resources import GraphStoreResource
from .sessions import embedded_session, reconciled_session

LEGACY_SESSIONS = "sessions"  # the dynamic partition set of the per-session scheme
CHUNK = 1000


def migrate(
    instance: dg.DagsterInstance, store: GraphStore, *, dry_run: bool = False, progress: Callable = lambda items, **_: items
) -> dict[str, int]:
    """What the module docstring says; returns the counts of what it did (or would do)."""
    users = users_of(store)
    new_users = [user for user in users if not instance.has_dynamic_partition(users_partitions.name, user)]
    completed = completed_sessions_by_user(store)
    legacy = list(instance.get_dynamic_partitions(LEGACY_SESSIONS))
    counts = {"users": len(users), "users_added": len(new_users), "users_marked": len(completed), "session_keys_deleted": len(legacy)}
    if dry_run:
        return counts
    for start in range(0, len(new_users), CHUNK):
        instance.add_dynamic_partitions(users_partitions.name, new_users[start : start + CHUNK])
    for user, sessions in completed.items():
        for asset in (reconciled_session, embedded_session):
            instance.report_runless_asset_event(
                dg.AssetMaterialization(
                    asset.key, partition=user,
                    metadata={"sessions": sessions, "migrated_from": "per-session partitions"},
                )
            )
    for key in progress(legacy, description="deleting per-session partitions"):
        instance.delete_dynamic_partition(LEGACY_SESSIONS, key)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description="Move the Dagster instance at DAGSTER_HOME to per-user partitions.")
    parser.add_argument("--dry-run", action="store_true", help="only say what would change")
    args = parser.parse_args()
    with dg.DagsterInstance.get() as instance, GraphStoreResource().open() as store:
        counts = migrate(instance, store, dry_run=args.dry_run, progress=track)
    verb = "would" if args.dry_run else "did"
    print(
        f"{counts['users']} users in the graph: {verb} add {counts['users_added']} user partitions, mark "
        f"{counts['users_marked']} users materialized and delete {counts['session_keys_deleted']} per-session partitions"
    )


if __name__ == "__main__":
    main()
