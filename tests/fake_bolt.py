"""A Bolt server that answers `CALL embeddings.text(...)` the way Memgraph with MAGE does.

No Memgraph server can run on the development machines, so the tests fake it at the network
boundary: the real neo4j driver and MemgraphStore connect over TCP, negotiate Bolt 5.2 (the newest
version Memgraph speaks), and send their messages as PackStream. The server records every
statement with its parameters and answers only the embedding procedure; any other statement fails,
so a test cannot pass on a query the fake merely swallowed.
"""

from __future__ import annotations

import random
import socketserver
import struct
import threading
from dataclasses import dataclass
from typing import Any, Literal, Self

BOLT_MAGIC = b"\x60\x60\xb0\x17"
BOLT_5_2 = (5, 2)
MEMGRAPH_ERROR = "Memgraph.ClientError.MemgraphError.MemgraphError"
DIMENSION = 384

HELLO, GOODBYE, RESET, RUN, BEGIN, COMMIT, PULL, LOGON = 0x01, 0x02, 0x0F, 0x10, 0x11, 0x12, 0x3F, 0x6A
SUCCESS, RECORD, IGNORED, FAILURE = 0x70, 0x71, 0x7E, 0x7F

# How the fake MAGE answers: vectors, no such procedure, an unsuccessful call, or one vector short.
Answer = Literal["vectors", "missing", "unsuccessful", "short"]


@dataclass(frozen=True)
class Structure:
    signature: int
    fields: list[Any]


def fake_vector(model: str, text: str) -> list[float]:
    """The same text and model give the same vector on every call, in any batch."""
    rng = random.Random(f"{model}\0{text}")
    return [rng.uniform(-1.0, 1.0) for _ in range(DIMENSION)]


# -- PackStream ------------------------------------------------------------------------------


def _sized(size: int, tiny: int | None, markers: tuple[int, int, int]) -> bytes:
    if tiny is not None and size < 16:
        return bytes([tiny | size])
    for marker, fmt, limit in zip(markers, (">B", ">H", ">I"), (0x100, 0x10000, 0x100000000), strict=True):
        if size < limit:
            return bytes([marker]) + struct.pack(fmt, size)
    raise ValueError(f"{size} items are too many for PackStream")


def pack(value: Any) -> bytes:
    if value is None:
        return b"\xc0"
    if isinstance(value, bool):
        return b"\xc3" if value else b"\xc2"
    if isinstance(value, int):
        if -16 <= value < 128:
            return struct.pack(">b", value)
        return b"\xcb" + struct.pack(">q", value)
    if isinstance(value, float):
        return b"\xc1" + struct.pack(">d", value)
    if isinstance(value, str):
        data = value.encode("utf-8")
        return _sized(len(data), 0x80, (0xD0, 0xD1, 0xD2)) + data
    if isinstance(value, list):
        return _sized(len(value), 0x90, (0xD4, 0xD5, 0xD6)) + b"".join(pack(item) for item in value)
    if isinstance(value, dict):
        items = b"".join(pack(key) + pack(item) for key, item in value.items())
        return _sized(len(value), 0xA0, (0xD8, 0xD9, 0xDA)) + items
    if isinstance(value, Structure):
        return bytes([0xB0 | len(value.fields), value.signature]) + b"".join(pack(f) for f in value.fields)
    raise TypeError(f"cannot pack {type(value).__name__}")


class Unpacker:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def take(self, n: int) -> bytes:
        chunk = self.data[self.at : self.at + n]
        self.at += n
        return chunk

    def number(self, fmt: str) -> Any:
        return struct.unpack(fmt, self.take(struct.calcsize(fmt)))[0]

    def value(self) -> Any:
        marker = self.take(1)[0]
        high, low = marker & 0xF0, marker & 0x0F
        if marker < 0x80 or marker >= 0xF0:
            return struct.unpack(">b", bytes([marker]))[0]
        if high in (0x80, 0x90, 0xA0):
            return self.sized(high, low)
        if high == 0xB0:
            signature = self.take(1)[0]
            return Structure(signature, [self.value() for _ in range(low)])
        fixed = {0xC0: None, 0xC2: False, 0xC3: True}
        if marker in fixed:
            return fixed[marker]
        numbers = {0xC1: ">d", 0xC8: ">b", 0xC9: ">h", 0xCA: ">i", 0xCB: ">q"}
        if marker in numbers:
            return self.number(numbers[marker])
        sizes = {0xD0: (0x80, ">B"), 0xD1: (0x80, ">H"), 0xD2: (0x80, ">I"), 0xD4: (0x90, ">B"),
                 0xD5: (0x90, ">H"), 0xD6: (0x90, ">I"), 0xD8: (0xA0, ">B"), 0xD9: (0xA0, ">H"), 0xDA: (0xA0, ">I")}
        if marker in sizes:
            kind, fmt = sizes[marker]
            return self.sized(kind, self.number(fmt))
        raise ValueError(f"unexpected PackStream marker 0x{marker:02X}")

    def sized(self, kind: int, size: int) -> Any:
        if kind == 0x80:
            return self.take(size).decode("utf-8")
        if kind == 0x90:
            return [self.value() for _ in range(size)]
        return {self.value(): self.value() for _ in range(size)}


# -- Bolt ------------------------------------------------------------------------------------


def _offers_5_2(versions: bytes) -> bool:
    """Whether one of the client's four offers (range, minor, major) covers Bolt 5.2."""
    for i in range(0, 16, 4):
        _, spread, minor, major = versions[i : i + 4]
        if major == BOLT_5_2[0] and minor - spread <= BOLT_5_2[1] <= minor:
            return True
    return False


class _Connection(socketserver.BaseRequestHandler):
    server: _Server

    def handle(self) -> None:
        if self.read(4) != BOLT_MAGIC or not _offers_5_2(self.read(16)):
            self.request.sendall(b"\x00\x00\x00\x00")
            return
        self.request.sendall(bytes([0, 0, BOLT_5_2[1], BOLT_5_2[0]]))
        self.failed = False
        self.rows: list[list[Any]] = []
        while (message := self.read_message()) is not None and message.signature != GOODBYE:
            self.respond(message)

    def respond(self, message: Structure) -> None:
        if message.signature == RESET:
            self.failed, self.rows = False, []
            self.reply(SUCCESS, {})
        elif self.failed:
            # Bolt ignores everything after a failure until the client resets.
            self.reply(IGNORED)
        elif message.signature == HELLO:
            self.reply(SUCCESS, {"server": "Neo4j/v5.11.0 compatible graph database server - Memgraph",
                                 "connection_id": "fake-bolt"})
        elif message.signature == RUN:
            failure, self.rows = self.server.fake.answer(query=message.fields[0], params=message.fields[1])
            self.failed = failure is not None
            if failure:
                self.reply(FAILURE, failure)
            else:
                self.reply(SUCCESS, {"fields": ["success", "embeddings"]})
        elif message.signature == PULL:
            for row in self.rows:
                self.reply(RECORD, row)
            self.rows = []
            self.reply(SUCCESS, {"has_more": False})
        elif message.signature in (LOGON, BEGIN, COMMIT):
            self.reply(SUCCESS, {})
        else:
            raise ValueError(f"the fake does not speak Bolt message 0x{message.signature:02X}")

    def read(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = self.request.recv(n - len(data))
            if not chunk:
                raise ConnectionResetError("the client went away")
            data += chunk
        return data

    def read_message(self) -> Structure | None:
        """The next message, joined from its chunks; None when the client closed the connection."""
        body = b""
        try:
            while True:
                (size,) = struct.unpack(">H", self.read(2))
                if size == 0 and body:
                    return Unpacker(body).value()
                body += self.read(size)  # a lone 0 is a NOOP that keeps the connection alive
        except (ConnectionResetError, OSError):
            return None

    def reply(self, signature: int, *fields: Any) -> None:
        body = pack(Structure(signature, list(fields)))
        chunks = b"".join(struct.pack(">H", len(part)) + part
                          for part in (body[i : i + 0xFFFF] for i in range(0, len(body), 0xFFFF)))
        self.request.sendall(chunks + b"\x00\x00")


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    fake: FakeMemgraph


class FakeMemgraph:
    """Listens on 127.0.0.1 at an ephemeral port; `url` is what MemgraphStore connects to.

    `answer_with` chooses how the next `embeddings.text` calls are answered; `queries` holds every
    statement received, with its parameters, in order.
    """

    def __init__(self) -> None:
        self.answer_with: Answer = "vectors"
        self.queries: list[tuple[str, dict[str, Any]]] = []
        self._server = _Server(("127.0.0.1", 0), _Connection)
        self._server.fake = self
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"bolt://{host}:{port}"

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    def embedding_calls(self) -> list[dict[str, Any]]:
        return [params for query, params in self.queries if query.startswith("CALL embeddings.text")]

    def answer(self, query: str, params: dict[str, Any]) -> tuple[dict[str, str] | None, list[list[Any]]]:
        """(a FAILURE's metadata or None, the rows) for one RUN."""
        self.queries.append((query, params))
        if not query.startswith("CALL embeddings.text("):
            return {"code": MEMGRAPH_ERROR, "message": f"the fake Memgraph answers only embeddings.text: {query}"}, []
        if self.answer_with == "missing":
            return {"code": MEMGRAPH_ERROR, "message": "There is no procedure named 'embeddings.text'."}, []
        if self.answer_with == "unsuccessful":
            return None, [[False, None]]
        texts = params["texts"][:-1] if self.answer_with == "short" else params["texts"]
        return None, [[True, [fake_vector(params["model"], text) for text in texts]]]

