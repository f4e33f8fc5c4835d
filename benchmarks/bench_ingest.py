"""Ingest throughput: reconcile and embed, turns per second, this tree beside another (main) in one sitting.

Each (tree, corpus) runs in a child process of its own, with that tree's code first on the import path,
into a fresh embedded store: every session's turns are recorded (not timed), a warm-up user is
reconciled and embedded (model loads are not ingest's cost), then all sessions are reconciled in one
`reconcile_sessions` call and embedded in one `embed_sessions` call: the paths the CLI and the
Dagster jobs take. Wall and CPU seconds of each stage, the store server's CPU, and the child's peak
resident memory are reported; `--one-at-a-time` calls reconcile_session and embed_session per session
instead, as bench_recall_quality.py's ingest does. `--alongside` runs this tree once more the way the
Dagster reconcile job does: each session reconciled is embedded in a second process while the next are
reconciled (embeddings/alongside.py), then embed_sessions records them all; its table row gives both
processes' CPU and peak memory, and the report its ratio to this tree's sequential run in the same sitting
(with `--baseline`, the baseline runs that way too, and the two alongside runs are compared).

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
ALONGSIDE = "this tree, alongside"
BASELINE_ALONGSIDE = "baseline, alongside"


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
    from profile_ingest import held_out_sessions, locomo_sessions, record_all, server_cpu, transcript_sessions

    from sessions_graph_core import SessionsGraph
    from sessions_graph_core.embeddings.vectors import embed_sessions
    from sessions_graph_core.store.falkordb.store import FalkorDBStore

    if corpus == "transcripts":
        sessions = transcript_sessions(args.transcripts, args.files)
    elif args.held_out:
        sessions = held_out_sessions(args.data)
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
        ahead: dict = {}
        if args.alongside:
            reconcile, embed, ahead = _alongside(graph, store, directory, ids, embed_sessions, server)
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
            "rss_before_mb": rss_before / 1024, "ahead": ahead, **wrote}


def _alongside(graph: object, store: object, directory: Path, ids: Sequence[str], embed_sessions: Callable,
               server: Callable[[], float]) -> tuple[dict[str, float], dict[str, float], dict]:
    """The Dagster reconcile job's way: each session reconcile writes is handed to a second process that
    embeds it while the next are reconciled (embeddings/alongside.py), then embed_sessions over all of
    them records each and embeds what changed since. Two stages: reconcile with the child until it is
    done (its CPU added to the stage's), then that last pass; and the child's report."""
    from sessions_graph_core.embeddings.alongside import EmbeddingAlongside
    from sessions_graph_core.embeddings.models import DEFAULT_EMBEDDING_MODEL
    from sessions_graph_core.store.location import StoreSettings

    alongside = EmbeddingAlongside(StoreSettings(data_dir=directory), DEFAULT_EMBEDDING_MODEL)

    def reconcile() -> None:
        with alongside:
            for summary in graph.reconcile_sessions(ids):  # type: ignore[attr-defined]
                if summary.status == "completed":
                    alongside.add(summary.session_id)

    first = _stage(reconcile, server)
    report = alongside.report.model_dump(exclude={'passages_by_session'}) if alongside.report else {}
    if report.get("error"):
        raise SystemExit(f"embedding alongside failed: {report['error']}")
    first["cpu"] += report["cpu_s"]
    outcomes: dict = {}
    last = _stage(lambda: outcomes.update(embed_sessions(store, list(ids))), server)
    # What the last pass wrote: texts a later session's reconcile changed after the child embedded them,
    # and the memory files (the child embeds none).
    report["passages_after"] = sum(getattr(outcome, "passages", 0) for outcome in outcomes.values())
    return first, last, report


def run_child(tree: Path, corpus: str, argv: Sequence[str]) -> dict:
    """This script as a child on `tree`'s code; its figures are the last line it prints."""
    env = os.environ | {"PYTHONPATH": str(tree)}
    # Run from the tree: the embedding child of a baseline older than 2026-12-06 (`python -m` without -P) imports
    # the package in its working directory.
    done = subprocess.run([sys.executable, __file__, "--child", str(tree), "--corpus", corpus, *argv],
                          env=env, cwd=tree, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the {corpus} run on {tree} failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _end_to_end(r: dict) -> dict[str, float]:
    """Wall, CPU and server seconds of reconcile and embed together."""
    return {key: r["reconcile"][key] + r["embed"][key] for key in ("wall", "cpu", "server")}


def _rates(turns: int, stage: dict) -> tuple[str, str]:
    return f"{turns / stage['wall']:.1f}", f"{turns / stage['cpu']:.1f}"


# Each comparison the report makes when both runs are there: (the run compared, the run it is set against).
COMPARED = (("this tree", "baseline"), (ALONGSIDE, "this tree"), (ALONGSIDE, BASELINE_ALONGSIDE))


def report(results: dict[tuple[str, str], dict]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=190)
    table = Table(title="ingest: turns per second (wall) and per CPU-second of the ingesting processes")
    for column in ("corpus", "run", "turns", "reconcile t/s", "reconcile t/CPU-s", "embed t/s", "embed t/CPU-s",
                   "end to end t/s", "end to end t/CPU-s", "server CPU s", "peak RSS MB", "wrote", "digest"):
        table.add_column(column, justify="left" if column in ("corpus", "run", "wrote", "digest") else "right")
    for (corpus, name), r in results.items():
        turns, whole, ahead = r["turns"], _end_to_end(r), r.get("ahead") or {}
        # An alongside run's embedding child: its peak memory beside the ingesting process's.
        rss = f"{r['peak_rss_mb']:.0f}" + (f" + {ahead['peak_rss_mb']:.0f}" if ahead else "")
        if ahead:
            console.print(f"{corpus}, {name}: the embedding process wrote {ahead['passages']:,} passages of "
                          f"{ahead['sessions']} sessions ({ahead['cpu_s']:.1f} CPU-s), the last pass "
                          f"{ahead['passages_after']:,}")
        table.add_row(corpus, name, f"{turns:,}", *_rates(turns, r["reconcile"]), *_rates(turns, r["embed"]),
                      *_rates(turns, whole), f"{whole['server']:.1f}", rss,
                      f"{r['entities']} ent, {r['facts']} facts, {r['passages']} pass", r["digest"])
    console.print(table)
    console.print(f"{ALONGSIDE}: reconcile is reconcile with the embedding child until it is done (CPU both "
                  "processes'), embed the embed_sessions pass after it")
    for corpus in dict.fromkeys(corpus for corpus, _ in results):
        for new_name, old_name in COMPARED:
            if (corpus, new_name) not in results or (corpus, old_name) not in results:
                continue
            new, old = results[(corpus, new_name)], results[(corpus, old_name)]
            stages = "".join(
                f"{stage} {old[stage]['wall'] / new[stage]['wall']:.2f}x / {old[stage]['cpu'] / new[stage]['cpu']:.2f}x, "
                for stage in ("reconcile", "embed"))
            before, after = _end_to_end(old), _end_to_end(new)
            differ = [part for part in new["parts"] if new["parts"][part] != old["parts"][part]]
            same = "same graph" if new["digest"] == old["digest"] else f"GRAPHS DIFFER (in {', '.join(differ)})"
            console.print(f"{corpus}: {new_name} against {old_name} ({old_name}'s time / this time, wall and CPU): "
                          f"{stages}end to end {before['wall'] / after['wall']:.2f}x / {before['cpu'] / after['cpu']:.2f}x; "
                          f"{same}")


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
    parser.add_argument("--alongside", action="store_true",
                        help="this tree again, embedding each reconciled session in a second process while the next are "
                             "reconciled, as the Dagster reconcile job does; compared with this tree's sequential run "
                             "(and, with --baseline, with the baseline run the same way)")
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
    if args.alongside and args.one_at_a_time:
        parser.error("--alongside embeds sessions together, as the reconcile job does: leave out --one-at-a-time")
    trees = {"this tree": TREE} | ({"baseline": args.baseline.resolve()} if args.baseline else {})
    forwarded = [f"--conversations={args.conversations}", f"--files={args.files}"]
    forwarded += [f"--data={args.data.resolve()}"] if args.data else []
    forwarded += [f"--transcripts={args.transcripts.resolve()}"] if args.transcripts else []
    forwarded += ["--one-at-a-time"] if args.one_at_a_time else []
    forwarded += ["--held-out"] if args.held_out else []
    results = {}
    for corpus in corpora:
        # The baseline first, then this tree, corpus by corpus: both see about the same load.
        for name, tree in reversed(trees.items()):
            results[(corpus, name)] = run_child(tree, corpus, forwarded)
        if args.alongside and args.baseline:
            results[(corpus, BASELINE_ALONGSIDE)] = run_child(args.baseline.resolve(), corpus, [*forwarded, "--alongside"])
        if args.alongside:
            results[(corpus, ALONGSIDE)] = run_child(TREE, corpus, [*forwarded, "--alongside"])
    report(results)


if __name__ == "__main__":
    main()
