"""Embedding in a second process while reconcile goes on: both cores busy on one ingest.

Reconcile (spaCy and the reader, Python) and embedding (onnxruntime) each take about half of ingest.
A thread beside reconcile gains nothing (the reader holds the GIL), so the sessions reconcile has
written are handed, by id on a pipe, to a child process of their own that writes their vectors
(`vectors.embed_ahead`) while the next sessions are reconciled.

The child records nothing on a session: embed_sessions, run after it as before, records every
outcome and embeds again only what a later session's reconcile changed since, so the graph ends as
the two stages one after the other leave it. If the child fails, that pass does all the work.

The child stops when its parent does: `EmbeddingAlongside` ends it by pid when the block it runs in
raises, and a parent killed outright closes the pipe, on which the child exits without embedding more.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import resource
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from pydantic import BaseModel

from sessions_graph_core.store.location import StoreSettings

# How long the child has to go once asked to (SIGTERM) before it is killed.
STOP_WAIT_S = 5.0


class AheadReport(BaseModel):
    """What the child did: sessions it was handed, passages it wrote (in all and for each session), its
    CPU seconds and peak memory."""

    sessions: int = 0
    passages: int = 0
    passages_by_session: dict[str, int] = {}
    cpu_s: float = 0.0
    peak_rss_mb: float = 0.0
    error: str | None = None


class EmbeddingAlongside:
    """A child process that embeds each session `add` hands it, while the caller goes on reconciling.

    Used as a context manager: leaving the block normally waits for the child to embed what it was
    given (`report` then says what it did); leaving it by an exception stops the child by its pid.
    """

    def __init__(self, settings: StoreSettings, model: str) -> None:
        self.settings = settings
        self.model = model
        self.process: subprocess.Popen[bytes] | None = None
        self.report: AheadReport | None = None

    def __enter__(self) -> EmbeddingAlongside:
        settings = {key: str(value) if key == "data_dir" else value
                    for key, value in self.settings.as_dict().items()}
        # The child runs this process's code: its package's folder first on the path, and not the working
        # directory (-P), which `-m` would put first and which may hold another checkout of the package.
        root = str(Path(__file__).resolve().parents[2])
        path = os.pathsep.join(filter(None, (root, os.environ.get("PYTHONPATH"))))
        self.process = subprocess.Popen(
            [sys.executable, "-P", "-m", "sessions_graph_core.embeddings.alongside"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            close_fds=True,
            env=os.environ | {"PYTHONPATH": path},
        )
        # The settings go on the pipe, not the command line: they may hold the store's password.
        self._send(json.dumps({"settings": settings, "model": self.model}))
        return self

    def add(self, session_id: str) -> None:
        """Hand the child a session reconcile has written."""
        self._send(session_id)

    def _send(self, line: str) -> None:
        assert self.process is not None and self.process.stdin is not None
        try:
            self.process.stdin.write(line.encode() + b"\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            pass  # the child has exited; finish() reports why, and embed_sessions does its work

    def __exit__(self, exc_type: object, exc: object, traceback: object) -> None:
        if exc_type is None:
            self.finish()
        else:
            self.stop()

    def finish(self) -> AheadReport:
        """Wait until the child has embedded every session it was handed; what it did."""
        assert self.process is not None
        try:
            out, _ = self.process.communicate()
        except BaseException:
            self.stop()
            raise
        lines = out.decode(errors="replace").strip().splitlines()
        if self.process.returncode == 0 and lines:
            self.report = AheadReport.model_validate_json(lines[-1])
        else:
            self.report = AheadReport(error=f"the embedding child exited with {self.process.returncode}")
        return self.report

    def stop(self) -> None:
        """End the child by its pid: asked first, killed if it has not gone within STOP_WAIT_S."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        finally:
            for pipe in (self.process.stdin, self.process.stdout):
                if pipe is not None:
                    pipe.close()


def _read_ids(stream: IO[bytes], ids: queue.Queue[str | None]) -> None:
    """Each line of `stream` onto `ids`, then None at its end (the parent finished or died)."""
    for line in stream:
        if line.strip():
            ids.put(line.decode().strip())
    ids.put(None)


def _batches(ids: queue.Queue[str | None]) -> Iterator[list[str]]:
    """Every id handed over since the last batch: waits for one, then takes all that are there, so the
    model gets larger batches the further reconcile runs ahead."""
    ended = False
    while not ended:
        batch = [ids.get()]
        while True:
            try:
                batch.append(ids.get_nowait())
            except queue.Empty:
                break
        ended = None in batch
        found = [sid for sid in batch if sid is not None]
        if found:
            yield found


def main() -> int:
    """The child: read the store settings and model, then embed the sessions handed over, batch by batch."""
    from sessions_graph_core.embeddings.models import load_embedder
    from sessions_graph_core.embeddings.vectors import embed_ahead
    from sessions_graph_core.store.location import open_store

    parent = os.getppid()
    header = json.loads(sys.stdin.buffer.readline() or b"{}")
    if "settings" not in header:
        return 2  # no parent, or not ours: nothing to embed
    settings = StoreSettings(**header["settings"])
    ids: queue.Queue[str | None] = queue.Queue()
    threading.Thread(target=_read_ids, args=(sys.stdin.buffer, ids), daemon=True).start()
    report = AheadReport()
    started = time.process_time()
    store = open_store(settings)
    try:
        embedder = load_embedder(header["model"], store=store)
        for batch in _batches(ids):
            if os.getppid() != parent:
                break  # the parent died: no one will read what this would write
            report.sessions += len(batch)
            written = embed_ahead(store, batch, embedder)
            report.passages += sum(written.values())
            report.passages_by_session |= written
    finally:
        store.close()
    report.cpu_s = round(time.process_time() - started, 3)
    report.peak_rss_mb = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    with contextlib.suppress(BrokenPipeError):  # the parent is gone: no one reads the report
        print(report.model_dump_json(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
