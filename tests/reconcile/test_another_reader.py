"""A chunk's kept extraction serves only the reader that made it (its backend, the model it asks, the package's
version): text another reader read is read again, on the real store with the real spaCy model and the LLM backend
over the providers' real SDKs, answered at the network boundary (tests/seed002.py)."""

from __future__ import annotations

from collections.abc import Sequence

from fake_llm import llm_client
from seed002 import STORY, USER, FakeApi, backend, record_session

from sessions_graph_core import SessionsGraph
from sessions_graph_core.ontology.model import OntologyModel
from sessions_graph_core.reconcile.extraction.base import Extraction
from sessions_graph_core.reconcile.extraction.llm import LlmBackend
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend
from sessions_graph_core.reconcile.pipeline import chunk_hash, read_by

TEXTS = [message["text"] for message in STORY["sessions"][0]["messages"]]


class Counted(SpacyBackend):
    """The spaCy backend, noting every text it is asked to read."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[str] = []

    def extract(self, texts: Sequence[str], ontology: OntologyModel, known_slots: Sequence[str] = ()) -> list[Extraction]:
        self.asked += texts
        return super().extract(texts, ontology, known_slots)


def asked(api: FakeApi) -> list[str]:
    """The texts the fake model was asked to read (Anthropic's requests)."""
    return [body["messages"][0]["content"] for body in api.requests]


def readers(graph: SessionsGraph, texts: Sequence[str]) -> set[str | None]:
    rows = graph.store.run("MATCH (c:Chunk) WHERE c.hash IN $hashes RETURN c.read_by AS reader",
                           {"hashes": [chunk_hash(USER, text) for text in texts]})
    assert len(rows) == len(texts)
    return {row["reader"] for row in rows}


def fact_count(graph: SessionsGraph) -> int:
    return graph.store.run("MATCH (x:Fact) RETURN count(x) AS n")[0]["n"]


def test_text_spacy_read_is_read_again_by_the_model_and_not_a_third_time(graph: SessionsGraph) -> None:
    rules, api = Counted(), FakeApi()
    llm = backend("anthropic", api)
    assert graph.reconcile_session(record_session(graph, 0), backend=rules).status == "completed"
    assert readers(graph, TEXTS) == {read_by(rules)}

    # The same text in a new session, under the LLM backend: the model reads every text, and the chunks say so.
    repeat = graph.reconcile_session(record_session(graph, 0, session_id="session-repeat"), backend=llm)
    assert repeat.status == "completed" and repeat.texts_extracted == len(TEXTS)
    assert sorted(asked(api)) == sorted(TEXTS)
    assert readers(graph, TEXTS) == {read_by(llm)} and read_by(llm) != read_by(rules)
    # The model's reading was written: the seed's statement of the orders service's team, which spaCy does not make.
    assert "The orders service is built for the checkout team." in {x.text for x in graph.session_facts("session-repeat")}

    # A third time under the same model: served from the chunks.
    third = graph.reconcile_session(record_session(graph, 0, session_id="session-third"), backend=llm)
    assert third.texts_extracted == 0 and len(api.requests) == len(TEXTS)

    # Sessions already written are not read again under another backend: their statements stay as they are.
    facts = fact_count(graph)
    for sid in ("session-1", "session-repeat", "session-third"):
        assert graph.reconcile_session(sid, backend=rules).texts_extracted == 0
    assert len(rules.asked) == len(TEXTS) and fact_count(graph) == facts


def test_text_one_model_read_is_read_again_by_another_model(graph: SessionsGraph) -> None:
    api = FakeApi()
    graph.reconcile_session(record_session(graph, 0), backend=backend("openai", api))
    other = LlmBackend(llm_client("openai", api, model="another-model"))
    assert read_by(other) != read_by(backend("openai", api))
    repeat = graph.reconcile_session(record_session(graph, 0, session_id="session-repeat"), backend=other)
    assert repeat.texts_extracted == len(TEXTS) and len(api.requests) == 2 * len(TEXTS)
    assert api.requests[-1]["model"] == "another-model"
    # The two models read alike here: the repeat restated every statement, none doubled.
    assert fact_count(graph) == len(graph.session_facts("session-1")) == len(graph.session_facts("session-repeat"))


def test_a_chunk_that_does_not_say_who_read_it_is_read_again(graph: SessionsGraph) -> None:
    rules = Counted()
    graph.reconcile_session(record_session(graph, 0), backend=rules)
    graph.store.run("MATCH (c:Chunk) REMOVE c.read_by")  # as chunks written before they said who read them
    facts = fact_count(graph)

    repeat = graph.reconcile_session(record_session(graph, 0, session_id="session-repeat"), backend=rules)
    assert repeat.texts_extracted == len(TEXTS) and rules.asked == TEXTS + TEXTS
    assert readers(graph, TEXTS) == {read_by(rules)}
    # The same reader read the same: the repeat restated what the first session said.
    assert fact_count(graph) == facts


def test_a_memory_file_read_again_by_another_backend_holds_only_that_reading(graph: SessionsGraph) -> None:
    text = TEXTS[0]  # "Alice owns the orders service. It is built for the checkout team."
    memory = graph.save_memory(USER, text, path="/memories/projects/orders/notes.md")
    assert graph.reconcile_memory(memory.memory_id, backend=SpacyBackend()).status == "completed"
    spacy_said = memory_facts(graph, memory.memory_id)

    api = FakeApi(extra={text: {"entities": [{"name": "orders service", "kind": "service"},
                                             {"name": "Dana", "kind": "person"}],
                                "facts": [{"text": "Dana owns the orders service.", "slot": "orders service/owner",
                                           "about": ["orders service", "Dana"]}],
                                "decisions": []}})
    llm = backend("anthropic", api)
    assert graph.reconcile_memory(memory.memory_id, backend=llm).status == "completed"
    assert asked(api) == [text]
    # The file's statements are the model's reading alone: the rules' were forgotten, not kept beside it, and
    # the owner's slot holds one statement, superseding nothing.
    assert "Alice owns the orders service." in spacy_said
    assert memory_facts(graph, memory.memory_id) == ["Dana owns the orders service."]
    chain = graph.store.run("MATCH (x:Fact {slot: 'orders service/owner'}) OPTIONAL MATCH (x)-[r:SUPERSEDES]->() "
                            "RETURN x.text AS text, x.superseded_at AS superseded_at, count(r) AS supersedes")
    assert chain == [{"text": "Dana owns the orders service.", "superseded_at": None, "supersedes": 0}]

    assert graph.reconcile_memory(memory.memory_id, backend=llm).status == "completed"
    assert len(api.requests) == 1  # read by this model already


def memory_facts(graph: SessionsGraph, memory_id: str) -> list[str]:
    rows = graph.store.run("MATCH (x:Fact)-[:FROM]->(:Memory {memory_id: $mid}) RETURN x.text AS text ORDER BY text",
                           {"mid": memory_id})
    return [row["text"] for row in rows]


class CountedNames(Counted):
    """Counted, also noting the texts read for their entities alone."""

    def __init__(self) -> None:
        super().__init__()
        self.named: list[str] = []

    def extract_entities(self, texts: Sequence[str], ontology: OntologyModel) -> list[Extraction]:
        self.named += texts
        return super().extract_entities(texts, ontology)


def said_in(graph: SessionsGraph, sid: str, turns: list[dict]) -> str:
    start = STORY["sessions"][0]["startedAt"]
    graph.record_session_start(sid, user_id=USER, started_at=start)
    graph.record_turns(sid, [{"timestamp": start, **turn} for turn in turns], user_id=USER)
    return sid


def test_a_tool_printing_what_the_model_read_is_read_for_its_entities_by_the_rules(graph: SessionsGraph) -> None:
    text, api, rules = TEXTS[0], FakeApi(), CountedNames()
    llm = backend("anthropic", api)
    graph.reconcile_session(said_in(graph, "said", [{"role": "user", "text": text}]), backend=llm)
    printed = [{"type": "tool_result", "tool_name": "Bash", "output": text}]

    # The model's whole reading is not the rules': they read the tool's output for its entities.
    assert graph.reconcile_session(said_in(graph, "printed", printed), backend=rules).status == "completed"
    assert rules.named == [text] and rules.asked == []
    chunk = graph.store.run("MATCH (c:Chunk {hash: $hash}) RETURN c.read_by AS reader, c.entities_only AS only",
                            {"hash": chunk_hash(USER, text)})
    assert chunk == [{"reader": read_by(rules), "only": True}]

    # A message saying it again under the model is read whole by it again, and the chunk holds that reading.
    graph.reconcile_session(said_in(graph, "said-again", [{"role": "user", "text": text}]), backend=llm)
    assert asked(api) == [text, text]
    chunk = graph.store.run("MATCH (c:Chunk {hash: $hash}) RETURN c.read_by AS reader, c.entities_only AS only",
                            {"hash": chunk_hash(USER, text)})
    assert chunk == [{"reader": read_by(llm), "only": None}]
