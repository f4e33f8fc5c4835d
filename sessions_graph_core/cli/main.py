"""The `sessions-graph` command line."""

from __future__ import annotations

import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click
from rich.markup import escape
from rich.table import Table

from sessions_graph_core.cli.common import (
    FilePath,
    TextCommand,
    console,
    fail,
    human_bytes,
    json_option,
    opened_graph,
    print_json,
    require_session,
    require_user,
    resolve_user,
    text_argument,
    user_option,
)
from sessions_graph_core.cli.facts import facts_command
from sessions_graph_core.cli.forget import forget_command
from sessions_graph_core.cli.harness_import import import_harness
from sessions_graph_core.cli.integrations import (
    config_group,
    doctor_command,
    hook_command,
    mcp_command,
)
from sessions_graph_core.cli.ontology import derive_command, ontology_group
from sessions_graph_core.cli.recall import embed_command, recall_command
from sessions_graph_core.cli.reconcile import ontology_load, reconcile_command
from sessions_graph_core.cli.service import service_group
from sessions_graph_core.cli.ui import ui_command
from sessions_graph_core.errors import StoreUnreachableError, no_memory
from sessions_graph_core.integrations.harness_import import FORMATS as HARNESS_FORMATS
from sessions_graph_core.store.falkordb.server import EmbeddedServer
from sessions_graph_core.validation import ValidationError

if TYPE_CHECKING:
    from sessions_graph_core.memory.files import MemoryCommandError, MemoryStore
    from sessions_graph_core.sessions.jsonl import Transcript

# What a command works with is imported in its body: `--help` loads only the commands' definitions.


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Cross-session memory for AI agents.

    The store is the embedded FalkorDB in SESSIONS_GRAPH_DATA_DIR (default: the user data
    directory), or Memgraph when MEMGRAPH_URL is set.
    """


@main.command()
def setup() -> None:
    """Create the constraints and indexes (safe to repeat)."""
    with opened_graph():
        console.print("schema ready")


# -- store ---------------------------------------------------------------------------------


@main.group()
def store() -> None:
    """Start, stop and inspect the embedded store."""


def _server() -> EmbeddedServer:
    from sessions_graph_core.config.model import store_settings

    try:
        settings = store_settings()
    except ValidationError as exc:
        fail(str(exc), 2)
    if settings.memgraph_url:
        fail("the store is a Memgraph server (MEMGRAPH_URL or store.url), not the embedded one", 2)
    return EmbeddedServer(settings.data_dir)


@store.command("start")
def store_start() -> None:
    """Start the embedded server and leave it running for later commands."""
    server = _server()
    started_at = time.perf_counter()
    try:
        started = server.ensure_running()
    except StoreUnreachableError as exc:
        fail(str(exc))
    elapsed = (time.perf_counter() - started_at) * 1000
    state = f"started in {elapsed:.0f} ms" if started else "already running"
    console.print(f"{state}: pid {server.pid()}, data {server.data_dir}, socket {server.socket_path}", highlight=False)


@store.command("serve")
def store_serve() -> None:
    """Keep the embedded server up in the foreground, starting it again if it exits; SIGTERM or Ctrl-C stops it.

    What `sessions-graph service install` runs at login."""
    server = _server()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        server.keep_up()
    except StoreUnreachableError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()


@store.command("drain")
def store_drain() -> None:
    """Apply the hook events spooled while the store was starting or loading, oldest first (a hook starts this)."""
    from sessions_graph_core.integrations.hooks import drain_spool

    with opened_graph(drain=False):  # started and loaded before the first event is applied
        applied = drain_spool(wait=True)
    console.print(f"applied {applied} spooled hook events")


@store.command("stop")
def store_stop() -> None:
    """Stop the embedded server (its data stays on disk)."""
    server = _server()
    pid = server.pid()
    if server.stop():
        console.print(f"stopped the store in {server.data_dir} (pid {pid})", highlight=False)
    else:
        console.print(f"not running: no store server in {server.data_dir}", highlight=False)


@store.command("status")
@json_option
def store_status(as_json: bool) -> None:
    """Where the data lives, whether the server runs, its pid and size."""
    status = _server().status()
    if as_json:
        print_json(status)
        return
    table = Table(show_header=False, box=None)
    table.add_row("data directory", str(status.data_dir))
    table.add_row("socket", str(status.socket_path))
    table.add_row("running", "yes" if status.running else "no")
    table.add_row("pid", str(status.pid or "-"))
    table.add_row("size on disk", human_bytes(status.disk_bytes))
    table.add_row("server memory", human_bytes(status.rss_bytes) if status.rss_bytes else "-")
    console.print(table)


# -- memories ------------------------------------------------------------------------------


@main.group()
def memory() -> None:
    """Save, list, search and delete a user's memories, or work on them as memory-tool files.

    view, create, str-replace, insert, delete PATH, rename and versions act on a user's files
    under /memories exactly as Claude's memory tool does, and print the tool's result.
    """


def _memory_table(rows: list) -> Table:
    table = Table("memory_id", "path", "updated", "content")
    for item in rows:
        preview = item.content if len(item.content) <= 80 else item.content[:77] + "..."
        table.add_row(item.memory_id, item.path, item.updated_at[:19], escape(preview))
    return table


def _print_memories(rows: list, as_json: bool) -> None:
    if as_json:
        print_json(rows)
    else:
        console.print(_memory_table(rows))


@memory.command("save", cls=TextCommand)
@user_option("The user the memory belongs to (default: identity.user_id).")
@click.option("--path", default=None, help="Path under /memories (default /memories/notes/<id>.md).")
@click.option("--session", "session_id", default=None, help="The session that produced it.")
@click.argument("content")
def memory_save(user_id: str | None, path: str | None, session_id: str | None, content: str) -> None:
    """Save CONTENT (- reads standard input) as a new memory; text starting with '-' or '---' is fine."""
    user_id = resolve_user(user_id)
    with opened_graph() as graph:
        saved = graph.save_memory(user_id, text_argument(content), path=path, session_id=session_id)
        console.print(f"saved {saved.memory_id} at {saved.path}")


@memory.command("list")
@user_option()
@json_option
def memory_list(user_id: str | None, as_json: bool) -> None:
    """List a user's memories, newest first."""
    user_id = resolve_user(user_id)
    with opened_graph(reads_primary=True) as graph:
        require_user(graph, user_id)
        _print_memories(graph.get_memories(user_id), as_json)


@memory.command("search", cls=TextCommand)
@user_option()
@click.option("--limit", default=10, show_default=True, type=click.IntRange(min=1))
@json_option
@click.argument("query")
def memory_search(user_id: str | None, limit: int, as_json: bool, query: str) -> None:
    """Full-text search over a user's memories."""
    user_id = resolve_user(user_id)
    with opened_graph(reads_primary=True) as graph:
        require_user(graph, user_id)
        _print_memories(graph.search_memories(user_id, query, limit=limit), as_json)


@memory.command("delete")
@click.argument("target")
@user_option("The user whose memory or file to delete (default: identity.user_id).")
@click.option("--session", "session_id", default=None, help="The session that deleted it.")
def memory_delete(target: str, user_id: str | None, session_id: str | None) -> None:
    """Delete TARGET: a memory id, or a /memories file or directory of the user.

    Either way the text stays in the file's history.
    """
    user_id = resolve_user(user_id)
    if target.startswith("/"):
        _memory_command(user_id, session_id, lambda files: files.delete(target))
        return
    with opened_graph() as graph:
        if not graph.delete_memory(target, user_id=user_id):
            fail(str(no_memory(target, user_id)))
        console.print(f"deleted {target}")


def _memory_command(
    user_id: str, session_id: str | None, command: Callable[[MemoryStore], str], *, known_user: bool = False
) -> None:
    """Run one memory-tool command and print its result as the model would read it; a path that does not
    exist exits 1, any other refusal 2 (bad input, as through `memory save`).

    known_user: a read, which first checks that the store knows the user at all."""
    from sessions_graph_core.memory.files import MemoryCommandError

    with opened_graph() as graph:
        if known_user:
            require_user(graph, user_id)
        try:
            result = command(graph.memory_store(user_id, session_id=session_id))
        except MemoryCommandError as exc:
            _refused(exc)
    click.echo(result)


def _refused(error: MemoryCommandError) -> NoReturn:
    from sessions_graph_core.memory.files import MemoryPathNotFoundError

    click.echo(str(error), err=True)
    sys.exit(1 if isinstance(error, MemoryPathNotFoundError) else 2)


_user_option = user_option("The user whose files these are (default: identity.user_id).")
_session_option = click.option("--session", "session_id", default=None, help="The session making the change.")


@memory.command("view")
@_user_option
@click.argument("path", default="/memories")
@click.option("--range", "view_range", type=int, nargs=2, default=None, metavar="START END", help="Lines to show; END -1 means to the end.")
def memory_view(user_id: str | None, path: str, view_range: tuple[int, int] | None) -> None:
    """List a directory two levels deep, or show a file with line numbers."""
    _memory_command(
        resolve_user(user_id), None, lambda files: files.view(path, list(view_range) if view_range else None),
        known_user=True,
    )


@memory.command("create", cls=TextCommand)
@_user_option
@_session_option
@click.argument("path")
@click.argument("text")
def memory_create(user_id: str | None, session_id: str | None, path: str, text: str) -> None:
    """Write TEXT (- reads standard input) to the file PATH, replacing what it held."""
    _memory_command(resolve_user(user_id), session_id, lambda files: files.create(path, text_argument(text)))


@memory.command("str-replace", cls=TextCommand)
@_user_option
@_session_option
@click.argument("path")
@click.argument("old")
@click.argument("new", default="")
def memory_str_replace(user_id: str | None, session_id: str | None, path: str, old: str, new: str) -> None:
    """Replace the one occurrence of OLD in PATH with NEW (default: remove it)."""
    _memory_command(resolve_user(user_id), session_id, lambda files: files.str_replace(path, old, new))


@memory.command("insert", cls=TextCommand)
@_user_option
@_session_option
@click.argument("path")
@click.argument("line", type=int)
@click.argument("text")
def memory_insert(user_id: str | None, session_id: str | None, path: str, line: int, text: str) -> None:
    """Insert TEXT (- reads standard input) after line LINE of PATH; 0 inserts at the top."""
    _memory_command(resolve_user(user_id), session_id, lambda files: files.insert(path, line, text_argument(text)))


@memory.command("rename")
@_user_option
@_session_option
@click.argument("old_path")
@click.argument("new_path")
def memory_rename(user_id: str | None, session_id: str | None, old_path: str, new_path: str) -> None:
    """Move a file or directory; files keep their identity and history."""
    _memory_command(resolve_user(user_id), session_id, lambda files: files.rename(old_path, new_path))


@memory.command("versions")
@_user_option
@json_option
@click.argument("path")
def memory_versions(user_id: str | None, as_json: bool, path: str) -> None:
    """The texts PATH held before, newest first."""
    from sessions_graph_core.memory.files import MemoryCommandError

    user_id = resolve_user(user_id)
    with opened_graph() as graph:
        require_user(graph, user_id)
        try:
            history = graph.memory_store(user_id).versions(path)
        except MemoryCommandError as exc:
            _refused(exc)
    if as_json:
        print_json(history)
        return
    table = Table("replaced", "session", "deleted")
    table.add_column("path", overflow="fold")
    table.add_column("content", overflow="fold")
    for version in history:
        preview = version.content if len(version.content) <= 60 else version.content[:57] + "..."
        table.add_row(
            version.replaced_at[:19], version.session_id or "-", "yes" if version.deleted else "",
            version.path, escape(preview),
        )
    console.print(table)


# -- sessions ------------------------------------------------------------------------------


@main.group()
def session() -> None:
    """Import and inspect sessions."""


@session.command("import")
@click.argument("files", nargs=-1, required=True, type=FilePath())
@user_option("Owner of the sessions (else the file's header, else identity.user_id).")
@click.option("--session", "session_id", default=None, help="Session id (else the header, else the file name).")
@click.option("--format", "file_format", type=click.Choice(["jsonl", "longmemeval", *HARNESS_FORMATS]), default="jsonl",
              show_default=True, help="jsonl: our transcripts (sessions_graph_core/sessions/jsonl.py); longmemeval: "
              "LongMemEval's JSON, every haystack session one session of the user; claude-code, codex: the harness's "
              "own transcripts, files or directories (docs/import.md)")
@click.option("--dry-run", is_flag=True, help="claude-code, codex: read and count, store nothing.")
def session_import(
    files: tuple[Path, ...], user_id: str | None, session_id: str | None, file_format: str, dry_run: bool
) -> None:
    """Import session transcripts.

    Exit status: 0 imported, 1 a path not found, 2 bad input (nothing imported), 3 imported but some
    lines or files were skipped (each one named on stderr).
    """
    if file_format in HARNESS_FORMATS:
        import_harness(files, user_id, file_format, dry_run=dry_run, session_id=session_id)
        return
    if dry_run:
        fail("--dry-run is for --format claude-code or codex", 2)
    if session_id and (len(files) > 1 or file_format == "longmemeval"):
        fail("--session names one session: import one JSONL file with it", 2)
    missing = [str(path) for path in files if not path.is_file()]
    if missing:
        fail(f"no such file: {', '.join(missing)} (nothing was imported)")
    if file_format == "longmemeval":
        _import_longmemeval(files, resolve_user(user_id, missing=(
            "a LongMemEval file names no user: pass --user or set identity.user_id")))
        return
    from sessions_graph_core.sessions.jsonl import read_transcript
    from sessions_graph_core.sessions.records import check_owner, check_turns

    try:  # every file parsed before anything is written: one bad line imports nothing
        transcripts = [(path, read_transcript(path)) for path in files]
    except ValidationError as exc:
        fail(str(exc), 2)
    given = resolve_user(user_id) if user_id is not None else None
    planned = [(path, transcript, *_import_target(path, transcript, given, session_id)) for path, transcript in transcripts]
    owners: dict[str, str] = {}
    for path, _, sid, owner in planned:
        if owners.setdefault(sid, owner) != owner:
            fail(f"{path}: session {sid!r} is also imported for user {owners[sid]!r}; a session has one user "
                 "(nothing was imported)", 2)
    with opened_graph() as graph:
        for path, transcript, sid, owner in planned:  # every file's owner and turns checked before any write
            try:
                check_owner(graph.store, sid, owner)
                check_turns(graph.store, sid, transcript.turns)
            except ValidationError as exc:
                fail(f"{path}: {exc} (nothing was imported)", 2)
        for _, transcript, sid, owner in planned:
            done = graph.import_transcript(transcript, session_id=sid, user_id=owner)
            state = "already reconciled, nothing to do" if done.reconciliation_status == "completed" else "pending reconciliation"
            console.print(f"{sid}: {done.added} new turns of {done.total} (user {owner}), {state}")


def _import_target(path: Path, transcript: Transcript, user_id: str | None, session_id: str | None) -> tuple[str, str]:
    """The session id and owner one transcript file is imported as; a file naming neither user exits 2."""
    owner = user_id or transcript.header.user_id or resolve_user(None, missing=(
        f"{path}: no user: pass --user, put user_id in the session header line, "
        "or set identity.user_id with `sessions-graph config set`"))
    return session_id or transcript.header.session_id or path.stem, owner


def _import_longmemeval(files: tuple[Path, ...], user_id: str) -> None:
    # Every file is read and checked before the first session is written.
    from sessions_graph_core.sessions.longmemeval import read_longmemeval
    from sessions_graph_core.sessions.records import check_owner, check_turns

    try:
        haystacks = [(path, read_longmemeval(path)) for path in files]
    except ValidationError as exc:
        fail(str(exc), 2)
    with opened_graph() as graph:
        for _, sessions in haystacks:  # turns or sessions refused anywhere import nothing, not even a session
            for item in sessions:
                check_owner(graph.store, item.session_id, user_id)
                check_turns(graph.store, item.session_id, item.turns)
        for path, sessions in haystacks:
            added = 0
            for item in sessions:
                graph.record_session_start(item.session_id, user_id=user_id, started_at=item.started_at)
                added += graph.record_turns(item.session_id, item.turns, user_id=user_id, first_position=0)
                graph.end_session(item.session_id)
            console.print(f"{path}: {len(sessions)} sessions, {added} new turns (user {user_id}), pending reconciliation")


@session.command("list")
@user_option()
@json_option
def session_list(user_id: str | None, as_json: bool) -> None:
    """A user's sessions."""
    user_id = resolve_user(user_id)
    with opened_graph(reads_primary=True) as graph:
        require_user(graph, user_id)
        rows = graph.get_sessions(user_id)
    if as_json:
        print_json(rows)
        return
    table = Table("session", "started", "turns", "project", "reconciliation")
    for item in rows:
        table.add_row(
            item.session_id, (item.started_at or "")[:19], str(item.turn_count),
            item.project_key or "-", item.reconciliation_status or "-",
        )
    console.print(table)


@session.command("show")
@json_option
@user_option("The user whose session it is (default: identity.user_id).")
@click.argument("session_id")
def session_show(as_json: bool, user_id: str | None, session_id: str) -> None:
    """A session's turns in order."""
    user_id = resolve_user(user_id)
    with opened_graph(reads_primary=True) as graph:
        require_session(graph, session_id, user_id)
        turns = graph.get_turns(session_id)
        given_up = graph.get_session(session_id).texts_given_up
    if as_json:
        print_json(turns)
        return
    for turn in turns:
        console.print(f"[bold]{turn.seq:>4} {turn.role:<9}[/bold] {escape(turn.text)}", highlight=False)
    if given_up:
        console.print(f"{given_up} text(s) the model could not read in llm.max_attempts runs: given up, kept as read "
                      "without the model", highlight=False)


# Commands that live in modules of their own.
for command in (config_group, doctor_command, forget_command, hook_command, mcp_command, embed_command, recall_command,
                derive_command, ontology_group, reconcile_command, facts_command, service_group, ui_command):
    main.add_command(command)
ontology_group.add_command(ontology_load)

if __name__ == "__main__":
    main()
