"""Ingest throughput: reconcile and embed, turns per second, this tree beside another (main) in one sitting.

Each (tree, corpus) runs in a child process of its own, with that tree's code first on the import path,
into a fresh embedded store: every session's turns are recorded (not timed), a warm-up user is
reconciled and embedded (model loads are not ingest's cost), then all sessions are reconciled in one
`reconcile_sessions` call and embedded in one `embed_sessions` call: the paths the CLI and the
Dagster jobs take. Wall and CPU seconds of each stage, the store server's CPU, and the child's peak
resident memory are reported; `--one-at-a-time` calls reconcile_session and embed_session per session
instead, as bench_recall_quality.py's ingest does.

What each run wrote is digested (entity keys, facts, passages with their vectors' bytes), so the table
says whether the two trees produced the same graph. The corpora are profile_ingest.py's: LoCoMo's first
`--conversations` conversations (or, `--held-out`, the five whose questions bench_recall_quality.py
reports: the same graph there means the same recall figures) and the `--files` largest harness transcripts.

    .venv/bin/python benchmarks/bench_ingest.py --baseline /work/wt/main-copy [--conversations 1] [--files 2]

Rates are wall-clock on whatever else the machine runs: read the ratio between trees measured in the
same sitting, not the absolute figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
TREE = HERE.parent
CORPORA = ("locomo", "transcripts")


def _child_path(tree: Path) -> None:
    """The tree under test first, so its sessions_graph_core is the one imported; this folder for the loaders."""
    sys.path[:0] = [str(tree), str(HERE)]


def _stage(work: Callable[[], object], server_cpu: Callable[[], float]) -> dict[str, float]:
    wall, cpu, server = time.perf_counter(), time.process_time(), server_cpu()
    work()
    return {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu, "server": server_cpu() - server}


def _digest(store: object, users: Sequence[str]) -> dict[str, object]:
    """Counts of what the run wrote and one hash over all of it, vectors included, to compare trees."""
    queries = {
        "entities": "MATCH (n:Entity) WHERE n.user_id IN $users RETURN n.entity_key AS k ORDER BY k",
        "facts": "MATCH (f:Fact) WHERE f.user_id IN $users RETURN f.fact_id + '|' + coalesce(f.slot, '') + '|' + "
                 "coalesce(f.value, '') + '|' + coalesce(f.text, '') + '|' + coalesce(f.status, '') AS k ORDER BY k",
        "passages": "MATCH (p:Passage) WHERE p.user_id IN $users RETURN p.passage_id AS k, p.embedding AS v ORDER BY k",
    }
    digest = hashlib.sha256()
    parts = {part: hashlib.sha256() for part in ("entities", "facts", "passages", "vectors")}
    counts: dict[str, object] = {}
    for name, query in queries.items():
        rows = store.run(query, {"users": list(users)})  # type: ignore[attr-defined]
        counts[name] = len(rows)
        for row in rows:
            digest.update(str(row["k"]).encode())
            parts[name].update(str(row["k"]).encode())
            if "v" in row:
                vector = json.dumps([float(x) for x in row["v"]]).encode()  # exact: repr of each float
                digest.update(vector)
                parts["vectors"].update(vector)
    counts["digest"] = digest.hexdigest()[:16]
    # Which part differs, when the digests do: the keys, the facts' fields, the passage ids, the vectors' bits.
    counts["parts"] = {part: hashed.hexdigest()[:16] for part, hashed in parts.items()}
    return counts


def child(corpus: str, args: argparse.Namespace) -> dict[str, object]:
    """One corpus on the tree in sys.path: recorded, warmed up, reconciled and embedded; the figures."""
    # main() imported the tree's package first, so these come from the tree under test.
    from profile_ingest import locomo_sessions, record_all, server_cpu, transcript_sessions

    from sessions_graph_core import SessionsGraph
    from sessions_graph_core.embeddings.vectors import embed_sessions
    from sessions_graph_core.store.falkordb.store import FalkorDBStore

    if corpus == "transcripts":
        sessions = transcript_sessions(args.transcripts, args.files)
    elif args.held_out:
        from bench_recall_quality import TUNING

        data = json.loads(args.data.read_text())
        held = {f"locomo-{c['sample_id']}" for n, c in enumerate(data) if n not in TUNING}
        sessions = [s for s in locomo_sessions(args.data, len(data)) if s.user in held]
    else:
        sessions = locomo_sessions(args.data, args.conversations)
    directory = Path(tempfile.mkdtemp(prefix="sg-bench-ingest-", dir="/tmp"))
    graph = SessionsGraph(FalkorDBStore.open(directory))
    try:
        record_all(graph, sessions)
        ids = [s.session_id for s in sessions]
        store = graph.store
        rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        server: Callable[[], float] = lambda: server_cpu(store)  # noqa: E731 - one line, read twice per stage
        if args.overlap:
            whole = _stage(lambda: _overlapped(graph, store, ids, embed_sessions), server)
            reconcile, embed = whole, None
        elif args.one_at_a_time:
            reconcile = _stage(lambda: [graph.reconcile_session(sid) for sid in ids], server)
            embed = _stage(lambda: [graph.embed_session(sid) for sid in ids], server)
        else:
            reconcile = _stage(lambda: list(graph.reconcile_sessions(ids)), server)
            embed = _stage(lambda: embed_sessions(store, ids), server)
        wrote = _digest(store, sorted({s.user for s in sessions}))
    finally:
        graph.close()
        shutil.rmtree(directory, ignore_errors=True)
    return {"turns": sum(len(s.turns) for s in sessions), "sessions": len(sessions), "reconcile": reconcile,
            "embed": embed, "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "rss_before_mb": rss_before / 1024, **wrote}


# How many reconciled sessions `--overlap` hands to the embedding thread at a time: reconcile_sessions's
# read-ahead group, so the embedder gets batches as full as the extractor does.
OVERLAP_GROUP = 8


def _overlapped(graph: object, store: object, ids: Sequence[str], embed_sessions: Callable) -> None:
    """Reconcile the sessions in order on this thread; each group of OVERLAP_GROUP sessions reconciled is
    embedded on a thread of its own while the next are reconciled. onnxruntime lets go of the GIL while it
    runs the model (four fifths of embedding), so on 2 cores the embedder runs beside the reader.

    A later session's reconcile can change what an entity or fact embedded earlier says; a last pass over
    every session embeds only what is stale by then (without it, LoCoMo's held-out half kept a few vectors
    of texts since changed)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="embed") as embedder:
        group: list[str] = []
        embedding = []
        for summary in graph.reconcile_sessions(ids):  # type: ignore[attr-defined]
            group.append(summary.session_id)
            if len(group) == OVERLAP_GROUP:
                embedding.append(embedder.submit(embed_sessions, store, group))
                group = []
        if group:
            embedding.append(embedder.submit(embed_sessions, store, group))
        embedding.append(embedder.submit(embed_sessions, store, list(ids)))  # see below
        for done in embedding:
            for sid, outcome in done.result().items():
                if isinstance(outcome, Exception):
                    raise SystemExit(f"embedding {sid} failed: {outcome}")


def run_child(tree: Path, corpus: str, argv: Sequence[str]) -> dict:
    """This script as a child on `tree`'s code; its figures are the last line it prints."""
    env = os.environ | {"PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, __file__, "--child", str(tree), "--corpus", corpus, *argv],
                          env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the {corpus} run on {tree} failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _end_to_end(r: dict) -> dict[str, float]:
    """Wall, CPU and server seconds of reconcile and embed together (an overlapped run measured them as one)."""
    stages = [r["reconcile"]] + ([r["embed"]] if r["embed"] else [])
    return {key: sum(stage[key] for stage in stages) for key in ("wall", "cpu", "server")}


def _rates(turns: int, stage: dict | None) -> tuple[str, str]:
    return (f"{turns / stage['wall']:.1f}", f"{turns / stage['cpu']:.1f}") if stage else ("-", "-")


def report(results: dict[tuple[str, str], dict], trees: dict[str, Path]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=170)
    table = Table(title="ingest: turns per second (wall) and per CPU-second of the ingesting process")
    for column in ("corpus", "tree", "turns", "reconcile t/s", "reconcile t/CPU-s", "embed t/s", "embed t/CPU-s",
                   "end to end t/s", "end to end t/CPU-s", "server CPU s", "peak RSS MB", "wrote", "digest"):
        table.add_column(column, justify="left" if column in ("corpus", "tree", "wrote", "digest") else "right")
    for (corpus, name), r in results.items():
        turns, whole, overlapped = r["turns"], _end_to_end(r), r["embed"] is None
        table.add_row(corpus, name + (" (overlapped)" if overlapped else ""), f"{turns:,}",
                      *_rates(turns, None if overlapped else r["reconcile"]), *_rates(turns, r["embed"]),
                      *_rates(turns, whole), f"{whole['server']:.1f}", f"{r['peak_rss_mb']:.0f}",
                      f"{r['entities']} ent, {r['facts']} facts, {r['passages']} pass", r["digest"])
    console.print(table)
    if "baseline" not in trees:
        return
    for corpus in {corpus for corpus, _ in results}:
        new, old = results[(corpus, "this tree")], results[(corpus, "baseline")]
        stages = "" if new["embed"] is None else "".join(
            f"{stage} {old[stage]['wall'] / new[stage]['wall']:.2f}x / {old[stage]['cpu'] / new[stage]['cpu']:.2f}x, "
            for stage in ("reconcile", "embed"))
        before, after = _end_to_end(old), _end_to_end(new)
        differ = [part for part in new["parts"] if new["parts"][part] != old["parts"][part]]
        same = "same graph" if new["digest"] == old["digest"] else f"GRAPHS DIFFER (in {', '.join(differ)})"
        console.print(f"{corpus}: this tree against the baseline (baseline time / this time, wall and CPU): {stages}"
                      f"end to end {before['wall'] / after['wall']:.2f}x / {before['cpu'] / after['cpu']:.2f}x; {same}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="another checkout (a worktree of main) to run beside this tree")
    parser.add_argument("--corpora", default=",".join(CORPORA), help="locomo, transcripts or both (comma-separated)")
    parser.add_argument("--data", type=Path, default=None, help="locomo10.json (default: bench_recall_quality's)")
    parser.add_argument("--conversations", type=int, default=1, help="how many LoCoMo conversations")
    parser.add_argument("--transcripts", type=Path, default=None, help="folder of harness JSONL files")
    parser.add_argument("--files", type=int, default=2, help="how many transcripts, largest first")
    parser.add_argument("--held-out", action="store_true",
                        help="LoCoMo's held-out conversations (5-9, what bench_recall_quality reports) instead of the first")
    parser.add_argument("--one-at-a-time", action="store_true",
                        help="reconcile_session and embed_session per session instead of the batched calls")
    parser.add_argument("--overlap", action="store_true",
                        help="this tree embeds each group of reconciled sessions on a second thread while the next are "
                             "reconciled (the baseline runs one stage after the other)")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--corpus", choices=CORPORA, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child_path(args.child)
        import sessions_graph_core

        # The loaders put this script's tree on the path too: the package must already come from the tree under test.
        if not Path(sessions_graph_core.__file__).resolve().is_relative_to(args.child.resolve()):
            raise SystemExit(f"sessions_graph_core came from {sessions_graph_core.__file__}, not {args.child}")
        from profile_ingest import DEFAULT_DATA, DEFAULT_TRANSCRIPTS

        args.data, args.transcripts = args.data or DEFAULT_DATA, args.transcripts or DEFAULT_TRANSCRIPTS
        print(json.dumps(child(args.corpus, args)))
        return
    corpora = [c.strip() for c in args.corpora.split(",") if c.strip()]
    unknown = [c for c in corpora if c not in CORPORA]
    if unknown or not corpora:
        parser.error(f"--corpora takes {' and '.join(CORPORA)}, comma-separated; got {args.corpora!r}")
    if args.baseline and not (args.baseline / "sessions_graph_core").is_dir():
        parser.error(f"{args.baseline} holds no sessions_graph_core: pass a checkout, e.g. `git worktree add DIR main`")
    if args.conversations < 1 or args.files < 1:
        parser.error("--conversations and --files must be at least 1")
    trees = {"this tree": TREE} | ({"baseline": args.baseline.resolve()} if args.baseline else {})
    forwarded = [f"--conversations={args.conversations}", f"--files={args.files}"]
    forwarded += [f"--data={args.data}"] if args.data else []
    forwarded += [f"--transcripts={args.transcripts}"] if args.transcripts else []
    forwarded += ["--one-at-a-time"] if args.one_at_a_time else []
    forwarded += ["--held-out"] if args.held_out else []
    results = {}
    for corpus in corpora:
        # The baseline first, then this tree, corpus by corpus: both see about the same load.
        for name, tree in reversed(trees.items()):
            overlap = ["--overlap"] if args.overlap and name == "this tree" else []  # the baseline as main runs it
            results[(corpus, name)] = run_child(tree, corpus, forwarded + overlap)
    report(results, trees)


if __name__ == "__main__":
    main()
