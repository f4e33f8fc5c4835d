"""Issue 13, with the real spaCy model and the real store: one holder said two ways is one slot.

"front-end" / "frontend" / "front end", and "the search service" / "search" (a last word that only says what
kind of thing it is) name one holder, so its new value supersedes the old (facts._bare_name); a holder
with other words ("staging" / "production") stays another holder."""

from __future__ import annotations

import pytest
from reading_helpers import record, superseded

from sessions_graph_core import SessionsGraph
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend
from sessions_graph_core.reconcile.facts import _bare_name


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        ("front-end", "frontend", True),
        ("back end", "backend", True),
        ("search service", "search", True),
        ("data team", "data", True),
        ("staging servers", "staging", True),
        ("staging", "production", False),
        ("app", "apps", False),  # a kind word alone is the holder's whole name
        ("payments service", "billing service", False),
    ],
)
def test_a_holders_spellings(one: str, other: str, same: bool) -> None:
    assert (_bare_name(one) == _bare_name(other)) == same


@pytest.mark.parametrize("order", [("old", "new"), ("new", "old")])
@pytest.mark.parametrize(
    ("old", "new", "replaced"),
    [
        ("The front-end is hosted on Netlify", "we moved our frontend to Vercel", [("Netlify", "Vercel")]),
        ("The back end runs on Heroku", "the backend moved to Render last week", [("Heroku", "Render")]),
        ("Omar is the tech lead for the search service.", "Lena is the tech lead for search now.", [("Omar", "Lena")]),
        ("The front-end is hosted on Netlify", "The backend is hosted on Render", []),
        ("Staging runs on AWS", "Production runs on GCP", []),
    ],
)
def test_a_new_value_of_one_holder_said_another_way_supersedes_the_old(
    graph: SessionsGraph, spacy: SpacyBackend, order: tuple, old: str, new: str, replaced: list
) -> None:
    record(graph, "sp1", {"old": old, "new": new})
    for sid in order:
        assert graph.reconcile_session(sid, backend=spacy).status == "completed"
    assert superseded(graph, "sp1") == replaced
