"""A tool's arguments and output are read for their entities only (issue 45), with the real spaCy model and store.

Their statements are never written, so reading them was wasted: the graph must be what reading them whole
gives, and a message that says what a tool printed must still get its statements.
"""

from __future__ import annotations

from collections.abc import Sequence

from sessions_graph_core import SessionsGraph
from sessions_graph_core.ontology.model import OntologyModel
from sessions_graph_core.reconcile.extraction.base import Extraction
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend

START = "2026-01-05T09:00:00Z"
TURNS = [
    {"role": "user", "text": "Alice owns the orders service. We moved CI to Buildkite."},
    {"role": "assistant", "type": "tool_call", "tool_name": "Bash", "tool_input": {"command": "grep -r Postgres ."}},
    {"type": "tool_result", "tool_name": "Bash",
     "output": "README.md: Bob owns the billing service and it runs on Postgres in Frankfurt.\n3 matches"},
    {"role": "assistant", "text": "Bob owns billing, per the README."},
]


class WholeReading:
    """The spaCy backend without extract_entities: every text read whole, as before the change."""

    name = "spacy"
    reads_known_slots = False

    def extract(self, texts: Sequence[str], ontology: OntologyModel, known_slots: Sequence[str] = ()) -> list[Extraction]:
        return SpacyBackend().extract(texts, ontology, known_slots)


class Counted(SpacyBackend):
    """The spaCy backend, noting which texts each of its calls was given."""

    def __init__(self) -> None:
        super().__init__()
        self.whole: list[str] = []
        self.named: list[str] = []

    def extract(self, texts: Sequence[str], ontology: OntologyModel, known_slots: Sequence[str] = ()) -> list[Extraction]:
        self.whole += texts
        return super().extract(texts, ontology, known_slots)

    def extract_entities(self, texts: Sequence[str], ontology: OntologyModel) -> list[Extraction]:
        self.named += texts
        return super().extract_entities(texts, ontology)


def reconciled(graph: SessionsGraph, user: str, backend: object, turns: list[dict], session: str = "s") -> None:
    graph.record_session_start(f"{user}-{session}", user_id=user, project_key="shop", started_at=START)
    graph.record_turns(f"{user}-{session}", [{"timestamp": START, **turn} for turn in turns], user_id=user)
    assert graph.reconcile_session(f"{user}-{session}", backend=backend).status == "completed"


def written(graph: SessionsGraph, user: str) -> tuple[list, list, list]:
    """The user's entities, facts and mentions (with the turns they came from)."""
    params = {"user": user}
    entities = graph.store.run("MATCH (n:Entity {user_id: $user}) RETURN n.entity_key AS key, n.type AS type, "
                               "n.names AS names ORDER BY key", params)
    facts = graph.store.run("MATCH (f:Fact {user_id: $user}) RETURN f.text AS text, f.slot AS slot, f.value AS value "
                            "ORDER BY text", params)
    mentions = graph.store.run("MATCH (n:Entity {user_id: $user})-[m:MENTIONED_IN]->(c:Chunk) "
                               "RETURN n.entity_key AS key, c.text AS text, m.sources AS sources ORDER BY key, text", params)
    # Turn ids hash the session's id: compared by the turn's place in its session.
    return entities, facts, [{**row, "sources": [s.rpartition("seq-")[2] for s in row["sources"]]} for row in mentions]


def test_tool_text_is_read_for_entities_only_and_the_graph_is_what_reading_it_whole_gives(graph: SessionsGraph) -> None:
    counted = Counted()
    reconciled(graph, "named", counted, TURNS)
    reconciled(graph, "whole", WholeReading(), TURNS)
    # The tool's input and output went to extract_entities, the messages to extract.
    assert len(counted.named) == 2 and all("Bob owns the billing service" in t or "grep" in t for t in counted.named)
    assert len(counted.whole) == 2 and not set(counted.whole) & set(counted.named)
    named, whole = written(graph, "named"), written(graph, "whole")
    assert named[0] == whole[0] and {"bob", "postgres", "frankfurt"} <= {row["key"].split("|")[0] for row in named[0]}
    assert named[1] == whole[1] and [row["slot"] for row in named[1]] != []
    assert named[2] == whole[2]


def test_a_message_saying_what_a_tool_printed_gets_its_statements(graph: SessionsGraph) -> None:
    said = "Bob owns the billing service."
    reconciled(graph, "later", SpacyBackend(), [{"type": "tool_result", "tool_name": "Bash", "output": said}], "one")
    chunk = "MATCH (c:Chunk {user_id: 'later', text: $text}) RETURN c.entities_only AS only, c.extraction AS extraction"
    assert graph.store.run(chunk, {"text": said})[0]["only"] is True
    assert graph.store.run("MATCH (f:Fact {user_id: 'later'}) RETURN count(f) AS n")[0]["n"] == 0
    reconciled(graph, "later", SpacyBackend(), [{"role": "user", "text": said}], "two")
    rows = graph.store.run("MATCH (f:Fact {user_id: 'later'}) RETURN f.slot AS slot")
    assert [row["slot"] for row in rows] == ["billing service/owner"]
    # The chunk now holds the whole reading: a third session takes it from there.
    row = graph.store.run(chunk, {"text": said})[0]
    assert row["only"] is None and Extraction.model_validate_json(row["extraction"]).facts
