"""setup() returns once every index is built: the listing is what setup made, never an index listed
twice while it builds (the cause of the flaky test_setup_is_idempotent_and_drop_removes_indexes; issue 15, item 11)."""

from __future__ import annotations


def test_setup_on_a_full_graph_returns_with_every_index_built(graph):
    graph.record_session_start("big", user_id="alice")
    graph.record_turns("big", [{"role": "user", "text": f"turn number {i} about the orders service"} for i in range(20_000)], user_id="alice")

    def listing():
        return sorted(repr(row) for row in graph.store.run(
            "CALL db.indexes() YIELD label, properties, status RETURN label, properties, status"))

    first = listing()
    for _ in range(3):
        graph.drop()
        assert listing() == []
        graph.setup()
        assert listing() == first
    assert all("'OPERATIONAL'" in row for row in first)


def graph_queries(store) -> int:
    """How many GRAPH.QUERY commands the server has run, from its own counters."""
    stats = store._graph.connection.command("INFO", "commandstats")
    line = next((line for line in stats.splitlines() if line.lower().startswith("cmdstat_graph.query:")), "calls=0,")
    return int(line.split("calls=", 1)[1].split(",", 1)[0])


def test_applying_the_schema_to_a_store_that_has_it_is_one_statement(graph):
    """The first hook of every session applies the schema: on a set-up store it lists the indexes and stops."""
    from sessions_graph_core.store.schema import SCHEMA, TURN_TEXT_INDEX

    store = graph.store
    before = graph_queries(store)
    store.apply_schema(SCHEMA)
    assert graph_queries(store) - before == 1

    def listing():
        return sorted(repr(row) for row in store.run("CALL db.indexes() YIELD label, properties RETURN label, properties"))

    whole = listing()
    store.run("DROP INDEX FOR (n:Session) ON (n.embedding_status)")
    store.run(f"CALL db.idx.fulltext.drop('{TURN_TEXT_INDEX.label}')")
    assert listing() != whole
    store.apply_schema(SCHEMA)  # makes what is missing, and only that
    assert listing() == whole
