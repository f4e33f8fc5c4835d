"""What every `sessions-graph` command shares: the consoles, the opened graph, the user and how to fail."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TypeVar

import click
from rich.console import Console, ConsoleDimensions
from rich.markup import escape
from rich.progress import Progress

from sessions_graph_core import validation
from sessions_graph_core.errors import NotFoundError, StoreUnreachableError, no_session
from sessions_graph_core.inputs import InputError, read_stdin_text
from sessions_graph_core.validation import ValidationError
from sessions_graph_core.values import Value

if TYPE_CHECKING:
    from sessions_graph_core.graph import SessionsGraph
    from sessions_graph_core.sessions.records import SessionInfo
    from sessions_graph_core.store.location import StoreSettings

# The config (pydantic) and the graph (numpy) are imported where a command uses them: `--help` needs neither.


class OutputConsole(Console):
    """Standard output: a terminal's width, but unbounded when piped, so no table or id is ever cut."""

    @property
    def size(self) -> ConsoleDimensions:
        if self.is_terminal or self._width is not None:
            return super().size
        return ConsoleDimensions(PIPED_WIDTH, super().size.height)

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        self._width, self._height = new_size


# Wide enough for any row we print; tables are sized to their content, never stretched to it.
PIPED_WIDTH = 100_000
console = OutputConsole()
errors = Console(stderr=True)

NO_USER = "No user: pass --user or set identity.user_id (`sessions-graph config set identity.user_id NAME`)"

F = TypeVar("F", bound=Callable[..., object])


class TextCommand(click.Command):
    """A command whose arguments are text: only an exact option name is an option, so a TEXT that
    starts with '-' (frontmatter '---', '-5 degrees', a quoted '--user') is passed as given."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, self._options_first(ctx, args))

    def _options_first(self, ctx: click.Context, args: list[str]) -> list[str]:
        takes: dict[str, int] = {}
        for param in self.get_params(ctx):
            if isinstance(param, click.Option):
                width = 0 if param.is_flag or param.count else param.nargs
                takes.update({name: width for name in param.opts + param.secondary_opts})
        options: list[str] = []
        texts: list[str] = []
        index = 0
        while index < len(args):
            arg = args[index]
            name = arg.split("=", 1)[0] if arg.startswith("--") else arg
            if arg == "--":
                texts += args[index + 1:]
                break
            if name in takes:
                width = 0 if name != arg else takes[name]
                options += args[index:index + 1 + width]
                index += 1 + width
                continue
            texts.append(arg)
            index += 1
        return options + ["--"] + texts


class FilePath(click.ParamType):
    """A path argument as given; one no file system can hold is refused as a usage error (exit 2): a NUL,
    a lone surrogate, or a name too long. click.Path let its own stat's errors through as tracebacks; a path
    that does not exist passes, for the command to say so."""

    name = "path"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> Path:
        text = str(value)
        problem = validation.path_problem(text)
        if problem:
            self.fail(f"{text[:200]!r} {problem}", param, ctx)
        return Path(text)


def text_argument(text: str) -> str:
    """A TEXT argument: '-' reads standard input (bounded: inputs.read_stdin_text)."""
    if text != "-":
        return text
    try:
        return read_stdin_text(what="The text on standard input")
    except InputError as exc:
        fail(str(exc), 2)


def fail(message: str, code: int = 1) -> NoReturn:
    """Print `error: message` on stderr and exit. Every command: 0 done, 1 not found (or the store
    failed), 2 bad input."""
    errors.print(f"[red]error:[/red] {escape(message)}", highlight=False, soft_wrap=True)
    sys.exit(code)


def user_option(help: str = "The user (default: identity.user_id from the config file).") -> Callable[[F], F]:
    """The one `--user` option; pair it with `resolve_user`, which applies the configured default."""
    return click.option("--user", "user_id", default=None, metavar="USER", help=help)


def resolve_user(given: str | None, *, missing: str = NO_USER) -> str:
    """`--user` when given, else the config's identity.user_id (environment included); neither exits 2
    with `missing`. A given but empty or blank `--user` is bad input (exit 2), never the configured user."""
    if given is not None:
        try:
            return validation.user_id(given)
        except ValidationError as exc:
            fail(str(exc), 2)
    from sessions_graph_core.config import model as config_file

    try:
        configured = config_file.load_config().identity.user_id
    except ValidationError as exc:
        fail(str(exc), 2)
    if not configured:
        fail(missing, 2)
    return configured


def require_user(graph: SessionsGraph, user_id: str) -> None:
    """A read for a user the store has never seen says so and exits 1 instead of printing nothing."""
    from sessions_graph_core.config.model import store_settings

    try:
        known = graph.user_exists(user_id)
    except ValidationError as exc:
        fail(str(exc), 2)
    if not known:
        fail(f"no user {user_id!r} in the store ({store_settings().where()}): check --user (or identity.user_id) "
             "and the store (store.data_dir)")


json_option = click.option("--json", "as_json", is_flag=True, help="Print the rows as JSON.")


def _plain(row: object) -> object:
    if isinstance(row, Value):
        return row.as_dict()
    return asdict(row) if is_dataclass(row) else row


def print_json(rows: object) -> None:
    """A listing (or one record) as JSON: dataclasses and Values become objects, paths and dates strings."""
    plain = [_plain(row) for row in rows] if isinstance(rows, list) else _plain(rows)
    click.echo(json.dumps(plain, indent=2, ensure_ascii=False, default=str))


def require_session(graph: SessionsGraph, session_id: str, user_id: str | None) -> SessionInfo:
    """The session, or exit 1. With a user, another user's session reads as missing, in the same words;
    without one (no --user and none configured) any user's session is found."""
    from sessions_graph_core.config.model import store_settings

    try:
        found = graph.get_session(session_id)
    except ValidationError as exc:
        fail(str(exc), 2)
    if user_id is not None and (found is None or found.user_id != user_id):
        fail(str(no_session(session_id, user_id)))
    if found is None:
        fail(f"no session {session_id!r} in the store ({store_settings().where()}): `sessions-graph session list` shows them")
    return found


def one_session_or_pending(session_id: str | None, pending: bool, user_id: str | None) -> None:
    """reconcile's and embed's two forms: one session (of `--user`, or of the configured user), or the
    sweep of every user's pending work, which `--user` does not narrow: refused rather than ignored."""
    if bool(session_id) == pending:
        fail("give exactly one of --session ID or --pending", 2)
    if pending and user_id is not None:
        fail("--user goes with --session; --pending sweeps every user's pending work (drop --user)", 2)


def optional_user(given: str | None) -> str | None:
    """`--user` when given (checked), else the configured user, else None: for commands an operator may
    also run store-wide (reconcile and embed of one session)."""
    if given is not None:
        return resolve_user(given)
    from sessions_graph_core.config import model as config_file

    try:
        return config_file.load_config().identity.user_id
    except ValidationError as exc:
        fail(str(exc), 2)


def progress_bar() -> Progress:
    """A transient bar on stderr, shown only on a terminal: piped or logged, it would leave blank lines."""
    return Progress(console=errors, transient=True, disable=not errors.is_terminal)


def human_bytes(size: int) -> str:
    value = float(size)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"


def _drain_spool(settings: StoreSettings) -> None:
    """Apply what hooks spooled while the store was loading, unless a drain already runs: a command reads
    what the hooks received."""
    from sessions_graph_core.integrations import spool

    if settings.embedded and spool.waiting(settings.data_dir):
        from sessions_graph_core.integrations.hooks import drain_spool

        drain_spool(wait=False)


def _say_where_reads_go(note: str) -> None:
    errors.print(f"sessions-graph: {escape(note)}", highlight=False, soft_wrap=True)


@contextmanager
def opened_graph(*, reads_only: bool = False, reads_primary: bool = False, drain: bool = True) -> Iterator[SessionsGraph]:
    """The configured store with its schema in place; errors become one clear line and exit 1.

    `reads_only` opens the replica at store.read_url when one is set; its schema comes from the primary.
    `reads_primary`, for a command that only reads what its user wrote: the primary, or that replica when the
    primary does not answer. Either way a note on stderr says when reads went to the other server.
    `drain` first applies the hook events spooled while the store was loading (integrations/spool.py).
    """
    from sessions_graph_core.config.model import store_settings
    from sessions_graph_core.graph import SessionsGraph
    from sessions_graph_core.store.location import open_reads, open_store

    try:
        settings = store_settings()
    except ValidationError as exc:  # a malformed config file: it names the file and the key
        fail(str(exc), 2)
    try:
        # Left running for the next call, which then finds the store loaded; it stops itself when idle.
        if reads_only or reads_primary:
            store = open_reads(settings, keep_running=True, primary_first=reads_primary, on_switch=_say_where_reads_go)
        else:
            store = open_store(settings, keep_running=True)
    except StoreUnreachableError as exc:
        fail(str(exc), 1)
    # Reads in a deployment with a replica leave the schema to the primary's writers (setup() writes, and would
    # wait for a replica that may be the server that is down).
    reads_elsewhere = (reads_only or reads_primary) and settings.read_url is not None
    graph = SessionsGraph(store)
    try:
        if not reads_elsewhere:
            graph.setup()
            if drain:
                _drain_spool(settings)
        yield graph
    except NotFoundError as exc:  # missing, or another user's: the same words and the same exit
        fail(str(exc), 1)
    except ValidationError as exc:
        fail(str(exc), 2)
    except StoreUnreachableError as exc:  # the store died during the command and would not come back
        fail(str(exc), 1)
    finally:
        graph.close()
