"""How steps fail: transient store errors are retried with backoff, bad input is not, and failed embeddings
are asked for again with backoff until a cap."""

from __future__ import annotations

import os
from datetime import datetime, timedelta

import dagster as dg

from sessions_graph_core.validation import ValidationError

# A store that restarts or a network blip between a run and Memgraph passes within seconds.
STORE_RETRY = dg.RetryPolicy(max_retries=3, delay=1.0, backoff=dg.Backoff.EXPONENTIAL, jitter=dg.Jitter.PLUS_MINUS)


def bad_input(error: ValidationError) -> dg.Failure:
    """A failure that no retry can fix (a session that does not exist, an invalid id)."""
    return dg.Failure(description=str(error), allow_retries=False)


def rejected(context: dg.AssetExecutionContext, description: str) -> dg.Failure:
    """A launch whose config cannot run (a person's mistake, not the data's): the run ends canceled, not
    failed, so its partitions keep what their last real run made of them. Dagster marks every partition a
    failed run planned as failed, which turned a healthy user red for a typo in a manual launch."""
    context.instance.report_run_canceling(context.run, message=f"Rejected: {description}")
    return dg.Failure(description=f"Rejected, nothing was changed: {description}", allow_retries=False)


# A failed embedding is asked for again 5, 10, 20 and 40 minutes after its first four failures; a
# model that fails five times in a row on a session will not start working by itself, so the sensor
# then leaves that session to a person (re-run its partition, or `sessions-graph embed --session`).
EMBED_RETRY_DELAY = timedelta(minutes=5)
EMBED_MAX_FAILURES = 5


def next_embedding_attempt(failures: int, failed_at: datetime) -> datetime | None:
    """When the sensor may ask again for a session that failed `failures` times in a row, the last at
    `failed_at`; None once it has given up."""
    if failures >= EMBED_MAX_FAILURES:
        return None
    return failed_at + EMBED_RETRY_DELAY * 2 ** (failures - 1)


# A session is pending from the moment its work arrives; the sensors ask for its run within seconds and a
# run of 100 sessions takes about a minute, so one that waits this long is stalled, not queued.
DEFAULT_MAX_WAIT = timedelta(minutes=15)


def max_wait() -> timedelta:
    """How long a session may wait before the pending_work check fails (SESSIONS_GRAPH_MAX_WAIT_S, seconds)."""
    value = os.environ.get("SESSIONS_GRAPH_MAX_WAIT_S")
    if value is None:
        return DEFAULT_MAX_WAIT
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if seconds <= 0:
        raise ValueError(f"SESSIONS_GRAPH_MAX_WAIT_S={value!r}: give the longest wait in seconds, a positive number (e.g. 900)")
    return timedelta(seconds=seconds)
