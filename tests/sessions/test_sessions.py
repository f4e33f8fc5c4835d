import pytest
from conftest import snapshot

from sessions_graph_core.sessions.jsonl import read_transcript
from sessions_graph_core.validation import ValidationError

TURNS = [
    {"role": "user", "text": "Let's use Postgres", "timestamp": "2026-03-02T09:00:00Z"},
    {"role": "assistant", "text": "Noted.", "timestamp": "2026-03-02T09:00:05+00:00"},
    {"type": "tool_call", "tool_name": "Bash", "tool_input": {"command": "ls"}},
    {"type": "tool_result", "tool_name": "Bash", "output": "README.md", "is_error": True},
]


def test_session_start_links_user_and_project(graph):
    info = graph.record_session_start("s-1", user_id="alice", project_key="orders", metadata={"cwd": "/src"})
    assert (info.user_id, info.project_key, info.metadata) == ("alice", "orders", {"cwd": "/src"})
    rows = graph.store.run("MATCH (u:User)-[:HAD_SESSION]->(s:Session) RETURN u.user_id AS u, s.session_id AS s")
    assert rows == [{"u": "alice", "s": "s-1"}]
    again = graph.record_session_start("s-1", user_id="alice")
    assert again.project_key == "orders" and again.started_at == info.started_at


def test_turns_are_stored_in_order_with_next_links(graph):
    graph.record_session_start("s-1", user_id="alice")
    assert graph.record_turns("s-1", TURNS, user_id="alice") == 4
    turns = graph.get_turns("s-1")
    assert [(t.seq, t.kind, t.role) for t in turns] == [
        (0, "message", "user"), (1, "message", "assistant"), (2, "tool_call", "assistant"), (3, "tool_result", "tool"),
    ]
    assert turns[0].timestamp == "2026-03-02T09:00:00.000000Z"
    assert turns[2].text == 'Bash {"command": "ls"}' and turns[3].is_error
    links = graph.store.run("MATCH (a:Turn)-[:NEXT]->(b:Turn) RETURN a.seq AS a, b.seq AS b ORDER BY a")
    assert links == [{"a": 0, "b": 1}, {"a": 1, "b": 2}, {"a": 2, "b": 3}]


def test_a_turn_keeps_the_name_of_who_said_it_where_the_transcript_gives_one(graph, tmp_path):
    graph.record_session_start("s-1", user_id="alice")
    graph.record_turns("s-1", [{"role": "user", "speaker": "  Caroline \t Smith ", "text": "I start the course."},
                               {"role": "assistant", "text": "Good luck."}], user_id="alice")
    assert [(t.role, t.speaker) for t in graph.get_turns("s-1")] == [("user", "Caroline Smith"), ("assistant", None)]
    # A JSONL transcript line carries it the same way.
    path = tmp_path / "chat.jsonl"
    path.write_text('{"type": "session"}\n{"role": "user", "speaker": "Melanie", "text": "I painted a lake."}\n')
    graph.import_transcript(read_transcript(path), session_id="s-2", user_id="alice")
    assert [t.speaker for t in graph.get_turns("s-2")] == ["Melanie"]


def test_importing_the_same_turns_twice_changes_nothing(graph):
    graph.record_session_start("s-1", user_id="alice")
    graph.record_turns("s-1", TURNS[:2], first_position=0, user_id="alice")
    graph.record_turns("s-1", TURNS, first_position=0, user_id="alice")  # a transcript read again from its first line
    before = snapshot(graph.store)
    assert graph.record_turns("s-1", TURNS, first_position=0, user_id="alice") == 0
    assert snapshot(graph.store) == before
    assert [t.seq for t in graph.get_turns("s-1")] == [0, 1, 2, 3]
    assert graph.get_session("s-1").turn_count == 4


def test_explicit_turn_ids_are_idempotent(graph):
    graph.record_session_start("s-1", user_id="alice")
    graph.record_turns("s-1", [{"turn_id": "x1", "text": "one"}, {"turn_id": "x1", "text": "dup"}, {"turn_id": "x2", "text": "two"}], user_id="alice")
    assert [t.text for t in graph.get_turns("s-1")] == ["one", "two"]
    graph.record_session_start("s-2", user_id="alice")
    with pytest.raises(ValidationError, match="another session"):
        graph.record_turns("s-2", [{"turn_id": "x1", "text": "stolen"}], user_id="alice")


def test_pending_on_turn_end_and_session_end(graph):
    graph.record_session_start("s-2", user_id="alice")
    graph.record_session_start("s-1", user_id="alice")
    assert graph.get_pending_reconciliation_sessions() == []
    assert graph.end_turn("s-2")
    assert graph.end_session("s-1", ended_at="2026-03-02T10:00:00Z")
    # The longest waiting first, the order the sensors drain in too (one query: sessions.records.pending_sessions).
    assert graph.get_pending_reconciliation_sessions() == ["s-2", "s-1"]
    assert graph.get_pending_reconciliation_sessions(limit=1) == ["s-2"]
    assert graph.get_session("s-1").ended_at == "2026-03-02T10:00:00.000000Z"
    assert not graph.end_turn("missing")


def test_pending_by_user_lists_whole_users_the_longest_waiting_first(graph):
    from sessions_graph_core.sessions.records import pending_by_user

    # Ended (so pending) in this order, which is not the order of their ids.
    for sid, user in [("a-3", "alice"), ("b-2", "bob"), ("a-1", "alice"), ("c-1", "carol"), ("b-1", "bob"), ("a-2", "alice")]:
        graph.record_session_start(sid, user_id=user)
        assert graph.end_session(sid)

    def taken(**kwargs):
        return [(p.user_id, p.session_id) for p in pending_by_user(graph.store, **kwargs)]

    everything = [("alice", "a-3"), ("alice", "a-1"), ("alice", "a-2"), ("bob", "b-2"), ("bob", "b-1"), ("carol", "c-1")]
    assert taken(limit=10) == everything
    assert taken(limit=4) == everything[:4]
    # Users with a run unfinished are skipped.
    assert taken(limit=10, exclude_users=["alice"]) == everything[3:]
    assert taken(limit=10, exclude_users=["alice", "carol"]) == everything[3:5]
    graph.store.run("MATCH (s:Session) SET s.reconciliation_status = 'completed'")
    assert taken(limit=10) == []


def test_user_turn_listing_is_scoped(graph):
    graph.record_session_start("a", user_id="alice")
    graph.record_session_start("b", user_id="bob")
    graph.record_turns("a", [{"text": "alice speaks", "timestamp": "2026-01-01T00:00:00Z"}], user_id="alice")
    graph.record_turns("b", [{"text": "bob speaks"}], user_id="bob")
    assert [t.text for t in graph.get_user_turns("alice")] == ["alice speaks"]


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda g: g.record_session_start("bad\x01id", user_id="alice"), "control"),
        (lambda g: g.record_session_start("x" * 129, user_id="alice"), "128 bytes"),
        (lambda g: g.record_session_start("s-1", user_id="no spaces allowed"), "user_id"),
        (lambda g: g.record_session_start("s-1", user_id="bob"), "another user"),
        (lambda g: g.record_turns("s-unknown", [{"text": "hi"}], user_id="alice"), "no session"),
        (lambda g: g.record_turns("s-1", [{"role": "wizard", "text": "hi"}], user_id="alice"), "Invalid turn"),
        (lambda g: g.record_turns("s-1", [{"text": "ok"}, {"text": "x", "colour": "red"}], user_id="alice"), "Invalid turn"),
        (lambda g: g.record_turns("s-1", [{"text": "x", "timestamp": "yesterday"}], user_id="alice"), "timestamp"),
        (lambda g: g.record_turns("s-1", [{"text": "x" * 1_000_001}], user_id="alice"), "limit"),
        (lambda g: g.record_turns("s-1", [{"text": "x", "speaker": " "}], user_id="alice"), "speaker: must be a person's name"),
        (lambda g: g.record_turns("s-1", [{"text": "x", "speaker": 7}], user_id="alice"), "speaker: must be a person's name"),
        (lambda g: g.record_turns("s-1", [{"text": "x", "speaker": "n" * 201}], user_id="alice"), "speaker: is 201 characters"),
    ],
)
def test_invalid_input_is_rejected_before_anything_is_written(graph, call, message):
    graph.record_session_start("s-1", user_id="alice")
    before = snapshot(graph.store)
    with pytest.raises(ValidationError, match=message):
        call(graph)
    assert snapshot(graph.store) == before
