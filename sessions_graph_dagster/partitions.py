"""The two partition sets: one key per session, one per user.

Both are dynamic: the sensors add keys as sessions and users appear in the graph.
"""

from __future__ import annotations

import dagster as dg

sessions_partitions = dg.DynamicPartitionsDefinition(name="sessions")
users_partitions = dg.DynamicPartitionsDefinition(name="users")

# A user's ontology reads all of that user's sessions. Dagster cannot know which session keys belong
# to which user (the graph does), and its inferred default between two dynamic sets would map a session
# key to the user key of the same name; so say plainly that a user partition depends on every session.
USER_FROM_SESSIONS = dg.AllPartitionMapping()
# An embedded session is the reconciled session with the same key.
SAME_SESSION = dg.IdentityPartitionMapping()
