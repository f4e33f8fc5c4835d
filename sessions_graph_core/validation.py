"""Rules for the identifiers and text that callers hand us.

Everything is checked before anything is written, so a rejected call changes nothing.
"""

from __future__ import annotations

import errno
import os
import re
import unicodedata
from pathlib import Path

# Matched only through `whole`: `$` (and a bare `match`) also accepts a final newline, so 'alice\n' would pass
# as alice and the store's lookup of 'alice' would then find the other user's node.
USER_ID_PATTERN = re.compile(r"[A-Za-z0-9_@.\-]{1,256}")
MEMORY_ID_PATTERN = re.compile(r"[A-Za-z0-9_\-]{1,128}")
IDENTIFIER_PATTERN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
MAX_SESSION_ID_BYTES = 128
# The memory tool's documented 100K limit, for every way a memory is written (library, CLI, memory tool, MCP).
MAX_MEMORY_BYTES = 102_400
MAX_TURN_ID_BYTES = 256
MAX_QUESTION_CHARS = 10_000  # a question, not a document: recall reads every word of it in every lane


class ValidationError(ValueError):
    """Input that was rejected before anything was stored."""


# The store cannot hold a NUL and UTF-8 cannot encode a lone surrogate (half of a UTF-16 pair).
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def whole(pattern: re.Pattern[str], value: object) -> bool:
    """The one matcher for identifiers: `value` is a string and the pattern covers all of it."""
    return isinstance(value, str) and pattern.fullmatch(value) is not None


def is_identifier(value: object) -> bool:
    """Whether `value` may be written into query text as a label or relationship type."""
    return whole(IDENTIFIER_PATTERN, value)


def has_control_characters(text: str) -> bool:
    """Control characters, or a lone surrogate (which no text encoding can write)."""
    return any(unicodedata.category(ch) in ("Cc", "Cs") for ch in text)


def code_point(ch: str) -> str:
    return f"U+{ord(ch):04X}"


def home_expanded(path: Path) -> Path:
    """`path` with a leading `~` or `~name` made absolute; ValidationError (not pathlib's RuntimeError) when
    there is no home directory to put there, e.g. `~0` names no user of this machine."""
    try:
        return path.expanduser()
    except RuntimeError:
        raise ValidationError(f"{str(path)[:200]!r} starts with ~ but no home directory is known for it; "
                         "give the full path") from None


def path_problem(path: str) -> str | None:
    """Why no file system can hold `path` (a NUL, a lone surrogate, a name too long), or None. A path that
    does not exist, or that this user may not look at, is no problem here: the caller says so when it uses it."""
    try:
        os.stat(path)
    except ValueError:  # a NUL, or a lone surrogate (UnicodeEncodeError)
        return "cannot be a file name: it holds a NUL or a lone surrogate"
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            return "is too long for a file name (a name over 255 bytes, or a path over 4,096)"
    return None


def text_problem(value: str) -> str | None:
    """Why `value` cannot be stored as text, or None when it can."""
    found = _UNSTORABLE.search(value)
    if found is None:
        return None
    ch, position = found.group(), found.start() + 1
    if ch == "\x00":
        return f"contains a NUL character (U+0000) at character {position}; remove it"
    return (
        f"contains a lone surrogate ({code_point(ch)}) at character {position}, which is not valid Unicode; "
        "send UTF-8 text"
    )


def json_text_problem(value: object) -> str | None:
    """The first text_problem among the strings (keys included) of a JSON-like value."""
    if isinstance(value, str):
        return text_problem(value)
    if isinstance(value, dict):
        items: list[object] = [*value.keys(), *value.values()]
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        return None
    return next((problem for item in items if (problem := json_text_problem(item))), None)


def text(value: object, *, field: str) -> str:
    """Text we store as given: a string without NUL or lone surrogates."""
    if not isinstance(value, str):
        raise ValidationError(f"Invalid {field}: it must be a string")
    problem = text_problem(value)
    if problem:
        raise ValidationError(f"Invalid {field}: it {problem}")
    return value


def user_id(value: object) -> str:
    """A user id is 1-256 characters of letters, digits and `_ @ . -` (an email address fits)."""
    if not whole(USER_ID_PATTERN, value):
        raise ValidationError(
            f"Invalid user_id {value!r}: use 1-256 characters of letters, digits, '_', '@', '.' or '-'"
        )
    return value


def optional_user_id(value: object) -> str | None:
    """The user an id-addressed call names, checked; None when it names none."""
    return user_id(value) if value is not None else None


def question(value: object) -> str:
    """A recall question: any non-blank text without NUL or lone surrogates, trimmed, at most MAX_QUESTION_CHARS."""
    if not isinstance(value, str) or not value.strip():
        raise ValidationError("The recall question is empty: ask about something")
    if len(value) > MAX_QUESTION_CHARS:
        raise ValidationError(
            f"The recall question is {len(value):,} characters, over the limit of {MAX_QUESTION_CHARS:,}: "
            "ask one specific question"
        )
    return text(value, field="recall question").strip()


def _label(value: object, *, name: str, max_bytes: int) -> str:
    if not isinstance(value, str):
        raise ValidationError(f"Invalid {name} {value!r}: it must be a string")
    trimmed = value.strip()
    if not trimmed:
        raise ValidationError(f"Invalid {name}: it is empty")
    if has_control_characters(trimmed):
        raise ValidationError(f"Invalid {name} {trimmed!r}: control characters are not allowed")
    if len(trimmed.encode("utf-8")) > max_bytes:
        raise ValidationError(f"Invalid {name} {trimmed[:40]!r}...: longer than {max_bytes} bytes")
    return trimmed


def session_id(value: object) -> str:
    """A session id is used as given after trimming: at most 128 bytes, no control characters (seed 004)."""
    return _label(value, name="session_id", max_bytes=MAX_SESSION_ID_BYTES)


def turn_id(value: object) -> str:
    return _label(value, name="turn_id", max_bytes=MAX_TURN_ID_BYTES)


def memory_id(value: object) -> str:
    if not whole(MEMORY_ID_PATTERN, value):
        raise ValidationError(
            f"Invalid memory_id {value!r}: use 1-128 characters of letters, digits, '_' or '-'"
        )
    return value


def memory_bytes_over(value: str) -> int | None:
    """The size in bytes of a memory's text when it is over MAX_MEMORY_BYTES, else None."""
    size = len(value.encode("utf-8", "surrogatepass"))
    return size if size > MAX_MEMORY_BYTES else None


def content(value: object) -> str:
    """A memory's text: non-blank, storable, at most MAX_MEMORY_BYTES."""
    if not isinstance(value, str) or not value.strip():
        raise ValidationError("Memory content must be a non-empty string")
    over = memory_bytes_over(value)
    if over:
        raise ValidationError(
            f"Memory content is {over:,} bytes, over the {MAX_MEMORY_BYTES:,}-byte (100K) limit; split it into smaller memories"
        )
    return text(value, field="content")


def identifier(value: object) -> str:
    """A label or relationship type that will be written into query text."""
    if not is_identifier(value):
        raise ValidationError(
            f"{value!r} is not a safe identifier: use a letter or '_' followed by letters, digits or '_'"
        )
    return value


def describe(error: Exception) -> str:
    """A pydantic error as one short line per field, without its documentation links."""
    details = getattr(error, "errors", None)
    if not callable(details):
        return str(error)
    return "; ".join(
        f"{'.'.join(str(part) for part in item['loc']) or 'value'}: {item['msg']}" for item in details()
    )
