"""Where the embedded store's open time goes: the same store opened with each index kind dropped, and with
its vector index rebuilt at smaller HNSW construction widths, beside the store as built; and the store as built
opened after a clean stop that set its vector index aside (now) and one that kept it (before).

    .venv/bin/python benchmarks/bench_store_open.py --store /tmp/h40-10k [--ef 200,64] [--queries 30]
    .venv/bin/python benchmarks/bench_store_open.py --store /tmp/h40-100k --probe

`--probe` opens a copy of the store as it is (a store stopped cleanly has its vector index set aside) and,
from the moment the server first answers until its vector indexes are built, sends a PING, a small read and
a small write on a throwaway graph and one on the store's own graph (the copy) every 0.2 s, each with a 1 s
timeout, from four threads: it prints
"first answer" (the start returned), "vector index operational", and the longest stall of each probe (the
longest time between two answers, unanswered probes included), with the machine's load.

`--chunks 200,1000` weighs another way to build the index: the copy starts without its set-aside index,
an index is created on an empty label, and the vectors' nodes are moved onto that label CHUNK per write for
`--seconds`, while a PING is sent every 0.2 s; it prints vectors moved per second, the chunk writes' p50 and
max, and the longest PING stall.

`--store` is a store bench_cli.py built (it is copied for each trial, never changed). For each trial the copy
is changed, its log compacted, the server stopped, and `EmbeddedServer.ensure_running()` timed; the server
log's own `DB loaded from base file` time is printed beside it. For the efConstruction trials, `--queries`
stored vectors plus noise are searched through the index and by an exact scan, and the share of the exact top
10 that the index finds is printed: what a faster build costs in neighbours found.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sessions_graph_core.errors import StoreUnreachableError  # noqa: E402
from sessions_graph_core.store.falkordb import vector_rebuild  # noqa: E402
from sessions_graph_core.store.falkordb.client import Connection, Graph, ReplyError  # noqa: E402
from sessions_graph_core.store.falkordb.server import EmbeddedServer, indexes_built  # noqa: E402

DEFAULT_SET_ASIDE_FROM = vector_rebuild.SET_ASIDE_FROM


def copy_of(store: Path, name: str) -> EmbeddedServer:
    target = Path(f"{store}-{name}")
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(store, target, ignore=shutil.ignore_patterns("falkordb.pid", "falkordb.sock", "spool"))
    return EmbeddedServer(target)


def vector_label(graph: Graph) -> str:
    _, rows = graph.query("CALL db.indexes() YIELD label, types RETURN label, types")
    return next(label for label, types in rows if any("VECTOR" in kinds for kinds in types.values()))


def compact_and_stop(server: EmbeddedServer, client: Connection) -> None:
    client.command("BGREWRITEAOF")
    time.sleep(1)
    while server.compacting():
        time.sleep(0.2)
    client.close()
    server.stop()


def timed_open(server: EmbeddedServer) -> tuple[float, str]:
    started = time.perf_counter()
    server.ensure_running()
    elapsed = time.perf_counter() - started
    loaded = [line for line in server.log_path.read_text().splitlines() if "DB loaded from base file" in line]
    return elapsed, loaded[-1].split(" * ", 1)[-1] if loaded else "-"


def agreement(graph: Graph, label: str, queries: int) -> float:
    """The share of the exact top 10 that the index's top 10 holds, over perturbed stored vectors."""
    _, rows = graph.query(f"MATCH (n:{label}) RETURN n.embedding")
    rng = np.random.default_rng(1)
    shares = []
    for index in rng.choice(len(rows), queries, replace=False):
        vector = np.asarray(rows[index][0], dtype=np.float32) + rng.normal(0, 0.05, len(rows[index][0]))
        query = [float(x) for x in vector / np.linalg.norm(vector)]
        _, found = graph.query(f"CALL db.idx.vector.queryNodes('{label}', 'embedding', 10, vecf32($v)) "
                               "YIELD node RETURN id(node)", {"v": query})
        _, exact = graph.query(f"MATCH (n:{label}) WITH n, vec.cosineDistance(n.embedding, vecf32($v)) AS d "
                               "ORDER BY d LIMIT 10 RETURN id(n)", {"v": query})
        shares.append(len({r[0] for r in found} & {r[0] for r in exact}) / 10)
    return float(np.mean(shares))


def vectors_built_after(server: EmbeddedServer, started: float) -> float:
    """Seconds from `started` until the vector indexes are built too (rebuilt in the background after a start
    that found them set aside, vector_rebuild.py)."""
    client = Connection(str(server.socket_path), timeout=900)
    try:
        while not indexes_built(Graph(client, "sessions_graph"), vectors=True):
            time.sleep(0.2)
    finally:
        client.close()
    return time.perf_counter() - started


PROBE_EVERY_S = 0.2
PROBE_TIMEOUT_S = 1.0
PROBES = {
    "ping": lambda client: client.command("PING"),
    "read": lambda client: Graph(client, "sessions_graph").query("MATCH (n) RETURN id(n) LIMIT 1"),
    "write": lambda client: Graph(client, "open_probe").query("CREATE (:Probe {at: $at})", {"at": time.time()}),
    # A write to the graph being indexed waits for its write lock holding Redis's global lock (see --probe above).
    "write-same-graph": lambda client: Graph(client, "sessions_graph").query("CREATE (:OpenProbe {at: $at})", {"at": time.time()}),
}


def probe_lane(server: EmbeddedServer, send: Callable[[Connection], object], done: threading.Event, answers: list[float], slowest: list[float]) -> None:
    """Send one probe every PROBE_EVERY_S until `done`, appending when each answer came; a probe that times out
    drops its connection (its late reply would answer the next probe)."""
    client = None
    while not done.is_set():
        sent = time.perf_counter()
        try:
            client = client or Connection(str(server.socket_path), timeout=PROBE_TIMEOUT_S)
            send(client)
            answers.append(time.perf_counter())
            slowest[0] = max(slowest[0], answers[-1] - sent)
        except (OSError, ReplyError, StoreUnreachableError):
            if client is not None:
                client.close()
            client = None
        time.sleep(max(0.0, PROBE_EVERY_S - (time.perf_counter() - sent)))
    if client is not None:
        client.close()


def longest_stall(answers: list[float], started: float, ended: float) -> float:
    moments = [started, *answers, ended]
    return max(later - earlier for earlier, later in zip(moments, moments[1:], strict=False))


def probe(store: Path) -> None:
    """Open a copy of `store` as it is and probe it until its vector indexes are built (see the docstring)."""
    server = copy_of(store, "probe")
    try:
        load = os.getloadavg()[0]
        started = time.perf_counter()
        server.ensure_running()
        answered = time.perf_counter()
        done = threading.Event()
        lanes = {name: ([], [0.0]) for name in PROBES}
        threads = [threading.Thread(target=probe_lane, args=(server, PROBES[name], done, *lanes[name]))
                   for name in PROBES]
        for thread in threads:
            thread.start()
        built = vectors_built_after(server, started)
        done.set()
        for thread in threads:
            thread.join()
        ended = time.perf_counter()
        stalls = ", ".join(
            f"{name} {longest_stall(answers, answered, ended):.1f} s ({len(answers)} answers, slowest {slowest[0]:.2f} s)"
            for name, (answers, slowest) in lanes.items()
        )
        print(f"probe (load {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end): first answer "
              f"{answered - started:.1f} s, vector index operational {built:.1f} s; longest stall between: {stalls}",
              flush=True)
    finally:
        server.stop()
        shutil.rmtree(server.data_dir, ignore_errors=True)


def chunked(store: Path, chunk: int, seconds: float) -> None:
    """Build the vector index by moving its nodes onto an indexed label `chunk` per write (see the docstring)."""
    server = copy_of(store, f"chunks-{chunk}")
    (server.data_dir / vector_rebuild.SET_ASIDE_FILE).unlink(missing_ok=True)  # started without the index
    try:
        server.ensure_running()
        client = Connection(str(server.socket_path), timeout=900)
        graph = Graph(client, "sessions_graph")
        label = vector_rebuild.recorded(store)[0]["label"]
        graph.query("CREATE VECTOR INDEX FOR (n:ChunkMoved) ON (n.embedding) OPTIONS "
                    "{dimension: 384, similarityFunction: 'cosine', M: 16, efConstruction: 200, efRuntime: 200}")
        done, answers, slowest = threading.Event(), [], [0.0]
        pinger = threading.Thread(target=probe_lane, args=(server, PROBES["ping"], done, answers, slowest))
        pinger.start()
        started, writes, moved = time.perf_counter(), [], 0
        while time.perf_counter() - started < seconds:
            sent = time.perf_counter()
            _, [[count]] = graph.query(f"MATCH (n:{label}) WHERE NOT n:ChunkMoved WITH n LIMIT {chunk} "
                                       "SET n:ChunkMoved RETURN count(n)")
            writes.append(time.perf_counter() - sent)
            moved += count
            time.sleep(PROBE_EVERY_S)  # room for other clients between chunks
        done.set()
        pinger.join()
        ended = time.perf_counter()
        print(f"chunks of {chunk} (load {os.getloadavg()[0]:.1f}): {moved} vectors in {ended - started:.0f} s "
              f"({moved / (ended - started):.0f}/s), chunk write p50 {np.median(writes):.2f} s, max {max(writes):.2f} s; "
              f"longest PING stall {longest_stall(answers, started, ended):.2f} s", flush=True)
        client.close()
    finally:
        server.stop()
        shutil.rmtree(server.data_dir, ignore_errors=True)


def trial(store: Path, name: str, statements: list[str], queries: int = 0, *, set_aside: bool = False) -> None:
    """`set_aside`: the clean stop sets the large vector indexes aside, as the store does now; otherwise they
    are kept through the stop and rebuilt during the load, as before."""
    vector_rebuild.SET_ASIDE_FROM = DEFAULT_SET_ASIDE_FROM if set_aside else 10**12
    server = copy_of(store, name)
    try:
        server.ensure_running()
        client = Connection(str(server.socket_path), timeout=900)
        graph = Graph(client, "sessions_graph")
        label = vector_label(graph)
        for statement in statements:
            graph.query(statement.format(label=label))
        while not indexes_built(graph, vectors=True):
            time.sleep(0.2)
        compact_and_stop(server, client)
        started = time.perf_counter()
        elapsed, logged = timed_open(server)
        logged += f"; vector indexes built {vectors_built_after(server, started):.1f} s after the start"
        found = ""
        if queries:
            client = Connection(str(server.socket_path), timeout=900)
            found = f", top-10 agreement with the exact scan {agreement(Graph(client, 'sessions_graph'), label, queries):.3f}"
            client.close()
        print(f"{name}: open {elapsed:.1f} s ({logged}){found}", flush=True)
    finally:
        server.stop()
        shutil.rmtree(server.data_dir, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path, required=True, help="a store bench_cli.py built (copied, never changed)")
    parser.add_argument("--ef", default="200,64", help="efConstruction values to rebuild the vector index with")
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument("--aside", choices=("both", "now", "before"), default="both",
                        help="the store as built after a stop that set its vector index aside (now), kept it "
                        "(before), or both and then the other trials")
    parser.add_argument("--probe", action="store_true",
                        help="open the store as it is and probe it until its vector index is built (see above)")
    parser.add_argument("--chunks", default="", help="chunk sizes to move the vectors onto an indexed label with (see above)")
    parser.add_argument("--seconds", type=float, default=60, help="how long each --chunks trial moves vectors")
    args = parser.parse_args()
    if args.chunks:
        for chunk in (int(value) for value in args.chunks.split(",")):
            chunked(args.store, chunk, args.seconds)
        return
    if args.probe:
        probe(args.store)
        return
    if args.aside in ("both", "now"):
        trial(args.store, "set-aside", [], set_aside=True)
    if args.aside in ("both", "before"):
        trial(args.store, "kept", [])
    if args.aside != "both":
        return
    trial(args.store, "no-turn-fulltext", ["CALL db.idx.fulltext.drop('Turn')"])
    trial(args.store, "no-vector-index", ["DROP VECTOR INDEX FOR (n:{label}) ON (n.embedding)"])
    for ef in (int(value) for value in args.ef.split(",")):
        rebuild = (
            "CREATE VECTOR INDEX FOR (n:{label}) ON (n.embedding) OPTIONS "
            f"{{{{dimension: 384, similarityFunction: 'cosine', M: 16, efConstruction: {ef}, efRuntime: 200}}}}"
        )
        trial(args.store, f"efConstruction-{ef}", ["DROP VECTOR INDEX FOR (n:{label}) ON (n.embedding)", rebuild],
              args.queries)


if __name__ == "__main__":
    main()
