"""`session import --format claude-code|codex`: the progress bar, the closing table and the exit status."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from rich.markup import escape
from rich.table import Table

from sessions_graph_core.cli.common import console, errors, fail, opened_graph, progress_bar, resolve_user
from sessions_graph_core.integrations.harness_import import FileImport, import_files, transcript_files
from sessions_graph_core.sessions.records import TURN_TYPES
from sessions_graph_core.store.base import GraphStore

PARTIAL_IMPORT = 3  # some lines or files were skipped, the rest came in


def import_harness(paths: tuple[Path, ...], user_id: str | None, runtime: str, *, dry_run: bool, session_id: str | None) -> None:
    if session_id:
        fail(f"--session is for our JSONL: a {runtime} transcript names its own session", 2)
    missing = [str(path) for path in paths if not path.exists()]
    if missing:
        fail(f"no such file or directory: {', '.join(missing)} (nothing was imported)")
    files = [file for path in paths for file in transcript_files(path)]
    if not files:
        fail(f"no *.jsonl transcript under {', '.join(map(str, paths))} (nothing was imported)", 2)
    owner = resolve_user(user_id)
    if dry_run:
        results = _run_import(None, files, owner, runtime)
    else:
        with opened_graph() as graph:
            results = _run_import(graph.store, files, owner, runtime)
    for result in results:
        for problem in ([result.error] if result.error else result.skipped):
            errors.print(f"[yellow]skipped:[/yellow] {escape(problem)}", highlight=False, soft_wrap=True)
    console.print(import_table(results, dry_run=dry_run))
    if any(result.error or result.skipped for result in results):
        sys.exit(PARTIAL_IMPORT)


def _run_import(store: GraphStore | None, files: list[Path], user_id: str, runtime: str) -> list[FileImport]:
    results = []
    with progress_bar() as progress:
        task = progress.add_task("importing", total=len(files))
        for result in import_files(store, files, user_id=user_id, runtime=runtime):
            results.append(result)
            progress.advance(task)
    return results


def import_table(results: list[FileImport], *, dry_run: bool) -> Table:
    """Sessions, turns by kind (new of read), summaries, and the lines that gave no turn by reason."""
    read: Counter[str] = sum((result.turns for result in results), Counter())
    ignored: Counter[str] = sum((result.ignored for result in results), Counter())
    sessions = {result.session_id for result in results if result.session_id and not result.error}
    table = Table("", "count", title="dry run: nothing was stored" if dry_run else None)
    table.add_row("files", str(len(results)))
    table.add_row("sessions", str(len(sessions)))
    for kind in TURN_TYPES:
        table.add_row(f"turns: {kind}", str(read[kind]))
    if not dry_run:
        table.add_row("turns new to the store", str(sum(result.added for result in results)))
    table.add_row("summaries kept on sessions" if not dry_run else "summaries", str(sum(r.summaries for r in results)))
    table.add_row("lines skipped: malformed", str(sum(len(result.skipped) for result in results)))
    table.add_row("files skipped", str(sum(1 for result in results if result.error)))
    for reason, count in sorted(ignored.items(), key=lambda item: (-item[1], item[0])):
        table.add_row(f"lines with no turn: {escape(reason)}", str(count))
    return table
