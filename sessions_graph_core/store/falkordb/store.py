"""The FalkorDB backend: our small client over the embedded server's Unix socket, or over TCP to a
standalone server (store/falkordb/service.py) that many workers share."""

from __future__ import annotations

import atexit
import os
import re
import signal
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sessions_graph_core.errors import StoreUnreachableError
from sessions_graph_core.store.base import FullTextIndex, GraphStore, HistoryErased, Row, Schema, VectorIndex, user_key
from sessions_graph_core.store.falkordb import ping, vector_rebuild
from sessions_graph_core.store.falkordb.client import (
    ALREADY_EXISTS,
    INDEX_LISTING,
    AuthenticationError,
    Connection,
    Graph,
    ReplyError,
    built,
    indexes_built,
    listed_indexes,
)
from sessions_graph_core.store.location import DEFAULT_IDLE_SECONDS, DEFAULT_TIMEOUT_S, reads_moved
from sessions_graph_core.validation import ValidationError, identifier

# The server module (with subprocess) is imported where a server is started, waited for or rewritten: a hook
# that writes to a store that answered its PING (FalkorDBStore.answering) needs none of it.
if TYPE_CHECKING:
    from sessions_graph_core.store.falkordb.server import EmbeddedServer

_MISSING = ("unable to drop", "not exist", "no such index", "not found")
REPLICA_ACK_TIMEOUT_MS = 5000
RESTART_ATTEMPTS = 5  # a statement interrupted by the embedded server's death is sent again at most this often
# A server that restarts answers LOADING until its data is read back; a caller waits this long for it,
# so a read or write either runs or says why within 10 s.
LOADING_WAIT_S = 8.0
LOADING_POLL_S = 0.25
# Statements that change the graph: only those wait for replicas (replica_acks). A read that matched
# would only wait for nothing; a write that did not would be acknowledged unreplicated, so the pattern
# errs towards matching (any procedure whose name creates or drops).
_WRITES = re.compile(r"\b(CREATE|MERGE|SET|DELETE|REMOVE|DROP)\b|\bCALL\s+[\w.]*(create|drop)", re.IGNORECASE)


def may_write(statement: str) -> bool:
    return _WRITES.search(statement) is not None


class StoreUnavailableError(StoreUnreachableError):
    """A standalone store could not be reached, or the connection broke during a statement.

    A statement that was in flight may or may not have been applied: writes MERGE on their keys, so
    the caller (Dagster's retry policy, the hook's next call) can send it again.
    """


def falkordb_address(url: str) -> str:
    """`falkordb://host:port` -> `host:port`."""
    scheme, _, rest = url.partition("://")
    if scheme != "falkordb" or not rest or "@" in rest or "/" in rest.rstrip("/"):
        raise ValueError(
            f"Not a FalkorDB URL: {url!r}; write falkordb://HOST:PORT and give the password in "
            "store.password (SESSIONS_GRAPH_STORE_PASSWORD), never in the URL"
        )
    return rest.rstrip("/")


def _client_name() -> str:
    return f"sessions-graph-{os.getpid()}"


def _exit_on_sigterm() -> None:
    """Make a SIGTERM that would end the process at once (the default action: a process manager stopping a
    worker) end it by SystemExit instead, so that atexit still stops the server the process started. A
    handler the program set itself is left alone."""
    if signal.getsignal(signal.SIGTERM) != signal.SIG_DFL:
        return
    try:
        signal.signal(signal.SIGTERM, _terminated)
    except ValueError:  # only the main thread may set a handler (checked so, not by loading threading: hooks)
        pass


def _terminated(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


class FalkorDBStore(GraphStore):
    """One graph inside the embedded server of a data directory, or inside a standalone server (`server` None)."""

    def __init__(
        self,
        server: EmbeddedServer | None,
        *,
        graph: str = "sessions_graph",
        owns_server: bool = False,
        connection: Connection | None = None,
        replica_acks: int = 0,
        read_only: bool = False,
        password: str | None = None,
    ):
        self.server = server
        self.name = identifier(graph)
        self.owns_server = owns_server
        self.replica_acks = replica_acks
        self._password = password
        self._acks_deferred = False
        if connection is None:
            assert server is not None, "an embedded store needs its server"
            connection = Connection(str(server.socket_path), name=_client_name())
        self._connection = connection
        self._graph = Graph(self._connection, self.name, read_only=read_only)
        self.role = "replica" if read_only else "primary" if server is None else "embedded server"
        self._closed = False
        self._read_fallback: tuple[str, str, Callable[[str], None]] | None = None
        if owns_server:
            atexit.register(self.close)
            _exit_on_sigterm()

    @classmethod
    def open(
        cls,
        data_dir: str | os.PathLike[str],
        *,
        graph: str = "sessions_graph",
        keep_running: bool = False,
        idle_seconds: float = DEFAULT_IDLE_SECONDS,
    ) -> FalkorDBStore:
        """Open a graph, starting the directory's server unless one already runs.

        A server this call started is stopped on close, unless another process is still connected to
        it; with `keep_running` it stays up for the next process and stops itself after `idle_seconds`
        without a command (0: never).
        """
        from sessions_graph_core.store.falkordb.server import EmbeddedServer

        server = EmbeddedServer(data_dir)
        started = server.ensure_running()
        if started and keep_running and idle_seconds > 0:
            from sessions_graph_core.store.falkordb.idle import start_watcher  # only a store this call started

            start_watcher(server.data_dir, idle_seconds)
        return cls(server, graph=graph, owns_server=started and not keep_running)

    @classmethod
    def answering(
        cls, data_dir: str | os.PathLike[str], *, graph: str = "sessions_graph", timeout_s: float | None = None
    ) -> FalkorDBStore:
        """A graph in the embedded server of a data directory that the caller has just seen answer: nothing
        is started, locked or waited for (a hook's path). A statement it leaves unanswered (within `timeout_s`)
        raises StoreUnreachableError instead of starting the server again."""
        connection = Connection(str(ping.socket_path(data_dir)), name=_client_name(), timeout=timeout_s)
        store = cls(None, graph=graph, connection=connection)
        store.role = "embedded server"
        return store

    @classmethod
    def connect(
        cls,
        url: str,
        *,
        password: str,
        graph: str = "sessions_graph",
        replica_acks: int = 0,
        read_only: bool = False,
        timeout_s: float = DEFAULT_TIMEOUT_S,
    ) -> FalkorDBStore:
        """A graph on a standalone server at `url` (falkordb://HOST:PORT); nothing is started.

        With `replica_acks`, every statement returns only once that many replicas hold it (WAIT), so
        what the caller was told is done survives losing the primary. `read_only` sends queries as
        GRAPH.RO_QUERY, which a replica answers. A statement the server does not answer within `timeout_s`
        (plus the replicas' wait, for a write) fails, naming the server.
        """
        connection = Connection(falkordb_address(url), name=_client_name(), password=password or None, timeout=timeout_s)
        return cls(
            None, graph=graph, connection=connection, replica_acks=replica_acks, read_only=read_only, password=password or None
        )

    # -- statements ------------------------------------------------------------------------

    def run(self, query: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        deadline = time.monotonic() + LOADING_WAIT_S
        while True:
            try:
                return self._run_once(query, params)
            except ReplyError as exc:
                if not str(exc).startswith("LOADING") or time.monotonic() > deadline:
                    raise self._explained(exc) from None
            time.sleep(LOADING_POLL_S)

    def _run_once(self, query: str, params: Mapping[str, Any] | None) -> list[Row]:
        acked = None
        try:
            if self.replica_acks and not self._acks_deferred and may_write(query):
                # WAIT goes in the statement's own write: the server runs it right after the statement,
                # so the reply still means the replicas hold it, in one round trip instead of two.
                wait = ("WAIT", self.replica_acks, REPLICA_ACK_TIMEOUT_MS)
                names, rows, acked = self._graph.query_then(query, params, wait, wait_s=REPLICA_ACK_TIMEOUT_MS / 1000)
            else:
                names, rows = self._graph.query(query, params, write=may_write(query))
        except ConnectionError as exc:
            if self.server is not None:
                names, rows = self._again_after_restart(query, params)
            elif self._read_fallback is not None and not may_write(query):
                return self._read_elsewhere(exc, query, params)
            else:
                raise self._unavailable(exc) from None
        if acked is not None:
            self._confirm(acked, "The statement is")
        return [dict(zip(names, row, strict=True)) for row in rows]

    def read_elsewhere_when_silent(self, url: str, role: str, on_switch: Callable[[str], None]) -> None:
        """A read this server does not answer (it stopped, or died, after the command chose it) is sent once to
        the server at `url`, this one's replica or primary (`role`), where the rest of the command then reads;
        `on_switch` gets the note that says so. A write is never moved."""
        self._read_fallback = (url, role, on_switch)

    def _read_elsewhere(self, exc: ConnectionError, query: str, params: Mapping[str, Any] | None) -> list[Row]:
        assert self._read_fallback is not None
        url, role, on_switch = self._read_fallback
        self._read_fallback = None
        trouble = self._unavailable(exc)
        timeout = self._connection.timeout
        self._connection.close()
        self._connection = Connection(falkordb_address(url), name=_client_name(), password=self._password, timeout=timeout)
        # Both servers answer GRAPH.RO_QUERY, and only reads come here.
        self._graph = Graph(self._connection, self.name, read_only=True)
        self.role = role
        on_switch(reads_moved(trouble, role, url))
        return self._run_once(query, params)

    def _again_after_restart(self, query: str, params: Mapping[str, Any] | None) -> tuple[list[str], list[list[Any]]]:
        """The statement again, on the embedded server brought back, until it is answered.

        The server went away (stopped by its owner, or killed) before its reply arrived: the statement may
        have been applied. Every write is idempotent when sent again (it MERGEs on its keys or checks its
        write id), so sending it until a reply comes applies it at most once and reports what happened. One
        retry was not enough: a server that died again during the retry left a write applied but reported failed,
        and the caller's own retry then doubled it. RESTART_ATTEMPTS bounds a server that cannot stay up.
        """
        assert self.server is not None
        attempt = 1
        while True:
            self.server.ensure_running()  # a server that cannot start at all raises here: nothing to retry
            try:
                return self._graph.query(query, params)
            except ConnectionError:
                if attempt == RESTART_ATTEMPTS:
                    raise
                attempt += 1

    def trouble(self, timeout_s: float) -> str | None:
        """None when the server answers a query within `timeout_s`; else what is wrong with it, in words.
        A stopped server accepts connections and never replies: the short timeout is what tells it."""
        normal, self._connection.timeout = self._connection.timeout, timeout_s
        self._connection.close()  # the timeout applies from the next connection
        try:
            self._graph.query("RETURN 1")
        except ConnectionError as exc:
            return str(self._unavailable(exc))
        except ReplyError as exc:
            return str(self._explained(exc))
        finally:
            self._connection.close()
            self._connection.timeout = normal
        return None

    @contextmanager
    def acknowledged_together(self) -> Iterator[None]:
        """With `replica_acks`, the block's statements return without waiting for the replicas, and its end
        waits once (WAIT covers every write this connection sent before it), raising as a statement does
        when the replicas do not confirm: a session's twenty statements wait once, not twenty times.
        Nothing in the block is acknowledged before its end; a block that raises waits for nothing."""
        if not self.replica_acks or self._acks_deferred:
            yield
            return
        self._acks_deferred = True
        try:
            yield
        finally:
            self._acks_deferred = False
        try:
            acked = self._connection.command("WAIT", self.replica_acks, REPLICA_ACK_TIMEOUT_MS, wait_s=REPLICA_ACK_TIMEOUT_MS / 1000)
        except ConnectionError as exc:
            raise self._unavailable(exc) from None
        self._confirm(acked, "What the block wrote is")

    def _confirm(self, acked: int, what: str) -> None:
        if acked < self.replica_acks:
            raise StoreUnavailableError(
                f"{what} applied on the primary {self._connection.address}, but only {acked} of "
                f"{self.replica_acks} replicas confirmed it within {REPLICA_ACK_TIMEOUT_MS} ms, so it is not "
                "acknowledged: check the replicas (INFO replication), or lower store.replica_acks"
            )

    def _unavailable(self, exc: ConnectionError) -> StoreUnavailableError:
        if isinstance(exc, AuthenticationError):
            return StoreUnavailableError(str(exc))
        if self.role == "replica":
            return StoreUnavailableError(
                f"The FalkorDB replica at {self._connection.address} (store.read_url) is unreachable ({exc}): "
                "start it again, or unset store.read_url to read from the primary"
            )
        if self.role == "embedded server":
            return StoreUnavailableError(
                f"The embedded FalkorDB server at {self._connection.address} stopped answering ({exc}). A statement "
                "in flight may or may not have been applied; retrying it is safe"
            )
        return StoreUnavailableError(
            f"The FalkorDB {self.role} at {self._connection.address} is unreachable ({exc}). A statement in flight "
            "may or may not have been applied; retrying it is safe. If the primary is gone for good, promote "
            "its replica (python -m sessions_graph_core.store.falkordb.service promote DIR) and point "
            "store.url at it"
        )

    def _explained(self, exc: ReplyError) -> Exception:
        text = str(exc)
        if text.startswith("LOADING"):
            return StoreUnavailableError(
                f"The FalkorDB {self.role} at {self._connection.address} is still loading its data after "
                f"{LOADING_WAIT_S:.0f} s (it restarted and reads its files back; {text}): nothing was run; "
                "retry in a moment, and if it stays so, read its log"
            )
        if text.startswith("NOAUTH") or text.startswith("WRONGPASS"):
            return StoreUnavailableError(
                f"{self._connection.address} wants a password ({text}): set store.password (SESSIONS_GRAPH_STORE_PASSWORD)"
            )
        if text.startswith("READONLY") or "graph.ro_query is to be executed only on read-only queries" in text.lower():
            return ValidationError(
                f"{self._connection.address} is a read-only replica ({text}): point store.url at the primary; "
                "store.read_url is the place for a replica"
            )
        return exc

    # -- schema ----------------------------------------------------------------------------

    def apply_schema(self, schema: Schema) -> None:
        """Make the indexes the schema names that the graph lacks, and wait until every index is built.

        The indexes are listed first, in one statement: the first hook of every session applies the schema,
        and on a store set up before that is all it costs (it was a statement per index, some thirty, each
        refused as existing, then the listing)."""
        schema.check()
        listed = listed_indexes(self._schema_query(INDEX_LISTING))
        kinds: dict[tuple[str, str], list[str]] = {}
        for label, types, _, _ in listed:
            for prop, found in types.items():
                kinds.setdefault((label, prop), []).extend(found)
        ranges = [(label, prop) for label, prop in self._range_targets(schema) if "RANGE" not in kinds.get((label, prop), ())]
        texts = [index for index in schema.fulltext_indexes if "FULLTEXT" not in kinds.get((index.label, index.property), ())]
        if not ranges and not texts and built(listed):
            return
        for label, prop in ranges:
            self._tolerate(ALREADY_EXISTS, f"CREATE INDEX FOR (n:{label}) ON (n.{prop})")
        for index in texts:
            self._tolerate(
                ALREADY_EXISTS,
                "CALL db.idx.fulltext.createNodeIndex("
                f"{{label: '{index.label}', language: 'english'}}, '{index.property}', "
                "{field: 'user_key', nostem: true})",
            )
        self._wait_for_indexes()

    def drop_schema(self, schema: Schema) -> None:
        schema.check()
        for index in schema.fulltext_indexes:
            self._tolerate(_MISSING, f"CALL db.idx.fulltext.drop('{index.label}')")
        for label, prop in self._range_targets(schema):
            self._tolerate(_MISSING, f"DROP INDEX FOR (n:{label}) ON (n.{prop})")
        self._wait_for_indexes()

    def _wait_for_indexes(self) -> None:
        """Indexes build in the background: return once they are all built, so the schema is what
        setup made (not a listing in transition) and the first search after it finds everything."""
        from sessions_graph_core.store.falkordb.server import START_TIMEOUT_S

        deadline = time.monotonic() + START_TIMEOUT_S
        while not indexes_built(self._graph):
            if time.monotonic() > deadline:
                raise StoreUnreachableError(
                    f"The indexes of graph {self.name} were still being built after {START_TIMEOUT_S:.0f} s; "
                    "run `sessions-graph setup` again"
                )
            time.sleep(0.01)

    @staticmethod
    def _range_targets(schema: Schema) -> list[tuple[str, str]]:
        targets = [(key.label, prop) for key in schema.unique_keys for prop in key.properties]
        targets += [(index.label, index.property) for index in schema.range_indexes]
        return list(dict.fromkeys(targets))

    def _tolerate(self, expected: tuple[str, ...], statement: str) -> None:
        self._schema_query(statement, expected)

    def _schema_query(self, statement: str, tolerated: tuple[str, ...] = ()) -> list[list[Any]]:
        """The rows of a schema statement; an error reply holding one of `tolerated` gives none."""
        try:
            return self._graph.query(statement)[1]
        except ReplyError as exc:
            if not any(text in str(exc).lower() for text in tolerated):
                raise
            return []
        except ConnectionError as exc:
            if self.server is None:  # a standalone server: say which one and what to do, as run() does
                raise self._unavailable(exc) from None
            raise

    # -- search ----------------------------------------------------------------------------

    def _fulltext_call(self, index: FullTextIndex, query: str = "$query") -> str:
        return f"CALL db.idx.fulltext.queryNodes('{identifier(index.label)}', {query}) YIELD node, score"

    def _fulltext_query(self, index: FullTextIndex, user_id: str, terms: Sequence[str]) -> str:
        return f"@user_key:{user_key(user_id)} @{identifier(index.property)}:({'|'.join(terms)})"

    def ensure_vector_index(self, index: VectorIndex) -> None:
        self._tolerate(
            ALREADY_EXISTS,
            vector_rebuild.create_statement(identifier(index.label), identifier(index.property), int(index.dimension)),
        )

    def vector_search(self, index: VectorIndex, vector: Sequence[float], *, k: int, columns: str) -> list[Row]:
        try:
            return self.run(
                f"CALL db.idx.vector.queryNodes('{identifier(index.label)}', '{identifier(index.property)}', "
                f"$k, vecf32($vector)) YIELD node, score WITH node, 1.0 - score AS similarity RETURN {columns}",
                {"k": int(k), "vector": [float(x) for x in vector]},
            )
        except ReplyError as exc:
            # No index, or no vector property in the graph at all: nothing was embedded yet.
            if any(text in str(exc).lower() for text in ("invalid arguments", "undefined attribute")):
                return []
            raise

    def vector_index_building(self, index: VectorIndex) -> bool:
        return vector_rebuild.building(self._graph, identifier(index.label))

    def vector_value(self, expression: str) -> str:
        return f"vecf32({expression})"

    # -- housekeeping ----------------------------------------------------------------------

    def erase_history(self) -> HistoryErased:
        """Delete FalkorDB's query-log streams (servers started before CMD_INFO was turned off kept one
        per graph) and rewrite the append-only log of the server and of each replica it lists, so the
        files on disk hold what the graph holds now and no statement that ran before."""
        telemetry = self._delete_telemetry()
        rewritten, failed, directories = [], {}, []
        for address in [self._connection.address, *self._replicas()]:
            try:
                folder = self._rewrite(address)
                rewritten.append(address)
                directories += [str(folder)] if folder else []
            except (OSError, ReplyError, StoreUnreachableError) as exc:
                failed[address] = str(exc)
        return HistoryErased(
            telemetry_keys=telemetry, rewritten=tuple(rewritten), not_rewritten=failed, directories=tuple(directories)
        )

    def _delete_telemetry(self) -> int:
        deleted, cursor = 0, "0"
        while True:
            cursor, keys = self._connection.command("SCAN", cursor, "MATCH", "telemetry{*}", "COUNT", 1000)
            if keys:
                deleted += int(self._connection.command("DEL", *keys))
            if cursor == "0":
                return deleted

    def _replicas(self) -> list[str]:
        """The replicas the server lists as online (`INFO replication`), as HOST:PORT."""
        from sessions_graph_core.store.falkordb.server import server_info

        info = server_info(self._connection, "replication")
        fields = [dict(pair.split("=", 1) for pair in value.split(",")) for name, value in info.items()
                  if name.startswith("slave") and name[5:].isdigit()]
        return [f"{each['ip']}:{each['port']}" for each in fields if each.get("state") == "online"]

    def _rewrite(self, address: str) -> Path | None:
        """Rewrite one server's log; its directory, when this machine can read it."""
        mine = address == self._connection.address
        connection = self._connection if mine else Connection(address, password=self._password, timeout=60)
        try:
            folder = self._local_dir(connection)
            from sessions_graph_core.store.falkordb.server import rewrite_log

            rewrite_log(connection, folder)
            return folder
        finally:
            if not mine:
                connection.close()

    @staticmethod
    def _local_dir(connection: Connection) -> Path | None:
        """The server's data directory when this machine can read it (the embedded server's always)."""
        _, folder = connection.command("CONFIG", "GET", "dir")
        path = Path(folder)
        return path if (path / "appendonlydir").is_dir() else None

    def delete_all(self) -> None:
        try:
            self._graph.delete()
        except ReplyError as exc:
            if "empty key" not in str(exc).lower() and "invalid graph" not in str(exc).lower():
                raise

    def other_clients(self) -> int:
        """Connections to the server from processes other than this one."""
        mine = _client_name()
        listing = self._connection.command("CLIENT", "LIST")
        return sum(1 for line in listing.splitlines() if f" name={mine} " not in f" {line} ")

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            if self.owns_server and self.server is not None and self.other_clients() == 0:
                self._connection.close()
                self.server.stop()
                return
        except (StoreUnreachableError, OSError):
            pass
        self._connection.close()
