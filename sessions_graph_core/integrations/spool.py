"""The hook spool: what a hook received while the embedded store was starting or loading, applied later in order.

A harness times a hook out in seconds, and a store that has to start loads for seconds (minutes at 100k
turns). So while the store does not answer, a hook appends its event (name, runtime, the harness's JSON) as
one line to `DATA_DIR/spool/events.log` and fsyncs it before it returns: one write and one fsync per event
(a file per event cost a second fsync, the folder's, to make its name durable). It then starts a detached
`sessions-graph store drain`, which waits for the store and applies the events. The next hook, a CLI call or
a sensor drains it too; one drain runs at a time (a lock), in the order the lines were written.

How far the log is applied is the byte offset in `.applied`, written after each event. Once all of it is
applied, the drain sets that offset to 0 and empties the log, under an exclusive lock that a writing hook's
shared lock holds off, so no line is cut away half written. A drain killed between applying an event and
moving the offset applies that event again: harmless, since a hook's writes are idempotent (turns MERGE on
their ids, the transcript cursor only moves forward). So is a drain killed between the two steps of emptying
the log, which applies the whole log again.

Each line starts with a newline too, so a line cut short by a crash mid-write ends at the next event's first
byte instead of swallowing it. A line that is no event (cut short, not JSON, too large or deep, a field
missing) is copied to SET_ASIDE and logged: every command drains first, so it must not stop them all.

Events that a version before the log spooled as a file each (FILE_PER_EVENT) are applied first, each file
removed once applied, so none is left behind by an upgrade.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from sessions_graph_core.failures import record_failure
from sessions_graph_core.inputs import MAX_STDIN_BYTES, InputError, parse_json, read_bytes
from sessions_graph_core.values import Value

SPOOL_DIR = "spool"
LOG = "events.log"
APPLIED = ".applied"
LOCK = ".drain.lock"
# Made by a hook that starts a drainer, removed by the drainer once it holds the lock: hooks that come while it
# is still starting (importing the CLI takes a while) start no second one. One older than this is a drainer that
# died on its way.
STARTING = ".drainer-starting"
STARTING_S = 60.0
SET_ASIDE = ".unreadable"
# Events spooled before the log, one file each (named by time, so they sort in order): drained first, as older.
FILE_PER_EVENT = "[0-9]*.json"
# A hook reads at most MAX_STDIN_BYTES; written as a JSON string, a byte takes at most 6 (a control byte as \u0000).
MAX_EVENT_BYTES = 6 * MAX_STDIN_BYTES + 4096
_OFFSET_DIGITS = 20


class Spooled(Value):
    __slots__ = ("event", "runtime", "raw")

    event: str
    runtime: str
    raw: str

    def __init__(self, event: str, runtime: str, raw: str) -> None:
        self._fill(event, runtime, raw)


def spool_dir(data_dir: Path) -> Path:
    return Path(data_dir) / SPOOL_DIR


def _fsync_dir(path: Path) -> None:
    handle = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def _open_log(folder: Path) -> int:
    """The log for appending; the first time, made and its name made durable (the folders fsynced)."""
    try:
        return os.open(folder / LOG, os.O_WRONLY | os.O_APPEND)
    except FileNotFoundError:
        folder.mkdir(parents=True, exist_ok=True)
        handle = os.open(folder / LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        _fsync_dir(folder)
        _fsync_dir(folder.parent)
        return handle


def append(data_dir: Path, event: str, runtime: str, raw: bytes | str) -> None:
    """Write one event durably: one line, appended in a single write and fsynced, so a drain reads whole lines
    only and a machine that stops after this returns still has it."""
    text = raw.decode() if isinstance(raw, bytes) else raw
    line = b"\n" + json.dumps({"event": event, "runtime": runtime, "raw": text}).encode() + b"\n"
    handle = _open_log(spool_dir(data_dir))
    try:
        fcntl.flock(handle, fcntl.LOCK_SH)  # a drain empties the log only while no hook is writing to it
        written = 0
        while written < len(line):  # one write on a local file system; the loop only for a short one
            written += os.write(handle, line[written:])
        os.fsync(handle)
    finally:
        os.close(handle)  # lets the lock go


def waiting(data_dir: Path) -> bool:
    """Whether events may wait in the spool: a stat and a look for files from before the log, what a hook
    asks before each event."""
    try:
        if os.stat(spool_dir(data_dir) / LOG).st_size > 0:
            return True
    except FileNotFoundError:
        pass
    return bool(_files_per_event(spool_dir(data_dir)))


def _files_per_event(folder: Path) -> list[Path]:
    try:
        return sorted(folder.glob(FILE_PER_EVENT))
    except FileNotFoundError:
        return []


def _applied_to(folder: Path) -> int:
    try:
        text = (folder / APPLIED).read_text()
    except FileNotFoundError:
        return 0
    # Unreadable (cut short by a crash): from the start again, which is harmless, as above.
    return int(text) if text.isdigit() else 0


def _mark_applied(folder: Path, offset: int, *, durable: bool = False) -> None:
    handle = os.open(folder / APPLIED, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        os.pwrite(handle, f"{offset:0{_OFFSET_DIGITS}d}".encode(), 0)  # always as long: nothing left to cut off
        if durable:
            os.fsync(handle)
    finally:
        os.close(handle)


def _lines(folder: Path, offset: int) -> Iterator[tuple[bytes, int, int]]:
    """Each whole line after `offset` with where it starts and ends; a line still being written is left."""
    try:
        with open(folder / LOG, "rb") as file:
            file.seek(offset)
            data = file.read()
    except FileNotFoundError:
        return
    start = 0
    while (newline := data.find(b"\n", start)) != -1:
        if newline > start:
            yield data[start:newline], offset + start, offset + newline + 1
        start = newline + 1


def _parse(text: bytes, what: str) -> Spooled:
    """One spooled event; an InputError when the text is not one."""
    record = parse_json(text, what=what, max_bytes=MAX_EVENT_BYTES)
    if not isinstance(record, dict) or not all(isinstance(record.get(key), str) for key in ("event", "runtime", "raw")):
        raise InputError(f"{what} is not an event: it needs event, runtime and raw, each a text")
    return Spooled(record["event"], record["runtime"], record["raw"])


def _line_event(line: bytes, start: int) -> Spooled:
    return _parse(line, f"The spooled hook event at byte {start} of {LOG}")


def _file_event(path: Path) -> Spooled:
    what = f"The spooled hook event {path.name}"
    return _parse(read_bytes(path, what=what, max_bytes=MAX_EVENT_BYTES), what)


def pending(data_dir: Path) -> list[Spooled]:
    """The spooled events not applied yet, oldest first (lines that are no event left out)."""
    folder = spool_dir(data_dir)
    found = []
    for path in _files_per_event(folder):
        try:
            found.append(_file_event(path))
        except InputError:
            continue
    for line, start, _ in _lines(folder, _applied_to(folder)):
        try:
            found.append(_line_event(line, start))
        except InputError:
            continue
    return found


def _set_aside(folder: Path, line: bytes, error: InputError) -> None:
    with open(folder / SET_ASIDE, "ab") as file:
        file.write(line + b"\n")
    record_failure("hook", error, set_aside=str(folder / SET_ASIDE))


@contextmanager
def draining(data_dir: Path, *, wait: bool) -> Iterator[bool]:
    """Hold the drain lock; yields False when another drain holds it and `wait` is off."""
    folder = spool_dir(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / LOCK, "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def drainer_running(data_dir: Path) -> bool:
    with draining(data_dir, wait=False) as mine:
        return not mine


def claim_drainer_start(data_dir: Path) -> bool:
    """Whether the caller is to start a drainer: none holds the lock, and no other caller started one that is
    still on its way to it."""
    if drainer_running(data_dir):
        return False
    marker = spool_dir(data_dir) / STARTING
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        return True
    except FileExistsError:
        pass
    try:
        if time.time() - marker.stat().st_mtime < STARTING_S:
            return False
    except FileNotFoundError:
        return not drainer_running(data_dir)  # the drainer took the lock meanwhile, or finished
    marker.unlink(missing_ok=True)  # left by a drainer that died before it took the lock
    return True


def _empty_if_applied(folder: Path) -> bool:
    """Empty the log when every line of it is applied; False when lines came meanwhile. Under the exclusive
    lock no hook is mid-write, so what is left without a newline is a line a crash cut short: set aside."""
    try:
        handle = os.open(folder / LOG, os.O_RDWR)
    except FileNotFoundError:
        return True
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        applied = _applied_to(folder)
        size = os.fstat(handle).st_size
        # Each line starts with a newline of its own: only a newline after other bytes ends a line.
        rest = os.pread(handle, size - applied, applied).lstrip(b"\n") if size > applied else b""
        if b"\n" in rest:
            return False
        if rest:
            _set_aside(folder, rest, InputError(f"The spooled hook event after byte {applied} of {LOG} was cut short"))
        _mark_applied(folder, 0, durable=True)  # first: a crash before the truncation applies the log again
        os.ftruncate(handle, 0)
        os.fsync(handle)
        return True
    finally:
        os.close(handle)


def _drain_files_per_event(folder: Path, apply: Callable[[Spooled], None]) -> int:
    """The events an earlier version spooled as a file each, oldest first, each file removed once applied."""
    applied = 0
    for path in _files_per_event(folder):
        try:
            item = _file_event(path)
        except InputError as exc:
            path.rename(path.with_name(path.name + SET_ASIDE))
            record_failure("hook", exc, set_aside=path.name + SET_ASIDE)
            continue
        apply(item)
        path.unlink()
        applied += 1
    return applied


def drain(data_dir: Path, apply: Callable[[Spooled], None], *, wait: bool = True) -> int:
    """Apply the spooled events in order, each marked applied once done; returns how many were applied (0 when
    another drain holds the lock and `wait` is off). An event that fails stays, and stops the drain, so
    none is applied out of its order."""
    folder = spool_dir(data_dir)
    applied = 0
    while True:
        with draining(data_dir, wait=wait) as mine:
            if not mine:
                return applied
            (folder / STARTING).unlink(missing_ok=True)  # from now on, drainer_running says it
            applied += _drain_files_per_event(folder, apply)
            while True:
                for line, start, end in _lines(folder, _applied_to(folder)):
                    try:
                        item = _line_event(line, start)
                    except InputError as exc:
                        _set_aside(folder, line, exc)
                    else:
                        apply(item)
                        applied += 1
                    _mark_applied(folder, end)
                if _empty_if_applied(folder):
                    break
        # A hook that spooled just before the lock was let go saw a drain running and started none: look again.
        if not waiting(data_dir):
            return applied
