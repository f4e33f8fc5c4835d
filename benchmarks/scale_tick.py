"""One sensor-tick measurement for bench_scale.py, run in a process of its own with either the current
tree or an older one (today's per-session scheme) first on PYTHONPATH, so both run the same way.

    DAGSTER_HOME=... python benchmarks/scale_tick.py DATA_DIR KNOWN_SESSIONS SESSIONS_PER_USER TICKS

(TICKS 0: register what the known sessions leave behind and stop.)

The instance at DAGSTER_HOME (PostgreSQL, the production profile) is given what KNOWN_SESSIONS
sessions leave behind in it: under the per-session scheme a partition per session; under the per-user
scheme a partition per user. Four runs are left unfinished, as at a busy moment (max_concurrent_runs).
The graph in DATA_DIR holds the pending sessions the tick finds (the same in both schemes). Prints
the tick times in seconds as JSON.
"""

from __future__ import annotations

import json
import statistics
import sys
import time

import dagster as dg

from sensors.pending_sessions import pending_sessions_sensor
from sessions_graph_dagster import partitions
from sessions_graph_dagster.definitions import defs
from sessions_graph_dagster.resources import GraphStoreResource

CHUNK = 10_000
IN_FLIGHT = 4


def register(instance: dg.DagsterInstance, known: int, per_user: int) -> None:
    """The partitions `known` sessions leave behind, and four unfinished runs over some of them."""
    job = defs.resolve_job_def("reconcile_sessions")
    per_session = hasattr(partitions, "sessions_partitions")
    if per_session:
        keys = [f"hist-{index:07d}" for index in range(known)]
        name = "sessions"
    else:
        keys = [f"hist-user-{index:05d}" for index in range(max(1, known // per_user))]
        name = "users"
    for start in range(0, len(keys), CHUNK):
        instance.add_dynamic_partitions(name, keys[start : start + CHUNK])
    for run in range(IN_FLIGHT):
        if per_session:
            first, last = keys[(run * 100) % len(keys)], keys[min(len(keys) - 1, (run * 100) % len(keys) + 99)]
            tags = {"dagster/asset_partition_range_start": first, "dagster/asset_partition_range_end": last}
            instance.create_run_for_job(job, tags=tags, status=dg.DagsterRunStatus.STARTED)
        else:
            ids = [f"hist-{run}-{index}" for index in range(100)]
            config = {"ops": {op: {"config": {"session_ids": ids}} for op in ("reconciled_session", "embedded_session")}}
            instance.create_run_for_job(
                job, run_config=config, tags={"dagster/partition": keys[run % len(keys)]}, status=dg.DagsterRunStatus.STARTED
            )


def main() -> None:
    data_dir, known, per_user, ticks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    with dg.DagsterInstance.get() as instance:
        register(instance, known, per_user)
        if not ticks:  # only the partitions, for a page to show
            return
        resources = {"graph_store": GraphStoreResource(data_dir=data_dir)}
        seconds = []
        for _ in range(ticks + 1):  # the first tick warms caches and connections; it is not counted
            context = dg.build_sensor_context(instance=instance, resources=resources, definitions=defs)
            started = time.perf_counter()
            result = pending_sessions_sensor(context)
            seconds.append(time.perf_counter() - started)
        assert result.run_requests, "the tick found no pending sessions: nothing was measured"
    print(json.dumps({"ticks": seconds[1:], "median": statistics.median(seconds[1:]), "runs": len(result.run_requests)}))


if __name__ == "__main__":
    main()
