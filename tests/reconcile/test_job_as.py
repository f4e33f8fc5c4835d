"""Issue 13's fourteenth round, with the real spaCy model and the real store: a job named by what it is.

"I took a job as a UX writer", "I got a job at Globex as a nurse": a job (an employer's noun) taken "as a
<job>" is the speaker's occupation, by the same test as "I'm a nurse" (Reader.occupation), and the
employer where the job is at a name. The sentences are our own, not the labelled set's."""

from __future__ import annotations

import pytest
from reading_helpers import record, slots

from sessions_graph_core import SessionsGraph
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I took a job as a UX writer", [("me/occupation", "UX writer")]),
        ("I got a job as a nurse.", [("me/occupation", "nurse")]),
        ("I started a new job as a data analyst", [("me/occupation", "data analyst")]),
        ("I got a job at Globex as a nurse", [("me/occupation", "nurse"), ("me/employer", "Globex")]),
        ("I got a job at Microsoft", [("me/employer", "Microsoft")]),  # as before
    ],
)
def test_a_job_as_a_job_is_the_occupation(spacy: SpacyBackend, text: str, expected: list) -> None:
    assert slots(spacy, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I took a job as a foodie",  # no job, by the occupation test
        "I didn't take the job as a pilot",  # negated
        "My sister took a job as a pilot",  # hers, and no person the small model names
    ],
)
def test_a_job_as_no_job_or_not_mine_is_no_occupation_of_mine(spacy: SpacyBackend, text: str) -> None:
    assert not [slot for slot, _ in slots(spacy, text) if slot == "me/occupation"]


def _current(graph: SessionsGraph, user: str) -> list:
    return [(x.value, x.replaced) for x in graph.current_facts(user, "me") if x.slot == "me/occupation"]


@pytest.mark.parametrize("order", [("old", "new"), ("new", "old")])
def test_a_new_job_as_supersedes_the_old_occupation(graph: SessionsGraph, spacy: SpacyBackend, order: tuple) -> None:
    record(graph, "ja1", {"old": "I'm a primary school teacher.", "new": "I took a job as a software tester."})
    for sid in order:
        graph.reconcile_session(sid, backend=spacy)
    assert _current(graph, "ja1") == [("software tester", ["I'm a primary school teacher."])]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I work at Globex.", "I took a job as a translator."),  # an occupation, not another employer
        ("I'm a nurse.", "My brother took a job as a paramedic."),  # his
        ("I'm a nurse.", "I got a job as a nurse at the clinic."),  # a restatement
    ],
)
def test_a_job_as_never_supersedes_what_it_does_not_change(graph: SessionsGraph, spacy: SpacyBackend, old: str, new: str) -> None:
    record(graph, "ja2", {"old": old, "new": new})
    for sid in ("old", "new"):
        graph.reconcile_session(sid, backend=spacy)
    rows = graph.store.run("MATCH (:Fact {user_id: 'ja2'})-[r:SUPERSEDES]->() RETURN count(r) AS n")
    assert rows[0]["n"] == 0
