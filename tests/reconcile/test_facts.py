"""Supersession chains (seed 002) beyond the story's order: reversed sessions, several updates in
one batch, restatements. Extractions come from the LLM backend through the fake HTTP API."""

from __future__ import annotations

import uuid

from seed002 import USER, FakeApi, backend, record_session

from sessions_graph_core import SessionsGraph
from sessions_graph_core.store.falkordb.server import EmbeddedServer
from sessions_graph_core.store.falkordb.store import FalkorDBStore

QUESTION = "orders service"


def owner(name: str) -> dict:
    return {
        "entities": [{"name": name, "kind": "person"}, {"name": "orders service", "kind": "service"}],
        "facts": [{"text": f"{name} owns the orders service.", "slot": "orders service/owner", "about": ["orders service", name]}],
        "decisions": [],
    }


def chain(graph: SessionsGraph, slot: str) -> list[tuple[str, str]]:
    rows = graph.store.run(
        "MATCH (a:Fact {slot: $slot})-[:SUPERSEDES]->(b:Fact) RETURN a.text AS new, b.text AS old ORDER BY new",
        {"slot": slot},
    )
    return [(row["new"], row["old"]) for row in rows]


def state(graph: SessionsGraph) -> tuple:
    rows = graph.store.run(
        "MATCH (x:Fact) RETURN x.text AS text, x.valid_at AS valid_at, x.superseded_at AS superseded_at ORDER BY text"
    )
    return tuple((row["text"], row["valid_at"], row["superseded_at"]) for row in rows), tuple(chain(graph, "orders service/owner")), tuple(chain(graph, "orders service/database"))


def test_sessions_reconciled_in_reverse_order_give_the_same_chains(graph: SessionsGraph, server: EmbeddedServer) -> None:
    llm = backend("anthropic", FakeApi())
    second, first = record_session(graph, 1), record_session(graph, 0)
    graph.reconcile_session(second, backend=llm)
    # Before session 1 arrives, Carol's fact is current and supersedes nothing.
    assert [x.replaced for x in graph.current_facts(USER, QUESTION) if x.text.startswith("Carol")] == [[]]
    graph.reconcile_session(first, backend=llm)

    in_order = SessionsGraph(FalkorDBStore(server, graph=f"test_{uuid.uuid4().hex[:12]}"))
    try:
        in_order.setup()
        record_session(in_order, 1), record_session(in_order, 0)
        in_order.reconcile_session(first, backend=llm)
        in_order.reconcile_session(second, backend=llm)
        assert state(graph) == state(in_order)
    finally:
        in_order.store.delete_all()
        in_order.close()
    assert chain(graph, "orders service/owner") == [("Carol owns the orders service.", "Alice owns the orders service.")]


def test_several_updates_in_one_batch_form_a_chain_not_a_fan(graph: SessionsGraph) -> None:
    texts = ["Dana owns it now.", "Actually Erin owns it.", "Final answer: Finn owns it."]
    api = FakeApi(extra={text: owner(name) for text, name in zip(texts, ["Dana", "Erin", "Finn"], strict=True)})
    sid = record_session(graph, 0)
    graph.record_turns(sid, [
        {"role": "user", "text": text, "timestamp": f"2026-03-05T10:0{i}:00Z", "turn_id": f"batch-{i}"}
        for i, text in enumerate(texts)
    ], user_id=USER)
    graph.reconcile_session(sid, backend=backend("openai", api))
    assert chain(graph, "orders service/owner") == [
        ("Dana owns the orders service.", "Alice owns the orders service."),
        ("Erin owns the orders service.", "Dana owns the orders service."),
        ("Finn owns the orders service.", "Erin owns the orders service."),
    ]
    current = {x.text: x.replaced for x in graph.current_facts(USER, QUESTION) if x.slot == "orders service/owner"}
    assert current == {"Finn owns the orders service.": [
        "Erin owns the orders service.", "Dana owns the orders service.", "Alice owns the orders service."
    ]}
    superseded = {x.text: x.superseded_at for x in graph.fact_history(USER, QUESTION)}
    assert superseded["Dana owns the orders service."] == "2026-03-05T10:01:00.000000Z"


def test_a_statement_back_to_an_old_value_supersedes_again(graph: SessionsGraph) -> None:
    api = FakeApi(extra={"Alice is the owner again.": owner("Alice")})
    llm = backend("anthropic", api)
    graph.reconcile_session(record_session(graph, 0), backend=llm)
    sid = record_session(graph, 1)
    graph.record_turns(sid, [{"role": "user", "text": "Alice is the owner again.", "timestamp": "2026-04-01T09:00:00Z", "turn_id": "back"}], user_id=USER)
    graph.reconcile_session(sid, backend=llm)
    current = [x for x in graph.current_facts(USER, QUESTION) if x.slot == "orders service/owner"]
    assert [(x.text, x.replaced) for x in current] == [
        ("Alice owns the orders service.", ["Carol owns the orders service.", "Alice owns the orders service."])
    ]
    assert graph.store.run("MATCH (x:Fact {slot: 'orders service/owner'}) RETURN count(x) AS n")[0]["n"] == 3


def test_restating_the_current_value_links_instead_of_duplicating(graph: SessionsGraph) -> None:
    api = FakeApi(extra={"As I said, Carol owns orders.": owner("Carol")})
    llm = backend("anthropic", api)
    graph.reconcile_session(record_session(graph, 0), backend=llm)
    graph.reconcile_session(record_session(graph, 1), backend=llm)
    graph.record_session_start("session-3", user_id=USER)
    graph.record_turns("session-3", [{"role": "user", "text": "As I said, Carol owns orders.", "timestamp": "2026-03-20T09:00:00Z"}], user_id=USER)
    graph.reconcile_session("session-3", backend=llm)
    carol = [x for x in graph.current_facts(USER, QUESTION) if x.text.startswith("Carol")]
    assert len(carol) == 1 and carol[0].valid_at == "2026-03-16T14:07:00.000000Z"
    assert graph.sessions_stating(USER, carol[0].fact_id) == ["session-2", "session-3"]


def test_a_late_statement_dated_between_two_others_is_put_between_them(graph: SessionsGraph) -> None:
    llm = backend("anthropic", FakeApi(extra={"Dana took the orders service for a week.": owner("Dana")}))
    graph.reconcile_session(record_session(graph, 0), backend=llm)
    graph.reconcile_session(record_session(graph, 1), backend=llm)
    graph.record_session_start("late", user_id=USER)
    graph.record_turns("late", [{"role": "user", "text": "Dana took the orders service for a week.", "timestamp": "2026-03-10T09:00:00Z"}], user_id=USER)
    graph.reconcile_session("late", backend=llm)
    assert chain(graph, "orders service/owner") == [
        ("Carol owns the orders service.", "Dana owns the orders service."),
        ("Dana owns the orders service.", "Alice owns the orders service."),
    ]
    times = {x.text: x.superseded_at for x in graph.fact_history(USER, QUESTION)}
    assert times["Alice owns the orders service."] == "2026-03-10T09:00:00.000000Z"
    assert times["Dana owns the orders service."] == "2026-03-16T14:07:00.000000Z"
    assert [x.text for x in graph.facts_as_of(USER, QUESTION, "2026-03-12T00:00:00Z") if x.slot.endswith("owner")] == [
        "Dana owns the orders service."
    ]
