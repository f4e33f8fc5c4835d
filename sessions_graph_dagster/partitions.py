"""One partition set: a key per user. Session work runs on its user's partition.

Dagster advises at most about 100,000 partitions per asset, and a team's agents make a million
sessions a year; users stay in the thousands. A run names the sessions it covers in its config and
tags (batches.py); a run with no sessions named covers every session of its users, which is how a
per-user backfill works. The set is dynamic: the sensors add a user's key the first time its work
comes through.

Before this scheme each session had a partition of its own (the set named "sessions");
`python -m sessions_graph_dagster.migration` moves an instance off it.
"""

from __future__ import annotations

import dagster as dg

users_partitions = dg.DynamicPartitionsDefinition(name="users")

# Every session asset and the user's ontology are on the same user key.
SAME_USER = dg.IdentityPartitionMapping()
