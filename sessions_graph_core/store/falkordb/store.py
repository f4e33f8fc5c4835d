"""The FalkorDB backend: our small client (falkordb_client) over the embedded server's Unix socket."""

from __future__ import annotations

import atexit
import os
import time
from collections.abc import Mapping, Sequence
from typing import Any

from sessions_graph_core.errors import StoreUnreachableError
from sessions_graph_core.store.base import FullTextIndex, GraphStore, Row, Schema, VectorIndex, user_key
from sessions_graph_core.store.falkordb.client import Connection, Graph, ReplyError
from sessions_graph_core.store.falkordb.server import START_TIMEOUT_S, EmbeddedServer, indexes_built
from sessions_graph_core.validation import identifier

_ALREADY_EXISTS = ("already indexed", "already exists")
VECTOR_EF_RUNTIME = 200
_MISSING = ("unable to drop", "not exist", "no such index", "not found")


def _client_name() -> str:
    return f"sessions-graph-{os.getpid()}"


class FalkorDBStore(GraphStore):
    """One graph inside the embedded server of a data directory."""

    def __init__(self, server: EmbeddedServer, *, graph: str = "sessions_graph", owns_server: bool = False):
        self.server = server
        self.name = identifier(graph)
        self.owns_server = owns_server
        self._connection = Connection(str(server.socket_path), name=_client_name())
        self._graph = Graph(self._connection, self.name)
        self._closed = False
        if owns_server:
            atexit.register(self.close)

    @classmethod
    def open(cls, data_dir: str | os.PathLike[str], *, graph: str = "sessions_graph", keep_running: bool = False) -> FalkorDBStore:
        """Open a graph, starting the directory's server unless one already runs.

        A server this call started is stopped on close, unless `keep_running` or another process
        is still connected to it.
        """
        server = EmbeddedServer(data_dir)
        started = server.ensure_running()
        return cls(server, graph=graph, owns_server=started and not keep_running)

    # -- statements ------------------------------------------------------------------------

    def run(self, query: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        try:
            names, rows = self._graph.query(query, params)
        except ConnectionError:
            # The server went away between calls (stopped by its owner): bring it back once.
            self.server.ensure_running()
            names, rows = self._graph.query(query, params)
        return [dict(zip(names, row, strict=True)) for row in rows]

    # -- schema ----------------------------------------------------------------------------

    def apply_schema(self, schema: Schema) -> None:
        schema.check()
        for label, prop in self._range_targets(schema):
            self._tolerate(_ALREADY_EXISTS, f"CREATE INDEX FOR (n:{label}) ON (n.{prop})")
        for index in schema.fulltext_indexes:
            self._tolerate(
                _ALREADY_EXISTS,
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
        try:
            self._graph.query(statement)
        except ReplyError as exc:
            if not any(text in str(exc).lower() for text in expected):
                raise

    # -- search ----------------------------------------------------------------------------

    def _fulltext_call(self, index: FullTextIndex) -> str:
        return f"CALL db.idx.fulltext.queryNodes('{identifier(index.label)}', $query) YIELD node, score"

    def _fulltext_query(self, index: FullTextIndex, user_id: str, terms: Sequence[str]) -> str:
        return f"@user_key:{user_key(user_id)} @{identifier(index.property)}:({'|'.join(terms)})"

    def ensure_vector_index(self, index: VectorIndex) -> None:
        # efRuntime: the default of 10 finds almost none of the true neighbours (graphstores.md).
        self._tolerate(
            _ALREADY_EXISTS,
            f"CREATE VECTOR INDEX FOR (n:{identifier(index.label)}) ON (n.{identifier(index.property)}) "
            f"OPTIONS {{dimension: {int(index.dimension)}, similarityFunction: 'cosine', efRuntime: {VECTOR_EF_RUNTIME}}}",
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

    def vector_value(self, expression: str) -> str:
        return f"vecf32({expression})"

    # -- housekeeping ----------------------------------------------------------------------

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
            if self.owns_server and self.other_clients() == 0:
                self._connection.close()
                self.server.stop()
                return
        except (StoreUnreachableError, OSError):
            pass
        self._connection.close()
