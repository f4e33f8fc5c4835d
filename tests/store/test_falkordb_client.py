"""The small FalkorDB client against the real embedded server: parameters, values, errors, reconnects."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from sessions_graph_core.store.falkordb.client import (
    Connection,
    Graph,
    ReplyError,
    cypher_literal,
    with_parameters,
)
from sessions_graph_core.store.falkordb.server import EmbeddedServer
from sessions_graph_core.validation import ValidationError

AWKWARD = [
    'she said "hi"',
    "back\\slash and \\\" both",
    "line one\nline two\r\nand a tab\t",
    "ünïcödé — 日本語 🚀",
    "'; MATCH (n) DETACH DELETE n //",
    "",
    "ends with a backslash \\",
    "$param {braces} `backticks` ",
]


@pytest.fixture
def graph(server: EmbeddedServer):
    connection = Connection(str(server.socket_path), timeout=30)  # a mixed-up reply fails instead of hanging
    graph = Graph(connection, f"client_{uuid.uuid4().hex[:12]}")
    yield graph
    try:
        graph.delete()
    except ReplyError:
        pass  # nothing was written
    connection.close()


@pytest.mark.parametrize("text", AWKWARD)
def test_strings_round_trip_as_parameters(graph: Graph, text: str) -> None:
    graph.query("CREATE (:Note {text: $text})", {"text": text})
    columns, rows = graph.query("MATCH (n:Note) WHERE n.text = $text RETURN n.text AS text, count(n) AS n", {"text": text})
    assert columns == ["text", "n"] and rows == [[text, 1]]
    assert graph.query("MATCH (n:Note) RETURN count(n) AS n")[1] == [[1]]  # the text deleted nothing


def test_values_come_back_typed(graph: Graph) -> None:
    params = {"i": -42, "f": 0.1, "big": 2**53, "yes": True, "no": False, "none": None,
              "items": [1, "two", [3.5, None]], "map": {"a key": "v", "n": 1}}
    columns, rows = graph.query(
        "RETURN $i AS i, $f AS f, $big AS big, $yes AS yes, $no AS no, $none AS none, $items AS items, $map AS map",
        params,
    )
    assert dict(zip(columns, rows[0], strict=True)) == params


def test_nodes_edges_and_paths_come_back_as_property_maps(graph: Graph) -> None:
    graph.query("CREATE (:A {name: $a})-[:LINK {weight: 2}]->(:B {name: $b, tags: ['x']})", {"a": "one", "b": "two"})
    _, rows = graph.query("MATCH p = (a:A)-[r:LINK]->(b:B) RETURN a, r, b, p")
    assert rows == [[{"name": "one"}, {"weight": 2}, {"name": "two", "tags": ["x"]}, [{"name": "one"}, {"name": "two", "tags": ["x"]}]]]


def test_vectors_come_back_as_floats(graph: Graph) -> None:
    graph.query("CREATE (:V {v: vecf32($v)})", {"v": [0.5, -1.0, 2.0]})
    assert graph.query("MATCH (n:V) RETURN n.v AS v")[1] == [[[0.5, -1.0, 2.0]]]


def test_a_float32_array_is_stored_exactly_and_other_arrays_keep_their_values(graph: Graph) -> None:
    vector = np.random.default_rng(7).standard_normal(384).astype(np.float32)
    vector[:3] = [1.0, 1e-7, -3.4e38]  # a whole number, a tiny one, a huge one
    graph.query("CREATE (:V {v: vecf32($v), ints: $ints, doubles: $doubles})",
                {"v": vector, "ints": np.array([1, 2]), "doubles": np.array([0.1, 0.25])})
    _, rows = graph.query("MATCH (n:V) RETURN n.v AS v, n.ints AS ints, n.doubles AS doubles")
    stored, ints, doubles = rows[0]
    assert np.array_equal(np.asarray(stored, dtype=np.float32), vector)
    assert ints == [1, 2] and doubles == [0.1, 0.25]


def test_threads_sharing_a_connection_each_get_their_own_replies(graph: Graph) -> None:
    def echo(number: int) -> list[list[object]]:
        return graph.query("UNWIND range(0, 200) AS i RETURN $n AS n, i", {"n": number})[1]

    with ThreadPoolExecutor(max_workers=8) as pool:
        replies = list(pool.map(echo, range(64)))
    assert all(rows == [[number, i] for i in range(201)] for number, rows in enumerate(replies))


def test_a_bad_query_raises_the_servers_error(graph: Graph) -> None:
    with pytest.raises(ReplyError, match="(?i)invalid input|syntax"):
        graph.query("MATCH (n RETURN n")
    with pytest.raises(ReplyError, match="(?i)division by zero"):
        graph.query("UNWIND [1, 0] AS d RETURN 1 / d AS x")
    assert graph.query("RETURN 1 AS one")[1] == [[1]]  # the connection is still usable


def test_commands_sent_in_one_write_reply_in_order_with_errors_in_place(graph: Graph) -> None:
    replies = graph.connection.commands(("ECHO", "first"), ("NO.SUCH.COMMAND",), ("ECHO", "last"))
    assert replies[0] == "first" and isinstance(replies[1], ReplyError) and replies[2] == "last"
    names, rows, after = graph.query_then("UNWIND range(1, 3) AS i CREATE (:Item {i: i}) RETURN count(*) AS n", None,
                                          ("ECHO", "then"))
    assert (names, rows, after) == (["n"], [[3]], "then")
    # A failed statement raises its own error, after the command behind it was read: the connection stays in step.
    with pytest.raises(ReplyError, match="(?i)invalid input|syntax"):
        graph.query_then("MATCH (n RETURN n", None, ("ECHO", "unread"))
    with pytest.raises(ReplyError, match="(?i)unknown command"):
        graph.query_then("RETURN 1 AS one", None, ("NO.SUCH.COMMAND",))
    assert graph.query("MATCH (i:Item) RETURN count(i) AS n")[1] == [[3]]


def test_a_parameter_name_that_could_break_the_prefix_is_refused() -> None:
    with pytest.raises(ValueError, match="backticks"):
        with_parameters("RETURN 1", {"a`b": 1})
    with pytest.raises(TypeError, match="object"):
        cypher_literal(object())


@pytest.mark.parametrize("value", ["\x00", "an id\x00", ["ok", "\x00"], {"key": "a\x00b"}, "\ud800", ["ok", "x\udfff"]])
def test_a_nul_or_lone_surrogate_in_a_parameter_is_refused_before_the_server_reads_it(graph: Graph, value: object) -> None:
    """The server reads the statement as a C string: a NUL ended it inside the parameter, and the caller got a
    syntax error naming none of its input (the memory browser's /forget/fact/%00 was a 500). A lone surrogate
    cannot be encoded at all (`facts $'\ud800'` was a UnicodeEncodeError traceback)."""
    with pytest.raises(ValidationError, match="NUL|lone surrogate"):
        graph.query("RETURN $value AS value", {"value": value})
    assert graph.query("RETURN $value AS value", {"value": "still answers"})[1] == [["still answers"]]


def test_server_commands_and_errors(server: EmbeddedServer) -> None:
    connection = Connection(str(server.socket_path), name="client-test")
    try:
        assert connection.command("PING") == "PONG"
        assert "name=client-test" in connection.command("CLIENT", "LIST")
        with pytest.raises(ReplyError, match="(?i)unknown command"):
            connection.command("NO.SUCH.COMMAND")
        assert connection.command("ECHO", "still here") == "still here"
    finally:
        connection.close()


def test_a_missing_socket_is_a_connection_error(short_tmp) -> None:
    with pytest.raises(ConnectionError, match="Cannot connect"):
        Connection(str(short_tmp / "none.sock")).command("PING")


def test_a_dropped_connection_reconnects_on_the_next_command(server: EmbeddedServer) -> None:
    connection = Connection(str(server.socket_path), name="client-drop")
    killer = Connection(str(server.socket_path))
    try:
        connection.command("PING")
        killer.command("CLIENT", "KILL", "SKIPME", "yes", "TYPE", "normal")
        with pytest.raises(ConnectionError, match="Lost the connection"):
            connection.command("PING")
        assert connection.command("PING") == "PONG"
    finally:
        connection.close()
        killer.close()
