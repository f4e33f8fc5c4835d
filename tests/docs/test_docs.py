"""The docs are run: the site builds with `mkdocs build --strict`, its generated references name every command
and config key, and every `sessions-graph ...` example in README.md and docs/ parses against the real click
group (an unknown command or option fails), without running the command."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import click
import pytest

from sessions_graph_core.cli.main import main as cli_group
from sessions_graph_core.config.model import keys

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = "sessions-graph"
SHELL_FENCES = ("```bash", "```sh", "```console", "```shell")
SHELL_OPERATORS = {"|", "||", "&&", ";", ">", ">>", "<", "&", "2>", "2>&1"}


@dataclass(frozen=True)
class Example:
    where: str  # file:line
    text: str  # the command line, from `sessions-graph` on
    runnable: bool  # a shell block's line (parsed in full) or a synopsis (`[--user U]`, `a | b`: names checked)


def doc_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _shell_command(lines: list[str], start: int) -> tuple[str, int]:
    """The command that starts at lines[start], joined over continuation backslashes and open quotes."""
    text, end = lines[start], start
    while end + 1 < len(lines):
        if text.rstrip().endswith("\\"):
            text = text.rstrip()[:-1] + " " + lines[end + 1]
        else:
            try:
                shlex.split(text, comments=True)
                break
            except ValueError:  # a quote still open: the argument goes on on the next line
                text += "\n" + lines[end + 1]
        end += 1
    return text, end


def examples_in(path: Path) -> list[Example]:
    """Every `sessions-graph` line of a fenced block, and every inline code span that starts with it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    name = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name
    found: list[Example] = []
    fence: str | None = None
    index = 0
    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        if stripped.startswith("```"):
            fence = None if fence is not None else stripped
        elif fence is not None:
            command = stripped.removeprefix("$ ")
            if command.startswith(PROGRAM + " ") or command == PROGRAM:
                shell = fence.startswith(SHELL_FENCES)
                text, end = _shell_command(lines, index) if shell else (command, index)
                found.append(Example(f"{name}:{index + 1}", text.strip().removeprefix("$ "), shell))
                index = end
        else:
            for span in re.findall(r"`(sessions-graph [^`]+)`", line):
                found.append(Example(f"{name}:{index + 1}", span, False))
        index += 1
    return found


def _words(example: Example) -> list[str]:
    if example.runnable:
        lexer = shlex.shlex(example.text, posix=True, punctuation_chars="|&;<>")
        lexer.whitespace_split = True
        words = list(lexer)
        cut = next((i for i, word in enumerate(words) if word in SHELL_OPERATORS), len(words))
        return words[1:cut]
    return example.text.split()[1:]


def context_for(command: click.Command, name: str, parent: click.Context | None = None) -> click.Context:
    """A context as the real command line makes it: with the command's own settings (`-h`, unknown options).
    A bare `click.Context` leaves them out, and click caches the help option it builds from it on the command,
    so a later `-h` in the same process would be refused."""
    return click.Context(command, info_name=name, parent=parent, **command.context_settings)


def _runnable_problem(command: click.Command, ctx: click.Context, words: list[str]) -> str | None:
    """What the real command says of these words, as it parses them (options, arguments, their types),
    without invoking it; a group's own parser finds the subcommand."""
    try:
        if not isinstance(command, click.Group):
            if "--help" not in words:  # help's callback prints and exits: the options before it parsed already
                command.parse_args(ctx, list(words))
            return None
        _, rest, _ = command.make_parser(ctx).parse_args(list(words))
    except click.UsageError as error:
        return error.format_message()
    if not rest:
        return f"{ctx.command_path} needs a command"
    sub = command.get_command(ctx, rest[0])
    if sub is None:
        return f"no command {rest[0]!r} in {ctx.command_path}"
    return _runnable_problem(sub, context_for(sub, rest[0], ctx), rest[1:])


def _synopsis_problem(words: list[str]) -> str | None:
    """A usage line (`memory view --user U [PATH] [--range START END]`, `store start | stop`): the commands it
    names exist, and every option it names belongs to one of them or to a command beside them (`a | b`)."""
    command: click.Command = cli_group
    ctx = context_for(cli_group, PROGRAM)
    parent: click.Group = cli_group
    for word in words:
        if not isinstance(command, click.Group) or word.startswith(("-", "[")):
            break
        sub = command.get_command(ctx, word)
        if sub is None:
            if word.isupper() or not word.isidentifier():
                break  # a placeholder or an argument
            return f"no command {word!r} in {ctx.command_path}"
        parent, command, ctx = command, sub, context_for(sub, word, ctx)
    commands = [command]
    if command is not parent:
        commands += [parent.get_command(ctx, name) for name in parent.list_commands(ctx)]
    known = {option for cmd in commands for param in cmd.params for option in param.opts + param.secondary_opts}
    known |= {"--help", "-h"}
    unknown = [word for word in re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", " ".join(words)) if word not in known]
    return f"{ctx.command_path} has no option {unknown}" if unknown else None


def problem(example: Example) -> str | None:
    words = _words(example)
    if example.runnable:
        return _runnable_problem(cli_group, context_for(cli_group, PROGRAM), words)
    return _synopsis_problem(words)


def test_every_cli_example_in_the_docs_parses_against_the_real_command() -> None:
    found = [example for path in doc_files() for example in examples_in(path)]
    assert sum(example.runnable for example in found) >= 20, "the example reader found too few examples"
    wrong = [f"{example.where}: {example.text!r}: {why}" for example in found if (why := problem(example))]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("text, runnable, why", [
    ("sessions-graph recal --user alice hi", True, "no command 'recal'"),
    ("sessions-graph session list --usr alice", True, "No such option '--usr'"),
    ("sessions-graph recall --usr alice hi", True, "unexpected extra arguments (alice hi)"),  # text: `--usr` is the question
    ("sessions-graph session list --user", True, "requires an argument"),
    ("sessions-graph memory create /memories/a.md", True, "Missing argument 'TEXT'"),
    ("sessions-graph setup extra", True, "unexpected extra argument (extra)"),
    ("sessions-graph ontology load --file o.yaml --derive sometimes", True, "'sometimes' is not one of"),
    ("sessions-graph memory view --user U [PATH] [--rang START END]", False, "no option ['--rang']"),
    ("sessions-graph stor start | stop", False, "no command 'stor'"),
])
def test_the_checker_refuses_what_the_command_would(text: str, runnable: bool, why: str) -> None:
    assert why in (problem(Example("here", text, runnable)) or "")


def test_the_checker_reads_a_shell_block_as_the_shell_does(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text('```bash\nsessions-graph memory save --path /memories/a.md "---\ndescription: x\n---\nbody"'
                    '   # a comment\nsessions-graph store status --json | jq .\n```\n'
                    "Inline: `sessions-graph facts ABOUT [--history]`.\n")
    found = examples_in(page)
    assert [example.runnable for example in found] == [True, True, False]
    assert [problem(example) for example in found] == [None, None, None]
    assert _words(found[0])[-1] == "---\ndescription: x\n---\nbody"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    built = tmp_path_factory.mktemp("site")
    mkdocs = Path(sys.executable).with_name("mkdocs")
    done = subprocess.run([str(mkdocs), "build", "--strict", "--site-dir", str(built)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return built


def test_the_site_builds_strict(site: Path) -> None:
    assert (site / "index.html").is_file()


def test_the_cli_reference_is_generated_from_every_command(site: Path) -> None:
    page = (site / "cli" / "index.html").read_text(encoding="utf-8")
    ctx = context_for(cli_group, PROGRAM)
    for name in cli_group.list_commands(ctx):
        command = cli_group.get_command(ctx, name)
        assert f"{PROGRAM} {name}" in page, name
        for option in (opt for param in command.params for opt in param.opts if opt.startswith("--")):
            assert option in page, f"{name} {option}"


def test_the_config_reference_is_generated_from_every_key(site: Path) -> None:
    page = (site / "config" / "index.html").read_text(encoding="utf-8")
    for key in keys():
        section, name = key.split(".")
        assert f"<code>[{section}]</code>" in page and f"<code>{name}</code>" in page, key
        assert f"SESSIONS_GRAPH_{section.upper()}_{name.upper()}" in page, key
