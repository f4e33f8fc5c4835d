"""The migration from per-session partitions to per-user ones, on an instance that holds the old keys."""

from __future__ import annotations

import dagster as dg
from dagster_helpers import SAMPLES, import_transcript

from sessions_graph_core.reconcile import pipeline as reconcile
from sessions_graph_dagster.migration import LEGACY_SESSIONS, migrate


def test_migration_adds_users_marks_their_work_and_drops_session_keys(graph, store):
    sids = [import_transcript(graph, path) for path in SAMPLES]
    reconcile.reconcile_session(graph.store, "orders-1")
    with dg.DagsterInstance.ephemeral() as instance:
        instance.add_dynamic_partitions(LEGACY_SESSIONS, sids)
        planned = migrate(instance, graph.store, dry_run=True)
        assert planned == {"users": 2, "users_added": 2, "users_marked": 1, "session_keys_deleted": 3}
        assert instance.get_dynamic_partitions("users") == [] and len(instance.get_dynamic_partitions(LEGACY_SESSIONS)) == 3

        assert migrate(instance, graph.store) == planned
        assert sorted(instance.get_dynamic_partitions("users")) == ["alice", "bob"]
        assert instance.get_dynamic_partitions(LEGACY_SESSIONS) == []
        event = instance.get_latest_materialization_event(dg.AssetKey("reconciled_session"))
        assert event.asset_materialization.partition == "alice"
        assert event.asset_materialization.metadata["sessions"].value == 1

        again = migrate(instance, graph.store)  # a second run finds nothing left to move
        assert again["users_added"] == 0 and again["session_keys_deleted"] == 0
