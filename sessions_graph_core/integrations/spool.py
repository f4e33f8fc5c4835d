"""The hook spool: what a hook received while the embedded store was starting or loading, applied later in order.

A harness times a hook out in seconds, and a store that has to start loads for seconds (minutes at 100k
turns). So while the store does not answer, a hook writes its event (name, runtime, the harness's JSON) to
a file of its own in `DATA_DIR/spool/`, fsynced before the hook returns, and starts a detached
`sessions-graph store drain`, which waits for the store and applies the events. The next hook, a CLI call
or a sensor drains it too; one drain runs at a time (a lock), oldest event first (names sort by time).

An event is removed once applied. A drain killed between the two applies that event again: harmless,
since a hook's writes are idempotent (turns MERGE on their ids, the transcript cursor only moves forward).
A file in the spool that is no event (not JSON, too large or deep, a field missing) is renamed aside with
SET_ASIDE and logged: every command drains first, so it must not stop them all.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from sessions_graph_core.failures import record_failure
from sessions_graph_core.inputs import MAX_STDIN_BYTES, InputError, parse_json, read_bytes

SPOOL_DIR = "spool"
LOCK = ".drain.lock"
# Made by a hook that starts a drainer, removed by the drainer once it holds the lock: hooks that come while it
# is still starting (importing the CLI takes a while) start no second one. One older than this is a drainer that
# died on its way.
STARTING = ".drainer-starting"
STARTING_S = 60.0
SET_ASIDE = ".unreadable"
# A hook reads at most MAX_STDIN_BYTES; written as a JSON string, a byte takes at most 6 (a control byte as \u0000).
MAX_EVENT_BYTES = 6 * MAX_STDIN_BYTES + 4096


@dataclass(frozen=True)
class Spooled:
    path: Path
    event: str
    runtime: str
    raw: str


def spool_dir(data_dir: Path) -> Path:
    return Path(data_dir) / SPOOL_DIR


def _fsync_dir(path: Path) -> None:
    handle = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def append(data_dir: Path, event: str, runtime: str, raw: bytes | str) -> Path:
    """Write one event durably: to a temporary name, fsynced, then renamed into place and the folder fsynced,
    so a drain sees whole events only and a machine that stops after this returns still has it."""
    folder = spool_dir(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    text = raw.decode() if isinstance(raw, bytes) else raw
    name = f"{time.time_ns():020d}-{os.getpid()}.json"
    temporary = folder / f".{name}.tmp"
    with open(temporary, "w", encoding="utf-8") as file:
        json.dump({"event": event, "runtime": runtime, "raw": text}, file)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, folder / name)
    _fsync_dir(folder)
    return folder / name


def pending(data_dir: Path) -> list[Path]:
    """The spooled events, oldest first."""
    try:
        return sorted(path for path in spool_dir(data_dir).iterdir() if path.suffix == ".json" and not path.name.startswith("."))
    except FileNotFoundError:
        return []


def read(path: Path) -> Spooled:
    """One spooled event; an InputError when the file is not one."""
    what = f"The spooled hook event {path.name}"
    record = parse_json(read_bytes(path, what=what, max_bytes=MAX_EVENT_BYTES), what=what)
    if not isinstance(record, dict) or not all(isinstance(record.get(key), str) for key in ("event", "runtime", "raw")):
        raise InputError(f"{what} is not an event: it needs event, runtime and raw, each a text")
    return Spooled(path, record["event"], record["runtime"], record["raw"])


def _set_aside(path: Path, error: InputError) -> None:
    path.rename(path.with_name(path.name + SET_ASIDE))
    record_failure("hook", error, set_aside=path.name + SET_ASIDE)


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


def drain(data_dir: Path, apply: Callable[[Spooled], None], *, wait: bool = True) -> int:
    """Apply the spooled events in order, each removed once applied; returns how many were applied (0 when
    another drain holds the lock and `wait` is off). An event that fails stays, and stops the drain, so
    none is applied out of its order."""
    applied = 0
    while True:
        with draining(data_dir, wait=wait) as mine:
            if not mine:
                return applied
            (spool_dir(data_dir) / STARTING).unlink(missing_ok=True)  # from now on, drainer_running says it
            while events := pending(data_dir):
                for path in events:
                    try:
                        item = read(path)
                    except InputError as exc:
                        _set_aside(path, exc)
                        continue
                    apply(item)
                    path.unlink()
                    applied += 1
                _fsync_dir(spool_dir(data_dir))
        # A hook that spooled just before the lock was let go saw a drain running and started none: look again.
        if not pending(data_dir):
            return applied
