"""CLI commands `derive` and `ontology show`: a derivation run's report and a user's version chain."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click
from rich.markup import escape
from rich.table import Table

from sessions_graph_core.cli.common import console, errors, opened_graph, resolve_user, user_option
from sessions_graph_core.errors import NoLlmConfiguredError
from sessions_graph_core.ontology.derive.milestones import SEEDS
from sessions_graph_core.validation import ValidationError

if TYPE_CHECKING:
    from sessions_graph_core.config import model as config_file
    from sessions_graph_core.ontology.derive.run import RunReport, VersionSummary


def _fail(message: str, code: int = 2) -> None:
    errors.print(f"FAILED: {escape(message)}", highlight=False)
    sys.exit(code)


def _config() -> config_file.Config:
    from sessions_graph_core.config import model as config_file

    try:
        return config_file.load_config()
    except ValidationError as exc:
        _fail(str(exc))
        raise  # unreachable: _fail exits


def _changes(added: int, merged: int, retired: int) -> str:
    return f"+{added} ~{merged} -{retired}"


def render_report(report: RunReport) -> None:
    console.print(f"[bold]{escape(report.user_id)}[/bold]: {report.outcome} (milestone {report.milestone})")
    if report.base is None:
        return
    gate = "in-sample" if report.in_sample else f"{report.held_out} held out"
    console.print(f"delta {report.delta} sessions, {report.sampled} sampled, gate {gate}")
    console.print(
        f"base (version {report.base_version}): catch-all {report.base.catch_all_share:.4f}, "
        f"coverage {report.base.coverage:.4f} over {report.base.mentions} mentions, {report.base.user_turns} user turns"
    )
    table = Table("seed", "gate", "catch-all", "coverage", "agreement", "changes", "version", "note")
    for item in report.candidates:
        score = item.score
        table.add_row(
            str(item.seed),
            "PASS" if item.passed else "fail",
            f"{score.catch_all_share:.4f}" if score else "-",
            f"{score.coverage:.4f}" if score else "-",
            f"{item.agreement:.4f}" if item.agreement is not None else "-",
            _changes(item.added, item.merged, item.retired),
            str(item.version) if item.version is not None else "-",
            escape(item.error or "; ".join(f"refused {x}" for x in item.refused)),
        )
    console.print(table)
    if report.adopted_version is not None:
        console.print(
            f"adopted version {report.adopted_version}: {report.relabelled} entities relabelled, "
            f"{report.reextracted} sessions re-extracted"
        )
    if report.rejected_versions:
        console.print(f"rejected versions {', '.join(map(str, report.rejected_versions))}")
    if report.llm is not None:
        usage = report.llm
        console.print(
            f"LLM {usage.provider} {usage.model}: {usage.calls} calls, "
            f"{usage.input_tokens:,} input and {usage.output_tokens:,} output tokens"
        )


@click.command("derive")
@user_option()
@click.option("--force", is_flag=True, help="run now, without waiting for the next milestone")
@click.option("--seeds", type=click.IntRange(1, SEEDS), default=SEEDS, show_default=True,
              help="how many candidates to derive")
@click.option("--model", help="the LLM model (default: llm.anthropic_model / llm.openai_model)")
def derive_command(user_id: str | None, force: bool, seeds: int, model: str | None) -> None:
    """Derive the user's next ontology version from their sessions and print the run report."""
    from sessions_graph_core.llm import LlmClient
    from sessions_graph_core.reconcile.extraction.registry import get_backend

    loaded = _config()
    user = resolve_user(user_id)
    try:
        llm = LlmClient.from_config(loaded, model=model)
    except NoLlmConfiguredError as exc:
        _fail(str(exc))
    with opened_graph() as graph:
        backend = get_backend(loaded.extraction.backend)
        report = graph.derive_ontology(user, llm=llm, backend=backend, force=force, seeds=seeds)
    render_report(report)
    if report.outcome == "failed":
        sys.exit(1)


@click.group("ontology")
def ontology_group() -> None:
    """A user's ontology: the adopted types and how they came to be."""


def _chain_table(versions: list[VersionSummary]) -> Table:
    table = Table("version", "status", "source", "from", "milestone", "run", "changes", "catch-all", "coverage",
                  title="versions (catch-all and coverage: the run's base -> this candidate)")
    for item in versions:
        report = item.report
        own = next((c for c in report.candidates if c.seed == item.seed), None) if report else None
        score = own.score if own else None
        base = report.base if report else None
        table.add_row(
            str(item.version),
            item.status,
            item.source,
            str(item.based_on) if item.based_on is not None else "-",
            str(report.milestone) if report else "-",
            report.outcome if report else "-",
            _changes(own.added, own.merged, own.retired) if own else "-",
            f"{base.catch_all_share:.4f} -> {score.catch_all_share:.4f}" if base and score else "-",
            f"{base.coverage:.4f} -> {score.coverage:.4f}" if base and score else "-",
        )
    return table


@ontology_group.command("show")
@user_option()
def ontology_show(user_id: str | None) -> None:
    """The adopted version's types, then every version with its source and, for derived ones, its run."""
    from sessions_graph_core.ontology import model as ontology

    user = resolve_user(user_id)
    with opened_graph() as graph:
        current = ontology.adopted(graph.store, user)
        versions = graph.ontology_versions(user)
    created = f", adopted {current.created_at[:19]}" if current.created_at else ""
    console.print(f"{escape(user)}: version {current.version} ({current.source}), derive={current.derive}{created}")
    console.print("node types:")
    for node in current.model.node_types:
        pinned = " (pinned)" if node.label in current.pinned else ""
        console.print(escape(f"  {node.label}{pinned} [{node.identity}] {node.description}"), highlight=False)
    console.print("relation types:")
    for relation in current.model.relation_types:
        start = "|".join(relation.start_labels) or "*"
        end = "|".join(relation.end_labels) or "*"
        console.print(f"  {relation.label}: {start} -> {end}", highlight=False)
    if versions:
        console.print(_chain_table(versions))
