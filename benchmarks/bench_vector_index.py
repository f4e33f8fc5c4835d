"""How long a store's vector index takes to build, and what its HNSW options cost in neighbours found.

    .venv/bin/python benchmarks/bench_vector_index.py --store /tmp/h40-100k [--options 16:200:200,16:64:200] [--queries 200]

A copy of `--store` (a store bench_cli.py built; never changed itself) is started without its vector index
(the set-aside file is removed from the copy; a store stopped by `kill -9` has its index dropped first), so
it answers at once. Every vector of the index's label is read once into memory. Then, for each option set
`M:efConstruction:efRuntime` in `--options`, in the order given, the index is dropped and created again with
those options, and the build is timed until FalkorDB lists it `OPERATIONAL`: wall seconds, and the server's
CPU seconds in that time (how many cores the build used, and a figure less moved by other work on the
machine). That is what a start after a clean stop does in the background (vector_rebuild.py).

Each built index is then searched with `--queries` queries, half of them a stored vector plus Gaussian noise
(sigma 0.05 a dimension, normalised: a near paraphrase of a passage), half of them LoCoMo questions embedded
with the default model (text far from anything stored). The exact top k of each query is the brute-force
cosine over every stored vector (numpy); recall@10 is the share of the exact top 10 among the index's 10,
recall@200 the share of the exact top 200 among the index's 200 (200 = what recall's turn lane asks:
POOL x VECTOR_OVERFETCH). A table prints each option set's build time, its ratio to the first set's, the
recalls by query kind, and the searches' p50 at k 10 and k 200.

The header says how many of the stored vectors are distinct: a duplicate costs a build step and finds
nothing another copy would not.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sessions_graph_core.embeddings.models import load_embedder  # noqa: E402
from sessions_graph_core.recall.lanes import POOL, VECTOR_OVERFETCH  # noqa: E402
from sessions_graph_core.store.falkordb import vector_rebuild  # noqa: E402
from sessions_graph_core.store.falkordb.client import Connection, Graph  # noqa: E402
from sessions_graph_core.store.falkordb.server import EmbeddedServer, server_info  # noqa: E402

console = Console()
GRAPH = "sessions_graph"
LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo10.json"
WIDE_K = POOL * VECTOR_OVERFETCH
NOISE = 0.05
READ_CHUNK = 5_000


def started_copy(store: Path, work: Path) -> tuple[EmbeddedServer, dict]:
    """A copy of `store` started without its vector index; the index's label, property and options."""
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(store, work, ignore=shutil.ignore_patterns("falkordb.pid", "falkordb.sock", "spool"))
    aside = vector_rebuild.recorded(work)
    (work / vector_rebuild.SET_ASIDE_FILE).unlink(missing_ok=True)
    server = EmbeddedServer(work)
    server.ensure_running()
    if aside:
        return server, aside[0]
    client = Connection(str(server.socket_path), timeout=900)
    try:  # a store that kept its index (stopped by kill -9, or small): record it, then drop it
        (index,) = vector_rebuild.vector_indexes(Graph(client, GRAPH))
        Graph(client, GRAPH).query(f"DROP VECTOR INDEX FOR (n:{index['label']}) ON (n.{index['property']})")
    finally:
        client.close()
    return server, index


def stored_vectors(graph: Graph, label: str, prop: str) -> tuple[np.ndarray, np.ndarray]:
    """(node ids, unit vectors) of every node of `label`, read in chunks of READ_CHUNK."""
    ids, vectors = [], []
    while True:
        _, rows = graph.query(f"MATCH (n:{label}) WHERE id(n) > $after RETURN id(n), n.{prop} ORDER BY id(n) LIMIT {READ_CHUNK}",
                              {"after": ids[-1] if ids else -1})
        if not rows:
            break
        ids.extend(row[0] for row in rows)
        vectors.extend(row[1] for row in rows)
    matrix = np.asarray(vectors, dtype=np.float32)
    return np.asarray(ids), matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


def queries(vectors: np.ndarray, count: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Unit query vectors by kind: stored vectors plus noise, and LoCoMo questions (see the docstring)."""
    near = vectors[rng.choice(len(vectors), count // 2, replace=False)]
    near = near + rng.normal(0, NOISE, near.shape).astype(np.float32)
    asked = [qa["question"] for conversation in json.loads(LOCOMO.read_text()) for qa in conversation["qa"]]
    picked = [asked[i] for i in rng.choice(len(asked), count - count // 2, replace=False)]
    far = np.asarray(load_embedder().embed(picked), dtype=np.float32)
    return {kind: q / np.linalg.norm(q, axis=1, keepdims=True) for kind, q in (("near a passage", near), ("LoCoMo question", far))}


def exact(vectors: np.ndarray, ids: np.ndarray, query: np.ndarray, k: int) -> set[int]:
    scores = vectors @ query
    return set(ids[np.argpartition(-scores, k)[:k]].tolist())


def server_cpu_s(client: Connection) -> float:
    """CPU seconds the server has used so far, all its threads (the index is built on one of its own)."""
    info = server_info(client, "cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def build(graph: Graph, index: dict, m: int, ef_construction: int, ef_runtime: int) -> tuple[float, float]:
    """Drop the index and create it with these options; (wall s, server CPU s) until it is OPERATIONAL."""
    label, prop, options = index["label"], index["property"], index["options"]
    if any(found["label"] == label for found in vector_rebuild.vector_indexes(graph)):
        graph.query(f"DROP VECTOR INDEX FOR (n:{label}) ON (n.{prop})")
    cpu, started = server_cpu_s(graph.connection), time.perf_counter()
    graph.query(
        f"CREATE VECTOR INDEX FOR (n:{label}) ON (n.{prop}) OPTIONS {{dimension: {int(options['dimension'])}, "
        f"similarityFunction: 'cosine', M: {m}, efConstruction: {ef_construction}, efRuntime: {ef_runtime}}}"
    )
    while vector_rebuild.building(graph, label):
        time.sleep(0.1)
    return time.perf_counter() - started, server_cpu_s(graph.connection) - cpu


def searched(graph: Graph, index: dict, query: np.ndarray, k: int) -> tuple[set[int], float]:
    started = time.perf_counter()
    _, rows = graph.query(f"CALL db.idx.vector.queryNodes('{index['label']}', '{index['property']}', $k, vecf32($v)) "
                          "YIELD node RETURN id(node)", {"k": k, "v": [float(x) for x in query]})
    return {row[0] for row in rows}, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path, required=True, help="a store bench_cli.py built (copied, never changed)")
    parser.add_argument("--options", default="16:200:200,16:64:200",
                        help="M:efConstruction:efRuntime sets, comma-separated; the first is the baseline of the ratios")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--work", type=Path, help="where the copy goes (default: beside --store, removed at the end)")
    args = parser.parse_args()
    sets = [tuple(int(part) for part in option.split(":")) for option in args.options.split(",")]
    work = args.work or Path(f"{args.store}-vector-bench")
    server, index = started_copy(args.store, work)
    try:
        client = Connection(str(server.socket_path), timeout=900)
        graph = Graph(client, GRAPH)
        ids, vectors = stored_vectors(graph, index["label"], index["property"])
        distinct = len(np.unique(vectors, axis=0))
        asked = queries(vectors, args.queries, np.random.default_rng(40))
        truth = {kind: [(exact(vectors, ids, q, 10), exact(vectors, ids, q, WIDE_K)) for q in qs] for kind, qs in asked.items()}
        console.print(f"{len(ids):,} vectors ({distinct:,} distinct) of {vectors.shape[1]} dimensions, "
                      f"{args.queries} queries; load average {os.getloadavg()[0]:.1f}")
        table = Table(title=f"vector index build and recall, {len(ids):,} vectors")
        for column in ("M", "efConstruction", "efRuntime", "build wall s", "ratio", "server CPU s",
                       *(f"recall@{k}, {kind}" for kind in asked for k in (10, WIDE_K)), "search p50 ms, k 10", f"k {WIDE_K}", "load"):
            table.add_column(column, justify="right")
        baseline = None
        for m, ef_construction, ef_runtime in sets:
            wall, cpu = build(graph, index, m, ef_construction, ef_runtime)
            baseline = baseline or wall
            recalls, latencies = [], {10: [], WIDE_K: []}
            for kind, qs in asked.items():
                for k, position in ((10, 0), (WIDE_K, 1)):
                    shares = []
                    for q, expected in zip(qs, truth[kind], strict=True):
                        found, seconds = searched(graph, index, q, k)
                        shares.append(len(found & expected[position]) / k)
                        latencies[k].append(seconds)
                    recalls.append(f"{np.mean(shares):.3f}")
            table.add_row(str(m), str(ef_construction), str(ef_runtime), f"{wall:.1f}", f"{wall / baseline:.2f}",
                          f"{cpu:.1f}", *recalls, *(f"{np.median(times) * 1000:.1f}" for times in latencies.values()),
                          f"{os.getloadavg()[0]:.1f}")
            console.print(f"M {m}, efConstruction {ef_construction}, efRuntime {ef_runtime}: built in {wall:.1f} s "
                          f"({cpu:.1f} server CPU s), recalls {', '.join(recalls)}")
        client.close()
        console.print(table)
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
