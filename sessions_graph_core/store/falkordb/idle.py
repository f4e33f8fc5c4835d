"""The idle stop of an embedded server that a command left running for the next one.

A CLI call or a hook that has to start the store leaves it up, so the next call finds it loaded instead of
waiting seconds (minutes at 100k turns) for it; this detached watcher stops it once nobody has sent it a
command for `store.idle_seconds`. It holds one connection and sends one INFO per poll, so the server's
command count grows by one a poll while it is idle: anything more, or another connected client, is use.

    python -m sessions_graph_core.store.falkordb.idle DATA_DIR IDLE_SECONDS
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from sessions_graph_core.store.falkordb.client import Connection, ReplyError
from sessions_graph_core.store.falkordb.server import EmbeddedServer, server_info

MAX_POLL_S = 30.0
CHECK_S = 0.5


def poll_interval(idle_seconds: float) -> float:
    """Often enough that the server stops within a tenth of its idle time (at most MAX_POLL_S) after it."""
    return min(MAX_POLL_S, max(0.2, idle_seconds / 10))


def start_watcher(data_dir: Path, idle_seconds: float) -> int:
    """Start the detached watcher of this directory's server; returns its pid."""
    process = subprocess.Popen(
        [sys.executable, "-m", __name__, str(data_dir), str(idle_seconds)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # outlives the command that started the server, as the server does
        cwd=data_dir,
    )
    return process.pid


def _usage(client: Connection) -> tuple[int, int]:
    info = server_info(client, "stats", "clients")
    return int(info["total_commands_processed"]), int(info["connected_clients"])


def watch(data_dir: Path, idle_seconds: float) -> bool:
    """Stop the server after `idle_seconds` without use; True if this watcher stopped it, False once it
    went away (stopped by someone else, or replaced by a new server with a watcher of its own)."""
    server = EmbeddedServer(data_dir)
    pid = server.pid()
    if pid is None:
        return False
    client = Connection(str(server.socket_path), timeout=60)
    try:
        commands, _ = _usage(client)
        used_at = polled_at = time.monotonic()
        while server.pid() == pid:
            time.sleep(CHECK_S)  # a server stopped by someone else ends the watcher within this
            if time.monotonic() - polled_at < poll_interval(idle_seconds):
                continue
            polled_at = time.monotonic()
            try:
                now_commands, clients = _usage(client)
            except (OSError, ReplyError):
                return False  # the server is going away under us
            if now_commands - commands > 1 or clients > 1:
                used_at = polled_at
            commands = now_commands
            if polled_at - used_at >= idle_seconds:
                client.close()
                if server.stop_if_unused(pid):
                    return True
                used_at = time.monotonic()  # a client came meanwhile: watch on
        return False
    finally:
        client.close()


def main() -> None:
    watch(Path(sys.argv[1]), float(sys.argv[2]))


if __name__ == "__main__":
    main()
