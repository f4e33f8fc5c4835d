"""CLI commands that connect agents to the platform: config, hook, mcp and doctor.

Heavy imports stay inside the commands: a hook runs once per harness event and must start fast.
"""

from __future__ import annotations

import sys
from typing import NoReturn

import click

from sessions_graph_core.integrations.hooks import DEFAULT_RUNTIME, RUNTIMES
from sessions_graph_core.validation import ValidationError


def _fail(message: str, code: int = 2) -> NoReturn:
    from rich.console import Console
    from rich.markup import escape

    # Not wrapped: a message may end in a command to copy, which a line break would cut.
    Console(stderr=True).print(f"[red]error:[/red] {escape(message)}", highlight=False, soft_wrap=True)
    sys.exit(code)


@click.group("config")
def config_group() -> None:
    """Read and change the config file (SESSIONS_GRAPH_CONFIG, default ~/.config/sessions-graph/config.toml)."""


@config_group.command("set", context_settings={"ignore_unknown_options": True})
@click.argument("key")
@click.argument("value")
@click.argument("more", nargs=-1, metavar="[KEY VALUE]...")
def config_set(key: str, value: str, more: tuple[str, ...]) -> None:
    """Set KEY (section.key) to VALUE, and each further KEY VALUE pair with it; lists are comma-separated.

    The pairs are checked together and written at once: keys that need each other (llm.provider,
    llm.base_url and llm.model) go in one call. A bad key or value changes nothing."""
    from sessions_graph_core.config import model as config_file
    from sessions_graph_core.config.hook_cache import refresh as refresh_hook_settings

    if len(more) % 2:
        _fail(f"config set takes KEY VALUE pairs; {more[-1]!r} has no value (nothing was changed)")
    pairs = [(key, value), *zip(more[::2], more[1::2], strict=True)]
    try:
        stored = config_file.set_values(pairs)
    except ValidationError as exc:
        _fail(str(exc))
    refresh_hook_settings()
    for (name, _), item in zip(pairs, stored, strict=True):
        secret = config_file.is_secret(name)
        click.echo(f"{name} = {config_file.shown(item, secret=secret)}  ({config_file.config_path()})")


@config_group.command("unset")
@click.argument("key")
def config_unset(key: str) -> None:
    """Remove KEY from the file so its default applies again."""
    from sessions_graph_core.config import model as config_file
    from sessions_graph_core.config.hook_cache import refresh as refresh_hook_settings

    try:
        removed = config_file.unset_value(key)
    except ValidationError as exc:
        _fail(str(exc))
    refresh_hook_settings()
    click.echo(f"{key} removed" if removed else f"{key} was not set in {config_file.config_path()}")


@config_group.command("get")
@click.argument("key")
@click.option("--reveal", is_flag=True, help="Print a secret in full.")
def config_get(key: str, reveal: bool) -> None:
    """Print KEY's effective value (the environment overrides the file)."""
    from sessions_graph_core.config import model as config_file

    try:
        value = config_file.load_config().get(key)
    except ValidationError as exc:
        _fail(str(exc))
    click.echo(config_file.shown(value, secret=config_file.is_secret(key) and not reveal))


def _defaults() -> dict[str, object]:
    """What a key left unset means: the value the code that reads it falls back to."""
    from sessions_graph_core.embeddings.models import DEFAULT_EMBEDDING_MODEL
    from sessions_graph_core.llm import DEFAULT_MODELS
    from sessions_graph_core.recall.config import RecallConfig
    from sessions_graph_core.reconcile.extraction.gliner import DEFAULT_THRESHOLD, local_model_dir
    from sessions_graph_core.store.location import default_data_dir

    recall = RecallConfig().model_dump(exclude_none=True)
    return {
        "store.data_dir": default_data_dir(),
        "store.url": "(unset: the embedded store)",
        "store.read_url": "(unset: reads go to the store itself)",
        "store.user": "(none)",
        **{f"recall.{name}": list(value) if isinstance(value, tuple) else value for name, value in recall.items()},
        "recall.embedding_model": DEFAULT_EMBEDDING_MODEL,
        "extraction.backend": "gliner" if local_model_dir() else "spacy",
        "extraction.entity_threshold": DEFAULT_THRESHOLD,
        "llm.anthropic_model": DEFAULT_MODELS["anthropic"],
        "llm.openai_model": DEFAULT_MODELS["openai"],
        "llm.provider": "(unset: anthropic, openai or openai-compatible, the first whose key or llm.base_url is set)",
    }


@config_group.command("show")
@click.option("--json", "as_json", is_flag=True, help="Print the keys as JSON.")
def config_show(as_json: bool) -> None:
    """Every key, its effective value (secrets masked; an unset key shows its default) and where it comes from."""
    from sessions_graph_core.config import model as config_file

    try:
        loaded = config_file.load_config()
    except ValidationError as exc:
        _fail(str(exc))
    defaults = _defaults()
    rows = []
    for key in config_file.keys():
        value, source = loaded.get(key), config_file.source_of(key)
        if value is None and key in defaults:
            value = defaults[key]
        rows.append({"key": key, "value": config_file.shown(value, secret=config_file.is_secret(key)), "from": source})
    if as_json:
        import json

        click.echo(json.dumps({"file": str(config_file.config_path()), "keys": rows}, indent=2))
        return
    from rich.table import Table

    from sessions_graph_core.cli.common import console

    table = Table("key", "value", "from", title=str(config_file.config_path()))
    for row in rows:
        table.add_row(row["key"], row["value"], row["from"])
    console.print(table)


@click.command("hook", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("event")
@click.option("--runtime", type=click.Choice(RUNTIMES), default=DEFAULT_RUNTIME, show_default=True,
              help="The harness that runs the hook (recorded as the session's agent).")
def hook_command(event: str, runtime: str) -> None:
    """Handle one harness hook EVENT (SessionStart, UserPromptSubmit, PostToolUse, Stop, SessionEnd ...).

    Reads the hook JSON on stdin. Always exits 0: failures go to the failure log (see doctor).
    """
    from sessions_graph_core.integrations.hooks import run_for_harness

    run_for_harness(event, runtime)


@click.command("mcp")
def mcp_command() -> None:
    """Serve the `recall` and `memory` tools over MCP on stdio (needs the [mcp] extra).

    The user and the store come from the config file, re-read on every call.
    """
    try:
        from sessions_graph_core.integrations.mcp import main as serve
    except ModuleNotFoundError as exc:
        _fail(f"the MCP server needs the mcp package ({exc.name} is missing): pip install 'sessions-graph[mcp]'", 1)
    serve()


@click.command("doctor")
@click.option("--json", "as_json", is_flag=True, help="Print the checks as JSON.")
def doctor_command(as_json: bool) -> None:
    """Check the config, store, embedder, extractor, LLM key, MCP and Dagster home; exit 1 if a required check fails."""
    import json

    from rich.markup import escape
    from rich.table import Table

    from sessions_graph_core.cli.common import console
    from sessions_graph_core.cli.doctor import failed_required, run_checks

    checks = run_checks()
    if as_json:
        click.echo(json.dumps([check.model_dump() for check in checks], indent=2))
    else:
        colours = {"pass": "green", "fail": "red", "warn": "yellow", "info": "blue"}
        table = Table("check", "status", "detail", "fix")
        for check in checks:
            status = f"[{colours[check.status]}]{check.status}[/]" + ("" if check.required else " (optional)")
            table.add_row(check.name, status, escape(check.detail), escape(check.fix))
        console.print(table)
    sys.exit(1 if failed_required(checks) else 0)
