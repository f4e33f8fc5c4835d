"""Issue 13's thirteenth round, with the real spaCy model and the real store: whose team a statement is about.

"the team", "my team", "our company" are the session's project; "my sister's team", "Dana's team" are
the team of whoever is named, so what they use never supersedes what we use (reading/subjects.Subjects.name)."""

from __future__ import annotations

import pytest
from reading_helpers import record, slots

from sessions_graph_core import SessionsGraph
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("my team uses Trello", [("@project/issue tracker", "Trello")]),
        ("the team uses Trello", [("@project/issue tracker", "Trello")]),
        ("our company uses Trello", [("@project/issue tracker", "Trello")]),
        ("my brother's team uses Trello", [("brother's team/issue tracker", "Trello")]),
        ("Priya's team uses Trello", [("priya's team/issue tracker", "Trello")]),
    ],
)
def test_a_team_is_ours_unless_someone_else_owns_it(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


def _supersessions(graph: SessionsGraph, user: str) -> int:
    return graph.store.run("MATCH (:Fact {user_id: $user})-[r:SUPERSEDES]->() RETURN count(r) AS n", {"user": user})[0]["n"]


@pytest.mark.parametrize("order", [("old", "new"), ("new", "old")])
@pytest.mark.parametrize(
    ("old", "new", "changes"),
    [
        ("our issue tracker is Jira", "my team switched to Linear", True),
        ("our issue tracker is Jira", "my wife's team uses Linear", False),
        ("our issue tracker is Jira", "Omar's team uses Linear", False),
    ],
)
def test_another_persons_team_supersedes_nothing_of_ours(
    graph: SessionsGraph, spacy: SpacyBackend, order: tuple, old: str, new: str, changes: bool
) -> None:
    record(graph, "wt1", {"old": old, "new": new})
    for sid in order:
        assert graph.reconcile_session(sid, backend=spacy).status == "completed"
    assert (_supersessions(graph, "wt1") > 0) == changes
