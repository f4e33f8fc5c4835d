"""CLI command `facts`: what is true now about something, and what it replaced."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click
from rich.markup import escape
from rich.table import Table

from sessions_graph_core.cli.common import (
    TextCommand,
    console,
    fail,
    json_option,
    opened_graph,
    require_user,
    resolve_user,
    user_option,
)

if TYPE_CHECKING:
    from sessions_graph_core.reconcile.facts import FactView


def _holds(fact: FactView) -> str:
    if fact.value is None:  # a backend that did not say what the slot holds
        return ""
    return fact.value or "(none: ended)"


@click.command("facts", cls=TextCommand)
@user_option("Whose facts (default: identity.user_id).")
@click.option("--history", is_flag=True, help="Also list the statements that something later replaced.")
@click.option("--as-of", "as_of", help="What was true at this ISO-8601 time instead of now.")
@click.option("--candidates", "--all", "candidates", is_flag=True,
              help="Also list the statements the reader was not sure of, held back as candidates.")
@json_option
@click.argument("about")
def facts_command(user_id: str | None, history: bool, as_of: str | None, candidates: bool, as_json: bool, about: str) -> None:
    """Facts and decisions about ABOUT ("me" for the user): current ones, each with what it replaced. A
    statement the reader was not sure of is kept as a candidate and listed only with --candidates."""
    if history and as_of:
        fail("give --history or --as-of, not both: --as-of shows one moment", 2)
    user_id = resolve_user(user_id)
    with opened_graph(reads_primary=True) as graph:  # a malformed --as-of is a ValidationError: one line, exit 2
        require_user(graph, user_id)
        current = (graph.facts_as_of(user_id, about, as_of, candidates=candidates) if as_of
                   else graph.current_facts(user_id, about, candidates=candidates))
        replaced = graph.fact_history(user_id, about, candidates=candidates) if history else []
    if as_json:
        payload: dict[str, object] = {"about": about, "as_of": as_of, "current": [f.model_dump() for f in current]}
        if history:
            payload["history"] = [f.model_dump() for f in replaced]
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
        return
    if not current and not replaced:
        console.print(f"nothing is known about {escape(repr(about))}" + (f" as of {escape(as_of)}" if as_of else ""))
        return
    table = Table(title=f"{escape(about)}: true {'as of ' + escape(as_of) if as_of else 'now'}")
    for column in ("kind", "slot", "holds", "statement", "since", "replaced"):
        table.add_column(column, overflow="fold")
    for fact in current:
        statement = fact.text + (f" (because: {fact.rationale})" if fact.rationale else "")
        table.add_row(fact.kind + (" (candidate)" if fact.candidate else ""), escape(fact.slot), escape(_holds(fact)), escape(statement), fact.valid_at[:10],
                      escape("; ".join(fact.replaced)))
    for fact in replaced:
        table.add_row(f"[dim]{fact.kind}[/dim]", escape(fact.slot), escape(_holds(fact)), f"[dim]{escape(fact.text)}[/dim]",
                      fact.valid_at[:10], f"[dim]superseded {(fact.superseded_at or '')[:10]}[/dim]")
    console.print(table)
