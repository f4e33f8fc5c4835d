"""A directory's origin and top level read from the repository's files give git's own answers, on real repositories
made here with git: plain, a subfolder, no origin, a linked worktree, a detached HEAD, a submodule, no repository;
and where the files hold what only git answers for, the reader says so and git is asked."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from sessions_graph_core.sessions import repository
from sessions_graph_core.sessions.projects import normalise_remote, project_key_for

ORIGIN = "git@github.com:Acme/Orders.git"


@pytest.fixture(autouse=True)
def plain_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A HOME of our own: a developer's global config (a URL rewrite, say) must not decide these tests."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_CEILING_DIRECTORIES", "GIT_CONFIG_GLOBAL"):
        monkeypatch.delenv(name, raising=False)


def git(*arguments: str | Path) -> str:
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "protocol.file.allow=always",
                           *map(str, arguments)], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def git_answer(directory: Path) -> repository.Found:
    """What git itself prints for the directory: its origin URL and top level, None where it fails."""
    def ask(*arguments: str) -> str | None:
        done = subprocess.run(["git", "-C", str(directory), *arguments], capture_output=True, text=True, check=False)
        return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else None

    toplevel = ask("rev-parse", "--show-toplevel")
    return repository.Found(ask("remote", "get-url", "origin"), Path(toplevel) if toplevel else None)


def new_repo(path: Path, origin: str | None = ORIGIN, *, commit: bool = False) -> Path:
    path.mkdir(parents=True)
    git("init", "-q", path)
    if origin:
        git("-C", path, "remote", "add", "origin", origin)
    if commit:
        (path / "README.md").write_text("orders\n")
        git("-C", path, "add", "README.md")
        git("-C", path, "commit", "-q", "-m", "first")
    return path


def test_a_plain_repository_and_a_folder_inside_it(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "orders")
    inside = repo / "src" / "api"
    inside.mkdir(parents=True)
    for directory in (repo, inside):
        assert repository.read(directory) == git_answer(directory) == repository.Found(ORIGIN, repo)


def test_no_origin_gives_the_top_level(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "My Project", origin=None)
    assert repository.read(repo) == git_answer(repo) == repository.Found(None, repo)
    assert project_key_for(repo) == "My_Project"


def test_no_repository_at_all(tmp_path: Path) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    assert repository.read(folder) == git_answer(folder) == repository.Found(None, None)


def test_a_linked_worktree_reads_the_main_repositorys_origin(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "orders", commit=True)
    git("-C", repo, "worktree", "add", "-q", tmp_path / "orders-fix", "-b", "fix")
    worktree = tmp_path / "orders-fix"
    assert (worktree / ".git").is_file()
    assert repository.read(worktree) == git_answer(worktree) == repository.Found(ORIGIN, worktree)
    assert project_key_for(worktree) == "github.com_Acme_Orders"


def test_a_detached_head(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "orders", commit=True)
    git("-C", repo, "checkout", "-q", "--detach")
    assert not (repo / ".git" / "HEAD").read_text().startswith("ref:")
    assert repository.read(repo) == git_answer(repo) == repository.Found(ORIGIN, repo)


def test_a_submodule_is_its_own_project(tmp_path: Path) -> None:
    library = new_repo(tmp_path / "library", origin="https://github.com/acme/library.git", commit=True)
    app = new_repo(tmp_path / "app", commit=True)
    git("-C", app, "submodule", "add", "-q", library, "vendor/library")
    submodule = app / "vendor" / "library"
    assert (submodule / ".git").is_file()
    assert repository.read(submodule) == git_answer(submodule) == repository.Found(str(library), submodule)
    assert repository.read(app) == git_answer(app) == repository.Found(ORIGIN, app)


def test_the_first_of_several_urls_and_a_comment_after_one(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "orders")
    with open(repo / ".git" / "config", "a") as config:
        config.write("\turl = https://mirror.example.com/orders.git\n")
    git("-C", repo, "config", "--replace-all", "remote.origin.url", "https://example.com/orders.git")
    with open(repo / ".git" / "config") as config:
        text = config.read().replace("url = https://example.com/orders.git", "url = https://example.com/orders.git  # ours")
    (repo / ".git" / "config").write_text(text)
    assert repository.read(repo) == git_answer(repo) == repository.Found("https://example.com/orders.git", repo)


@pytest.mark.parametrize("case", ["rewrite", "global rewrite", "include", "quoted", "bare", "inside .git", "GIT_DIR"])
def test_what_only_git_answers_for_is_left_to_git(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = new_repo(tmp_path / "orders")
    directory = repo
    if case == "rewrite":
        git("-C", repo, "config", "url.https://github.com/.insteadOf", "git@github.com:")
    elif case == "global rewrite":
        (Path.home() / ".gitconfig").write_text('[url "https://github.com/"]\n\tinsteadOf = git@github.com:\n')
    elif case == "include":
        (tmp_path / "more.config").write_text('[remote "origin"]\n\turl = https://example.com/other.git\n')
        git("-C", repo, "config", "include.path", tmp_path / "more.config")
    elif case == "quoted":
        git("-C", repo, "config", "remote.origin.url", "https://example.com/a;b.git")  # git writes it quoted
    elif case == "bare":
        directory = tmp_path / "orders.git"
        git("init", "-q", "--bare", directory)
        git("-C", directory, "remote", "add", "origin", ORIGIN)
    elif case == "inside .git":
        directory = repo / ".git" / "refs"
    elif case == "GIT_DIR":
        monkeypatch.setenv("GIT_DIR", str(repo / ".git"))
        directory = tmp_path
    assert repository.read(directory) is None
    origin = git_answer(directory).origin
    assert origin is not None and project_key_for(directory) == normalise_remote(origin)


def test_a_session_start_runs_no_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The plain case never starts a process: with no git on PATH, the key is still the origin's."""
    repo = new_repo(tmp_path / "orders")
    monkeypatch.setenv("PATH", str(tmp_path / "no-binaries"))
    assert project_key_for(repo) == "github.com_Acme_Orders"
