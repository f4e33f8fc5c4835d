"""The Memgraph backend (>= 3.6) over Bolt with the neo4j driver: the production store.

Only the dialect lives here: constraints, text indexes and text search. Nothing on the
development machines can run Memgraph, so this stays thin; its tests run when MEMGRAPH_URL is set.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sessions_graph_core.errors import StoreUnreachableError
from sessions_graph_core.store.base import FullTextIndex, GraphStore, Row, Schema, VectorIndex, user_key

_ALREADY_EXISTS = ("already exists", "already defined", "constraint already")
_MISSING = ("doesn't exist", "does not exist", "not found", "no such")


class MemgraphStore(GraphStore):
    embeds_text = True  # with MAGE loaded; the embedder says so when the procedure is missing
    def __init__(self, url: str, *, user: str = "", password: str = "", database: str = "memgraph"):
        import neo4j

        self._neo4j = neo4j
        self.name = database
        self._driver = neo4j.GraphDatabase.driver(url, auth=(user, password) if user else None)
        self._database = database
        try:
            self._driver.verify_connectivity()
        except Exception as exc:
            self._driver.close()
            raise StoreUnreachableError(f"Could not connect to Memgraph at {url}: {exc}") from None

    def run(self, query: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        records, _, _ = self._driver.execute_query(query, dict(params or {}), database_=self._database)
        return [record.data() for record in records]

    def apply_schema(self, schema: Schema) -> None:
        for statement in self._schema_statements(schema, create=True):
            self._tolerate(_ALREADY_EXISTS, statement)

    def drop_schema(self, schema: Schema) -> None:
        for statement in self._schema_statements(schema, create=False):
            self._tolerate(_MISSING, statement)

    @staticmethod
    def _schema_statements(schema: Schema, *, create: bool) -> list[str]:
        schema.check()
        verb = "CREATE" if create else "DROP"
        statements = []
        for key in schema.unique_keys:
            props = ", ".join(f"n.{prop}" for prop in key.properties)
            statements.append(f"{verb} CONSTRAINT ON (n:{key.label}) ASSERT {props} IS UNIQUE")
        for index in schema.range_indexes:
            statements.append(f"{verb} INDEX ON :{index.label}({index.property})")
        for text in schema.fulltext_indexes:
            statements.append(
                f"CREATE TEXT INDEX {text.name} ON :{text.label}({text.property}, user_key)"
                if create
                else f"DROP TEXT INDEX {text.name}"
            )
        return statements

    def _tolerate(self, expected: tuple[str, ...], statement: str) -> None:
        try:
            self._driver.execute_query(statement, database_=self._database)
        except self._neo4j.exceptions.Neo4jError as exc:
            if not any(text in str(exc).lower() for text in expected):
                raise

    def _fulltext_call(self, index: FullTextIndex, query: str = "$query") -> str:
        return f"CALL text_search.search('{index.name}', {query}) YIELD node, score"

    def _fulltext_query(self, index: FullTextIndex, user_id: str, terms: Sequence[str]) -> str:
        words = " OR ".join(f"data.{index.property}:{term}" for term in terms)
        return f"data.user_key:{user_key(user_id)} AND ({words})"

    @staticmethod
    def _vector_index_name(index: VectorIndex) -> str:
        return f"{index.label}_{index.property}"

    def ensure_vector_index(self, index: VectorIndex) -> None:
        self._tolerate(
            _ALREADY_EXISTS,
            f"CREATE VECTOR INDEX {self._vector_index_name(index)} ON :{index.label}({index.property}) "
            f'WITH CONFIG {{"dimension": {int(index.dimension)}, "capacity": 100000, "metric": "cos"}}',
        )

    def vector_search(self, index: VectorIndex, vector: Sequence[float], *, k: int, columns: str) -> list[Row]:
        return self.run(
            f"CALL vector_search.search('{self._vector_index_name(index)}', $k, $vector) YIELD node, similarity "
            f"RETURN {columns}",
            {"k": int(k), "vector": [float(x) for x in vector]},
        )

    def vector_value(self, expression: str) -> str:
        return expression

    def delete_all(self) -> None:
        self.run("MATCH (n) DETACH DELETE n")

    def close(self) -> None:
        self._driver.close()
