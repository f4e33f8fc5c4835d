"""The one interface every graph backend implements, and the schema it is asked to hold.

Backends are thin: run a parameterised statement and return plain rows, make the schema
idempotently, and answer user-scoped full-text (and later vector) searches. All other Cypher is
shared text in the subset FalkorDB and Memgraph both accept (DESIGN.md section 3).
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from sessions_graph_core.validation import identifier
from sessions_graph_core.values import Value

Row = dict[str, Any]


class UniqueKey(Value):
    """Properties whose values identify one node of a label.

    Writers keep keys unique by MERGE-ing on them in single statements; backends that can also
    enforce it (Memgraph) create a constraint.
    """

    __slots__ = ("label", "properties")

    label: str
    properties: tuple[str, ...]

    def __init__(self, label: str, properties: tuple[str, ...]) -> None:
        self._fill(label, properties)


class RangeIndex(Value):
    __slots__ = ("label", "property")

    label: str
    property: str

    def __init__(self, label: str, property: str) -> None:
        self._fill(label, property)


class FullTextIndex(Value):
    """Full-text search over one text property, always scoped to one user through `user_key`."""

    __slots__ = ("name", "label", "property")

    name: str
    label: str
    property: str

    def __init__(self, name: str, label: str, property: str) -> None:
        self._fill(name, label, property)


class VectorIndex(Value):
    """Nearest-neighbour search over one vector property of one label (cosine)."""

    __slots__ = ("label", "property", "dimension")

    label: str
    property: str
    dimension: int

    def __init__(self, label: str, property: str, dimension: int) -> None:
        self._fill(label, property, dimension)


class Schema(Value):
    __slots__ = ("unique_keys", "range_indexes", "fulltext_indexes")

    unique_keys: Sequence[UniqueKey]
    range_indexes: Sequence[RangeIndex]
    fulltext_indexes: Sequence[FullTextIndex]

    def __init__(
        self, unique_keys: Sequence[UniqueKey] = (), range_indexes: Sequence[RangeIndex] = (),
        fulltext_indexes: Sequence[FullTextIndex] = (),
    ) -> None:
        self._fill(unique_keys, range_indexes, fulltext_indexes)

    def identifiers(self) -> list[str]:
        names: list[str] = []
        for key in self.unique_keys:
            names += [key.label, *key.properties]
        for index in self.range_indexes:
            names += [index.label, index.property]
        for text_index in self.fulltext_indexes:
            names += [text_index.name, text_index.label, text_index.property]
        return names

    def check(self) -> None:
        for name in self.identifiers():
            identifier(name)


def user_key(user_id: str) -> str:
    """A single lowercase token standing for a user inside search indexes.

    Search engines tokenise `alice@example.com` into several words; this token matches one user
    exactly, so a full-text query can be restricted to one user inside the index.
    """
    return "u" + hashlib.sha256(user_id.encode("utf-8")).hexdigest()[:24]


class HistoryErased(Value):
    """What `erase_history` did: the query-log keys it deleted, the servers whose logs it rewrote from
    the data they hold now, those it could not (with why), and the servers' directories this machine can
    read (where the check after a forget looks)."""

    __slots__ = ("telemetry_keys", "rewritten", "not_rewritten", "directories")

    telemetry_keys: int
    rewritten: tuple[str, ...]
    not_rewritten: dict[str, str]
    directories: tuple[str, ...]

    def __init__(
        self, telemetry_keys: int = 0, rewritten: tuple[str, ...] = (), not_rewritten: dict[str, str] | None = None,
        directories: tuple[str, ...] = (),
    ) -> None:
        self._fill(telemetry_keys, rewritten, {} if not_rewritten is None else not_rewritten, directories)


class GraphStore(ABC):
    """A connection to one graph."""

    name: str
    # Capabilities a caller may ask for instead of asking which backend this is.
    embeds_text: bool = False  # computes text embeddings inside the store (Memgraph's MAGE `embeddings.text`)

    def ping(self) -> None:
        """Raises when the store does not answer the simplest statement."""
        self.run("RETURN 1 AS ok")

    def trouble(self, timeout_s: float) -> str | None:
        """None when the store answers a statement, else what is wrong, in words. A store of one server (the
        embedded one, Memgraph) has nothing to fall back to and keeps its own timeouts; a standalone
        FalkorDB replica answers within `timeout_s` or gives way to its primary (location.open_reads)."""
        try:
            self.ping()
        except ConnectionError as exc:
            return str(exc)
        return None

    @abstractmethod
    def run(self, query: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        """Run one statement with parameters; values come back as plain Python data."""

    @contextmanager
    def acknowledged_together(self) -> Iterator[None]:
        """A block whose statements are acknowledged together when it ends without an error: a store that
        waits for replicas after each statement waits once, at the end, for all of them. Here each
        statement is acknowledged on its own when it returns, so there is nothing to wait for."""
        yield

    @abstractmethod
    def apply_schema(self, schema: Schema) -> None:
        """Create what the schema lists; running it again changes nothing."""

    @abstractmethod
    def drop_schema(self, schema: Schema) -> None:
        """Remove the schema's constraints and indexes (the data stays)."""

    @abstractmethod
    def _fulltext_call(self, index: FullTextIndex, query: str = "$query") -> str:
        """The procedure call that yields `node` and `score` for the engine query `query` (a parameter or variable)."""

    @abstractmethod
    def _fulltext_query(self, index: FullTextIndex, user_id: str, terms: Sequence[str]) -> str:
        """The engine query for nodes of one user holding any of `terms` (words only: see text.search_terms)."""

    def fulltext_search(
        self, index: FullTextIndex, user_id: str, terms: Sequence[str], *, limit: int, columns: str
    ) -> list[Row]:
        """Nodes of one user matching any of `terms`, best first.

        `columns` is the RETURN list, written against the variables `node` and `score`.
        """
        if not terms:
            return []
        return self.run(
            f"{self._fulltext_call(index)} WITH node, score WHERE node.user_id = $user_id "
            f"RETURN {columns} ORDER BY score DESC LIMIT $limit",
            {"query": self._fulltext_query(index, user_id, terms), "user_id": user_id, "limit": int(limit)},
        )

    def fulltext_postings(
        self, index: FullTextIndex, user_id: str, term: str, *, limit: int, most: int, columns: str, order: str
    ) -> tuple[int, list[Row]]:
        """How many nodes of one user match `term` (its document frequency), and the best `limit`.

        One pass over at most `most` of the term's postings serves both, so a term that matches
        more answers `most` (and the best among those read) at a bounded cost. The best are the
        first in `order`, then by node id: the index's own score does not choose them, as it changes
        when a matching node is written again and when the server rebuilds the index on loading the
        store, so the same history gave other candidates before and after a restart. `order` and
        `columns` are written against `node`.
        """
        rows = self.run(
            f"{self._fulltext_call(index)} WITH node, score WHERE node.user_id = $user_id "
            f"WITH node LIMIT $most WITH node ORDER BY {order}, id(node) "
            "WITH collect(node) AS hits WITH size(hits) AS matched, hits[0..$limit] AS best "
            f"UNWIND best AS node RETURN matched, {columns}",
            {"query": self._fulltext_query(index, user_id, [term]), "user_id": user_id, "limit": int(limit), "most": int(most)},
        )
        return (int(rows[0]["matched"]) if rows else 0), rows

    def fulltext_counts(self, index: FullTextIndex, user_id: str, terms: Sequence[str]) -> dict[str, int]:
        """How many nodes of one user match each of `terms`, in one statement (a term none match is left
        out). Each term's postings are all read: give only terms known not to be common."""
        if not terms:
            return {}
        rows = self.run(
            f"UNWIND range(0, size($queries) - 1) AS place WITH place, $queries[place] AS query "
            f"{self._fulltext_call(index, 'query')} WITH place, node WHERE node.user_id = $user_id "
            "RETURN place, count(node) AS matched",
            {"queries": [self._fulltext_query(index, user_id, [term]) for term in terms], "user_id": user_id},
        )
        return {terms[int(row["place"])]: int(row["matched"]) for row in rows}

    @abstractmethod
    def ensure_vector_index(self, index: VectorIndex) -> None:
        """Create the vector index unless it exists."""

    @abstractmethod
    def vector_search(self, index: VectorIndex, vector: Sequence[float], *, k: int, columns: str) -> list[Row]:
        """The `k` nodes nearest `vector`, best first.

        `columns` is the RETURN list, written against `node` and `similarity` (cosine, 1 is equal).
        """

    def vector_index_building(self, index: VectorIndex) -> bool:
        """Whether the index exists but is still being built, so a search of it finds nothing yet."""
        return False

    @abstractmethod
    def vector_value(self, expression: str) -> str:
        """Query text that stores the list `expression` (a parameter or variable) as a vector."""

    def erase_history(self) -> HistoryErased:
        """Make the server's files on disk hold only what the graph holds now (after a forget)."""
        return HistoryErased(not_rewritten={self.name: f"{type(self).__name__} keeps its own log; sessions-graph does not rewrite it"})

    @abstractmethod
    def delete_all(self) -> None:
        """Remove every node and relationship of this graph."""

    @abstractmethod
    def close(self) -> None:
        """Release the connection."""

    def __enter__(self) -> GraphStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
