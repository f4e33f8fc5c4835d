"""Reconciliation speed on LoCoMo with the default (spaCy) backend, end to end on the embedded store.

Every LoCoMo conversation becomes one user's sessions ("Speaker: text" turns). The baseline,
run first in the same process, is spaCy extraction alone over the same texts; then every
session is reconciled (extraction plus all graph writes), then reconciled again (the re-run
should cost next to nothing: every turn is already done), then the same turns are recorded as new
sessions (a re-import) and reconciled: each text's extraction is served from its chunk, which the
same backend read, so the backend is asked for no text. Wall-clock rates depend on what else
the machine runs, so CPU-seconds of this process are shown too (the server's writes are not in
them). Peak RSS is this process's and the FalkorDB server's high-water mark.

    .venv/bin/python benchmarks/bench_reconcile.py [--data PATH] [--conversations N]

The data is read where it lies (CC BY-NC 4.0, evaluation only) and never copied.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sessions_graph_core import SessionsGraph  # noqa: E402
from sessions_graph_core.ontology.model import DEFAULT_MODEL  # noqa: E402
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend  # noqa: E402
from sessions_graph_core.store.falkordb.store import FalkorDBStore  # noqa: E402

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo10.json"
console = Console()


def load_sessions(conversations: list[dict]) -> list[tuple[str, str, datetime, list[dict]]]:
    """(user, session id, start, turns) for every session; turns a minute apart from the session start."""
    found = []
    for conversation in conversations:
        conv, user = conversation["conversation"], f"locomo-{conversation['sample_id']}"
        number = 1
        while f"session_{number}" in conv:
            start = datetime.strptime(conv[f"session_{number}_date_time"], "%I:%M %p on %d %B, %Y").replace(
                tzinfo=UTC
            )
            turns = [
                {"role": "user", "text": f"{turn['speaker']}: {turn['text']}", "timestamp": start + timedelta(minutes=i)}
                for i, turn in enumerate(conv[f"session_{number}"])
            ]
            found.append((user, f"{user}-s{number}", start, turns))
            number += 1
    return found


def server_peak_kib(store: FalkorDBStore) -> int:
    pid = int(store.server.pid_path.read_text().split()[0])
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def reconcile_all(
    graph: SessionsGraph, session_ids: list[str], label: str, *, in_a_row: bool = False
) -> tuple[float, float, int, int]:
    """Wall seconds, this process's CPU seconds, how many sessions failed and how many texts the backend
    was asked to extract; one reconcile_session call per session, or (`in_a_row`) reconcile_sessions over
    all of them, which extracts the next session while one is written."""
    failed = extracted = 0
    started, cpu = time.perf_counter(), time.process_time()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(label, total=len(session_ids))
        summaries = (
            graph.reconcile_sessions(session_ids) if in_a_row else (graph.reconcile_session(sid) for sid in session_ids)
        )
        for summary in summaries:
            failed += summary.status != "completed"
            extracted += summary.texts_extracted
            progress.advance(task)
    return time.perf_counter() - started, time.process_time() - cpu, failed, extracted


def record(graph: SessionsGraph, sessions: list[tuple[str, str, datetime, list[dict]]]) -> float:
    """Seconds to store every session's turns."""
    started = time.perf_counter()
    for user, sid, start, turns in sessions:
        graph.record_session_start(sid, user_id=user, started_at=start)
        graph.record_turns(sid, turns, user_id=user)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="locomo10.json")
    parser.add_argument("--conversations", type=int, default=10, help="how many of the ten conversations")
    args = parser.parse_args()
    if not args.data.is_file():
        parser.error(f"{args.data} does not exist: pass --data with the path of locomo10.json")
    sessions = load_sessions(json.loads(args.data.read_text())[: args.conversations])
    texts = [turn["text"] for *_, turns in sessions for turn in turns]

    directory = Path(tempfile.mkdtemp(prefix="sg-bench-rec-", dir="/tmp"))
    graph = SessionsGraph(FalkorDBStore.open(directory))
    try:
        graph.setup()
        ingest = record(graph, sessions)

        backend = SpacyBackend()
        backend.extract(texts[:8], DEFAULT_MODEL)  # load the model outside the timings
        started, cpu = time.perf_counter(), time.process_time()
        backend.extract(texts, DEFAULT_MODEL)
        baseline, baseline_cpu = time.perf_counter() - started, time.process_time() - cpu

        first, first_cpu, failed, first_extracted = reconcile_all(graph, [sid for _, sid, _, _ in sessions], "reconciling")
        rerun, _, failed_again, _ = reconcile_all(graph, [sid for _, sid, _, _ in sessions], "re-running")
        counts = {
            row["what"]: row["n"]
            for row in graph.store.run(
                "MATCH (n) WHERE n:Entity OR n:Fact OR n:Chunk "
                "RETURN CASE WHEN n:Fact THEN n.kind ELSE labels(n)[0] END AS what, count(n) AS n"
            )
        }
        slotted = graph.store.run("MATCH (x:Fact) WHERE x.slot <> '' RETURN count(x) AS n")[0]["n"]
        superseded = graph.store.run("MATCH (:Fact)-[r:SUPERSEDES]->() RETURN count(r) AS n")[0]["n"]
        # The same turns as new sessions: every text's chunk holds this backend's reading.
        copies = [(user, f"{sid}-again", start, turns) for user, sid, start, turns in sessions]
        record(graph, copies)
        copied, copied_cpu, _, copied_extracted = reconcile_all(graph, [sid for _, sid, _, _ in copies], "the same turns again")
        # The same sessions again on an empty graph, reconciled in a row as the Dagster asset does.
        graph.store.delete_all()
        graph.setup()
        record(graph, sessions)
        together, together_cpu, failed_together, _ = reconcile_all(
            graph, [sid for _, sid, _, _ in sessions], "reconciling in a row", in_a_row=True
        )
        server_kib = server_peak_kib(graph.store)  # type: ignore[arg-type]
    finally:
        graph.close()
        shutil.rmtree(directory, ignore_errors=True)

    own_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    table = Table(title=f"Reconciliation on LoCoMo ({args.conversations} conversations, {len(sessions)} sessions, {len(texts)} turns)")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("vs baseline", justify="right")
    table.add_row("baseline: spaCy extraction alone", f"{len(texts) / baseline:,.0f} turns/s", "1.00x")
    table.add_row("reconcile end to end (default backend)", f"{len(texts) / first:,.0f} turns/s", f"{first / baseline:.2f}x time")
    table.add_row(
        "  per CPU-second of this process (baseline / end to end)",
        f"{len(texts) / baseline_cpu:,.0f} / {len(texts) / first_cpu:,.0f}",
        f"{first_cpu / baseline_cpu:.2f}x CPU",
    )
    table.add_row(
        "reconcile in a row (reconcile_sessions: the next extracted while one is written)",
        f"{len(texts) / together:,.0f} turns/s",
        f"{first / together:.2f}x the one-at-a-time rate",
    )
    table.add_row(
        "  per CPU-second of this process (one at a time / in a row)",
        f"{len(texts) / first_cpu:,.0f} / {len(texts) / together_cpu:,.0f}",
        f"{together_cpu / first_cpu:.2f}x CPU",
    )
    table.add_row("re-run of every session", f"{rerun:.2f} s", f"{rerun / first:.3f}x of first run")
    table.add_row("texts the backend read: first run / the same turns in new sessions",
                  f"{first_extracted:,} / {copied_extracted:,}", "")
    table.add_row("the same turns in new sessions (read from the chunks)",
                  f"{len(texts) / copied:,.0f} turns/s, {len(texts) / copied_cpu:,.0f} per CPU-second",
                  f"{copied / first:.2f}x of first run")
    table.add_row("ingest (record turns, not in the above)", f"{len(texts) / ingest:,.0f} turns/s", "")
    table.add_row("failed sessions (first / re-run / in a row)", f"{failed} / {failed_again} / {failed_together}", "")
    table.add_row("entities", f"{counts.get('Entity', 0):,}", "")
    table.add_row("facts / decisions", f"{counts.get('fact', 0):,} / {counts.get('decision', 0):,}", "")
    table.add_row("statements in slots / SUPERSEDES edges", f"{slotted:,} / {superseded:,}", "")
    table.add_row("chunks", f"{counts.get('Chunk', 0):,}", "")
    table.add_row("peak RSS: this process / FalkorDB server", f"{own_kib / 1024:,.0f} MiB / {server_kib / 1024:,.0f} MiB", "")
    console.print(table)


if __name__ == "__main__":
    main()
