"""A small client for FalkorDB: RESP over the embedded server's Unix socket, or over TCP to a standalone
server with a password (AUTH), `GRAPH.QUERY --compact`.

The `falkordb` package stands on redis-py, whose import alone takes a quarter of a second, more
than a harness hook can spend; the store needs only a handful of commands, spoken here directly.
Replies are parsed by hiredis (redis's own C parser, 2 ms to import): a recall reads thousands of
values per query, and parsing them in Python cost a third of its time.

Query parameters travel in FalkorDB's `CYPHER name=value ... <query>` prefix, encoded by the rules
the falkordb client uses: strings in double quotes with `\\` and `"` escaped, lists in brackets, maps
with backticked keys, None as null. Nothing else about a value reaches the query text.
"""

from __future__ import annotations

# The C modules that `socket` and `threading` wrap: their wrappers would cost every hook a millisecond or two
# of imports (selectors, array) for nothing this client uses.
import _socket
import _thread
import numbers
import sys
from collections.abc import Mapping
from typing import Any

import hiredis

from sessions_graph_core.errors import StoreUnreachableError
from sessions_graph_core.validation import ValidationError, code_point

# Value types of the compact result format (FalkorDB's ResultSetScalarTypes).
_NULL, _STRING, _INTEGER, _BOOLEAN, _DOUBLE, _ARRAY, _EDGE, _NODE, _PATH, _MAP, _POINT, _VECTORF32 = range(1, 13)
_AS_IS = frozenset({_NULL, _STRING, _INTEGER})  # the compact format's values that need no conversion


READ_CHUNK = 1 << 16
# A write is given this much longer than the connection's timeout per MB it sends: its time grows with what it
# writes (10,000 turns, 12.6 MB, took 2.3 s on a loaded 2-core machine, and one turn may hold 1 MB). Cut off at
# the timeout, such a write was reported failed while the server went on and applied it.
WRITE_SECONDS_PER_MB = 1.0


class ReplyError(Exception):
    """An error the server answered with (a bad query, an unknown command ...); its text is the server's."""


class AuthenticationError(StoreUnreachableError):
    """The server refused the password, or asked for one that was not given."""


def tcp_address(address: str) -> tuple[str, int] | None:
    """(host, port) when `address` is `host:port`; None for a Unix socket path."""
    if address.startswith("/") or ":" not in address:
        return None
    host, _, port = address.rpartition(":")
    if not port.isdigit():
        raise ValueError(f"Not a host:port address: {address!r}")
    return host.strip("[]"), int(port)


def quote_string(text: str) -> str:
    if "\0" in text:
        # The server reads the statement as a C string: a NUL would end it inside this parameter, and the
        # caller would get a syntax error that names none of its input.
        raise ValidationError(f"{text[:40]!r} holds a NUL character (U+0000), which the store can neither hold nor "
                              "look up: remove it")
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _identifier(name: object) -> str:
    text = str(name)
    if not text or "`" in text:
        raise ValueError(f"A parameter or map key must be non-empty and free of backticks: {text!r}")
    return f"`{text}`"


def cypher_literal(value: Any) -> str:
    """A parameter value as FalkorDB's CYPHER prefix reads it."""
    # Plain strings and integers first: a recall's parameters hold hundreds of them (ids, its spans' maps).
    if type(value) is str:
        return quote_string(value)
    if type(value) is int:
        return str(value)
    numpy = sys.modules.get("numpy")  # only a process that imported numpy can hand over an array
    if numpy is not None and isinstance(value, numpy.ndarray):
        return _array_literal(value, numpy)
    if type(value) is list and all(type(item) is float for item in value):  # a vector: hundreds of floats
        return "[" + ",".join(map(repr, value)) + "]"
    if isinstance(value, str):
        return quote_string(value)
    if value is None:
        return "null"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(cypher_literal(item) for item in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ",".join(f"{_identifier(key)}:{cypher_literal(item)}" for key, item in value.items()) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):  # numpy's numbers too, which callers sometimes hand over
        return repr(float(value))
    raise TypeError(f"Cannot pass a {type(value).__name__} as a query parameter")


def _array_literal(value: Any, numpy: Any) -> str:
    if value.dtype != numpy.float32 or value.ndim != 1:
        return cypher_literal(value.tolist())
    # Nine significant digits give back every float32 exactly, where a float32 printed as a double takes
    # seventeen: printing and parsing those was a tenth of embedding a session. "#" keeps the point, so
    # 1.0 stays a float.
    return "[" + ",".join(map("%#.9g".__mod__, value.tolist())) + "]"


def with_parameters(query: str, params: Mapping[str, Any] | None) -> str:
    if not params:
        return query
    header = " ".join(f"{_identifier(name)}={cypher_literal(value)}" for name, value in params.items())
    return f"CYPHER {header} {query}"


class Connection:
    """One RESP2 connection, opened on first use and reopened after it breaks.

    `address` is a Unix socket path, or `host:port` for TCP; with a `password` every fresh connection
    authenticates first. Threads share it one command at a time (the MCP server and async memory tool
    call the store from worker threads), so a reply always reaches the thread that sent its command.
    """

    def __init__(
        self, address: str, *, timeout: float | None = None, name: str | None = None, password: str | None = None
    ) -> None:
        self.address = address
        self.timeout = timeout
        self.name = name
        self._password = password
        self._socket: _socket.socket | None = None
        self._parser: hiredis.Reader | None = None
        self._lock = _thread.RLock()  # re-entered by the AUTH and CLIENT SETNAME a fresh connection sends

    def command(self, *arguments: str | int, wait_s: float = 0.0, write: bool = False) -> Any:
        """Send one command and return its reply; an error reply raises ReplyError.

        A connection that fails midway, or whose server does not answer within `timeout` (plus `wait_s`, for
        a command that waits on the server's side, as WAIT does), is dropped (StoreUnreachableError), so the
        next call starts afresh. A `write` gets WRITE_SECONDS_PER_MB more for each MB it sends.
        """
        with self._lock:
            (reply,) = self._exchange((arguments,), wait_s, write)
        if isinstance(reply, ReplyError):
            raise reply
        return reply

    def commands(self, *commands: tuple[str | int, ...], wait_s: float = 0.0, write: bool = False) -> list[Any]:
        """Send the commands in one write and return their replies in order, an error reply as a ReplyError
        (not raised): one round trip where one command at a time would take one each. The server runs
        them in order, as it would one at a time. `wait_s` and `write` as in command()."""
        with self._lock:
            return self._exchange(commands, wait_s, write)

    def close(self) -> None:
        with self._lock:
            if self._socket is not None:
                try:
                    self._socket.close()
                finally:
                    self._socket, self._parser = None, None

    def _exchange(self, commands: tuple[tuple[str | int, ...], ...], wait_s: float, write: bool = False) -> list[Any]:
        if self._socket is None:
            self._connect()
        payload = b"".join(_encode(arguments) for arguments in commands)
        limit = None if self.timeout is None else self.timeout + wait_s
        if limit is not None and write:
            limit += len(payload) / 1e6 * WRITE_SECONDS_PER_MB
        try:
            assert self._socket is not None
            self._socket.settimeout(limit)  # on every exchange: a command that waits on the server gets longer
            self._socket.sendall(payload)
            return [self._read() for _ in commands]
        except TimeoutError as exc:
            # A stopped (SIGSTOP) or stuck server accepts the connection and never replies.
            self.close()
            if limit is None:  # the operating system's own TCP timeout
                raise StoreUnreachableError(f"Lost the connection to {self.address}: {exc}") from exc
            raise StoreUnreachableError(
                f"{self.address} did not answer within {limit:g} s (stopped, or overloaded)"
            ) from None
        except OSError as exc:
            self.close()
            raise StoreUnreachableError(f"Lost the connection to {self.address}: {exc}") from exc
        except BaseException:
            self.close()  # a reply read halfway would leave its rest on the socket for the next command
            raise

    def _connect(self) -> None:
        tcp = tcp_address(self.address)
        client = _socket.socket(_socket.AF_INET if tcp else _socket.AF_UNIX, _socket.SOCK_STREAM)
        client.settimeout(self.timeout)
        try:
            client.connect(tcp or self.address)
        except OSError as exc:
            client.close()
            raise StoreUnreachableError(f"Cannot connect to {self.address}: {exc.strerror or exc}") from exc
        if tcp:
            client.setsockopt(_socket.IPPROTO_TCP, _socket.TCP_NODELAY, 1)  # one small command, one small reply
        self._socket = client
        self._parser = hiredis.Reader(replyError=ReplyError, encoding="utf-8")
        if self._password:
            try:
                self.command("AUTH", self._password)
            except ReplyError as exc:
                self.close()
                raise AuthenticationError(
                    f"{self.address} refused the password ({exc}): set store.password "
                    "(SESSIONS_GRAPH_STORE_PASSWORD) to the server's requirepass"
                ) from None
        if self.name:
            self.command("CLIENT", "SETNAME", self.name)

    def _read(self) -> Any:
        """One reply; an error reply comes back as a ReplyError, also inside an array."""
        assert self._socket is not None and self._parser is not None
        reply = self._parser.gets()
        while reply is False:  # hiredis's answer while the reply is still incomplete
            data = self._socket.recv(READ_CHUNK)
            if not data:
                raise ConnectionResetError("the server closed the connection")
            self._parser.feed(data)
            reply = self._parser.gets()
        return reply


def _encode(arguments: tuple[str | int, ...]) -> bytes:
    parts = [b"*%d\r\n" % len(arguments)]
    for argument in arguments:
        try:
            data = str(argument).encode()
        except UnicodeEncodeError as exc:  # raised before anything is sent: the connection stays usable
            raise ValidationError(f"{exc.object[max(exc.start - 20, 0):exc.start + 20]!r} holds a lone surrogate "
                                  f"({code_point(exc.object[exc.start])}), which is no character: remove it") from None
        parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(parts)


class Graph:
    """One graph of the server: queries with parameters, rows as plain Python values.

    Nodes and edges come back as their property maps and paths as their nodes' maps, which is
    what the store hands its callers. The compact format names properties by number, so their
    names are fetched from the graph once and again whenever a new one appears.
    """

    def __init__(self, connection: Connection, name: str, *, read_only: bool = False) -> None:
        self.connection = connection
        self.name = name
        # A replica refuses GRAPH.QUERY, which may write, even for a MATCH: it answers GRAPH.RO_QUERY.
        self._command = "GRAPH.RO_QUERY" if read_only else "GRAPH.QUERY"
        self._property_names: list[str] = []

    def query(
        self, text: str, params: Mapping[str, Any] | None = None, *, write: bool = False
    ) -> tuple[list[str], list[list[Any]]]:
        """The column names and the rows of one statement; a `write` is waited for as Connection.command says."""
        return self._rows(self.connection.command(*self._query(text, params), write=write))

    def query_then(
        self, text: str, params: Mapping[str, Any] | None, command: tuple[str | int, ...], *, wait_s: float = 0.0
    ) -> tuple[list[str], list[list[Any]], Any]:
        """query(), with `command` sent in the same write and run right after the statement; its reply third.
        An error of the statement is raised first, then one of the command. `wait_s`: how long `command`
        may wait on the server's side (Connection.command)."""
        reply, after = self.connection.commands(self._query(text, params), command, wait_s=wait_s, write=True)
        if isinstance(reply, ReplyError):
            raise reply
        names, rows = self._rows(reply)
        if isinstance(after, ReplyError):
            raise after
        return names, rows, after

    def explain(self, text: str, params: Mapping[str, Any] | None = None) -> list[str]:
        """The steps of the plan FalkorDB would run for the statement, outermost first, without running it."""
        return [step.strip() for step in self.connection.command("GRAPH.EXPLAIN", self.name, with_parameters(text, params))]

    def _query(self, text: str, params: Mapping[str, Any] | None) -> tuple[str, ...]:
        return (self._command, self.name, with_parameters(text, params), "--compact")

    def _rows(self, reply: list[Any]) -> tuple[list[str], list[list[Any]]]:
        if reply and isinstance(reply[-1], ReplyError):  # a run-time error ends an otherwise normal reply
            raise reply[-1]
        if len(reply) < 3:
            return [], []
        columns = [column[1] for column in reply[0]]
        value = self._value
        # Most cells are strings, integers or nulls, taken as they come: a call for each cell of a recall's
        # few thousand cost more than the rest of reading its replies.
        return columns, [[cell[1] if cell[0] in _AS_IS else value(cell) for cell in row] for row in reply[1]]

    def delete(self) -> None:
        self.connection.command("GRAPH.DELETE", self.name)
        self._property_names = []

    def _value(self, cell: list[Any]) -> Any:
        kind, value = cell
        if kind in (_STRING, _INTEGER, _NULL):
            return value
        if kind == _BOOLEAN:
            return value == "true"
        if kind == _DOUBLE:
            return float(value)
        if kind == _ARRAY:
            return [self._value(item) for item in value]
        if kind == _MAP:
            return {value[index]: self._value(value[index + 1]) for index in range(0, len(value), 2)}
        if kind == _NODE:
            return self._properties(value[2])
        if kind == _EDGE:
            return self._properties(value[4])
        if kind == _PATH:
            return self._value(value[0])
        if kind == _VECTORF32:
            return [float(item) for item in value]
        if kind == _POINT:
            return {"latitude": float(value[0]), "longitude": float(value[1])}
        raise ReplyError(f"FalkorDB returned a value of a type this client does not read (type {kind})")

    def _properties(self, triples: list[list[Any]]) -> dict[str, Any]:
        if any(key >= len(self._property_names) for key, *_ in triples):
            reply = self.connection.command(self._command, self.name, "CALL db.propertyKeys()", "--compact")
            self._property_names = [row[0][1] for row in reply[1]]
        return {self._property_names[key]: self._value([kind, value]) for key, kind, value in triples}


# What FalkorDB's error says when an index being created is there already.
ALREADY_EXISTS = ("already indexed", "already exists")
INDEX_LISTING = "CALL db.indexes() YIELD label, types, options, status RETURN label, types, options, status"
# One index as INDEX_LISTING lists it: (label, {property: [kinds]}, {property: {option: value}}, status).
Listed = tuple[str, dict[str, list[str]], dict[str, dict[str, Any]], str]


def listed_indexes(rows: list[list[Any]]) -> list[Listed]:
    """INDEX_LISTING's rows as `Listed` tuples."""
    return [(label, types, options, status) for label, types, options, status in rows]


def indexes(graph: Graph) -> list[Listed]:
    """The graph's indexes as db.indexes lists them, in one statement."""
    return listed_indexes(graph.query(INDEX_LISTING)[1])


def built(listed: list[Listed], *, vectors: bool = False) -> bool:
    """Whether every index listed is built; one being built is listed twice, and a search misses what it does
    not hold yet. A vector index rebuilt after a start (vector_rebuild.py) counts only with `vectors`: nobody
    waits for it, and recall says when it is not built yet."""
    return all(
        status == "OPERATIONAL" or (not vectors and all(kinds == ["VECTOR"] for kinds in types.values()))
        for _, types, _, status in listed
    )


def indexes_built(graph: Graph, *, vectors: bool = False) -> bool:
    """Whether every index of the graph is built (`built`)."""
    return built(indexes(graph), vectors=vectors)
