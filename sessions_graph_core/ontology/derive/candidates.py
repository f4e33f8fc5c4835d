"""Candidate models: the LLM's proposal, checked and applied to the current model (merges, retirements, the pool)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, Field

from sessions_graph_core import validation
from sessions_graph_core.ontology.model import (
    CATCH_ALL_LABELS,
    CORE_LABELS,
    NodeType,
    OntologyModel,
    RelationType,
)

# -- candidates ------------------------------------------------------------------------------


class ProposedNode(BaseModel):
    label: str
    description: str
    identity: Literal["global", "chunk", "span"]


class ProposedRelation(BaseModel):
    label: str
    description: str
    start_labels: list[str]
    end_labels: list[str]


class ProposedChange(BaseModel):
    kind: Literal["node", "relation"]
    label: str
    into: str = Field(description="the type it merges into; empty for a retirement")


class Proposal(BaseModel):
    """What the LLM answers: types to add, types to merge into others, types to retire."""

    add_node_types: list[ProposedNode]
    add_relation_types: list[ProposedRelation]
    merge: list[ProposedChange]
    retire: list[ProposedChange]
    rationale: str


class Change(BaseModel):
    op: Literal["add", "restore", "merge", "retire"]
    kind: Literal["node", "relation"]
    label: str
    into: str | None = None


class Candidate(BaseModel):
    model: OntologyModel
    changelog: list[Change]
    pool: OntologyModel
    refused: list[str]


def _checked_labels(proposal: Proposal) -> None:
    """Every label the answer names is safe to write into query text, or the candidate fails."""
    for node in proposal.add_node_types:
        validation.identifier(node.label)
    for relation in proposal.add_relation_types:
        for label in [relation.label, *relation.start_labels, *relation.end_labels]:
            validation.identifier(label)
    for change in proposal.merge + proposal.retire:
        validation.identifier(change.label)
        if change.into:
            validation.identifier(change.into)


def apply(current: OntologyModel, proposal: Proposal, pinned: Sequence[str], pool: OntologyModel) -> Candidate:
    """The current model changed as proposed, never touching the core, the catch-alls or pinned types."""
    _checked_labels(proposal)
    protected = set(CORE_LABELS) | set(CATCH_ALL_LABELS) | set(pinned)
    nodes = {node.label: node for node in current.node_types}
    relations = {relation.label: relation for relation in current.relation_types}
    retired_nodes = {node.label: node for node in pool.node_types}
    retired_relations = {relation.label: relation for relation in pool.relation_types}
    changelog: list[Change] = []
    refused: list[str] = []
    for node in proposal.add_node_types:
        if node.label in nodes:
            continue
        changelog.append(Change(op="restore" if node.label in retired_nodes else "add", kind="node", label=node.label))
        retired_nodes.pop(node.label, None)
        nodes[node.label] = NodeType(label=node.label, description=node.description, identity=node.identity)
    for relation in proposal.add_relation_types:
        if relation.label in relations:
            continue
        op = "restore" if relation.label in retired_relations else "add"
        changelog.append(Change(op=op, kind="relation", label=relation.label))
        retired_relations.pop(relation.label, None)
        relations[relation.label] = RelationType(**relation.model_dump())
    removals = [(change, True) for change in proposal.merge] + [(change, False) for change in proposal.retire]
    for change, merging in removals:
        table: dict = nodes if change.kind == "node" else relations
        if change.label in protected or change.label not in table or (merging and change.into not in table):
            refused.append(f"{'merge' if merging else 'retire'} {change.kind} {change.label}")
            continue
        (retired_nodes if change.kind == "node" else retired_relations)[change.label] = table.pop(change.label)
        changelog.append(
            Change(op="merge" if merging else "retire", kind=change.kind, label=change.label,
                   into=change.into if merging else None)
        )
    merged = {c.label: c.into for c in changelog if c.op == "merge" and c.kind == "node" and c.into}
    retired = {c.label for c in changelog if c.op == "retire" and c.kind == "node"}
    kept = []
    for relation in relations.values():
        remapped = _remapped(relation, merged, retired)
        if (relation.start_labels and not remapped.start_labels) or (relation.end_labels and not remapped.end_labels):
            # Every type on one side is gone: left empty, the side would admit anything.
            retired_relations[relation.label] = relation
            changelog.append(Change(op="retire", kind="relation", label=relation.label))
        else:
            kept.append(remapped)
    model = OntologyModel(node_types=list(nodes.values()), relation_types=kept)
    problems = model.problems()
    if problems:
        raise ValueError("the candidate does not validate: " + "; ".join(problems))
    return Candidate(
        model=model,
        changelog=changelog,
        pool=OntologyModel(node_types=list(retired_nodes.values()), relation_types=list(retired_relations.values())),
        refused=refused,
    )


def _remapped(relation: RelationType, merged: dict[str, str], retired: set[str]) -> RelationType:
    """Endpoints follow merged types into their targets; retired endpoints are dropped."""

    def ends(labels: list[str]) -> list[str]:
        return list(dict.fromkeys(merged.get(label, label) for label in labels if label not in retired))

    return relation.model_copy(
        update={"start_labels": ends(relation.start_labels), "end_labels": ends(relation.end_labels)}
    )
