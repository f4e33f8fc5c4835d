"""Whether an embedded server answers: one PING over its Unix socket, importing nothing but `_socket`.

A hook asks this before every event, within a 100 ms budget, so it must not pay for the client's reply
parser or the server module's process management. It uses the C module `_socket` that `socket` wraps: the
wrapper imports `selectors` and `array` besides, a millisecond or more of a hook's budget, for nothing used here. A server still loading its log replies `-LOADING` at
once, and one busy past the timeout replies nothing: both count as not answering. For a hook that is never
a lost event, only a spooled one (integrations/spool.py), applied once the store answers.
"""

from __future__ import annotations

import _socket
from pathlib import Path

SOCKET_NAME = "falkordb.sock"
_PING = b"*1\r\n$4\r\nPING\r\n"
_PONG = b"+PONG\r\n"


def socket_path(data_dir: Path | str) -> Path:
    return Path(data_dir).expanduser() / SOCKET_NAME


def answers(path: Path, timeout: float) -> bool:
    """Whether the server on the socket at `path` replies PONG; `timeout` bounds each step (connect, send,
    every read), so a silent server costs a few timeouts at most."""
    reply = b""
    try:
        connection = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    except OSError:
        return False
    try:
        connection.settimeout(timeout)
        connection.connect(str(path))
        connection.sendall(_PING)
        while not reply.endswith(b"\r\n"):
            chunk = connection.recv(256)
            if not chunk:  # closed on us: stopping, or not a server at all
                return False
            reply += chunk
    except OSError:  # no socket, nobody listening, or no reply in time (a timeout is an OSError)
        return False
    finally:
        connection.close()
    return reply == _PONG
