"""The project a working directory belongs to, as a key shared by every clone of one repository."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

from sessions_graph_core.sessions import repository

GIT_TIMEOUT_S = 2
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")
_SCP_FORM = re.compile(r"^(?:[^@/]+@)?([^:/]+):(?!//)(.+)$")


def normalise_remote(url: str) -> str:
    """`git@github.com:Acme/app.git` and `https://user@github.com:443/Acme/app` both give `github.com_Acme_app`."""
    url = url.strip()
    scp = _SCP_FORM.match(url)
    if scp and "://" not in url:
        host, path = scp.group(1), scp.group(2)
    else:
        parts = urlsplit(url if "://" in url else f"ssh://{url}")
        host, path = parts.hostname or "", parts.path
    path = path.strip("/").removesuffix(".git")
    key = _UNSAFE.sub("_", f"{host.lower()}/{path}".strip("/").replace("/", "_"))
    return key.strip("._") or "project"


def _git(directory: Path, *arguments: str) -> str | None:
    import subprocess  # only when the repository's files leave the answer to git (sessions/repository.py)

    try:
        done = subprocess.run(
            ["git", "-C", str(directory), *arguments],
            capture_output=True, text=True, timeout=GIT_TIMEOUT_S, check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else None


def project_key_for(directory: str | Path | None) -> str | None:
    """The origin remote's key; else the git toplevel's name; else the directory's name; None if it is missing."""
    if not directory:
        return None
    path = Path(directory)
    if not path.is_dir():
        return None
    found = repository.read(path)
    remote = found.origin if found else _git(path, "remote", "get-url", "origin")
    if remote:
        return normalise_remote(remote)
    toplevel = found.toplevel if found else _git(path, "rev-parse", "--show-toplevel")
    name = Path(toplevel).name if toplevel else path.resolve().name
    return _UNSAFE.sub("_", name).strip("._") or "project"
