"""What the LLM is shown: the user's conversation within a budget, and the types already observed."""

from __future__ import annotations

from collections.abc import Sequence

from sessions_graph_core.ontology.derive.gate import Message
from sessions_graph_core.ontology.model import (
    OntologyModel,
)
from sessions_graph_core.store.base import GraphStore

CONVERSATION_BUDGET = 120_000
EXAMPLES_PER_TYPE = 40


SYSTEM_PROMPT = """You design the entity and relation types for one user's memory graph, read from their \
own conversations with AI agents. Propose changes to the current model that let more of what they talk \
about be typed precisely: add node types for the kinds of things that now fall under the catch-alls \
Topic and Artifact, and relation types (snake_case verb phrases such as owns, deploys_to, depends_on) \
for how the user relates to them. Merge near-duplicate types into one, retire types nothing uses. \
Never change the protected types. Labels are identifiers: a letter or '_', then letters, digits or '_'; \
node types in PascalCase. Relation endpoints must name node types of the resulting model."""


def prompt(
    current: OntologyModel,
    conversations: Sequence[Message],
    observed: dict[str, list[str]],
    protected: Sequence[str],
    pool: OntologyModel,
    seed: int,
    seeds: int,
) -> str:
    text, used = [], 0
    session = None
    for message in conversations:
        line = (["=== conversation ==="] if message.session_id != session else []) + [f"{message.role}: {message.text}"]
        session = message.session_id
        used += sum(len(part) + 1 for part in line)
        if used > CONVERSATION_BUDGET:
            break
        text += line
    sections = [
        f"Candidate {seed + 1} of {seeds}: propose a variation of your own.",
        "Current model:\n" + current.model_dump_json(),
        "Protected types (never merge or retire): " + ", ".join(protected),
        "Retired types you may restore:\n" + pool.model_dump_json(),
        "Mentions by type in these conversations (type: count, examples):\n"
        + "\n".join(
            f"{kind}: {len(names)}, {', '.join(sorted(set(names))[:EXAMPLES_PER_TYPE])}"
            for kind, names in sorted(observed.items())
        ),
        "Conversations:\n" + "\n".join(text),
    ]
    return "\n\n".join(sections)


def observed(store: GraphStore, user_id: str, session_ids: Sequence[str]) -> dict[str, list[str]]:
    """Names of the entities the sessions mention, by their type, as reconciliation stored them."""
    rows = store.run(
        "MATCH (s:Session {user_id: $uid})-[:HAS_TURN]->(:Turn)-[:HAS_CHUNK]->(:Chunk)<-[:MENTIONED_IN]-(n:Entity) "
        "WHERE s.session_id IN $sids RETURN n.type AS type, n.name AS name ORDER BY type, name",
        {"uid": user_id, "sids": list(session_ids)},
    )
    found: dict[str, list[str]] = {}
    for row in rows:
        found.setdefault(row["type"], []).append(row["name"])
    return found
