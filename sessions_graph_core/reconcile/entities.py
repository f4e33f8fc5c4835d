"""Entities: one node per user, name and type, whichever text mentions it."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from pydantic import BaseModel

from sessions_graph_core import validation
from sessions_graph_core.ontology.model import OntologyModel
from sessions_graph_core.reconcile.extraction.base import ExtractedEntity
from sessions_graph_core.store.base import GraphStore
from sessions_graph_core.text import comparable


class EntityRow(BaseModel):
    """An entity ready to be written: `key` is unique within the user."""

    key: str
    name: str
    name_key: str
    type: str
    conformant: bool


def entity_key(name: str, kind: str) -> str:
    return f"{comparable(name)}|{kind}"


# With `e` bound to an EntityRow mapping plus `names` (its spellings): the user's entity, made on
# first sight; other spellings of its name become aliases.
MERGE_ENTITY = (
    "MERGE (n:Entity {user_id: $user_id, entity_key: e.key}) "
    "ON CREATE SET n.name = e.name, n.name_key = e.name_key, n.type = e.type, n.user_key = $user_key, "
    "n.aliases = [], n.ontology_conformant = e.conformant "
    "SET n.aliases = n.aliases + [a IN e.names WHERE a <> n.name AND NOT a IN n.aliases]"
)


def known_types(store: GraphStore, user_id: str, names: Iterable[str]) -> dict[str, str]:
    """The type each name already has among the user's entities (the first by key when several)."""
    keys = sorted({comparable(name) for name in names})
    if not keys:
        return {}
    rows = store.run(
        "MATCH (n:Entity {user_id: $user_id}) WHERE n.name_key IN $keys "
        "RETURN n.name_key AS name_key, n.type AS type ORDER BY n.entity_key",
        {"user_id": user_id, "keys": keys},
    )
    found: dict[str, str] = {}
    for row in rows:
        found.setdefault(row["name_key"], row["type"])
    return found


def resolve(
    extracted: Sequence[ExtractedEntity], types: dict[str, str], ontology: OntologyModel
) -> list[EntityRow]:
    """Rows for the extracted entities; a name the user already has keeps its type.

    Models type one name differently from sentence to sentence ("Alice" as a person, then as a
    place); keeping the first type stops one name splitting into several entities. `types` is
    updated with the new names so later texts agree too.
    """
    labels = set(ontology.labels())
    rows: dict[str, EntityRow] = {}
    for entity in extracted:
        name = " ".join(entity.name.split())
        name_key = comparable(name)
        if not name_key:
            continue
        kind = types.setdefault(name_key, entity.type)
        row = EntityRow(key=entity_key(name, kind), name=name, name_key=name_key, type=kind, conformant=kind in labels)
        rows.setdefault(row.key, row)
    return list(rows.values())


def find(store: GraphStore, user_id: str, text: str) -> str | None:
    """The normalised name of the user's entity that `text` names as whole words; the longest wins.

    Whole words, so "me" is not found inside "remember" nor "api" inside "rapid"; the store narrows
    the candidates to names the text contains, the word bounds are checked here.
    """
    said = comparable(text)
    rows = store.run(
        "MATCH (n:Entity {user_id: $user_id}) WHERE $text CONTAINS n.name_key AND n.name_key <> '' "
        "RETURN DISTINCT n.name_key AS name_key ORDER BY size(name_key) DESC, name_key",
        {"user_id": validation.user_id(user_id), "text": said},
    )
    return next((row["name_key"] for row in rows if _names_word(said, row["name_key"])), None)


def _names_word(text: str, name: str) -> bool:
    """Whether `name` occurs in `text` with no word character (letter, digit, _) just before or after it."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


def conformance(store: GraphStore, user_ids: Sequence[str]) -> list[dict[str, object]]:
    """Per user, how many entities there are and how many are typed within the user's ontology."""
    return store.run(
        "MATCH (e:Entity) WHERE e.user_id IN $users "
        "RETURN e.user_id AS user_id, count(e) AS entities, "
        "sum(CASE WHEN e.ontology_conformant = false THEN 0 ELSE 1 END) AS conformant ORDER BY user_id",
        {"users": list(user_ids)},
    )
