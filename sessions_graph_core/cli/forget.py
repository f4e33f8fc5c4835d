"""`sessions-graph forget`: erase a session, a memory file or a whole user, and what only they back."""

from __future__ import annotations

from dataclasses import asdict

import click

from sessions_graph_core.cli.common import console, fail, opened_graph, require_session, resolve_user, user_option


def _counts(counts: dict[str, int]) -> str:
    shown = [f"{number} {name}" for name, number in counts.items() if number]
    return ", ".join(shown) or "nothing left to remove"


@click.command("forget")
@click.option("--session", "session_id", default=None, help="Forget this session (its turns, vectors and what only it backs).")
@click.option("--memory", "path", default=None, help="Erase this /memories file or directory of --user, history included.")
@user_option("The owner (default: identity.user_id, for --session and --memory); alone, erase every node of this user (an erasure request).")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
def forget_command(session_id: str | None, path: str | None, user_id: str | None, yes: bool) -> None:
    """Forget a session, a memory file, or a user; safe to run again after a crash."""
    if session_id and path:
        fail("pass one of --session, --memory PATH --user U, or --user U alone", 2)
    if not session_id and not path and user_id is None:
        fail("what to forget? pass --session ID, --memory PATH (with --user) or --user U", 2)
    user_id = resolve_user(user_id)
    with opened_graph() as graph:
        if session_id:
            require_session(graph, session_id, user_id)
            what = f"session {session_id} of user {user_id}"
        elif path:
            what = f"{path} of user {user_id}, with its whole history"
        else:
            if not graph.user_exists(user_id):
                fail(f"nothing to forget: the store holds nothing of user {user_id!r}")
            what = f"every session, memory and fact of user {user_id}"
        if not yes and not click.confirm(f"Forget {what}? This cannot be undone", default=False):
            fail("nothing was forgotten", 1)
        if session_id:
            counts = asdict(graph.forget_session(user_id, session_id))
        elif path:
            counts = asdict(graph.forget_memory_path(user_id, path))
            if not counts["memories"] and not counts["versions"]:
                fail(f"nothing to forget: user {user_id!r} has no file or directory {path}, nor any history of one")
        else:
            counts = graph.forget_user(user_id)
    console.print(f"forgot {what}: {_counts(counts)}", highlight=False)
