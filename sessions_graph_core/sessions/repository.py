"""A directory's git origin URL and top level, read from the repository's files instead of running git.

A session's first hook asks for them (sessions/projects.py), and starting git cost it the import of
subprocess and a fork and exec of git, a tail of tens of milliseconds under load (issue 40). What is read
here is what `git remote get-url origin` and `git rev-parse --show-toplevel` print in the plain cases: the
nearest `.git` above the directory (a folder, or a file naming the folder as in a linked worktree or a
submodule), the `commondir` a linked worktree shares, and the `[remote "origin"]` of its config.

Whenever the files hold something whose answer only git can be trusted with, `read` says so (None), and the
caller runs git: a GIT_* variable that moves or configures the repository, an include or a URL rewrite
(`insteadOf`) or a remote in any config file, a quoted or continued value, a repository owned by someone
else (git's safe.directory check), a worktree configured elsewhere, a crossing into another file system,
or a directory that is itself a git directory (a bare repository, or inside `.git`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from sessions_graph_core.values import Value

# Variables that change where git looks or what config it reads; with any of them set, git is asked.
_GIT_ENVIRONMENT = (
    "GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM",
    "GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_COUNT",
    "GIT_CONFIG_PARAMETERS", "GIT_OBJECT_DIRECTORY",
)
# System config files of the usual git builds (a distribution's, /usr/local's, Homebrew's).
_SYSTEM_CONFIGS = ("/etc/gitconfig", "/usr/local/etc/gitconfig", "/opt/homebrew/etc/gitconfig")
# What, in a config file other than the repository's own, could change the origin URL git prints.
_GLOBAL_UNSURE = re.compile(rb"insteadof|\[\s*include|\[\s*remote", re.IGNORECASE)
_SECTION = re.compile(r'^\[\s*([A-Za-z0-9.-]+)\s*(?:"([^"\\]*)")?\s*\]\s*(?:[#;].*)?$')
_ENTRY = re.compile(r"^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$")
_OBJECT_ID = re.compile(r"^(?:[0-9a-f]{40}|[0-9a-f]{64})$")


class Unsure(Exception):
    """Something in the repository's files that only git itself answers for."""


class Found(Value):
    """The origin URL (None without one) and the top level (None outside a repository)."""

    __slots__ = ("origin", "toplevel")

    origin: str | None
    toplevel: Path | None

    def __init__(self, origin: str | None, toplevel: Path | None) -> None:
        self._fill(origin, toplevel)


def read(directory: Path) -> Found | None:
    """What git would print for `directory` (an existing folder); None when git has to be asked."""
    try:
        if any(name in os.environ for name in _GIT_ENVIRONMENT):
            raise Unsure
        found = _discover(Path(os.path.realpath(directory)))
        if found is None:
            return Found(None, None)
        top, gitdir = found
        common = _common_dir(gitdir)
        if not _is_git_directory(gitdir, common):
            raise Unsure
        _outside_config_is_plain()
        config = _config(common / "config")
        _check_format(config, gitdir, common)
        _check_owner(top, gitdir)
        return Found(_origin(config), _toplevel(config, top, gitdir, common))
    except (Unsure, OSError, UnicodeDecodeError):
        return None


def _discover(start: Path) -> tuple[Path, Path] | None:
    """The nearest folder at or above `start` with a `.git`, and the git directory it names; None when there is
    none up to the root."""
    device = start.stat().st_dev
    for folder in (start, *start.parents):
        if folder.stat().st_dev != device:
            raise Unsure  # git stops at a file system boundary unless told otherwise
        dot = folder / ".git"
        if dot.is_dir():
            return folder, dot
        if dot.is_file():
            return folder, _gitdir_of_file(dot)
        if dot.exists() or _looks_like_git_directory(folder):
            raise Unsure
    return None


def _gitdir_of_file(dot: Path) -> Path:
    """The folder a `.git` file names (`gitdir: PATH`, relative to the file's folder)."""
    text = dot.read_text()
    if not text.startswith("gitdir: "):
        raise Unsure
    target = text[len("gitdir: "):].rstrip("\r\n")
    if not target or "\n" in target:
        raise Unsure
    return Path(os.path.realpath(dot.parent / target))


def _looks_like_git_directory(folder: Path) -> bool:
    return (folder / "HEAD").is_file() and (folder / "objects").is_dir() and (folder / "refs").is_dir()


def _common_dir(gitdir: Path) -> Path:
    """A linked worktree's git directory names the main one's in `commondir`; others are their own."""
    try:
        text = (gitdir / "commondir").read_text().rstrip("\r\n")
    except FileNotFoundError:
        return gitdir
    if not text or "\n" in text:
        raise Unsure
    return Path(os.path.realpath(gitdir / text))


def _is_git_directory(gitdir: Path, common: Path) -> bool:
    """As git's own test: a HEAD that names a ref or an object, and the objects and refs folders."""
    try:
        head = (gitdir / "HEAD").read_text().strip()
    except FileNotFoundError:
        return False
    valid_head = head.startswith("ref: refs/") or bool(_OBJECT_ID.match(head))
    return valid_head and (common / "objects").is_dir() and (common / "refs").is_dir()


def _outside_config_is_plain() -> None:
    """Unsure when a system or global config file could rewrite or add to the origin URL."""
    home = os.environ.get("HOME")
    xdg = os.environ.get("XDG_CONFIG_HOME") or (f"{home}/.config" if home else None)
    paths = [*_SYSTEM_CONFIGS, *([f"{xdg}/git/config"] if xdg else []), *([f"{home}/.gitconfig"] if home else [])]
    for path in paths:
        try:
            with open(path, "rb") as file:
                text = file.read()
        except (FileNotFoundError, NotADirectoryError):
            continue
        if _GLOBAL_UNSURE.search(text):
            raise Unsure


def _config(path: Path) -> dict[tuple[str, str | None], dict[str, list[str]]]:
    """A repository config as {(section, subsection): {key: [values]}}, names lowercased as git compares them;
    Unsure at anything past plain `key = value` lines (quotes, escapes, continued lines, includes, rewrites)."""
    sections: dict[tuple[str, str | None], dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            header = _SECTION.match(line)
            if header is None or "." in header.group(1):  # [section "sub"] only: not the legacy [section.sub]
                raise Unsure
            name = header.group(1).lower()
            if name in ("include", "includeif", "url"):
                raise Unsure
            current = sections.setdefault((name, header.group(2)), {})
            continue
        entry = _ENTRY.match(line)
        if current is None or entry is None:
            raise Unsure
        value = _plain_value(entry.group(2))
        current.setdefault(entry.group(1).lower(), []).append(value)
    return sections


def _plain_value(value: str | None) -> str:
    if value is None:  # a bare key means true, which git refuses for the ones read here
        raise Unsure
    if '"' in value or "\\" in value or "\t" in value:  # git unquotes, unescapes and turns tabs into spaces
        raise Unsure
    return re.split(r"[#;]", value, maxsplit=1)[0].strip()


def _check_format(config: dict[tuple[str, str | None], dict[str, list[str]]], gitdir: Path, common: Path) -> None:
    """Unsure at a repository format git may refuse, and at a worktree's own config file."""
    core = config.get(("core", None), {})
    version = core.get("repositoryformatversion", ["0"])[-1]
    if version not in ("0", "1") or core.get("bare", ["false"])[-1].lower() not in ("false", "no", "off", "0"):
        raise Unsure
    if (gitdir / "config.worktree").exists():
        raise Unsure
    if (common / "remotes" / "origin").exists() or (common / "branches" / "origin").exists():
        raise Unsure  # a remote from the files of git's early versions


def _check_owner(top: Path, gitdir: Path) -> None:
    """git refuses a repository that another user owns unless safe.directory allows it: let git decide."""
    uid = os.getuid()
    if top.stat().st_uid != uid or gitdir.stat().st_uid != uid:
        raise Unsure


def _origin(config: dict[tuple[str, str | None], dict[str, list[str]]]) -> str | None:
    """The first URL of the origin remote, as `git remote get-url origin` prints it."""
    urls = config.get(("remote", "origin"), {}).get("url", [])
    if urls and not urls[0]:
        raise Unsure
    return urls[0] if urls else None


def _toplevel(config: dict[tuple[str, str | None], dict[str, list[str]]], top: Path, gitdir: Path, common: Path) -> Path:
    """The folder holding `.git`, unless core.worktree names another (a submodule's names its own folder)."""
    worktree = config.get(("core", None), {}).get("worktree")
    if not worktree:
        return top
    if gitdir != common or Path(os.path.realpath(gitdir / worktree[-1])) != top:
        raise Unsure
    return top
