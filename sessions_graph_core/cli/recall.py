"""CLI commands `embed` and `recall`."""

from __future__ import annotations

import json
import sys

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress

from sessions_graph_core.cli.common import console, errors, opened_graph
from sessions_graph_core.config import model as config_file
from sessions_graph_core.embeddings.models import (
    DEFAULT_EMBEDDING_MODEL,
    EmbeddingUnavailableError,
)
from sessions_graph_core.validation import ValidationError


def _configured_model(model: str | None) -> str:
    return model or config_file.load_config().recall.model()


@click.command("embed")
@click.option("--session", "session_id", help="embed this session")
@click.option("--pending", is_flag=True, help="embed every session whose embedding failed, never ran or used another model")
@click.option("--limit", type=click.IntRange(min=1), default=100, show_default=True, help="at most this many sessions with --pending")
@click.option("--model", help=f"embedding model (default: recall.embedding_model, else {DEFAULT_EMBEDDING_MODEL})")
def embed_command(session_id: str | None, pending: bool, limit: int, model: str | None) -> None:
    """Embed sessions' messages, entities, facts and memory files for recall."""
    if bool(session_id) == pending:
        errors.print("[red]error:[/red] give exactly one of --session ID or --pending")
        sys.exit(2)
    try:
        model = _configured_model(model)
    except ValidationError as exc:
        errors.print(f"[red]error:[/red] {escape(str(exc))}")
        sys.exit(2)
    failed = 0
    with opened_graph() as graph:
        targets = [session_id] if session_id else graph.get_pending_embedding_sessions(model=model, limit=limit)
        with Progress(console=Console(stderr=True), transient=True) as progress:
            task = progress.add_task("embedding", total=len(targets))
            for target in targets:
                try:
                    done = graph.embed_session(target, model=model)
                except EmbeddingUnavailableError as exc:
                    failed += 1
                    errors.print(f"[red]failed[/red] {escape(target)}: {escape(str(exc))}", soft_wrap=True)
                else:
                    console.print(
                        f"{escape(target)}: {done.turns} turns, {done.entities} entities, {done.facts} facts, "
                        f"{done.memories} memory files, {done.passages} vectors ({done.model})",
                        highlight=False,
                        soft_wrap=True,
                    )
                progress.advance(task)
    if not targets:
        console.print("nothing to embed")
    if failed:
        sys.exit(1)


@click.command("recall")
@click.option("--user", "user_id", help="whose history to search (default: identity.user_id)")
@click.option("--today", help="today's date, shown to the reader of the rows (e.g. 2026-10-05)")
@click.option("--as-of", "as_of", help="answer from what was true at this ISO-8601 time")
@click.option("--budget", type=click.IntRange(min=0), help="at most this many tokens of rows, best first (default: recall.budget_tokens; 0: no limit)")
@click.option("--json", "as_json", is_flag=True, help="print the rows as JSON")
@click.argument("question")
def recall_command(user_id: str | None, today: str | None, as_of: str | None, budget: int | None, as_json: bool,
                   question: str) -> None:
    """What the user's own past sessions hold about QUESTION."""
    try:
        settings = config_file.load_config()
    except ValidationError as exc:
        errors.print(f"[red]error:[/red] {escape(str(exc))}")
        sys.exit(2)
    user_id = user_id or settings.identity.user_id
    if not user_id:
        errors.print("[red]error:[/red] give --user, or set identity.user_id with `sessions-graph config set`")
        sys.exit(2)
    with opened_graph() as graph:
        recalled = graph.recall(
            user_id, question, config=settings.recall, as_of=as_of, model=settings.recall.model(), budget_tokens=budget,
        )
    if as_json:
        click.echo(json.dumps(recalled.to_json(), indent=2, ensure_ascii=False))
    else:
        click.echo(recalled.render(today=today))
