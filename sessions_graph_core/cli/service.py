"""`sessions-graph service install | uninstall | status`: the store (and optionally Dagster) up from login."""

from __future__ import annotations

import click

from sessions_graph_core.cli.common import console, fail
from sessions_graph_core.integrations import service
from sessions_graph_core.store.falkordb.server import EmbeddedServer
from sessions_graph_core.validation import ValidationError


def _manager() -> service.Manager:
    try:
        return service.manager()
    except ValidationError as exc:
        fail(str(exc), 2)


def _print_replies(replies: list[service.ManagerReply]) -> bool:
    for reply in replies:
        console.print(f"{'ok' if reply.ok else 'FAILED'}: {reply.said}", highlight=False, soft_wrap=True)
    return all(reply.ok for reply in replies)


@click.group("service")
def service_group() -> None:
    """Keep the store up from login: a systemd user unit (Linux) or a launchd agent (macOS)."""


@service_group.command("install")
@click.option("--with-dagster", is_flag=True, help="Also run Dagster (sensors, UI on 127.0.0.1:3000) from the checkout.")
@click.option("--no-start", is_flag=True, help="Only write the files; do not ask systemd or launchd to start them.")
def service_install(with_dagster: bool, no_start: bool) -> None:
    """Write the service files and start them; the store then starts at every login and stays up."""
    from sessions_graph_core.config.model import store_settings

    kind = _manager()
    try:
        settings = store_settings()
        files = service.service_files(kind, with_dagster=with_dagster)
    except ValidationError as exc:
        fail(str(exc), 2)
    if not settings.embedded:
        fail(f"the store is the server at {settings.where()}; a login service keeps only the embedded store up", 2)
    service.write(files)
    for item in files:
        console.print(f"wrote {item.path}", highlight=False)
    if not no_start and not _print_replies(service.ask_manager(kind, "start", [item.path for item in files])):
        fail(f"the files are written but {kind} did not start them: fix what it said, then run "
             "`sessions-graph service install` again. Where no user service manager runs (a container, "
             "a session without a login), run `sessions-graph store serve` from your start-up instead, "
             "or keep the files with `service install --no-start`")


@service_group.command("uninstall")
@click.option("--no-stop", is_flag=True, help="Only remove the files; do not ask systemd or launchd to stop them.")
def service_uninstall(no_stop: bool) -> None:
    """Stop the services and remove their files (the data stays; the store then starts on first use again)."""
    kind = _manager()
    paths = service.installed(kind)
    if not paths:
        console.print(f"not installed: no service files in {service.service_dir(kind)}", highlight=False)
        return
    if not no_stop:
        _print_replies(service.ask_manager(kind, "stop", paths))
    service.remove(paths)
    for path in paths:
        console.print(f"removed {path}", highlight=False)


@service_group.command("status")
def service_status() -> None:
    """Whether the services are installed and running, and whether the store answers."""
    kind = _manager()
    paths = service.installed(kind)
    console.print(f"installed: {', '.join(map(str, paths)) if paths else 'no'}", highlight=False)
    if paths:
        _print_replies(service.ask_manager(kind, "state", paths))
    from sessions_graph_core.config.model import store_settings

    try:
        settings = store_settings()
    except ValidationError as exc:
        fail(str(exc), 2)
    answers = EmbeddedServer(settings.data_dir).responds()
    console.print(f"store in {settings.data_dir}: {'answers' if answers else 'not running'}", highlight=False)
