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
