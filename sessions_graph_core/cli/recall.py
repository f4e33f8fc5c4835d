"""CLI commands `embed` and `recall`."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import click
from rich.markup import escape

from sessions_graph_core import validation
from sessions_graph_core.cli.common import (
    TextCommand,
    console,
    errors,
    fail,
    one_session_or_pending,
    opened_graph,
    optional_user,
    progress_bar,
    require_session,
    require_user,
    resolve_user,
    user_option,
)
from sessions_graph_core.validation import ValidationError

if TYPE_CHECKING:
    from rich.progress import Progress

    from sessions_graph_core.embeddings.vectors import Embedded


def _configured_model(model: str | None) -> str:
    from sessions_graph_core.config import model as config_file

    return model or config_file.load_config().recall.model()


@click.command("embed")
@click.option("--session", "session_id", help="embed this session")
@click.option("--pending", is_flag=True, help="embed every session whose embedding failed, never ran or used another model, "
              "and every user's memory files that lack current vectors; first write what recall reads of each "
              "turn's text on turns recorded before it was written at ingest")
@click.option("--limit", type=click.IntRange(min=1), default=100, show_default=True, help="at most this many sessions with --pending")
@click.option("--model", help="embedding model (default: recall.embedding_model, else the one that ships with the package)")
@user_option("With --session: the session's user (default: identity.user_id; with neither, any user's session).")
def embed_command(session_id: str | None, pending: bool, limit: int, model: str | None, user_id: str | None) -> None:
    """Embed sessions' messages, entities, facts and memory files for recall."""
    one_session_or_pending(session_id, pending, user_id)
    try:
        model = _configured_model(model)
    except ValidationError as exc:
        fail(str(exc), 2)
    failed = done_any = False
    with opened_graph() as graph:
        if session_id:
            require_session(graph, session_id, optional_user(user_id))
        else:
            # Turns recorded before their evidence properties were written at ingest (recall/evidence.py).
            filled = graph.fill_turn_evidence()
            if filled:
                console.print(f"{filled} turns given what recall reads of their text")
        sessions = [session_id] if session_id else graph.get_pending_embedding_sessions(model=model, limit=limit)
        with progress_bar() as progress:
            _word_table(model, progress)
            task = progress.add_task("embedding", total=len(sessions))
            for target in sessions:
                failed |= not _embed_one(target, partial(graph.embed_session, target, model=model))
                progress.advance(task)
            # Memory files saved outside any session (the CLI, an app) are pending work too; a session
            # above already embedded its own user's files.
            users = graph.get_pending_memory_embedding_users(model=model) if pending else []
            progress.update(task, total=len(sessions) + len(users))
            for user in users:
                failed |= not _embed_one(f"memory files of {user}", partial(graph.embed_memories, user, model=model))
                progress.advance(task)
        done_any = bool(sessions or users)
    if not done_any:
        console.print("nothing to embed")
    if failed:
        sys.exit(1)


def _word_table(model: str, progress: Progress) -> None:
    """Build recall's word table (embeddings/words.py) now if this model has none yet, with its own bar:
    the first recall would otherwise spend about 20 s building it."""
    from sessions_graph_core.embeddings.words import prepare

    task = progress.add_task("word vectors", total=None)
    prepare(model, lambda done, total: progress.update(task, completed=done, total=total))
    progress.remove_task(task)


def _embed_one(name: str, embed: Callable[[], Embedded]) -> bool:
    """Run one embedding and print its line (a failure on stderr, above the bar); False when it failed."""
    from sessions_graph_core.embeddings.models import EmbeddingUnavailableError

    try:
        done = embed()
    except EmbeddingUnavailableError as exc:
        errors.print(f"[red]failed[/red] {escape(name)}: {escape(str(exc))}", soft_wrap=True)
        return False
    counts = f"{done.memories} memory files, {done.passages} vectors ({done.model})"
    if done.session_id:
        counts = f"{done.turns} turns, {done.entities} entities, {done.facts} facts, " + counts
    console.print(f"{escape(name)}: {counts}", highlight=False, soft_wrap=True)
    return True


@click.command("recall", cls=TextCommand)
@user_option("Whose history to search (default: identity.user_id).")
@click.option("--today", help="today's date, shown to the reader of the rows (e.g. 2026-10-05)")
@click.option("--as-of", "as_of", help="answer from what was true at this ISO-8601 time")
@click.option("--budget", type=click.IntRange(min=0), help="at most this many tokens of rows, best first (default: recall.budget_tokens; 0: no limit)")
@click.option("--json", "as_json", is_flag=True, help="print the rows as JSON")
@click.option("--candidates", is_flag=True, help="also show the facts the reader was not sure of (held back as candidates)")
@click.option("--expand", "turn_id", metavar="TURN_ID",
              help="print the whole turn a row names (`turn TURN_ID of N chars`) instead of searching")
@click.argument("question", required=False)
def recall_command(user_id: str | None, today: str | None, as_of: str | None, budget: int | None, as_json: bool,
                   candidates: bool, turn_id: str | None, question: str | None) -> None:
    """What the user's own past sessions hold about QUESTION (or, with --expand, one whole turn)."""
    if user_id is not None:  # a blank --user is refused first, as in every command
        resolve_user(user_id)
    if (question is None) == (turn_id is None):
        fail("give a QUESTION, or --expand TURN_ID to read one whole turn, not both", 2)
    from sessions_graph_core.config import model as config_file

    try:
        settings = config_file.load_config()
    except ValidationError as exc:
        errors.print(f"[red]error:[/red] {escape(str(exc))}")
        sys.exit(2)
    user_id = resolve_user(user_id)
    if turn_id is not None:
        _expand(user_id, turn_id, as_json)
        return
    try:
        question = validation.question(question)
    except ValidationError as exc:
        fail(str(exc), 2)
    with opened_graph(reads_only=True) as graph:
        require_user(graph, user_id)
        recalled = graph.recall(
            user_id, question, config=settings.recall, as_of=as_of, model=settings.recall.model(), budget_tokens=budget,
            candidates=candidates,
        )
    if as_json:
        click.echo(json.dumps(recalled.to_json(), indent=2, ensure_ascii=False))
    else:
        click.echo(recalled.render(today=today))


def _expand(user_id: str, turn_id: str, as_json: bool) -> None:
    """Print one of the user's turns whole; a turn that is not the user's is not found."""
    with opened_graph(reads_only=True) as graph:
        require_user(graph, user_id)
        try:
            turn = graph.expand_turn(user_id, turn_id)
        except ValidationError as exc:
            fail(str(exc), 1)
    if as_json:
        click.echo(json.dumps(turn.whole_json(), indent=2, ensure_ascii=False))
    else:
        click.echo(turn.whole())
