"""A proxy at the embedded server's socket (the network boundary) that kills the server with SIGKILL
right after it applied a chosen statement, before its reply reaches the client: a crash in the one
window where a write is stored but not acknowledged."""

from __future__ import annotations

import os
import signal
import socket
import threading
import time
from collections.abc import Callable

from sessions_graph_core.store.falkordb.server import EmbeddedServer


class CrashingProxy:
    """Listens on the server's socket path; forwards to the real socket, moved aside."""

    def __init__(self, server: EmbeddedServer) -> None:
        self.server = server
        self.real = server.data_dir / "real.sock"
        os.rename(server.socket_path, self.real)  # a bound Unix socket keeps working under its new name
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(str(server.socket_path))
        self.listener.listen(8)
        self.trigger: bytes | None = None
        self.after_kill: Callable[[], None] = lambda: None
        self.crashed = threading.Event()
        self.replied = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def arm(self, statement_piece: str, *, after_kill: Callable[[], None] | None = None) -> None:
        self.trigger = statement_piece.encode()
        self.after_kill = after_kill or self.after_kill

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                upstream.connect(str(self.real))
            except OSError:  # the server is dead already: the client sees a dropped connection, as it would
                client.close()
                upstream.close()
                continue
            threading.Thread(target=self._pump, args=(upstream, client), daemon=True).start()
            threading.Thread(target=self._commands, args=(client, upstream), daemon=True).start()

    def _pump(self, source: socket.socket, target: socket.socket) -> None:
        try:
            while data := source.recv(1 << 16):
                if self.crashed.is_set():
                    self.replied.set()  # the server has applied it (and fsynced: appendfsync always)
                    return
                target.sendall(data)
        except OSError:
            return

    def _commands(self, client: socket.socket, upstream: socket.socket) -> None:
        try:
            while data := client.recv(1 << 16):
                if self.trigger is not None and self.trigger in data:
                    self.trigger = None
                    self.crashed.set()  # the pump drops the reply
                    upstream.sendall(data)
                    try:
                        self._forward_until_replied(client, upstream)
                        pid = self.server.pid()
                        assert pid is not None
                        os.kill(pid, signal.SIGKILL)
                        self.after_kill()
                    finally:
                        client.close()  # whatever happened, the client sees a dropped connection, never a hang
                    return
                upstream.sendall(data)
        except OSError:
            return

    def _forward_until_replied(self, client: socket.socket, upstream: socket.socket) -> None:
        """The rest of the statement may still be on its way (a large one arrives in several reads): keep
        forwarding until the server has replied, which is when it has applied it."""
        client.settimeout(0.05)
        deadline = time.monotonic() + 120
        while not self.replied.is_set():
            if time.monotonic() > deadline:
                raise TimeoutError("the server never replied to the armed statement")
            try:
                more = client.recv(1 << 16)
            except TimeoutError:
                continue
            if not more:
                self.replied.wait(timeout=5)
                return
            upstream.sendall(more)

    def close(self) -> None:
        self.listener.close()
