"""Forgetting in the Dagster instance: what it recorded about a forgotten session or user goes too.

Dagster cannot edit a run's config, tags or event log once written, so a finished run that names a
forgotten string (a session id in its config or tags, a user's partition, an id in its metadata) is
deleted with its events and compute logs; the graph keeps what the run did. Dagster also copies an
asset's latest materialization, and a cache of its partitions' status, into the asset's row: a row
that names a forgotten string gets the latest materialization left and an empty cache, which Dagster
rebuilds (no public API does this; it is Dagster's own table, for SQLite and PostgreSQL alike). A run still queued or
running cannot be deleted: it is reported, and forgetting again after it ends removes it. A forgotten
user's partition key is deleted. On SQLite the database files are then vacuumed, since a deleted row
stays in the file's free pages until then; PostgreSQL keeps dead rows until its own vacuum.

The core CLI runs this as `python -m sessions_graph_dagster.forgetting` (it imports no Dagster), a
JSON request on stdin (strings never show in a process listing) and a JSON report on stdout.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

import dagster as dg
from dagster._core.storage.event_log.schema import AssetKeyTable
from dagster._core.storage.tags import (
    ASSET_PARTITION_RANGE_END_TAG,
    ASSET_PARTITION_RANGE_START_TAG,
    PARTITION_NAME_TAG,
)
from dagster._serdes import serialize_value
from pydantic import BaseModel

from sessions_graph_core.reconcile.erasure import spellings

from .partitions import users_partitions

FINISHED = {dg.DagsterRunStatus.SUCCESS, dg.DagsterRunStatus.FAILURE, dg.DagsterRunStatus.CANCELED}


class Request(BaseModel):
    user_id: str
    whole_user: bool = False
    strings: list[str] = []


class Report(BaseModel):
    partitions_deleted: list[str] = []
    runs_deleted: int = 0
    runs_left: dict[str, str] = {}  # run id -> why it could not be deleted
    assets_refreshed: list[str] = []
    vacuumed: list[str] = []
    not_vacuumed: dict[str, str] = {}
    found: dict[str, int] = {}  # where in the instance a forgotten string is still recorded -> how many


def forget(instance: dg.DagsterInstance, request: Request) -> Report:
    """Delete what the instance recorded naming `request.strings` (and the user's partition), then look again."""
    report = Report()
    if request.whole_user and request.user_id in instance.get_dynamic_partitions(users_partitions.name):
        instance.delete_dynamic_partition(users_partitions.name, request.user_id)
        report.partitions_deleted.append(request.user_id)
    forms = list(spellings(request.strings))
    mine = _runs_on_partition(instance, request.user_id) if request.whole_user else set()
    for run_id in sorted(set(naming(instance, forms)) | mine):
        run = instance.get_run_by_id(run_id)
        if run is not None and run.status not in FINISHED:
            report.runs_left[run_id] = f"{run.status.value}: forget again once it has ended"
            continue
        instance.delete_run(run_id)
        _delete_compute_logs(instance, run_id)
        report.runs_deleted += 1
    report.assets_refreshed = _refresh_asset_rows(instance, forms)
    report.vacuumed, report.not_vacuumed = _vacuum(instance)
    report.found = {f"run {run_id}": count for run_id, count in naming(instance, forms).items()}
    if request.whole_user:
        report.found |= {f"run {run_id}": 1 for run_id in _runs_on_partition(instance, request.user_id)}
    report.found |= {f"asset {key}": 1 for key in _asset_rows_naming(instance, forms)}
    if request.whole_user and request.user_id in instance.get_dynamic_partitions(users_partitions.name):
        report.found["partition key"] = 1
    return report


def _runs_on_partition(instance: dg.DagsterInstance, user_id: str) -> set[str]:
    """The runs on the user's partition or on a range that starts or ends at it, found by exact tag: a user
    id too short to search for as a string still names its runs there."""
    tags = (PARTITION_NAME_TAG, ASSET_PARTITION_RANGE_START_TAG, ASSET_PARTITION_RANGE_END_TAG)
    return {run.run_id for tag in tags for run in instance.get_runs(filters=dg.RunsFilter(tags={tag: user_id}))}


def naming(instance: dg.DagsterInstance, forms: Sequence[str]) -> dict[str, int]:
    """The runs whose record (config, tags) or event log holds any of `forms`, with how many it holds."""
    if not forms:
        return {}
    found = {}
    for record in instance.get_run_records():
        text = serialize_value(record.dagster_run) + "".join(serialize_value(e) for e in instance.all_logs(record.dagster_run.run_id))
        held = sum(1 for form in forms if form in text)
        if held:
            found[record.dagster_run.run_id] = held
    return found


def _asset_rows_naming(instance: dg.DagsterInstance, forms: Sequence[str]) -> list[str]:
    """The asset keys whose row (latest materialization, status cache) holds any of `forms`."""
    with instance.event_log_storage.index_connection() as connection:
        rows = connection.execute(
            AssetKeyTable.select().with_only_columns(
                AssetKeyTable.c.asset_key, AssetKeyTable.c.last_materialization, AssetKeyTable.c.cached_status_data
            )
        ).fetchall()
    return [key for key, *cached in rows if any(form in (text or "") for text in cached for form in forms)]


def _refresh_asset_rows(instance: dg.DagsterInstance, forms: Sequence[str]) -> list[str]:
    refreshed = _asset_rows_naming(instance, forms)
    for key in refreshed:
        latest = instance.fetch_materializations(dg.AssetKey.from_db_string(key), limit=1).records
        values = {
            "last_materialization": serialize_value(latest[0]) if latest else None,
            "last_run_id": latest[0].run_id if latest else None,
            "cached_status_data": None,
        }
        with instance.event_log_storage.index_connection() as connection:
            connection.execute(AssetKeyTable.update().where(AssetKeyTable.c.asset_key == key).values(**values))
    return refreshed


def _delete_compute_logs(instance: dg.DagsterInstance, run_id: str) -> None:
    try:
        instance.compute_log_manager.delete_logs(prefix=[run_id])
    except NotImplementedError:
        pass  # a manager that keeps no local files (cloud storage) deletes nothing here


def _vacuum(instance: dg.DagsterInstance) -> tuple[list[str], dict[str, str]]:
    """Rewrite the instance's SQLite files without their free pages (and empty their write-ahead logs)."""
    done, failed = [], {}
    for path in sorted(Path(instance.root_directory).rglob("*.db")):
        try:
            with sqlite3.connect(path, timeout=30) as connection:
                connection.execute("VACUUM")
                connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            done.append(str(path))
        except sqlite3.Error as exc:
            failed[str(path)] = str(exc)
    return done, failed


def main() -> int:
    request = Request.model_validate_json(sys.stdin.read())
    with dg.DagsterInstance.get() as instance:
        report = forget(instance, request)
    print(json.dumps(report.model_dump()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
