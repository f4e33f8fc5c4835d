"""A user's ontology versions: the one statement that writes a new version, adopted or rejected.

A supplied schema and a derived candidate become versions the same way: the next number, the node,
and either the ADOPTED move (the previous version superseded and linked to the new one by NEXT)
or a REJECTED link, in one statement, so they land together or not at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sessions_graph_core.store.base import GraphStore

# How a version relates to the core: extend it (the file's types pinned), or off (the file as given).
DERIVE_MODES = ("extend", "off")

_NEXT_NUMBER = (
    "MERGE (u:User {user_id: $uid}) WITH u "
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
    rows = store.run(_ADOPT if adopt else _REJECT, {"uid": user_id, "fields": {**fields, "status": status}})
    if not rows:
        raise RuntimeError(f"writing an ontology version for {user_id!r} wrote nothing")
    return rows[0]["version"]
