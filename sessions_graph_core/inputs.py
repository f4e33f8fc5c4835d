"""Bounded reading of what callers hand us: files, pipes, stdin and JSON text.

Every read has a size limit and a timeout, and every JSON text a depth limit, so a hostile or careless
input (a FIFO with no writer, /dev/zero, a tool input nested 50,000 deep) gets an `InputError` that
says what was wrong, never a traceback, a MemoryError or a hang. The limits and where they apply are in
docs/input-limits.md.

Hooks import this module, so it imports nothing heavy.
"""

from __future__ import annotations

import json
import os
import select
import stat
import sys
import time
from typing import Any

from sessions_graph_core.validation import ValidationError

# Deeper than any real tool input or config (those nest a dozen levels), and shallow enough that every
# recursive step after parsing (pydantic, json.dumps, query parameters) stays far below Python's 1000 frames.
MAX_JSON_DEPTH = 100
MAX_FILE_BYTES = 256 * 1024 * 1024  # a transcript to import
MAX_CONFIG_BYTES = 1024 * 1024  # a config file or ontology schema: a few KB in practice
MAX_STDIN_BYTES = 64 * 1024 * 1024  # one hook event (a tool's whole response included)
MAX_TEXT_BYTES = 1024 * 1024  # a text argument given as '-' (memory text: the memory size rule is lower still)
READ_TIMEOUT_S = 3.0  # a pipe that sends nothing for this long is given up on (a FIFO nobody writes to)
_READ_CHUNK = 1 << 20


class InputError(ValidationError):
    """Input refused before anything was stored: too large, too deep, not JSON, or never arriving.

    `parsed` is the value when it did parse but nests too deep (a server answers its request id), else None.
    """

    def __init__(self, message: str, parsed: Any = None) -> None:
        super().__init__(message)
        self.parsed = parsed


def nests_deeper(value: Any, limit: int) -> bool:
    """Whether containers nest deeper than `limit` (iteratively: a deep value must not exhaust the stack)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        for child in children:
            if isinstance(child, (dict, list)):
                if depth + 1 > limit:
                    return True
                stack.append((child, depth + 1))
    return False


def parse_json(text: str | bytes, *, what: str, max_depth: int = MAX_JSON_DEPTH, max_bytes: int | None = None) -> Any:
    """One JSON document, refused with an InputError when it is not JSON, too large or nested too deep."""
    if max_bytes is not None and len(text) > max_bytes:
        raise InputError(f"{what} is {len(text):,} bytes, over the limit of {max_bytes:,}; send less")
    try:
        value = json.loads(text)
    except RecursionError:
        raise InputError(f"{what} nests deeper than {max_depth} levels; flatten it") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"{what} is not JSON text ({exc})") from None
    # Depth can only exceed the limit when there are that many brackets: most texts skip the walk.
    brackets = text.count(b"[") + text.count(b"{") if isinstance(text, bytes) else text.count("[") + text.count("{")
    if brackets > max_depth and nests_deeper(value, max_depth):
        raise InputError(f"{what} nests deeper than {max_depth} levels; flatten it", parsed=value)
    return value


def read_bytes(path: str | os.PathLike[str], *, what: str, max_bytes: int, timeout: float = READ_TIMEOUT_S) -> bytes:
    """The bytes of a file or pipe, refused when larger than `max_bytes` or silent for `timeout` seconds.

    Opened without blocking: open() of a FIFO with no writer would wait for one for ever; here the read
    ends at the silence timeout instead.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise InputError(f"Cannot read {what} {path}: {exc.strerror}") from None
    try:
        status = os.fstat(fd)
        if stat.S_ISDIR(status.st_mode):
            raise InputError(f"Cannot read {what} {path}: it is a directory; name a file")
        if status.st_size > max_bytes:  # a regular file says its size: refused without reading it
            raise InputError(f"{what} {path} is larger than the limit of {max_bytes:,} bytes; give a smaller file")
        return read_fd(fd, what=f"{what} {path}", max_bytes=max_bytes, timeout=timeout)
    finally:
        os.close(fd)


def read_text(path: str | os.PathLike[str], *, what: str, max_bytes: int, timeout: float = READ_TIMEOUT_S) -> str:
    """read_bytes as UTF-8 text."""
    try:
        return read_bytes(path, what=what, max_bytes=max_bytes, timeout=timeout).decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{what} {path} is not UTF-8 text") from None


def read_fd(fd: int, *, what: str, max_bytes: int, timeout: float = READ_TIMEOUT_S) -> bytes:
    """Everything up to EOF on an open descriptor (stdin too), with the size limit and the silence timeout."""
    chunks: list[bytes] = []
    size = 0
    while True:
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            raise InputError(f"{what}: nothing arrived for {timeout:g} s; give a file, or a pipe that is written and closed")
        try:
            chunk = os.read(fd, min(_READ_CHUNK, max_bytes + 1 - size))
        except BlockingIOError:  # woken without data (a pipe's writer came and went): wait again
            time.sleep(0.01)
            continue
        except OSError as exc:
            raise InputError(f"Cannot read {what}: {exc.strerror}") from None
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > max_bytes:
            raise InputError(f"{what} is larger than the limit of {max_bytes:,} bytes; give a smaller file")



def read_stdin_text(*, what: str, max_bytes: int = MAX_TEXT_BYTES) -> str:
    """Standard input as text, with the size limit; with the silence timeout too, except at a terminal, where a
    person types at their own pace."""
    try:
        fd = sys.stdin.fileno()
    except (OSError, ValueError):  # a stream with no descriptor (a test runner's), or closed
        fd = -1
    if fd < 0 or os.isatty(fd):
        text = sys.stdin.read(max_bytes + 1)
        if len(text.encode("utf-8", "surrogatepass")) > max_bytes:
            raise InputError(f"{what} is larger than the limit of {max_bytes:,} bytes; give less")
        return text
    try:
        return read_fd(fd, what=what, max_bytes=max_bytes).decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{what} is not UTF-8 text") from None
