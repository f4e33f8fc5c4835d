"""Ontology derivation on the real store, over sessions reconciled with spaCy, the LLM behind a fake HTTP API."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import snapshot
from derivation_helpers import (
    BAD,
    GOOD,
    SPACY,
    USER,
    FakeLlmApi,
    fake_llm,
    node,
    proposal,
    record,
    relation,
    user_turns,
)

from sessions_graph_core import SessionsGraph
from sessions_graph_core.errors import NoLlmConfiguredError
from sessions_graph_core.ontology import model as ontology
from sessions_graph_core.ontology.derive import gate, milestones
from sessions_graph_core.ontology.derive import run as derivation
from sessions_graph_core.ontology.derive.candidates import Proposal, apply
from sessions_graph_core.ontology.derive.gate import TOLERANCE, split
from sessions_graph_core.ontology.derive.milestones import due, due_users, next_milestone, reached
from sessions_graph_core.ontology.derive.run import chain

TEAM = proposal([node("Team")], [relation("leads", ["User", "Person"], ["Team"])])
# Renames Database to Datastore: the entities typed Database follow.
RENAME = proposal([node("Datastore")], merge=[("node", "Database", "Datastore")])


def run(graph: SessionsGraph, answers: list, *, provider: str = "anthropic", **options) -> derivation.RunReport:
    api = FakeLlmApi(answers)
    report = derivation.derive(graph.store, USER, llm=fake_llm(provider, api), backend=SPACY, **options)
    assert report.llm is not None and report.llm.calls == len(api.requests)
    return report


def entity_types(graph: SessionsGraph) -> dict[str, tuple[str, list[str], str]]:
    rows = graph.store.run(
        "MATCH (n:Entity {user_id: $uid}) RETURN n.name_key AS name, n.type AS type, labels(n) AS labels, "
        "n.entity_key AS key", {"uid": USER},
    )
    return {row["name"]: (row["type"], sorted(row["labels"]), row["key"]) for row in rows}


def adopted_version(graph: SessionsGraph) -> int:
    return ontology.adopted(graph.store, USER).version


# -- milestones ------------------------------------------------------------------------------


def test_milestone_schedule() -> None:
    after = [0, 1, 2, 3, 4, 7, 8, 16, 64, 127, 128, 200, 256, 300]
    assert [next_milestone(n) for n in after] == [2, 2, 4, 4, 8, 8, 16, 32, 128, 128, 256, 256, 384, 384]
    assert [reached(n) for n in (0, 1, 2, 3, 5, 9, 127, 128, 255, 256, 500)] == [0, 0, 2, 2, 4, 8, 64, 128, 128, 256, 384]


def test_runs_exactly_at_2_4_and_8_sessions_each_outcome_on_its_version(graph: SessionsGraph) -> None:
    answers = {2: [GOOD], 4: [TEAM], 8: [BAD]}
    runs: dict[int, derivation.RunReport] = {}
    for index in range(9):
        record(graph, index)
        count = len(milestones.qualifying(graph.store, USER))
        assert count == index + 1
        milestone = graph.ontology_due(USER)
        assert graph.users_due_for_derivation() == ([(USER, milestone)] if milestone else [])
        if milestone is not None:
            assert milestone == count
            api = FakeLlmApi(answers[count])
            runs[count] = graph.derive_ontology(USER, llm=fake_llm("openai", api), backend=SPACY, seeds=1)
    assert sorted(runs) == [2, 4, 8]
    assert [runs[n].outcome for n in (2, 4, 8)] == ["adopted", "adopted", "rejected"]
    assert [runs[n].delta for n in (2, 4, 8)] == [2, 2, 4]

    versions = graph.ontology_versions(USER)
    assert [(v.version, v.status, v.source) for v in versions] == [
        (1, "superseded", "derived"), (2, "adopted", "derived"), (3, "rejected", "derived")
    ]
    assert [(v.report.milestone, v.report.outcome, v.based_on) for v in versions] == [
        (2, "adopted", 0), (4, "adopted", 1), (8, "rejected", 2)
    ]
    assert [c.label for c in versions[1].changelog] == ["Team", "leads"]
    assert graph.store.run(
        "MATCH (:User {user_id: $uid})-[:ADOPTED]->(v:OntologyVersion) MATCH (p:OntologyVersion)-[:NEXT]->(v) "
        "RETURN p.version AS previous, v.version AS current", {"uid": USER},
    ) == [{"previous": 1, "current": 2}]
    assert adopted_version(graph) == 2
    # The ninth session reaches no milestone; the next one is 16.
    assert due(graph.store, USER) is None and due_users(graph.store) == []


def test_a_user_far_past_a_milestone_gets_one_run_for_the_highest_one(graph: SessionsGraph) -> None:
    for index in range(5):
        record(graph, index)
    assert due(graph.store, USER) == 2
    report = run(graph, [GOOD], seeds=1)
    assert (report.milestone, report.outcome) == (4, "adopted")
    assert due(graph.store, USER) is None
    for index in range(5, 8):
        record(graph, index)
    assert due(graph.store, USER) == 8


def test_a_session_without_enough_of_the_users_words_does_not_count(graph: SessionsGraph) -> None:
    record(graph, 0)
    graph.record_session_start("short-1", user_id=USER)
    graph.record_turns("short-1", [{"role": "user", "text": text[:300]} for text in user_turns(1)], user_id=USER)
    graph.record_session_start("one-turn", user_id=USER)
    graph.record_turns("one-turn", [{"role": "user", "text": " ".join(user_turns(2))},
                                    {"role": "assistant", "text": " ".join(user_turns(3))}], user_id=USER)
    for sid in ("short-1", "one-turn"):
        assert graph.reconcile_session(sid, backend=SPACY).status == "completed"
    assert [row["session_id"] for row in milestones.qualifying(graph.store, USER)] == [f"{USER}-s00"]
    assert due(graph.store, USER) is None
    record(graph, 1)
    assert due(graph.store, USER) == 2


def counted(graph: SessionsGraph, user: str) -> int | None:
    rows = graph.store.run("MATCH (u:User {user_id: $uid}) RETURN u.qualifying AS n", {"uid": user})
    return rows[0]["n"]


def test_each_users_count_of_qualifying_sessions_follows_reconciling_and_forgetting(graph: SessionsGraph) -> None:
    """The sensor reads one count per user (due_users), made from the sessions once, then kept by
    reconciliation and forgetting; it always equals what `qualifying` finds."""
    record(graph, 0)
    graph.record_session_start("short-1", user_id=USER)
    graph.record_turns("short-1", [{"role": "user", "text": text[:300]} for text in user_turns(1)], user_id=USER)
    graph.reconcile_session("short-1", backend=SPACY)
    assert counted(graph, USER) is None  # a store from before the count: made when the sensor first looks
    assert due_users(graph.store) == [] and counted(graph, USER) == 1
    for index in range(1, 4):
        record(graph, index)
        assert counted(graph, USER) == len(milestones.qualifying(graph.store, USER)) == index + 1
    assert due_users(graph.store) == [(USER, 2)] and due(graph.store, USER) == 2
    graph.reconcile_session(f"{USER}-s01", backend=SPACY)  # again: counted once
    graph.forget_session(USER, f"{USER}-s02")
    graph.forget_session(USER, "short-1")  # never counted: nothing to take back
    # A session that backs a fact s02 had worded is read again (issue 42): uncounted until it is.
    assert counted(graph, USER) == len(milestones.qualifying(graph.store, USER))
    for sid in graph.get_pending_reconciliation_sessions():
        graph.reconcile_session(sid, backend=SPACY)
    assert counted(graph, USER) == len(milestones.qualifying(graph.store, USER)) == 3


# -- sampling --------------------------------------------------------------------------------


def test_hold_out_split() -> None:
    small = [f"s{i}" for i in range(7)]
    assert split(small, USER, 8).model_dump() == {"sample": small, "train": small, "gate": small, "in_sample": True}
    nine = [f"s{i}" for i in range(9)]
    chosen = split(nine, USER, 8)
    assert not chosen.in_sample and chosen.sample == nine and len(chosen.gate) == 2
    assert sorted(chosen.train + chosen.gate) == nine and not set(chosen.train) & set(chosen.gate)
    assert split(nine, USER, 8) == chosen
    many = [f"s{i:03d}" for i in range(100)]
    big = split(many, USER, 128)
    assert len(big.sample) == 64 and big.sample == sorted(big.sample) and set(big.sample) <= set(many)
    assert len(big.gate) == 8 and len(big.train) == 56
    assert split(many, USER, 128) == big and split(many, "someone-else", 128).sample != big.sample


def test_the_llm_reads_the_training_sessions_and_the_gate_the_held_out_ones(graph: SessionsGraph) -> None:
    for index in range(9):
        record(graph, index)
    api = FakeLlmApi([GOOD])
    report = derivation.derive(graph.store, USER, llm=fake_llm("openai", api), backend=SPACY, seeds=1, force=True)
    assert (report.delta, report.sampled, report.held_out, report.in_sample) == (9, 9, 2, False)
    delta = [row["session_id"] for row in milestones.qualifying(graph.store, USER)]
    chosen = split(delta, USER, 8)
    held = {int(sid[-2:]) for sid in chosen.gate}
    sent = api.requests[0]["messages"][1]["content"]
    for index in range(9):
        assert (user_turns(index)[0] in sent) == (index not in held)
    # The gate scored the held-out sessions only: 3 user turns each.
    assert report.base.user_turns == 6 and report.candidates[0].score.user_turns == 6


# -- the gate --------------------------------------------------------------------------------


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_gate_adopts_the_candidate_that_types_more_and_rejects_the_one_that_types_less(
    graph: SessionsGraph, provider: str
) -> None:
    record(graph, 0)
    record(graph, 1)
    report = run(graph, [GOOD, BAD], provider=provider, seeds=2)
    good, bad = report.candidates
    base = report.base
    assert report.outcome == "adopted" and report.in_sample and report.held_out == 0
    assert good.passed and good.score.catch_all_share < base.catch_all_share and good.score.coverage > base.coverage
    assert not bad.passed and bad.score.catch_all_share > base.catch_all_share + TOLERANCE
    assert (good.added, good.merged, good.retired) == (5, 0, 0)
    assert (bad.added, bad.retired) == (0, 6)  # two node types, and four relations left without an endpoint
    assert (report.adopted_version, report.rejected_versions) == (1, [2])
    assert (good.version, bad.version) == (1, 2)
    assert report.llm.provider == provider and report.llm.calls == 2 and report.llm.input_tokens > 0
    edges = graph.store.run(
        "MATCH (:User {user_id: $uid})-[r]->(v:OntologyVersion) RETURN type(r) AS type, v.version AS version "
        "ORDER BY version", {"uid": USER},
    )
    assert edges == [{"type": "ADOPTED", "version": 1}, {"type": "REJECTED", "version": 2}]
    adopted = ontology.adopted(graph.store, USER)
    assert {"Service", "Database", "Cluster"} <= set(adopted.model.labels())
    stored = json.loads(graph.store.run(
        "MATCH (v:OntologyVersion {user_id: $uid, version: 1}) RETURN v.report AS report", {"uid": USER}
    )[0]["report"])
    assert stored["base"] == base.model_dump() and stored["outcome"] == "adopted" and stored["llm"]["calls"] == 2
    pool = json.loads(graph.store.run(
        "MATCH (v:OntologyVersion {user_id: $uid, version: 2}) RETURN v.pool AS pool", {"uid": USER}
    )[0]["pool"])
    assert [n["label"] for n in pool["node_types"]] == ["Organization", "Location"]


def test_rejection_keeps_the_candidates_and_rolls_the_delta_into_the_next_run(graph: SessionsGraph) -> None:
    record(graph, 0)
    record(graph, 1)
    api = FakeLlmApi([BAD, BAD])
    llm = fake_llm("anthropic", api)
    first = derivation.derive(graph.store, USER, llm=llm, backend=SPACY, seeds=2)
    assert first.outcome == "rejected" and first.rejected_versions == [1, 2] and first.adopted_version is None
    assert adopted_version(graph) == 0 and due(graph.store, USER) is None
    record(graph, 2)
    assert due(graph.store, USER) is None
    record(graph, 3)
    assert due(graph.store, USER) == 4
    api.answers = [GOOD]
    second = derivation.derive(graph.store, USER, llm=llm, backend=SPACY, seeds=1)
    assert (second.outcome, second.delta, second.adopted_version) == ("adopted", 4, 3)
    # One client served both runs: each report counts its own calls, the client all of them.
    assert (first.llm.calls, second.llm.calls, llm.usage.calls) == (2, 1, 3)
    assert first.llm.input_tokens + second.llm.input_tokens == llm.usage.input_tokens
    assert second.reextracted == 4
    assert [(v.version, v.status) for v in chain(graph.store, USER)] == [(1, "rejected"), (2, "rejected"), (3, "adopted")]


def test_a_candidate_may_not_touch_the_core_the_catch_alls_or_pinned_types() -> None:
    current = ontology.DEFAULT_MODEL
    answer = Proposal.model_validate(
        proposal([node("Service")], merge=[("node", "Topic", "Service"), ("node", "Event", "Service")],
                 retire=[("node", "Person"), ("node", "Organization"), ("relation", "nonexistent")])
    )
    candidate = apply(current, answer, pinned=["Organization"], pool=ontology.OntologyModel(node_types=[]))
    assert candidate.refused == ["merge node Topic", "retire node Person", "retire node Organization",
                                 "retire relation nonexistent"]
    assert [(c.op, c.label, c.into) for c in candidate.changelog] == [("add", "Service", None), ("merge", "Event", "Service")]
    labels = candidate.model.labels()
    assert "Event" not in labels and {"Person", "Organization", "Topic", "Service"} <= set(labels)
    attended = next(r for r in candidate.model.relation_types if r.label == "attended")
    assert attended.end_labels == ["Service"]


def test_an_unsafe_label_in_the_answer_fails_that_candidate_and_writes_nothing(graph: SessionsGraph) -> None:
    record(graph, 0)
    record(graph, 1)
    before = snapshot(graph.store)
    evil = proposal([node("Service`) DETACH DELETE n //")])
    report = run(graph, [evil], seeds=1)
    assert report.outcome == "failed" and report.adopted_version is None and report.rejected_versions == []
    assert "not a safe identifier" in report.candidates[0].error
    after = snapshot(graph.store)
    changed = [row for row in after if row not in before and "labels" in row]
    # Only the User node changed: its milestone is spent. No version, no type, no label was written.
    assert [(row["labels"], row["props"]["user_id"], row["props"]["derive_milestone"]) for row in changed] == [
        (["User"], USER, 2)
    ]
    assert len(after) == len(before)


# -- after adoption --------------------------------------------------------------------------


def test_adding_types_reextracts_the_delta_and_retypes_its_entities(graph: SessionsGraph) -> None:
    record(graph, 0)
    record(graph, 1)
    before = entity_types(graph)
    assert before["orders service"][:2] == ("Topic", ["Entity", "Topic"])
    mentions = graph.store.run("MATCH (:Entity {user_id: $uid})-[m:MENTIONED_IN]->() RETURN count(m) AS n", {"uid": USER})
    report = run(graph, [GOOD], seeds=1)
    assert report.reextracted == 2
    after = entity_types(graph)
    assert after["orders service"] == ("Service", ["Entity", "Service"], "orders service|Service")
    assert after["ledger database"][:2] == ("Database", ["Database", "Entity"])
    assert after["alice"] == before["alice"] and set(after) == set(before)
    assert graph.store.run(
        "MATCH (:Entity {user_id: $uid})-[m:MENTIONED_IN]->() RETURN count(m) AS n", {"uid": USER}
    ) == mentions
    versions = graph.store.run(
        "MATCH (s:Session {user_id: $uid}) RETURN s.ontology_version AS version", {"uid": USER}
    )
    assert [row["version"] for row in versions] == [1, 1]
    chunk = graph.store.run(
        "MATCH (c:Chunk {user_id: $uid}) WHERE c.text CONTAINS 'owns the orders service' RETURN c.extraction AS e",
        {"uid": USER},
    )
    assert {"name": "orders service", "type": "Service"} in json.loads(chunk[0]["e"])["entities"]
    # A session reconciled later is extracted under the adopted version straight away.
    record(graph, 2)
    assert entity_types(graph)["billing service"][0] == "Service"


def test_a_run_that_adds_nothing_reextracts_nothing(graph: SessionsGraph) -> None:
    record(graph, 0)
    record(graph, 1)
    before = entity_types(graph)
    report = run(graph, [proposal()], seeds=1)
    assert report.outcome == "adopted" and report.reextracted == 0 and report.relabelled == 0
    assert entity_types(graph) == before


def test_a_merged_type_is_relabelled_in_place(graph: SessionsGraph) -> None:
    record(graph, 0)
    record(graph, 1)
    run(graph, [GOOD], seeds=1)
    databases = {name for name, (kind, _, _) in entity_types(graph).items() if kind == "Database"}
    assert databases == {"ledger database", "customer database"}
    about = graph.store.run(
        "MATCH (f:Fact)-[:ABOUT]->(n:Entity {user_id: $uid, type: 'Database'}) RETURN count(f) AS n", {"uid": USER}
    )[0]["n"]
    assert about > 0
    # Sessions without databases: the rename costs the gate nothing there.
    record(graph, 2, databases=False)
    record(graph, 3, databases=False)
    report = run(graph, [RENAME], seeds=1)
    assert report.outcome == "adopted" and report.relabelled == 2 and report.candidates[0].merged == 1
    after = entity_types(graph)
    for name in databases:
        assert after[name] == ("Datastore", ["Datastore", "Entity"], f"{name}|Datastore")
    assert "Database" not in {kind for kind, _, _ in after.values()}
    assert graph.store.run(
        "MATCH (f:Fact)-[:ABOUT]->(n:Entity {user_id: $uid, type: 'Datastore'}) RETURN count(f) AS n", {"uid": USER}
    )[0]["n"] == about
    labels = ontology.adopted(graph.store, USER).model.labels()
    assert "Datastore" in labels and "Database" not in labels


def test_retyping_onto_an_existing_namesake_joins_the_two(graph: SessionsGraph) -> None:
    record(graph, 0)
    topic = entity_types(graph)["orders service"]
    graph.store.run(
        "MATCH (n:Entity {user_id: $uid, entity_key: $key}) "
        "CREATE (t:Entity:Service {user_id: $uid, entity_key: 'orders service|Service', name: 'Orders Service', "
        "name_key: 'orders service', type: 'Service', aliases: []})",
        {"uid": USER, "key": topic[2]},
    )
    mentions = graph.store.run(
        "MATCH (n:Entity {user_id: $uid, entity_key: $key})-[:MENTIONED_IN]->(c) RETURN count(c) AS n",
        {"uid": USER, "key": topic[2]},
    )[0]["n"]
    assert derivation.retype(graph.store, USER, [topic[2]], "Service") == 1
    joined = graph.store.run(
        "MATCH (n:Entity {user_id: $uid, name_key: 'orders service'}) OPTIONAL MATCH (n)-[:MENTIONED_IN]->(c) "
        "OPTIONAL MATCH (s:Session)-[:DISCOVERED]->(n) "
        "RETURN n.entity_key AS key, n.aliases AS aliases, count(DISTINCT c) AS chunks, count(DISTINCT s) AS sessions",
        {"uid": USER},
    )
    assert joined == [{"key": "orders service|Service", "aliases": ["orders service"], "chunks": mentions, "sessions": 1}]
    with pytest.raises(ontology.ValidationError, match="not a safe identifier"):
        derivation.retype(graph.store, USER, ["x"], "Service) DELETE n //")


# -- when derivation does not run --------------------------------------------------------------


def test_derive_off_is_never_due_and_never_calls_the_llm(graph: SessionsGraph) -> None:
    ontology.supply(graph.store, USER, ontology.DEFAULT_MODEL, derive="off")
    for index in range(4):
        record(graph, index)
    assert due(graph.store, USER) is None and due_users(graph.store) == []
    api = FakeLlmApi([GOOD])
    before = snapshot(graph.store)
    report = derivation.derive(graph.store, USER, llm=fake_llm("anthropic", api), backend=SPACY, force=True)
    assert report.outcome == "derive off" and api.requests == []
    assert snapshot(graph.store) == before


def test_without_a_key_derivation_says_it_needs_one_and_changes_nothing(
    graph: SessionsGraph, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "SESSIONS_GRAPH_LLM_ANTHROPIC_API_KEY",
                 "SESSIONS_GRAPH_LLM_OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SESSIONS_GRAPH_CONFIG", str(tmp_path / "none.toml"))
    record(graph, 0)
    record(graph, 1)
    before = snapshot(graph.store)
    with pytest.raises(NoLlmConfiguredError, match="set llm.anthropic_api_key or llm.openai_api_key"):
        derivation.derive(graph.store, USER, backend=SPACY)
    assert snapshot(graph.store) == before and due(graph.store, USER) == 2


def test_below_the_milestone_nothing_runs_unless_forced(graph: SessionsGraph) -> None:
    record(graph, 0)
    api = FakeLlmApi([GOOD])
    report = derivation.derive(graph.store, USER, llm=fake_llm("anthropic", api), backend=SPACY)
    assert report.outcome == "nothing to do" and api.requests == []
    forced = derivation.derive(graph.store, USER, llm=fake_llm("anthropic", api), backend=SPACY, force=True, seeds=1)
    assert (forced.outcome, forced.milestone, forced.delta) == ("adopted", 0, 1)
    again = derivation.derive(graph.store, USER, llm=fake_llm("anthropic", api), backend=SPACY, force=True, seeds=1)
    assert (again.outcome, again.delta) == ("nothing to do", 0) and len(api.requests) == 1
    with pytest.raises(ontology.ValidationError, match="seeds must be between 1 and 3"):
        derivation.derive(graph.store, USER, llm=fake_llm("anthropic", api), seeds=4)


def test_a_retired_type_comes_back_as_a_restore_and_leaves_the_pool() -> None:
    studied = ontology.RelationType(label="studied", start_labels=["Person"], end_labels=["Topic"])
    pool = ontology.OntologyModel(node_types=[ontology.NodeType(label="Course")], relation_types=[studied])
    answer = Proposal.model_validate(
        proposal([node("Course"), node("Service")], [relation("studied", ["Person"], ["Course"])])
    )
    current = ontology.OntologyModel(node_types=list(ontology.DEFAULT_MODEL.node_types))
    candidate = apply(current, answer, pinned=[], pool=pool)
    assert [(c.op, c.kind, c.label) for c in candidate.changelog] == [
        ("restore", "node", "Course"), ("add", "node", "Service"), ("restore", "relation", "studied")
    ]
    assert candidate.pool.node_types == [] and candidate.pool.relation_types == []


def test_coverage_counts_user_turns_whose_statement_fits_a_relation_type_endpoints_included() -> None:
    from sessions_graph_core.reconcile.extraction.base import ExtractedEntity, ExtractedFact, Extraction

    said = Extraction(
        entities=[ExtractedEntity(name="Alice", type="Person"), ExtractedEntity(name="orders service", type="Service"),
                  ExtractedEntity(name="Kafka", type="Artifact")],
        facts=[ExtractedFact(text="Alice owns the orders service.", subject="Alice", predicate="own",
                             object="orders service"),
               ExtractedFact(text="We use Kafka.", kind="decision", subject="We", predicate="use", object="Kafka")],
    )
    nodes = ontology.DEFAULT_MODEL.node_types + [ontology.NodeType(label="Service")]

    def model(*relations: ontology.RelationType) -> ontology.OntologyModel:
        return ontology.OntologyModel(node_types=nodes, relation_types=list(relations))

    owns = ontology.RelationType(label="owns", start_labels=["Person"], end_labels=["Service"])
    owns_db = ontology.RelationType(label="owns", start_labels=["Person"], end_labels=["Artifact"])
    uses = ontology.RelationType(label="uses", start_labels=["User"], end_labels=["Artifact"])
    roles = ["user", "assistant"]
    assert gate.measure([said, said], roles, model(owns)).coverage == 1.0
    assert gate.measure([said, said], roles, model(owns_db)).coverage == 0.0
    assert gate.measure([said, said], roles, model(uses)).coverage == 1.0  # "we" is the user
    assert gate.measure([said, said], roles, model()).coverage == 0.0
    # Two of six mentions are catch-alls (Kafka twice); a type the model lacks counts with them.
    assert gate.measure([said, said], roles, model()).catch_all_share == round(2 / 6, 4)
    without_service = ontology.OntologyModel(node_types=ontology.DEFAULT_MODEL.node_types)
    assert gate.measure([said, said], roles, without_service).catch_all_share == round(4 / 6, 4)


def test_reextraction_reads_pasted_output_as_the_reconcile_run_did(graph: SessionsGraph) -> None:
    """A chunk's kept extraction is what a later reconcile run reuses: reextracting it whole would bring
    back statements read from the panic pasted into it ("index out of bounds: the len is 3")."""
    record(graph, 0)
    sid = record(graph, 1)
    pasted = ("Alice owns the payments service.\n```\nthread 'main' panicked at src/cart.rs:31:9:\n"
              "index out of bounds: the len is 3 but the index is 7\n"
              "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n```")
    graph.record_turns(sid, [{"role": "user", "text": pasted, "turn_id": f"{sid}-pasted"}], user_id=USER)
    assert graph.reconcile_session(sid, backend=SPACY, enforce_ontology=True).status == "completed"
    query = "MATCH (c:Chunk {user_id: $uid}) WHERE c.text CONTAINS 'panicked' RETURN c.extraction AS e"
    before = json.loads(graph.store.run(query, {"uid": USER})[0]["e"])["facts"]
    assert before and not any("panicked" in fact["text"] or "the len" in fact["text"] for fact in before)
    report = run(graph, [GOOD], seeds=1)
    assert report.outcome == "adopted" and report.reextracted >= 2
    assert json.loads(graph.store.run(query, {"uid": USER})[0]["e"])["facts"] == before
