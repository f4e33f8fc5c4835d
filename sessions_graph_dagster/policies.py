"""How steps fail: transient store errors are retried with backoff, bad input is not."""

from __future__ import annotations

import dagster as dg

from sessions_graph_core.validation import ValidationError

# A store that restarts or a network blip between a run and Memgraph passes within seconds.
STORE_RETRY = dg.RetryPolicy(max_retries=3, delay=1.0, backoff=dg.Backoff.EXPONENTIAL, jitter=dg.Jitter.PLUS_MINUS)


def bad_input(error: ValidationError) -> dg.Failure:
    """A failure that no retry can fix (a session that does not exist, an invalid id)."""
    return dg.Failure(description=str(error), allow_retries=False)
