"""The concurrency pools the graph-writing assets run in, and their limits made before any run claims a slot.

A pool with no limit yet is given dagster.yaml's `pools.default_limit` by the first run that claims it.
On PostgreSQL, a run that does so after another run already has (two runs starting together) fails:
its INSERT hits the unique key, which aborts its transaction, and Dagster's fallback UPDATE in the same
transaction then fails the whole run (RUN_EXCEPTION, "current transaction is aborted"; dagster 1.13.28).
Making every pool's limit while the instance is prepared, with no run going, leaves runs nothing to do.
"""

from __future__ import annotations

import dagster as dg

RECONCILE_POOL = "sessions_graph_reconcile"
EMBED_POOL = "sessions_graph_embed"
DERIVE_POOL = "sessions_graph_derive"
POOLS = (RECONCILE_POOL, EMBED_POOL, DERIVE_POOL)


def initialize_pools(instance: dg.DagsterInstance) -> None:
    """Give every pool the instance's default limit, unless it has it already or a person set one by hand
    (`dagster instance concurrency set`)."""
    storage = instance.event_log_storage
    if not storage.supports_global_concurrency_limits:
        return
    default = instance.global_op_concurrency_default_limit
    limits = {limit.name: limit for limit in storage.get_pool_limits()}
    for pool in POOLS:
        limit = limits.get(pool)
        if limit is not None and (not limit.from_default or limit.limit == default):
            continue
        if limit is not None:
            # Re-initialising an existing row hits the same aborted transaction on PostgreSQL.
            storage.delete_concurrency_limit(pool)
        storage.initialize_concurrency_limit_to_default(pool)
