"""The derivation claim: one atomic statement, exclusive across processes, expiring, released by its owner."""

from __future__ import annotations

import multiprocessing
from datetime import UTC, datetime, timedelta

import pytest
from derivation_helpers import GOOD, SPACY, USER, FakeLlmApi, claim_worker, fake_llm, record

from sessions_graph_core import SessionsGraph
from sessions_graph_core.ontology.derive import run as derivation
from sessions_graph_core.ontology.derive.milestones import CLAIM, claim, due, release

NOW = datetime(2026, 3, 20, 12, 0, tzinfo=UTC)
ROUNDS = 25


def holder(graph: SessionsGraph) -> str | None:
    return graph.store.run("MATCH (u:User {user_id: $uid}) RETURN u.derive_claim AS token", {"uid": USER})[0]["token"]


def test_two_processes_racing_for_the_claim_get_it_once_per_round(graph: SessionsGraph, server) -> None:
    graph.record_session_start("s-claim", user_id=USER)
    context = multiprocessing.get_context("spawn")
    start, done = context.Barrier(3), context.Barrier(3)
    results = context.Queue()
    workers = [
        context.Process(target=claim_worker, args=(str(server.data_dir), graph.store.name, token, NOW.isoformat(),
                                                   ROUNDS, start, done, results))
        for token in ("first", "second")
    ]
    for worker in workers:
        worker.start()
    winners = []
    for _ in range(ROUNDS):
        graph.store.run("MATCH (u:User {user_id: $uid}) SET u.derive_claimed_until = null, u.derive_claim = null",
                        {"uid": USER})
        start.wait(timeout=60)
        outcome = dict(results.get(timeout=60) for _ in workers)
        assert sorted(outcome.values()) == [False, True], outcome
        winner = next(token for token, won in outcome.items() if won)
        assert holder(graph) == winner
        winners.append(winner)
        done.wait(timeout=60)
    for worker in workers:
        worker.join(timeout=60)
        assert worker.exitcode == 0
    assert len(winners) == ROUNDS


def test_the_claim_expires_and_only_its_owner_releases_it(graph: SessionsGraph) -> None:
    assert not claim(graph.store, USER, "a", NOW)  # no User node yet: nothing to claim
    graph.record_session_start("s-claim", user_id=USER)
    assert claim(graph.store, USER, "a", NOW)
    assert not claim(graph.store, USER, "b", NOW + CLAIM - timedelta(seconds=1))
    assert claim(graph.store, USER, "b", NOW + CLAIM + timedelta(seconds=1))
    release(graph.store, USER, "a")
    assert holder(graph) == "b"
    release(graph.store, USER, "b")
    assert holder(graph) is None
    assert claim(graph.store, USER, "c", NOW)


def test_a_run_meets_a_held_claim_and_leaves_it(graph: SessionsGraph) -> None:
    record(graph, 0)
    record(graph, 1)
    assert claim(graph.store, USER, "elsewhere", datetime.now(UTC))
    api = FakeLlmApi([GOOD])
    report = derivation.derive(graph.store, USER, llm=fake_llm("anthropic", api), backend=SPACY)
    assert report.outcome == "claimed elsewhere" and api.requests == []
    assert holder(graph) == "elsewhere" and due(graph.store, USER) == 2
    release(graph.store, USER, "elsewhere")
    done = derivation.derive(graph.store, USER, llm=fake_llm("anthropic", api), backend=SPACY, seeds=1)
    assert done.outcome == "adopted" and holder(graph) is None


def test_the_claim_is_released_when_the_run_fails(graph: SessionsGraph) -> None:
    record(graph, 0)
    record(graph, 1)

    class Broken:
        name = "broken"

        def extract(self, texts, ontology, known_slots):
            raise RuntimeError("extractor crashed")

    with pytest.raises(RuntimeError, match="extractor crashed"):
        derivation.derive(graph.store, USER, llm=fake_llm("openai", FakeLlmApi([GOOD])), backend=Broken())
    assert holder(graph) is None
