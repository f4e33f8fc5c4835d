"""Reconciling sessions with the default backend (spaCy, offline) on the real embedded store."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from conftest import snapshot

from sessions_graph_core import SessionsGraph, ValidationError
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend
from sessions_graph_core.reconcile.pipeline import EXTRACT_AHEAD, MAX_UNIT_CHARS, chunk_hash
from sessions_graph_core.sessions.jsonl import read_transcript

EXAMPLES = Path(__file__).parents[2] / "examples" / "sessions"
VOLATILE = {"reconciled_at", "updated_at", "pending_since", "started_at", "embedded_at", "write_id"}  # write_id: one per write


def load(graph: SessionsGraph, name: str, *, user: str | None = None, session_id: str | None = None) -> str:
    transcript = read_transcript(EXAMPLES / name)
    header = transcript.header
    sid = session_id or header.session_id
    graph.record_session_start(sid, user_id=user or header.user_id, started_at=header.started_at)
    graph.record_turns(sid, transcript.turns, user_id=user or header.user_id)
    return sid


def stable(items: list[dict]) -> list[dict]:
    """A snapshot without the wall-clock properties that differ between any two runs."""
    def strip(value: object) -> object:
        if isinstance(value, dict):
            return {key: strip(item) for key, item in value.items() if key not in VOLATILE}
        if isinstance(value, list):
            return [strip(item) for item in value]
        return value
    return sorted((strip(item) for item in items), key=repr)  # type: ignore[arg-type]


def test_orders_story_with_spacy_supersedes_owner_and_database(graph: SessionsGraph) -> None:
    first = graph.reconcile_session(load(graph, "orders-1.jsonl"))
    assert first.status == "completed" and first.texts_considered == 8 and first.facts > 0
    before = {x.text for x in graph.current_facts("alice", "orders service")}
    assert "Alice owns the orders service." in before

    second = graph.reconcile_session(load(graph, "orders-2.jsonl"))
    assert second.status == "completed", second.error
    now = {x.text: x for x in graph.current_facts("alice", "What about the orders service?")}
    # "Carol is taking over the orders service from Alice" and "Carol owns it now" say one thing: one node.
    owner = [x for x in now.values() if x.slot == "orders service/owner"]
    assert len(owner) == 1 and "Carol" in owner[0].text
    assert owner[0].replaced == ["Alice owns the orders service."]
    switch = now["We're switching the orders service database to CockroachDB."]
    assert switch.kind == "decision" and switch.slot == "orders service/database"
    assert switch.replaced == ["We'll use Postgres as the orders service database, because the team already runs Postgres in production."]
    assert "Alice owns the orders service." not in now
    history = {x.text: x for x in graph.fact_history("alice", "orders service")}
    assert history["Alice owns the orders service."].superseded_at == "2026-03-16T14:07:00.000000Z"
    postgres = history["We'll use Postgres as the orders service database, because the team already runs Postgres in production."]
    assert postgres.rationale == "the team already runs Postgres in production"
    march_9 = {x.text for x in graph.facts_as_of("alice", "orders service", "2026-03-09T00:00:00Z")}
    assert {"Alice owns the orders service.", postgres.text} <= march_9
    assert not any("Carol" in text or "CockroachDB" in text for text in march_9)
    assert graph.known_slots("alice") == ["orders service/database", "orders service/owner"]


def test_session_status_records_backend_and_ontology_version(graph: SessionsGraph) -> None:
    sid = load(graph, "orders-1.jsonl")
    graph.end_session(sid)
    assert graph.get_pending_reconciliation_sessions() == [sid]
    graph.reconcile_session(sid)
    row = graph.store.run(
        "MATCH (s:Session {session_id: $sid}) RETURN s.reconciliation_status AS status, s.reconciled_at AS at, "
        "s.ontology_version AS version, s.extraction_backend AS backend, s.reconciliation_error AS error",
        {"sid": sid},
    )[0]
    assert row["status"] == "completed" and row["at"] and row["version"] == 0 and row["backend"] == "spacy"
    assert row["error"] is None
    assert graph.get_pending_reconciliation_sessions() == []


def test_rerun_changes_nothing_and_extracts_nothing(graph: SessionsGraph) -> None:
    sid = load(graph, "orders-1.jsonl")
    graph.reconcile_session(sid)
    before = stable(snapshot(graph.store))
    again = graph.reconcile_session(sid)
    assert again.status == "completed" and again.texts_considered == 0 and again.texts_extracted == 0
    assert stable(snapshot(graph.store)) == before


def test_new_turns_are_reconciled_on_the_next_run_only(graph: SessionsGraph) -> None:
    sid = load(graph, "orders-1.jsonl")
    graph.reconcile_session(sid)
    graph.record_turns(sid, [{"role": "user", "text": "Dave manages the billing service.", "timestamp": "2026-03-03T10:00:00Z"}], user_id="alice",
                       first_position=100)
    graph.end_turn(sid)
    summary = graph.reconcile_session(sid)
    assert summary.texts_considered == 1 and summary.texts_extracted == 1
    assert [x.text for x in graph.current_facts("alice", "billing service") if x.slot] == ["Dave manages the billing service."]


def test_units_skip_memory_tool_use_blank_text_and_are_truncated(graph: SessionsGraph) -> None:
    graph.record_session_start("units", user_id="bob")
    long_text = "Erin owns the search service. " * 400
    graph.record_turns("units", [
        {"type": "tool_call", "tool_name": "memory", "tool_input": {"command": "create", "path": "/memories/a.md", "file_text": "Zed owns the ledger."}},
        {"type": "tool_result", "tool_name": "memory", "output": "File created successfully at: /memories/a.md"},
        {"type": "tool_call", "tool_name": "Bash", "tool_input": {"command": "psql orders"}},
        {"role": "user", "text": "   "},
        {"role": "user", "text": long_text},
    ], user_id="bob")
    summary = graph.reconcile_session("units")
    assert summary.texts_considered == 2
    chunks = graph.store.run("MATCH (t:Turn)-[:HAS_CHUNK]->(c:Chunk) RETURN t.kind AS kind, c.text AS text ORDER BY kind")
    assert [row["kind"] for row in chunks] == ["message", "tool_call"]
    assert len(chunks[0]["text"]) == MAX_UNIT_CHARS and chunks[0]["text"] == long_text.strip()[:MAX_UNIT_CHARS]
    assert json.loads(chunks[1]["text"]) == {"command": "psql orders"}
    assert not graph.store.run("MATCH (n:Entity) WHERE n.name_key IN ['zed', 'ledger'] RETURN n")


def test_identical_text_of_two_users_never_shares_anything(graph: SessionsGraph) -> None:
    graph.reconcile_session(load(graph, "orders-1.jsonl", user="alice", session_id="a-1"))
    graph.reconcile_session(load(graph, "orders-1.jsonl", user="mallory", session_id="m-1"))
    text = "Alice owns the orders service. It is built for the checkout team."
    hashes = {row["hash"] for row in graph.store.run("MATCH (c:Chunk) WHERE c.text = $t RETURN c.hash AS hash", {"t": text})}
    assert hashes == {chunk_hash("alice", text), chunk_hash("mallory", text)}
    crossing = graph.store.run(
        "MATCH (a)-[r]->(b) WHERE a.user_id IS NOT NULL AND b.user_id IS NOT NULL AND a.user_id <> b.user_id "
        "RETURN type(r) AS type, a.user_id AS a, b.user_id AS b"
    )
    assert crossing == []
    graph.forget_session("mallory", "m-1")
    assert {x.text for x in graph.current_facts("alice", "orders service")} >= {"Alice owns the orders service."}
    assert graph.current_facts("mallory", "orders service") == []


def test_provenance_links_every_session_that_mentioned_or_stated(graph: SessionsGraph) -> None:
    graph.reconcile_session(load(graph, "orders-1.jsonl"))
    graph.reconcile_session(load(graph, "orders-2.jsonl"))
    assert graph.sessions_mentioning("alice", "orders service") == ["orders-1", "orders-2"]
    assert graph.sessions_mentioning("alice", "Kafka") == ["orders-1"]
    alice_fact = next(x for x in graph.fact_history("alice", "orders service") if x.text.startswith("Alice owns"))
    # Session 2 contradicted it: that is not a restatement, so it is not linked.
    assert graph.sessions_stating("alice", alice_fact.fact_id) == ["orders-1"]
    # The assistant's "Noted: Carol now owns the orders service." restated the current fact.
    carol = next(x for x in graph.session_facts("orders-2") if x.slot == "orders service/owner")
    assert graph.store.run("MATCH (:Fact {fact_id: $f})-[r:FROM]->(:Turn) RETURN count(r) AS n", {"f": carol.fact_id})[0]["n"] == 2
    names = {entity.name for entity in graph.session_entities("orders-2")}
    assert {"Carol", "orders service", "Postgres"} <= names and "Kafka" not in names


def test_enforce_ontology_promotes_conformant_types_only(graph: SessionsGraph) -> None:
    graph.reconcile_session(load(graph, "orders-1.jsonl"), enforce_ontology=True)
    alice = graph.store.run("MATCH (n:Entity {name_key: 'alice'}) RETURN labels(n) AS labels, n.ontology_conformant AS ok")
    assert sorted(alice[0]["labels"]) == ["Entity", "Person"] and alice[0]["ok"] is True
    plain = graph.store.run("MATCH (n:Entity) WHERE size(labels(n)) = 1 RETURN count(n) AS n")[0]["n"]
    assert plain == 0  # every spaCy type is one of the default model's


def test_default_leaves_types_as_properties(graph: SessionsGraph) -> None:
    graph.reconcile_session(load(graph, "orders-1.jsonl"))
    labels = graph.store.run("MATCH (n:Entity) RETURN DISTINCT labels(n) AS labels")
    assert labels == [{"labels": ["Entity"]}]


def test_unknown_session_is_rejected_and_changes_nothing(graph: SessionsGraph) -> None:
    before = snapshot(graph.store)
    with pytest.raises(ValidationError, match="does not exist"):
        graph.reconcile_session("no-such-session")
    with pytest.raises(ValidationError, match="control characters"):
        graph.reconcile_session("bad\x00id")
    assert snapshot(graph.store) == before


def record_sessions(graph: SessionsGraph) -> list[str]:
    """Two users' sessions, alice's change of owner and database among them, and a session of alice that
    repeats a text of the one before it (a chunk the session before extracts)."""
    ids = [load(graph, "orders-1.jsonl"), load(graph, "garden-1.jsonl"), load(graph, "orders-2.jsonl")]
    graph.record_session_start("orders-3", user_id="alice", started_at="2026-03-17T09:00:00Z")
    repeated = read_transcript(EXAMPLES / "orders-2.jsonl").turns[0].text
    graph.record_turns("orders-3", [{"role": "user", "text": repeated, "timestamp": "2026-03-17T09:01:00Z"},
                                    {"role": "user", "text": "Dave manages the billing service.",
                                     "timestamp": "2026-03-17T09:02:00Z"}], user_id="alice")
    return [*ids, "orders-3"]


def test_sessions_reconciled_together_leave_the_graph_one_at_a_time_leaves(graph: SessionsGraph) -> None:
    ids = record_sessions(graph)
    alone = [graph.reconcile_session(sid) for sid in ids]
    expected = stable(snapshot(graph.store))
    graph.store.delete_all()
    graph.setup()
    record_sessions(graph)

    together = list(graph.reconcile_sessions([ids[0], "no-such-session", *ids[1:]]))

    assert [s.session_id for s in together] == [ids[0], "no-such-session", *ids[1:]]
    missing = together.pop(1)
    assert missing.status == "failed" and "does not exist" in (missing.error or "")
    assert together == alone and all(s.status == "completed" for s in together)
    # orders-3's first text was extracted by orders-2, in memory or from its chunk: never twice.
    assert together[-1].texts_extracted == alone[-1].texts_extracted == 1
    assert stable(snapshot(graph.store)) == expected


def test_the_next_session_is_extracted_while_one_is_written(graph: SessionsGraph) -> None:
    threads: dict[str, str] = {}

    class Watched(SpacyBackend):
        def extract(self, texts, ontology, known_slots=()):  # type: ignore[no-untyped-def]
            threads.update((text, threading.current_thread().name) for text in texts)
            return super().extract(texts, ontology, known_slots)

    ids = record_sessions(graph)
    summaries = list(graph.reconcile_sessions(ids, backend=Watched()))

    assert all(s.status == "completed" for s in summaries)
    first = read_transcript(EXAMPLES / "orders-1.jsonl").turns[0].text
    later = read_transcript(EXAMPLES / "garden-1.jsonl").turns[0].text
    assert threads[first] == "MainThread" and threads[later].startswith("extract")


def record_many(graph: SessionsGraph, count: int, *, bad: int | None = None) -> list[str]:
    """`count` sessions of two users, each with a text of its own and one every session repeats; session
    `bad` has a text the backend below cannot read."""
    ids = []
    for n in range(count):
        sid = f"many-{n:02d}"
        day = f"2026-03-{n + 1:02d}T09:00:00Z"
        graph.record_session_start(sid, user_id=("alice", "bob")[n % 2], started_at=day)
        own = "This one cannot be read." if n == bad else f"Worker {n} owns the service number {n}."
        graph.record_turns(sid, [{"role": "user", "text": own, "timestamp": day},
                                 {"role": "user", "text": "Dana leads the payments team.", "timestamp": day}], user_id=('alice', 'bob')[n % 2])
        ids.append(sid)
    return ids


class Counted(SpacyBackend):
    """spaCy, counting the calls and the texts of each; a text saying it cannot be read fails the call."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[list[str]] = []

    def extract(self, texts, ontology, known_slots=()):  # type: ignore[no-untyped-def]
        self.calls.append(list(texts))
        if any("cannot be read" in text for text in texts):
            raise RuntimeError("unreadable text")
        return super().extract(texts, ontology, known_slots)


def test_sessions_ahead_are_extracted_a_group_in_one_call_and_each_text_once(graph: SessionsGraph) -> None:
    backend = Counted()
    ids = record_many(graph, 12)
    summaries = list(graph.reconcile_sessions(ids, backend=backend))
    assert all(s.status == "completed" for s in summaries)
    # The first session (alice's) alone; then the next EXTRACT_AHEAD sessions' own texts in one call, with
    # bob's copy of the shared text (a chunk is its user's own) once; then the rest's own texts.
    assert [len(call) for call in backend.calls] == [2, EXTRACT_AHEAD + 1, 12 - 1 - EXTRACT_AHEAD]
    assert sum(s.texts_extracted for s in summaries) == 14
    assert stable(snapshot(graph.store)) == one_at_a_time(graph, lambda: record_many(graph, 12))


def one_at_a_time(graph: SessionsGraph, record) -> list[dict]:  # type: ignore[no-untyped-def]
    """The graph that reconciling the sessions `record` makes one at a time leaves (the store emptied first)."""
    graph.store.delete_all()
    graph.setup()
    for sid in record():
        graph.reconcile_session(sid, backend=Counted())
    return stable(snapshot(graph.store))


def test_a_group_call_that_fails_is_made_again_per_session_and_fails_only_the_bad_one(graph: SessionsGraph) -> None:
    backend = Counted()
    ids = record_many(graph, 6, bad=3)
    summaries = {s.session_id: s for s in graph.reconcile_sessions(ids, backend=backend)}
    assert summaries[ids[3]].status == "failed" and "unreadable text" in (summaries[ids[3]].error or "")
    assert all(summaries[sid].status == "completed" for sid in ids if sid != ids[3])
    assert len(backend.calls[1]) > 2  # the group's call, which failed, then one per session
    assert stable(snapshot(graph.store)) == one_at_a_time(graph, lambda: record_many(graph, 6, bad=3))
