"""Where memory files live: canonical paths under /memories and the project a path belongs to."""

from __future__ import annotations

import re

from sessions_graph_core.validation import ValidationError

ROOT = "/memories"
MAX_PATH_CHARS = 1024
_FORBIDDEN = re.compile(r"[\\\x00-\x1f]|%2e|%2f|%5c", re.IGNORECASE)


def normalize(path: object) -> str:
    """Return the canonical form of a memory path or raise ValidationError.

    Repeated and trailing slashes collapse; anything that could step outside /memories is refused.
    """
    if not isinstance(path, str) or not path:
        raise ValidationError("path must be a non-empty string")
    if len(path) > MAX_PATH_CHARS:
        raise ValidationError(f"path must be at most {MAX_PATH_CHARS} characters")
    if _FORBIDDEN.search(path):
        raise ValidationError(
            f"Invalid path '{path}': backslashes, control characters and encoded dots are not allowed"
        )
    segments = [segment for segment in path.split("/") if segment]
    if not path.startswith("/") or not segments or segments[0] != "memories":
        raise ValidationError(f"Path must start with /memories, got: {path}")
    if any(segment in (".", "..") for segment in segments):
        raise ValidationError(f"Path {path} would escape /memories")
    return "/" + "/".join(segments)


def file_path(path: object) -> str:
    """A path that can name a file: canonical, and not the /memories root itself."""
    canonical = normalize(path)
    if canonical == ROOT:
        raise ValidationError(f"{ROOT} is a directory, not a file")
    return canonical


def project_key(path: str) -> str | None:
    """`/memories/projects/<key>/<file...>` belongs to project <key>."""
    segments = path.split("/")
    if len(segments) >= 5 and segments[2] == "projects":
        return segments[3]
    return None


def ancestors(path: str) -> list[str]:
    """The directories above a canonical path, below the root: `/memories/a/b/c` -> `/memories/a`, `/memories/a/b`."""
    segments = path.split("/")
    return ["/".join(segments[:end]) for end in range(3, len(segments))]
