"""`sessions-graph ui`: the memory browser on 127.0.0.1, behind a token printed in its URL."""

from __future__ import annotations

import socket

import click

from sessions_graph_core.cli.common import console, errors, fail, opened_graph, require_user, resolve_user, user_option
from sessions_graph_core.validation import has_control_characters

LOCAL = "127.0.0.1"


@click.command("ui")
@user_option("Whose memory to show (default: identity.user_id); the pages show no other user's.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="Port to listen on (0: a free one).")
@click.option("--host", default=LOCAL, show_default=True,
              help="Address to listen on; anything but 127.0.0.1 lets other machines reach the pages (the token still guards them).")
@click.option("--dagster-url", default=None, help="The Dagster webserver's URL, to link each session to its run there (found in the instance at DAGSTER_HOME).")
def ui_command(user_id: str | None, port: int, host: str, dagster_url: str | None) -> None:
    """Browse what the memory holds about a user: facts, sessions, memory files, recall, and forget.

    Prints a URL with a fresh random token (as Jupyter does); only a browser that opened it can use the
    pages. Needs the `ui` extra (pip install 'sessions-graph[ui]'). Stops on Ctrl-C.
    """
    try:
        import uvicorn

        from sessions_graph_core.ui import app as pages
        from sessions_graph_core.ui.guard import new_token
    except ImportError as exc:
        fail(f"the memory browser needs the ui extra: pip install 'sessions-graph[ui]' ({exc})", 2)
    from sessions_graph_core.cli.forget import forget_everywhere, in_dagster
    from sessions_graph_core.config import model as config_file

    user_id = resolve_user(user_id)
    _check_address(host, dagster_url)
    if host != LOCAL:
        errors.print(f"sessions-graph: listening on {host}, beyond this machine; anyone with the URL can use the pages")
    listener = _bound(host, port)
    token = new_token()
    with opened_graph() as graph:
        require_user(graph, user_id)
        browser = pages.Browser(graph, user_id, token, forget_everywhere, config_file.load_config().recall,
                                dagster_url.rstrip("/") if dagster_url else None, in_dagster)
        pages.settle(browser)  # the first Ask's loading done before the URL is given
        shown = LOCAL if host in (LOCAL, "0.0.0.0") else host
        console.print(f"the memory of {user_id}: http://{shown}:{listener.getsockname()[1]}/?token={token}", soft_wrap=True)
        server = uvicorn.Server(uvicorn.Config(pages.build_app(browser), log_level="warning"))
        server.run(sockets=[listener])


def _is_host(host: str) -> bool:
    if not host or has_control_characters(host):
        return False
    try:
        host.encode("idna")  # a label over 63 characters fails here, as it would in bind
    except UnicodeError:
        return False
    return True


def _check_address(host: str, dagster_url: str | None) -> None:
    """Refused before anything listens: a NUL host reached the socket as a TypeError, and the Dagster URL
    becomes a link on every session page."""
    if not _is_host(host):
        fail(f"--host {host!r} is not a host name or address; give one such as {LOCAL}", 2)
    if dagster_url is not None and (not dagster_url.startswith(("http://", "https://")) or has_control_characters(dagster_url)):
        fail(f"--dagster-url {dagster_url!r} is not an http:// or https:// URL; give the Dagster webserver's, "
             "e.g. http://127.0.0.1:3000", 2)


def _bound(host: str, port: int) -> socket.socket:
    """The listening socket, bound before the URL is printed so the URL names the port really taken."""
    try:
        listener = socket.create_server((host, port))
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc.strerror}; pass another --port (0 picks a free one)", 1)
    return listener
