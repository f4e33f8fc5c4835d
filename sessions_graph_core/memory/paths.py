"""Where memory files live: canonical paths under /memories and the project a path belongs to."""

from __future__ import annotations

import re
import unicodedata

from sessions_graph_core.validation import ValidationError, code_point

ROOT = "/memories"
MAX_PATH_CHARS = 1024
_FORBIDDEN = re.compile(r"[\\\x00-\x1f]|%2e|%2f|%5c", re.IGNORECASE)
# Controls, invisible formatting (bidi overrides, zero-width), line and paragraph separators, lone
# surrogates, private-use and unassigned code points: none can be shown to a person as what it is.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# Slashes that look like a separator without being one; NFKC catches the fullwidth and small forms.
_SLASH_LOOKALIKES = frozenset("\u2044\u2215\u29f8\u29f9\u2216")


def display(path: str) -> str:
    """A path as it can be shown safely: hidden characters as \\uXXXX escapes."""
    return "".join(
        f"\\u{ord(ch):04x}" if unicodedata.category(ch) in _HIDDEN_CATEGORIES else ch for ch in path
    )


def _hidden_character(path: str) -> str | None:
    return next((ch for ch in path if unicodedata.category(ch) in _HIDDEN_CATEGORIES), None)


def _lookalike(ch: str) -> bool:
    """A character that reads as a dot, a slash or a backslash but is none of them."""
    return not ch.isascii() and (ch in _SLASH_LOOKALIKES or bool(set(unicodedata.normalize("NFKC", ch)) & set("./\\")))


def _check_segment(path: str, segment: str) -> None:
    if segment != segment.strip():
        raise ValidationError(
            f"Invalid path '{display(path)}': the name '{display(segment)}' begins or ends with whitespace; remove it"
        )
    if segment in (".", ".."):
        raise ValidationError(f"Path {path} would escape /memories")
    lookalike = next((ch for ch in segment if _lookalike(ch)), None)
    if lookalike is not None:
        raise ValidationError(
            f"Invalid path '{display(path)}': {code_point(lookalike)} ({unicodedata.name(lookalike, 'unnamed')}) "
            "looks like '.', '/' or '\\' without being one; use the ASCII character"
        )


def normalize(path: object) -> str:
    """Return the canonical form of a memory path or raise ValidationError.

    Unicode is composed (NFC), so one name has one spelling; repeated and trailing slashes collapse;
    anything that could step outside /memories, hide itself or pass for another name is refused.
    """
    if not isinstance(path, str) or not path:
        raise ValidationError("path must be a non-empty string")
    if len(path) > MAX_PATH_CHARS:
        raise ValidationError(f"path must be at most {MAX_PATH_CHARS} characters")
    if _FORBIDDEN.search(path):
        raise ValidationError(
            f"Invalid path '{display(path)}': backslashes, control characters and encoded dots are not allowed"
        )
    hidden = _hidden_character(path)
    if hidden is not None:
        raise ValidationError(
            f"Invalid path '{display(path)}': {code_point(hidden)} is a control or invisible character; "
            "use visible characters"
        )
    path = unicodedata.normalize("NFC", path)
    segments = [segment for segment in path.split("/") if segment]
    if not path.startswith("/") or not segments or segments[0] != "memories":
        raise ValidationError(f"Path must start with /memories, got: {path}")
    for segment in segments:
        _check_segment(path, segment)
    return "/" + "/".join(segments)


def file_path(path: object) -> str:
    """A path that can name a file: canonical, and not the /memories root itself."""
    canonical = normalize(path)
    if canonical == ROOT:
        raise ValidationError(f"{ROOT} is a directory, not a file")
    return canonical


def checked_project_key(value: object) -> str:
    """A project key names the folder /memories/projects/<key>/, so it obeys a path name's rules."""
    if not isinstance(value, str) or not value or "/" in value or len(value) > MAX_PATH_CHARS:
        raise ValidationError(f"Invalid project_key {value!r}: use one non-empty name without '/'")
    try:
        return normalize(f"{ROOT}/projects/{value}").rsplit("/", 1)[1]
    except ValidationError as exc:
        raise ValidationError(f"Invalid project_key (it names the folder {ROOT}/projects/<key>/): {exc}") from None


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
