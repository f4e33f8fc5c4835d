"""CLI commands `reconcile` (one session, or the pending sweep) and `ontology load`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.markup import escape

from sessions_graph_core.cli.common import (
    FilePath,
    console,
    errors,
    one_session_or_pending,
    opened_graph,
    optional_user,
    progress_bar,
    require_session,
    resolve_user,
    user_option,
)
from sessions_graph_core.cli.ontology import _config, _fail
from sessions_graph_core.ontology.versions import DERIVE_MODES
from sessions_graph_core.validation import ValidationError

if TYPE_CHECKING:
    from sessions_graph_core.config.model import Config
    from sessions_graph_core.graph import SessionsGraph
    from sessions_graph_core.reconcile import pipeline as reconcile
    from sessions_graph_core.reconcile.extraction.base import ExtractionBackend


def _backend(loaded: Config) -> ExtractionBackend:
    from sessions_graph_core.reconcile.extraction.registry import get_backend

    try:
        return get_backend(loaded.extraction.backend)
    except Exception as exc:  # noqa: BLE001 - any backend that cannot start is reported the same way
        _fail(f"extraction backend: {exc}", code=1)
        raise  # unreachable: _fail exits


def _sync_ontology_file(graph: SessionsGraph, loaded: Config) -> None:
    """Adopt the configured schema file when its content or derive mode changed since it was adopted."""
    from sessions_graph_core.ontology import model as ontology

    path, user = loaded.ontology.path, loaded.identity.user_id
    if path is None or not user:
        return
    try:
        _, digest = ontology.read_schema_file(path)
        current = ontology.adopted(graph.store, user)
        if current.source_hash == digest and current.derive == loaded.ontology.derive:
            return
        version = ontology.supply_file(graph.store, user, path, derive=loaded.ontology.derive)
    except ValidationError as exc:
        errors.print(f"WARNING: ontology file {escape(str(path))} not applied, keeping the adopted version: {escape(str(exc))}")
        return
    console.print(f"Adopted ontology version {version.version} for {escape(user)} from {escape(str(path))}")


def _model_misses(failed: int, given_up: int) -> str:
    """What the line adds for texts the model could not read: asked again next run, or given up."""
    return ((f"; {failed} the model could not read, asked again on the next run" if failed else "")
            + (f"; {given_up} the model could not read in llm.max_attempts runs, given up (kept as read without "
               "the model)" if given_up else ""))


def _memory_line(result: reconcile.MemoryReconciliation) -> bool:
    name = escape(result.path or result.memory_id)
    if result.status == "completed":
        console.print(f"OK memory {name}: {result.chunks} chunk(s)" + _model_misses(result.texts_failed, result.texts_given_up),
                      highlight=False)
        return True
    errors.print(f"FAILED memory {name}: {escape(result.error or '')}", highlight=False)
    return False


def _session_line(graph: SessionsGraph, summary: reconcile.ReconcileSummary) -> bool:
    sid = escape(summary.session_id)
    if summary.status == "completed" and not summary.texts_considered:
        turns = graph.get_session(summary.session_id).turn_count
        news = f"already reconciled, no new turns ({turns} turns)" if turns else "no turns to reconcile"
        console.print(f"OK {sid}: {news}", highlight=False)
        return True
    if summary.status == "completed":
        console.print(
            f"OK {sid}: {summary.texts_deduped}/{summary.texts_considered} unique texts reconciled "
            f"({summary.entities} entities, {summary.facts} facts and decisions)"
            + _model_misses(summary.texts_failed, summary.texts_given_up),
            highlight=False,
        )
        return True
    errors.print(f"FAILED {sid}: {escape(summary.error or '')}", highlight=False)
    return False


def _llm_line(backend: ExtractionBackend) -> None:
    """What a backend that asks a model (llm, spacy+llm) used in this run: calls, cache hits, tokens, failures."""
    llm = getattr(backend, "llm", None)
    if llm is not None:
        console.print(llm.usage.line())


@click.command("reconcile")
@click.option("--session", "session_id", help="Reconcile this session.")
@click.option("--pending", is_flag=True, help="Reconcile pending memory files, then pending sessions.")
@click.option("--limit", type=click.IntRange(min=1), default=100, show_default=True, help="At most this many of each.")
@user_option("With --session: the session's user (default: identity.user_id; with neither, any user's session).")
def reconcile_command(session_id: str | None, pending: bool, limit: int, user_id: str | None) -> None:
    """Extract entities, facts and decisions from a session's turns, or sweep everything pending.

    Entities get their ontology types as labels (enforce_ontology); exit 1 if anything failed.
    """
    one_session_or_pending(session_id, pending, user_id)
    loaded = _config()
    backend = _backend(loaded)
    ok = True
    with opened_graph() as graph:
        _sync_ontology_file(graph, loaded)
        if session_id:
            require_session(graph, session_id, optional_user(user_id))
            ok = _session_line(graph, graph.reconcile_session(session_id, backend=backend, enforce_ontology=True))
            _llm_line(backend)
            sys.exit(0 if ok else 1)
        memories = graph.get_pending_memories(limit=limit)
        sessions = graph.get_pending_reconciliation_sessions(limit=limit)
        if not memories and not sessions:
            console.print("No sessions to reconcile.")
            return
        with progress_bar() as progress:
            task = progress.add_task("reconciling", total=len(memories) + len(sessions))
            for memory_id in memories:
                ok &= _memory_line(graph.reconcile_memory(memory_id, backend=backend))
                progress.advance(task)
            for summary in graph.reconcile_sessions(sessions, backend=backend, enforce_ontology=True):
                ok &= _session_line(graph, summary)
                progress.advance(task)
        _llm_line(backend)
    sys.exit(0 if ok else 1)


@click.command("load")
@click.option("--file", "path", type=FilePath(), required=True, help="A schema YAML file.")
@user_option()
@click.option("--derive", type=click.Choice(DERIVE_MODES), default="extend", show_default=True,
              help="extend: add the fixed core and pin the file's types; off: use the file exactly as given.")
def ontology_load(path: Path, user_id: str | None, derive: str) -> None:
    """Adopt a schema file as the user's next ontology version; a file that does not validate changes nothing."""
    user = resolve_user(user_id)
    if not path.exists():
        _fail(f"no such file: {path} (nothing was adopted)", code=1)
    with opened_graph() as graph:
        try:
            version = graph.supply_ontology_file(user, str(path), derive=derive)
        except ValidationError as exc:  # bad input: a file that is unreadable, too large or does not validate
            _fail(str(exc), code=2)
        console.print(
            f"Adopted version {version.version} for {escape(user)}: {len(version.model.node_types)} node types, "
            f"{len(version.model.relation_types)} relation types, derive={version.derive}",
            highlight=False,
        )
