"""Ontology versions: the entity and relation types a user's sessions are extracted under.

A user with no stored version is on version 0, the default model, which is never stored. A
supplied schema becomes an `(:OntologyVersion)` node; `(:User)-[:ADOPTED]->` points at the current
one and `NEXT` chains each adopted version to the one that replaced it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field
from pydantic import ValidationError as PydanticError

from sessions_graph_core import validation
from sessions_graph_core.clock import now_iso
from sessions_graph_core.inputs import MAX_CONFIG_BYTES, read_bytes
from sessions_graph_core.ontology.versions import DERIVE_MODES, record_version
from sessions_graph_core.store.base import GraphStore
from sessions_graph_core.validation import ValidationError

DeriveMode = Literal["extend", "off"]
CORE_LABELS = ("User", "Person", "Duration", "Quantity", "Money", "Date", "TimeWindow")
CATCH_ALL_LABELS = ("Topic", "Artifact")


class NodeType(BaseModel):
    model_config = ConfigDict(extra="forbid")

    label: str
    description: str = ""
    identity: Literal["global", "chunk", "span"] = "chunk"


class RelationType(BaseModel):
    model_config = ConfigDict(extra="forbid")

    label: str
    description: str = ""
    start_labels: list[str] = Field(default_factory=list)
    end_labels: list[str] = Field(default_factory=list)
    # A single-valued relation holds one value per subject at a time: a new one supersedes the old.
    single_valued: bool = False


class OntologyModel(BaseModel):
    node_types: list[NodeType]
    relation_types: list[RelationType] = Field(default_factory=list)

    def labels(self) -> list[str]:
        return [node.label for node in self.node_types]

    def single_valued(self) -> list[str]:
        """The relation types marked single-valued: attributes whose new value supersedes the old one."""
        return [relation.label for relation in self.relation_types if relation.single_valued]

    def problems(self) -> list[str]:
        """What makes the model unusable, one line each; empty when it is valid."""
        found: list[str] = []
        labels = self.labels()
        names = labels + [relation.label for relation in self.relation_types]
        for name in names:
            if not validation.is_identifier(name):
                found.append(f"{name!r} is not a safe type name (a letter or '_', then letters, digits or '_')")
        for relation in self.relation_types:
            if relation.single_valued and not validation.is_identifier(relation.label):
                found.append(f"relation {relation.label!r} is marked single_valued but its name is not safe to slot on")
        for name in sorted({name for name in names if names.count(name) > 1}):
            found.append(f"{name!r} is declared more than once")
        for relation in self.relation_types:
            for endpoint in relation.start_labels + relation.end_labels:
                if endpoint not in labels:
                    found.append(f"relation {relation.label!r} names undeclared node type {endpoint!r}")
            if "User" in relation.start_labels + relation.end_labels and "Person" not in labels:
                found.append(f"relation {relation.label!r} has a User endpoint but no Person type is declared")
        if not self.node_types:
            found.append("the schema declares no entity types")
        return found


def _node(label: str, identity: str, description: str) -> NodeType:
    return NodeType(label=label, identity=identity, description=description)  # type: ignore[arg-type]


def _relation(label: str, start: str, end: str, description: str) -> RelationType:
    return RelationType(label=label, description=description, start_labels=start.split("|"), end_labels=end.split("|"))


DEFAULT_MODEL = OntologyModel(
    node_types=[
        _node("User", "global", "the user the session belongs to"),
        _node("Person", "global", "a named person"),
        _node("Duration", "span", "a length of time"),
        _node("Quantity", "span", "a count or measured amount"),
        _node("Money", "span", "an amount of money"),
        _node("Date", "span", "a calendar date or day"),
        _node("TimeWindow", "span", "a time of day or a period such as next week"),
        _node("Organization", "global", "a company, team, institution or group"),
        _node("Location", "global", "a place: city, country, building, address"),
        _node("Event", "chunk", "something that happened or will happen"),
        _node("Topic", "chunk", "a subject or concept talked about"),
        _node("Artifact", "global", "a named thing: product, service, tool, document, technology"),
    ],
    relation_types=[
        _relation("works_for", "User|Person", "Organization", "is employed by or works at"),
        _relation("lives_in", "User|Person", "Location", "lives in"),
        _relation("visited", "User|Person", "Location", "visited or travelled to"),
        _relation("knows", "User|Person", "User|Person", "knows or is related to"),
        _relation("attended", "User|Person", "Event", "attended or took part in"),
        _relation("works_on", "User|Person|Organization", "Artifact|Topic", "works on or builds"),
        _relation("uses", "User|Person|Organization|Artifact", "Artifact", "uses or depends on"),
        _relation("prefers", "User|Person", "Artifact|Topic|Location", "likes or prefers"),
        _relation("studied", "User|Person", "Topic|Organization", "studied or learned"),
        _relation("located_in", "Organization|Location|Event", "Location", "is located in"),
        _relation("happened_on", "Event", "Date|TimeWindow", "happened on or at"),
        _relation("lasted", "Event", "Duration", "lasted for"),
        _relation("spent_time", "User|Person", "Duration", "spent time doing"),
        _relation("costs", "Artifact|Event", "Money", "costs or is priced at"),
        _relation("paid", "User|Person|Organization", "Money", "paid"),
        _relation("has_count", "User|Person|Organization|Artifact", "Quantity", "has a count of"),
        _relation("scheduled_at", "Event", "Date|TimeWindow", "is scheduled for"),
    ],
)


class OntologyVersion(BaseModel):
    user_id: str
    version: int
    status: str = "adopted"
    source: str = "default"
    derive: DeriveMode = "extend"
    model: OntologyModel
    pinned: list[str] = Field(default_factory=list)
    source_hash: str | None = None
    created_at: str | None = None


def default_version(user_id: str) -> OntologyVersion:
    return OntologyVersion(user_id=user_id, version=0, model=DEFAULT_MODEL)


_VERSION_COLUMNS = (
    "v.user_id AS user_id, v.version AS version, v.status AS status, v.source AS source, v.derive AS derive, "
    "v.model AS model, v.pinned AS pinned, v.source_hash AS source_hash, v.created_at AS created_at"
)


def _version(row: dict) -> OntologyVersion:
    return OntologyVersion.model_validate(row | {"model": json.loads(row["model"]), "pinned": row["pinned"] or []})


def adopted(store: GraphStore, user_id: str) -> OntologyVersion:
    """The version the user's sessions are extracted under now."""
    uid = validation.user_id(user_id)
    rows = store.run(
        f"MATCH (:User {{user_id: $uid}})-[:ADOPTED]->(v:OntologyVersion) RETURN {_VERSION_COLUMNS}", {"uid": uid}
    )
    return _version(rows[0]) if rows else default_version(uid)


def read_schema_file(path: Path) -> tuple[OntologyModel, str]:
    """A schema YAML (`entity_types`, `relation_types`) and the hash of its bytes.

    Entity types are `{name, description}` (or `label`); relation types add `source`/`target`
    (a name or a list; `start_labels`/`end_labels` work too).
    """
    raw = read_bytes(path, what="schema file", max_bytes=MAX_CONFIG_BYTES)
    try:
        data = yaml.safe_load(raw)
    except yaml.YAMLError as exc:
        raise ValidationError(f"Schema file {path} is not valid YAML: {exc}") from None
    except RecursionError:
        raise ValidationError(f"Schema file {path} nests too deep; a schema is two lists of flat types") from None
    if not isinstance(data, dict) or not isinstance(data.get("entity_types"), list):
        raise ValidationError(f"Schema file {path} must be a mapping with an 'entity_types' list")
    try:
        model = OntologyModel(
            node_types=[_schema_node(item) for item in data["entity_types"]],
            relation_types=[_schema_relation(item) for item in data.get("relation_types") or []],
        )
    except (PydanticError, TypeError) as exc:
        raise ValidationError(f"Schema file {path} has a malformed type: {exc}") from None
    return model, hashlib.sha256(raw).hexdigest()


def _names(value: object) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)  # type: ignore[call-overload]


def _renamed(item: dict, names: dict[str, str]) -> dict:
    """The item with the file's key spellings turned into the model's; unknown keys stay and are refused."""
    return {names.get(key, key): value for key, value in item.items()}


def _schema_node(item: object) -> NodeType:
    if isinstance(item, str):
        return NodeType(label=item)
    if not isinstance(item, dict):
        raise TypeError(f"expected a name or a mapping, got {item!r}")
    return NodeType.model_validate(_renamed(item, {"name": "label"}))


def _schema_relation(item: object) -> RelationType:
    if not isinstance(item, dict):
        raise TypeError(f"expected a mapping, got {item!r}")
    data = _renamed(item, {"name": "label", "source": "start_labels", "target": "end_labels"})
    for key in ("start_labels", "end_labels"):
        data[key] = _names(data.get(key))
    return RelationType.model_validate(data)


def with_core(model: OntologyModel) -> OntologyModel:
    """The model plus the core types it lacks, taken from the default model."""
    present = set(model.labels())
    missing = [node for node in DEFAULT_MODEL.node_types if node.label in CORE_LABELS and node.label not in present]
    return OntologyModel(node_types=missing + model.node_types, relation_types=model.relation_types)


def supply(
    store: GraphStore,
    user_id: str,
    model: OntologyModel,
    *,
    derive: str = "extend",
    source_hash: str | None = None,
) -> OntologyVersion:
    """Adopt a supplied model as the user's next version; a model that does not validate changes nothing."""
    uid = validation.user_id(user_id)
    if derive not in DERIVE_MODES:
        raise ValidationError(f"derive must be one of {DERIVE_MODES}, got {derive!r}")
    pinned = model.labels() + [relation.label for relation in model.relation_types]
    final = with_core(model) if derive == "extend" else model
    problems = final.problems()
    if problems:
        raise ValidationError("The schema does not validate: " + "; ".join(problems))
    fields = {
        "source": "supplied",
        "derive": derive,
        "model": final.model_dump_json(),
        "pinned": pinned,
        "source_hash": source_hash,
        "created_at": now_iso(),
    }
    record_version(store, uid, fields, adopt=True)
    return adopted(store, uid)


def supply_file(store: GraphStore, user_id: str, path: Path, *, derive: str = "extend") -> OntologyVersion:
    model, digest = read_schema_file(path)
    return supply(store, user_id, model, derive=derive, source_hash=digest)
