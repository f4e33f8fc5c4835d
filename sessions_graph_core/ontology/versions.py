"""A user's ontology versions: the one statement that writes a new version, adopted or rejected.

A supplied schema and a derived candidate become versions the same way: the next number, the node,
and either the ADOPTED move (the previous version superseded and linked to the new one by NEXT)
or a REJECTED link, in one statement, so they land together or not at all. The statement carries a
write id and does nothing when a version with that id exists, so the store's resend after a crash (it
died after applying, before replying) writes the version once.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from sessions_graph_core.store.base import GraphStore

# How a version relates to the core: extend it (the file's types pinned), or off (the file as given).
DERIVE_MODES = ("extend", "off")

_NEXT_NUMBER = (
    "MERGE (u:User {user_id: $uid}) WITH u "
    "OPTIONAL MATCH (done:OntologyVersion {user_id: $uid, write_id: $write_id}) "
    "WITH u, done WHERE done IS NULL "
    "OPTIONAL MATCH (any:OntologyVersion {user_id: $uid}) "
    "WITH u, coalesce(max(any.version), 0) + 1 AS next "
)
_ADOPT = (
    _NEXT_NUMBER
    + "OPTIONAL MATCH (u)-[adopted:ADOPTED]->(previous:OntologyVersion) "
    "CREATE (v:OntologyVersion {user_id: $uid, version: next}) SET v += $fields "
    "CREATE (u)-[:ADOPTED]->(v) "
    "FOREACH (p IN CASE WHEN previous IS NULL THEN [] ELSE [previous] END | "
    "  SET p.status = 'superseded' CREATE (p)-[:NEXT]->(v)) "
    "DELETE adopted RETURN v.version AS version"
)
_REJECT = (
    _NEXT_NUMBER
    + "CREATE (v:OntologyVersion {user_id: $uid, version: next}) SET v += $fields "
    "CREATE (u)-[:REJECTED]->(v) RETURN v.version AS version"
)


def record_version(store: GraphStore, user_id: str, fields: Mapping[str, Any], *, adopt: bool) -> int:
    """Write the user's next version with `fields` (status set here); returns its number."""
    status = "adopted" if adopt else "rejected"
    write_id = uuid.uuid4().hex
    params = {"uid": user_id, "write_id": write_id, "fields": {**fields, "status": status, "write_id": write_id}}
    rows = store.run(_ADOPT if adopt else _REJECT, params)
    if not rows:  # this very write landed and the store died before it replied
        rows = store.run(
            "MATCH (v:OntologyVersion {user_id: $uid, write_id: $write_id}) RETURN v.version AS version", params
        )
    if not rows:
        raise RuntimeError(f"writing an ontology version for {user_id!r} wrote nothing")
    return rows[0]["version"]
