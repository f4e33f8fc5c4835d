"""Rules for the identifiers and text that callers hand us.

Everything is checked before anything is written, so a rejected call changes nothing.
"""

from __future__ import annotations

import re
import unicodedata

USER_ID_PATTERN = re.compile(r"^[A-Za-z0-9_@.\-]{1,256}$")
MEMORY_ID_PATTERN = re.compile(r"^[A-Za-z0-9_\-]{1,128}$")
IDENTIFIER_PATTERN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
MAX_SESSION_ID_BYTES = 128
MAX_TURN_ID_BYTES = 256


class ValidationError(ValueError):
    """Input that was rejected before anything was stored."""


def has_control_characters(text: str) -> bool:
    return any(unicodedata.category(ch) == "Cc" for ch in text)


def user_id(value: object) -> str:
    """A user id is 1-256 characters of letters, digits and `_ @ . -` (an email address fits)."""
    if not isinstance(value, str) or not USER_ID_PATTERN.match(value):
        raise ValidationError(
            f"Invalid user_id {value!r}: use 1-256 characters of letters, digits, '_', '@', '.' or '-'"
        )
    return value


def _label(value: object, *, name: str, max_bytes: int) -> str:
    if not isinstance(value, str):
        raise ValidationError(f"Invalid {name} {value!r}: it must be a string")
    trimmed = value.strip()
    if not trimmed:
        raise ValidationError(f"Invalid {name}: it is empty")
    if len(trimmed.encode("utf-8")) > max_bytes:
        raise ValidationError(f"Invalid {name} {trimmed[:40]!r}...: longer than {max_bytes} bytes")
    if has_control_characters(trimmed):
        raise ValidationError(f"Invalid {name} {trimmed!r}: control characters are not allowed")
    return trimmed


def session_id(value: object) -> str:
    """A session id is used as given after trimming: at most 128 bytes, no control characters (seed 004)."""
    return _label(value, name="session_id", max_bytes=MAX_SESSION_ID_BYTES)


def turn_id(value: object) -> str:
    return _label(value, name="turn_id", max_bytes=MAX_TURN_ID_BYTES)


def memory_id(value: object) -> str:
    if not isinstance(value, str) or not MEMORY_ID_PATTERN.match(value):
        raise ValidationError(
            f"Invalid memory_id {value!r}: use 1-128 characters of letters, digits, '_' or '-'"
        )
    return value


def content(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValidationError("Memory content must be a non-empty string")
    return value


def identifier(value: object) -> str:
    """A label or relationship type that will be written into query text."""
    if not isinstance(value, str) or not IDENTIFIER_PATTERN.match(value):
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
