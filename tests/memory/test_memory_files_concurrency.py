"""Two real processes editing one memory file at once, against the embedded server: no update is lost."""

import multiprocessing
import re
import time
from concurrent.futures import ProcessPoolExecutor

from sessions_graph_core.memory.files import MemoryCommandError, MemoryStore
from sessions_graph_core.store.falkordb.server import EmbeddedServer
from sessions_graph_core.store.falkordb.store import FalkorDBStore

PATH = "/memories/projects/orders/counters.md"
WORKERS = ("alpha", "beta")
ROUNDS = 120


def retried(edit) -> int:
    """Run an edit until it applies; how many times it was refused as stale."""
    stale = 0
    while True:
        try:
            edit()
            return stale
        except MemoryCommandError as exc:
            if "changed while it was being edited" not in str(exc):
                raise
            stale += 1


def edit_concurrently(data_dir: str, graph_name: str, name: str, start_at: float) -> dict:
    """One agent session: bump its own counter line, append a log line, create a shared file."""
    store = FalkorDBStore(EmbeddedServer(data_dir), graph=graph_name)
    files = MemoryStore(store, "alice", session_id=f"s-{name}")

    def bump() -> None:
        count = int(re.search(rf"^{name}: (\d+)$", files.read(PATH), re.M).group(1))
        files.str_replace(PATH, f"{name}: {count}\n", f"{name}: {count + 1}\n")

    def append(round_number: int) -> None:
        files.insert(PATH, files.read(PATH).count("\n"), f"{name} did round {round_number}")

    while time.time() < start_at:
        time.sleep(0.001)
    stale = 0
    for round_number in range(ROUNDS):
        stale += retried(bump)
        stale += retried(lambda n=round_number: append(n))
        files.create(f"/memories/shared/{round_number % 10}.md", f"written by {name}")
    store.close()
    return {"name": name, "stale": stale}


def test_two_processes_editing_one_file_lose_no_update(graph, server):
    files = graph.memory_store("alice", session_id="s-setup")
    files.create(PATH, "".join(f"{name}: 0\n" for name in WORKERS))
    start_at = time.time() + 3
    with ProcessPoolExecutor(len(WORKERS), mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [
            pool.submit(edit_concurrently, str(server.data_dir), graph.store.name, name, start_at) for name in WORKERS
        ]
        results = [future.result(timeout=300) for future in futures]

    text = files.read(PATH)
    for name in WORKERS:
        assert re.search(rf"^{name}: {ROUNDS}$", text, re.M), text[:200]
        log = [int(n) for n in re.findall(rf"^{name} did round (\d+)$", text, re.M)]
        # Every round exactly once: none lost, none applied twice. Not necessarily in order: a worker's
        # line number comes from its own earlier read, so when the other worker inserts above its last
        # line in between (at a line number from its own stale read), the next line lands one place up.
        assert sorted(log) == list(range(ROUNDS)), f"{name}'s rounds in file order: {log}\n--- the file:\n{text}"
    # every successful write kept the text it replaced; the history holds the newest 20
    assert len(files.versions(PATH)) == 20
    # racing creates of one path never made two files
    rows = graph.store.run(
        "MATCH (m:Memory {user_id: 'alice'}) WHERE m.path STARTS WITH '/memories/shared/' "
        "RETURN m.path AS path, count(*) AS copies ORDER BY path"
    )
    assert [(row["path"], row["copies"]) for row in rows] == [(f"/memories/shared/{n}.md", 1) for n in range(10)]
    print("stale edits refused and retried:", {r["name"]: r["stale"] for r in results})
