"""Watching a running Dagster instance drain the graph's pending work, over its GraphQL API.

Used by `scripts/main`, the end-to-end test and the benchmark: they all need to know when the sensors'
runs have reconciled and embedded everything that was pending.
"""

from __future__ import annotations

import json
import sys
import time
import urllib.request
from typing import Any

from pydantic import BaseModel

from sessions_graph_core.backlog import backlog
from sessions_graph_core.embeddings.vectors import pending_embeddings
from sessions_graph_core.reconcile.pipeline import pending_memories
from sessions_graph_core.sessions.records import pending_sessions
from sessions_graph_core.store.base import GraphStore

UNFINISHED = ["QUEUED", "NOT_STARTED", "STARTING", "STARTED", "CANCELING"]

RUNS = """
query Runs($filter: RunsFilter) {
  runsOrError(filter: $filter) { ... on Runs { results { runId status jobName startTime endTime
    tags { key value } } } }
}"""

FAILURE = """
query Failure($runId: ID!) {
  logsForRun(runId: $runId) { ... on EventConnection { events { __typename
    ... on RunFailureEvent { message error { message stack cause { message stack } } }
    ... on ExecutionStepFailureEvent { message error { message stack cause { message stack } } }
    ... on EngineEvent { message error { message stack } } } } }
}"""

PARTITION_STATS = """
{ assetNodes { assetKey { path } partitionStats { numMaterialized numFailed numMaterializing numPartitions } } }
"""


def graphql(url: str, query: str, variables: dict[str, Any] | None = None, *, timeout: float = 30.0) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{url.rstrip('/')}/graphql",
        data=json.dumps({"query": query, "variables": variables or {}}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:
        body = json.loads(response.read())
    if body.get("errors"):
        raise RuntimeError(f"GraphQL error: {body['errors'][0].get('message')}")
    return body["data"]


class Run(BaseModel):
    run_id: str
    status: str
    job_name: str
    start_time: float | None = None
    end_time: float | None = None
    tags: dict[str, str]


def runs(url: str, *, statuses: list[str] | None = None) -> list[Run]:
    variables = {"filter": {"statuses": statuses}} if statuses else {}
    results = graphql(url, RUNS, variables)["runsOrError"]["results"]
    return [
        Run(
            run_id=r["runId"],
            status=r["status"],
            job_name=r["jobName"],
            start_time=r["startTime"],
            end_time=r["endTime"],
            tags={tag["key"]: tag["value"] for tag in r["tags"]},
        )
        for r in results
    ]


def failure_text(url: str, run_id: str) -> str:
    """The errors a run's event log recorded (its failure and any engine errors), for a test's failure message."""
    events = graphql(url, FAILURE, {"runId": run_id})["logsForRun"].get("events", [])
    lines = []
    for event in events:
        error = event.get("error")
        if error:
            lines.append(f"{event['__typename']}: {event.get('message')}\n{error['message']}{''.join(error['stack'])}")
            if error.get("cause"):
                lines.append(f"caused by: {error['cause']['message']}{''.join(error['cause']['stack'])}")
    return "\n".join(lines)


def partition_stats(url: str) -> dict[str, dict[str, int]]:
    """Asset name -> its partition counts, as the UI shows them."""
    nodes = graphql(url, PARTITION_STATS)["assetNodes"]
    return {"/".join(n["assetKey"]["path"]): n["partitionStats"] for n in nodes if n["partitionStats"]}


def pending_work(store: GraphStore) -> int:
    """Sessions waiting for reconciliation or embedding, and memory files waiting for extraction."""
    pending = pending_sessions(store, limit=1000)
    return len(pending) + len(pending_embeddings(store, limit=1000)) + len(pending_memories(store, limit=1000))


def wait_until_drained(url: str, store: GraphStore, *, timeout: float, poll: float = 2.0) -> float:
    """Seconds until no work is pending in the graph and no run is unfinished; raises TimeoutError."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        # The runs first: counting the pending work scans the whole backlog on the primary (up to 0.7 s with
        # 10,000 sessions pending), which is worth doing only when no run is left.
        if not runs(url, statuses=UNFINISHED) and pending_work(store) == 0:
            return time.monotonic() - started
        time.sleep(poll)
    oldest = backlog(store).oldest
    raise TimeoutError(
        f"after {timeout:.0f} s: {pending_work(store)} sessions or memory files still pending, "
        f"{len(runs(url, statuses=UNFINISHED))} runs unfinished"
        + (f"; waiting longest: session {oldest.oldest} of user {oldest.user_id}, pending since {oldest.oldest_since[:19]} UTC"
           " (the pending_work asset's check and the sensors' ticks say why)" if oldest else "")
    )


def wait_for_http(url: str, *, timeout: float) -> None:
    started = time.monotonic()
    while True:
        try:
            graphql(url, "{ version }", timeout=5)
            return
        except OSError:
            if time.monotonic() - started > timeout:
                raise TimeoutError(f"no Dagster webserver at {url} after {timeout:.0f} s") from None
            time.sleep(1)


def main() -> None:
    """`python -m devtools.progress URL`: wait for the sensors to drain the graph, then summarise."""
    import argparse

    from sessions_graph_core.config.model import store_settings
    from sessions_graph_core.store.location import open_store

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("url")
    parser.add_argument("--timeout", type=float, default=900, help="seconds to wait for the webserver, then for the work")
    args = parser.parse_args()
    try:
        wait_for_http(args.url, timeout=args.timeout)
        with open_store(store_settings()) as store:
            took = wait_until_drained(args.url, store, timeout=args.timeout)
    except (TimeoutError, OSError, RuntimeError) as exc:
        # A person reads this at the end of scripts/main: what is wrong, not where in this module.
        sys.exit(f"Waiting for the sensors' runs stopped: {exc}")
    print(f"All pending work done after {took:.0f} s of waiting.")
    for run in sorted(runs(args.url), key=lambda r: r.start_time or 0):
        covered = run.tags.get("sessions_graph/sessions", run.tags.get("sessions_graph/memory_files", "-"))
        seconds = f"{run.end_time - run.start_time:.1f} s" if run.start_time and run.end_time else ""
        print(f"  run {run.run_id[:8]}  {run.job_name:<22} {run.status:<8} items {covered:<4} {seconds}")
    for asset, stats in sorted(partition_stats(args.url).items()):
        print(f"  {asset}: {stats['numMaterialized']} of {stats['numPartitions']} partitions materialized, {stats['numFailed']} failed")


if __name__ == "__main__":
    main()
