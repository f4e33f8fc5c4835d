"""The FalkorDB server as a standalone service that many workers reach: TCP on 127.0.0.1 (or the host
given) with a password, optionally a replica of another one.

Everything of one server lives in its directory: a config file (mode 600) holding the password, so
it never shows in a process listing, the pid file, the append-only log and the server log. Writes
are as durable as the embedded server's (appendfsync always, server.server_arguments).

Replication is Redis's: asynchronous. A write the primary acknowledged is on the primary's disk;
it is on a replica only once the replica acknowledged it, which the store waits for when
store.replica_acks is set (WAIT, see FalkorDBStore). A replica is read-only; it becomes a primary
with `promote` (REPLICAOF NO ONE), after which writers are pointed at it.

    python -m sessions_graph_core.store.falkordb.service start DIR --port 6400 [--replica-of 127.0.0.1:6399]
    python -m sessions_graph_core.store.falkordb.service promote DIR
    python -m sessions_graph_core.store.falkordb.service stop DIR

The password comes from SESSIONS_GRAPH_STORE_PASSWORD (the same variable the store client reads).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from sessions_graph_core.errors import StoreUnreachableError
from sessions_graph_core.store.falkordb.client import Connection, ReplyError
from sessions_graph_core.store.falkordb.server import (
    _cmdline,
    _process_alive,
    rewriting,
    server_arguments,
    server_info,
    terminate,
)

PASSWORD_ENV = "SESSIONS_GRAPH_STORE_PASSWORD"
# Every write reaches the replicas (and the append-only log) as its effects, the nodes and properties it
# changed, never as the statement to run again. FalkorDB's default sends a statement that ran in under
# 300 us as its text, and the replica then parses, plans and runs it once more: in a drain of sessions the
# replica spent 1.9 CPU-s per 100 sessions that way against 0.5 with effects (issue 17, eighth pass).
MODULE_OPTIONS = ("EFFECTS_THRESHOLD", "0")


class ServiceError(RuntimeError):
    """The standalone server could not be started or found; says why and what to do."""
START_TIMEOUT_S = 120.0


class StandaloneServer:
    """Start, find, promote and stop the standalone server of one directory."""

    def __init__(self, data_dir: Path | str) -> None:
        self.data_dir = Path(data_dir).expanduser().resolve()
        self.config_path = self.data_dir / "falkordb.conf"
        self.pid_path = self.data_dir / "falkordb.pid"
        self.address_path = self.data_dir / "address"
        self.log_path = self.data_dir / "server.log"

    @property
    def address(self) -> str:
        try:
            return self.address_path.read_text().strip()
        except FileNotFoundError:
            raise ServiceError(f"No standalone FalkorDB server was started in {self.data_dir}") from None

    @property
    def url(self) -> str:
        return f"falkordb://{self.address}"

    def pid(self) -> int | None:
        try:
            pid = int(self.pid_path.read_text().strip())
        except (OSError, ValueError):
            return None
        # redis-server retitles itself "redis-server HOST:PORT": a pid reused by another process does not match.
        return pid if _process_alive(pid) and self.address in _cmdline(pid) else None

    def start(self, *, password: str, port: int, host: str = "127.0.0.1", replica_of: str | None = None) -> int:
        """Start the server (a replica of `replica_of` when given) and wait until it answers; its pid."""
        if not password:
            raise ServiceError(f"A standalone FalkorDB server needs a password: set {PASSWORD_ENV}")
        if self.pid() is not None:
            raise ServiceError(f"A FalkorDB server already runs in {self.data_dir} (pid {self.pid()})")
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._write_config(password, replica_of)
        command = [
            *server_arguments(self.data_dir, self.log_path, module_options=MODULE_OPTIONS), "--bind", host, "--port", str(port)
        ]
        command.insert(1, str(self.config_path))  # redis-server reads its config file from the first argument
        child = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True, cwd=self.data_dir,
        )
        self.pid_path.write_text(str(child.pid))
        self.address_path.write_text(f"{host}:{port}")
        self._wait_until_ready(child, password, replica_of=replica_of)
        return child.pid

    def promote(self, *, password: str) -> None:
        """Make this replica a primary: it stops following and accepts writes."""
        connection = Connection(self.address, password=password, timeout=10)
        try:
            connection.command("REPLICAOF", "NO", "ONE")
            connection.command("CONFIG", "SET", "replica-read-only", "no")
        finally:
            connection.close()

    def stop(self) -> bool:
        """Stop the server by its pid (it flushes its log); True if one was running."""
        pid = self.pid()
        if pid is None:
            return False
        terminate(pid, lambda: not _process_alive(pid))
        self.pid_path.unlink(missing_ok=True)
        return True

    def _write_config(self, password: str, replica_of: str | None) -> None:
        lines = [f"requirepass {_quoted(password)}", f"masterauth {_quoted(password)}", "protected-mode yes"]
        if replica_of:
            host, _, port = replica_of.rpartition(":")
            lines += [f"replicaof {host} {port}", "replica-read-only yes"]
        fd = os.open(self.config_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write("\n".join(lines) + "\n")

    def _wait_until_ready(self, child: subprocess.Popen, password: str, *, replica_of: str | None) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if child.poll() is not None:
                self.pid_path.unlink(missing_ok=True)
                raise ServiceError(f"The FalkorDB server in {self.data_dir} exited with code {child.returncode}; see {self.log_path}")
            if self._ready(password, replica_of=replica_of):
                return
            time.sleep(0.05)
        child.kill()
        raise ServiceError(f"The FalkorDB server in {self.data_dir} did not become ready within {START_TIMEOUT_S:.0f} s")

    def _ready(self, password: str, *, replica_of: str | None) -> bool:
        """Answering, and a replica fully in step: its first sync done on both sides.

        Until then each side has a child process of its own (the primary's snapshot for the sync, the
        replica's first append-only file), and this FalkorDB build has hung for good in a lock wait
        when statements came in while the primary's sync child was still being reaped.
        """
        try:
            mine = _answering_info(self.address, password)
            if mine is None or replica_of is None:
                return mine is not None
            return _synced_replica(mine) and _settled_primary(_answering_info(replica_of, password))
        except (OSError, ReplyError):  # not listening yet, or still loading its data
            return False


def _answering_info(address: str, password: str) -> dict[str, str] | None:
    """The replication and persistence fields of the server at `address`, None while it does not answer PING."""
    connection = Connection(address, password=password, timeout=2)
    try:
        if connection.command("PING") != "PONG":
            return None
        return server_info(connection, "replication", "persistence")
    finally:
        connection.close()


def _synced_replica(info: dict[str, str]) -> bool:
    return info.get("master_link_status") == "up" and not rewriting(info)


def _settled_primary(info: dict[str, str] | None) -> bool:
    """The primary holds every replica online and has no child process left from a sync."""
    if info is None:
        return False
    replicas = [value for name, value in info.items() if name.startswith("slave") and name[5:].isdigit()]
    return bool(replicas) and all("state=online" in value for value in replicas) and info.get("rdb_bgsave_in_progress") == "0"


def _quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A standalone FalkorDB server (TCP with a password) in its own directory.")
    commands = parser.add_subparsers(dest="command", required=True)
    start = commands.add_parser("start", help="start a primary, or a replica with --replica-of")
    start.add_argument("data_dir")
    start.add_argument("--port", type=int, required=True)
    start.add_argument("--host", default="127.0.0.1")
    start.add_argument("--replica-of", metavar="HOST:PORT")
    for name, text in (("stop", "stop the server by its pid"), ("promote", "make a replica the primary")):
        commands.add_parser(name, help=text).add_argument("data_dir")
    args = parser.parse_args(argv)
    server = StandaloneServer(args.data_dir)
    try:
        if args.command == "start":
            pid = server.start(password=os.environ.get(PASSWORD_ENV, ""), port=args.port, host=args.host, replica_of=args.replica_of)
            print(f"FalkorDB {'replica' if args.replica_of else 'primary'} at {server.url} (pid {pid}, data {server.data_dir})")
        elif args.command == "promote":
            server.promote(password=os.environ.get(PASSWORD_ENV, ""))
            print(f"{server.url} is now a primary")
        else:
            print("stopped" if server.stop() else f"no server runs in {server.data_dir}")
    except (ServiceError, StoreUnreachableError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
