"""Large vector indexes are set aside at a clean stop and rebuilt after the next start, while the store answers.

FalkorDB keeps no HNSW graph on disk: loading a store re-inserts every vector into its index, and answers
nobody until that is done (93% of a 10k-turn store's open time, docs/benchmarks/cli.md). So a clean stop
writes what rebuilds each large vector index (its graph, label, property, dimension, similarity) to
`DATA_DIR/vector-indexes.json`, fsynced, then drops the index and compacts the log; the next start loads
the graph without it, answers at once, and creates the index again, which FalkorDB builds in the
background. Until it is built a vector search finds nothing, and recall says so (`vectors_building`).

Nothing written is at stake: the vectors are properties of their Passage nodes, kept in the log like any
write; only the index over them is rebuilt. A `kill -9` leaves the index in the log, and that start
rebuilds it during the load, as before. A start that finds the file creates what it names (an index that
exists already is left alone) and deletes it.

Every vector index is created with the HNSW options in HNSW (the file records the dimension and similarity;
the rebuild takes today's HNSW options, so a store whose index was created with older ones gets these at its
next clean stop and start, at no cost beyond the rebuild it does anyway).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from sessions_graph_core.store.falkordb.client import ALREADY_EXISTS, Connection, Graph, ReplyError, indexes

SET_ASIDE_FILE = "vector-indexes.json"
# Fewer vectors than this rebuild during the load in a second or two: such an index is kept through a stop.
SET_ASIDE_FROM = 5_000
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_OPTIONS = ("dimension", "similarityFunction")
# FalkorDB's defaults are M 16, efConstruction 200, efRuntime 10 (which finds almost none of the true neighbours,
# graphstores.md). efConstruction is what a build costs: the 100k-turn store's 125,711 vectors built 2.5-3.1x
# faster at 64 than at 200. efRuntime is what a query costs (a few ms here): 64 with 400 finds more of the exact
# neighbours than 200 with 200 did (bench_vector_index.py, docs/benchmarks/cli.md).
HNSW = {"M": 16, "efConstruction": 64, "efRuntime": 400}


def create_statement(label: str, prop: str, dimension: int, similarity: str = "cosine") -> str:
    """CREATE VECTOR INDEX for `label`.`prop` with the HNSW options above; the names must be identifiers."""
    if not (_NAME.match(label) and _NAME.match(prop)):
        raise ValueError(f"A vector index needs plain names (letters, digits, _): got {label!r} and {prop!r}")
    similarity = similarity.lower()
    if similarity not in ("cosine", "euclidean"):
        raise ValueError(f"A vector index's similarity is 'cosine' or 'euclidean', not {similarity!r}")
    options = ", ".join(f"{key}: {int(value)}" for key, value in HNSW.items())
    return (f"CREATE VECTOR INDEX FOR (n:{label}) ON (n.{prop}) OPTIONS "
            f"{{dimension: {int(dimension)}, similarityFunction: '{similarity}', {options}}}")


def vector_indexes(graph: Graph) -> list[dict[str, Any]]:
    """The graph's vector indexes, each with the options that create it again."""
    return [
        {"label": label, "property": prop, "options": {key: options[prop][key] for key in _OPTIONS if key in options[prop]}}
        for label, types, options, _ in indexes(graph)
        for prop, kinds in types.items()
        if "VECTOR" in kinds and _NAME.match(label) and _NAME.match(prop)  # names go into the statement
    ]


def _write_durably(path: Path, entries: list[dict[str, Any]]) -> None:
    temporary = path.with_suffix(".tmp")
    with open(temporary, "w", encoding="utf-8") as file:
        json.dump(entries, file)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)
    folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def recorded(data_dir: Path) -> list[dict[str, Any]]:
    """The vector indexes a clean stop set aside and no start has created again yet."""
    try:
        return json.loads((Path(data_dir) / SET_ASIDE_FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []


def set_aside(client: Connection, data_dir: Path) -> bool:
    """Drop every vector index of SET_ASIDE_FROM vectors or more, after recording how to rebuild it; whether
    any was dropped (then the caller compacts the log, or the next load would build it and then drop it)."""
    large = []
    for name in client.command("GRAPH.LIST"):
        graph = Graph(client, name)
        for index in vector_indexes(graph):
            _, [[count]] = graph.query(f"MATCH (n:{index['label']}) RETURN count(n)")
            if count >= SET_ASIDE_FROM:
                large.append({"graph": name, **index})
    if not large:
        return False
    path = Path(data_dir) / SET_ASIDE_FILE
    _write_durably(path, recorded(data_dir) + large)  # recorded before any drop: a crash in between loses no index
    for index in large:
        Graph(client, index["graph"]).query(f"DROP VECTOR INDEX FOR (n:{index['label']}) ON (n.{index['property']})")
    return True


def restore(client: Connection, data_dir: Path) -> None:
    """Create the vector indexes a clean stop set aside (FalkorDB builds them in the background), then forget them."""
    path = Path(data_dir) / SET_ASIDE_FILE
    for index in recorded(data_dir):
        if not (_NAME.match(index["label"]) and _NAME.match(index["property"])):
            continue  # names go into the statement: only ones that vector_indexes would have written
        options = index["options"]
        try:
            Graph(client, index["graph"]).query(create_statement(
                index["label"], index["property"], int(options["dimension"]), str(options.get("similarityFunction", "cosine"))
            ))
        except ReplyError as exc:
            if not any(text in str(exc).lower() for text in ALREADY_EXISTS):
                raise
    path.unlink(missing_ok=True)


def building(graph: Graph, label: str) -> bool:
    """Whether the vector index on `label` is still being built (after a start, see the module docstring)."""
    _, rows = graph.query("CALL db.indexes() YIELD label, types, status WHERE label = $label RETURN types, status", {"label": label})
    return any("VECTOR" in kinds for types, status in rows for kinds in types.values() if status != "OPERATIONAL")
