"""Issue 36.2: a turn's id never depends on the call's shape. A second call appends; a retried call
(same `call_id`, or turns with ids) adds nothing twice; a transcript re-import adds nothing twice."""

from __future__ import annotations

import pytest
from conftest import snapshot

from sessions_graph_core import SessionsGraph
from sessions_graph_core.errors import NotFoundError
from sessions_graph_core.integrations.connector import SessionsGraphConnector
from sessions_graph_core.validation import ValidationError

HI = [{"role": "user", "text": "hi"}, {"role": "assistant", "text": "hello"}]


def texts(graph: SessionsGraph, session_id: str) -> list[str]:
    return [turn.text for turn in graph.get_turns(session_id)]


def test_a_second_call_without_ids_appends(graph: SessionsGraph) -> None:
    graph.record_session_start("s-1", user_id="alice")
    assert graph.record_turns("s-1", [{"role": "user", "text": "Use Postgres"}], user_id="alice") == 1
    assert graph.record_turns("s-1", [{"role": "user", "text": "And Redis"}], user_id="alice") == 1
    assert graph.record_turns("s-1", [{"role": "user", "text": "And Redis"}], user_id="alice") == 1  # said twice: two turns
    assert texts(graph, "s-1") == ["Use Postgres", "And Redis", "And Redis"]
    assert graph.get_session("s-1").turn_count == 3


def test_a_retried_call_with_its_call_id_adds_nothing(graph: SessionsGraph) -> None:
    graph.record_session_start("s-1", user_id="alice")
    assert graph.record_turns("s-1", HI, call_id="call-1", user_id="alice") == 2
    assert graph.record_turns("s-1", HI, call_id="call-1", user_id="alice") == 0
    assert graph.record_turns("s-1", HI, call_id="call-2", user_id="alice") == 2
    assert graph.get_session("s-1").turn_count == 4


def test_turns_with_ids_are_stored_once_whatever_the_call(graph: SessionsGraph) -> None:
    graph.record_session_start("s-1", user_id="alice")
    first = [{"role": "user", "text": "a", "turn_id": "t-a"}]
    assert graph.record_turns("s-1", first, user_id="alice") == 1
    assert graph.record_turns("s-1", [{"role": "user", "text": "b", "turn_id": "t-b"}, *first], user_id="alice") == 1
    assert texts(graph, "s-1") == ["a", "b"]


def test_a_transcript_read_again_from_its_lines_adds_nothing(graph: SessionsGraph) -> None:
    graph.record_session_start("s-1", user_id="alice")
    assert graph.record_turns("s-1", HI, first_position=0, user_id="alice") == 2
    assert graph.record_turns("s-1", HI, first_position=0, user_id="alice") == 0
    assert graph.record_turns("s-1", HI[1:], first_position=1, user_id="alice") == 0
    assert graph.record_turns("s-1", HI, first_position=2, user_id="alice") == 2
    with pytest.raises(ValidationError, match="not both"):
        graph.record_turns("s-1", HI, first_position=0, call_id="c", user_id="alice")


def test_the_readme_connector_example_records_every_call(graph: SessionsGraph) -> None:
    connector = SessionsGraphConnector(graph, spawn=lambda arguments: None)
    connector.session_start("s-42", "alice", cwd="/src/orders")
    connector.record_turns([{"role": "user", "text": "Use Postgres"}, {"role": "assistant", "text": "Done."}])
    connector.turn_end()
    connector.record_turns([{"role": "user", "text": "Add Redis"}, {"role": "assistant", "text": "Done."}])
    assert texts(graph, "s-42") == ["Use Postgres", "Done.", "Add Redis", "Done."]
    assert connector.record_turns([{"role": "user", "text": "x"}], call_id="c-1") == 1
    assert connector.record_turns([{"role": "user", "text": "x"}], call_id="c-1") == 0


def test_record_turns_with_a_user_refuses_another_users_session_as_missing(graph: SessionsGraph) -> None:
    graph.record_session_start("s-bob", user_id="bob")
    with pytest.raises(NotFoundError) as foreign:
        graph.record_turns("s-bob", HI, user_id="alice")
    with pytest.raises(NotFoundError) as missing:
        graph.record_turns("s-none", HI, user_id="alice")
    assert str(foreign.value).replace("s-bob", "X") == str(missing.value).replace("s-none", "X")
    assert graph.get_turns("s-bob") == []
    assert graph.record_turns("s-bob", HI, user_id="bob") == 2


def test_record_turns_that_names_no_user_is_refused_and_writes_nothing(graph: SessionsGraph) -> None:
    graph.record_session_start("s-bob", user_id="bob")
    connector = SessionsGraphConnector(graph, spawn=lambda arguments: None)
    connector.session_start("s-alice", "alice")
    before = snapshot(graph.store)
    with pytest.raises(TypeError, match="user_id"):
        graph.record_turns("s-bob", HI)  # type: ignore[call-arg]
    with pytest.raises(ValidationError, match="names no user: pass user_id="):
        graph.record_turns("s-bob", HI, user_id=None)  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="not the active session.*pass user_id="):
        connector.record_turns(HI, "s-bob")
    assert snapshot(graph.store) == before
    assert connector.record_turns(HI, "s-bob", user_id="bob") == 2


def test_the_connector_names_the_sessions_user_to_its_children(graph: SessionsGraph) -> None:
    spawned: list[list[str]] = []
    connector = SessionsGraphConnector(graph, auto_reconcile=True, spawn=lambda arguments: spawned.append(list(arguments)))
    connector.session_start("s-1", "alice")
    connector.turn_end()
    connector.session_end()
    assert spawned == [["embed", "--session", "s-1", "--user", "alice"]] * 2 + [
        ["reconcile", "--session", "s-1", "--user", "alice"]
    ]
