"""End to end: the daemon and webserver on 127.0.0.1, sample sessions flowing through the sensors,
the graph checked, and the UI checked in headless Chromium (screenshots kept in the test's directory).
"""

from __future__ import annotations

import html
import re
import shutil
import struct
import subprocess
import tempfile
from pathlib import Path

import pytest
from dagster_helpers import SAMPLES, import_transcript

from devtools.local_platform import running_platform
from devtools.progress import partition_stats, runs, wait_until_drained
from sessions_graph_core import SessionsGraph
from sessions_graph_core.store.falkordb.server import EmbeddedServer
from sessions_graph_core.store.falkordb.store import FalkorDBStore

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1400,900",
    "--virtual-time-budget=20000",
]
PAGE_LOADS = 4


def chromium() -> str:
    path = shutil.which("chromium")
    assert path, "chromium is missing: scripts/test installs Debian's chromium package (as root with apt-get)"
    return path


def browse(url: str, profile: Path, screenshot: Path, *, shows: tuple[str, ...] = ()) -> str:
    """The page's visible text after its scripts ran, and a screenshot of it saved beside.

    Some pages lay out in a web worker, which chromium's virtual time does not wait for (the global lineage
    was caught on its spinner): a page that does not show all of `shows` yet is loaded again, a few times.
    """
    base = [chromium(), *CHROMIUM_FLAGS]
    screenshot.unlink(missing_ok=True)  # one left by an earlier run must not pass for this run's
    for _ in range(PAGE_LOADS):
        dom = subprocess.run(
            [*base, f"--user-data-dir={profile / 'dom'}", "--dump-dom", url],
            check=True, capture_output=True, text=True, timeout=120,
        ).stdout
        text = re.sub(r"<script.*?</script>|<style.*?</style>", " ", dom, flags=re.S)
        text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())
        if all(piece in text for piece in shows):
            break
    subprocess.run(
        [*base, f"--user-data-dir={profile / 'shot'}", f"--screenshot={screenshot}", url],
        check=True, capture_output=True, timeout=120,
    )
    return text


def assert_rendered(png: Path) -> None:
    """The screenshot is a PNG of the whole window with a page drawn on it (a blank one compresses to a few KB)."""
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", png
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1400, 900), png
    assert len(data) > 30_000, f"{png} is {len(data)} bytes: nothing drawn?"


@pytest.fixture
def platform_dirs():
    root = Path(tempfile.mkdtemp(prefix="sg-ui-", dir="/tmp"))
    server = EmbeddedServer(root / "data")
    server.ensure_running()
    yield root, server
    server.stop()
    shutil.rmtree(root, ignore_errors=True)


def test_sessions_flow_through_the_sensors_and_show_in_the_ui(platform_dirs, tmp_path):
    root, server = platform_dirs
    # pytest keeps the last three runs' tmp_path, so the screenshots can be looked at after a run,
    # and two runs at once (a soak beside CI) never overwrite each other's
    shots = tmp_path / "screenshots"
    env = {"SESSIONS_GRAPH_DATA_DIR": str(server.data_dir)}
    with SessionsGraph(FalkorDBStore(server)) as graph:
        graph.setup()
        # All pending before the sensors' first tick, so each user gets one run naming all of its sessions:
        # imported while the daemon ticked, a user's later session could get a run of its own.
        sids = sorted(import_transcript(graph, path) for path in SAMPLES)
    with running_platform(root / "dagster_home", env) as platform:
        with SessionsGraph(FalkorDBStore(server)) as graph:
            try:
                wait_until_drained(platform.url, graph.store, timeout=400)
            except TimeoutError as error:
                daemon_log = platform.logs["daemon"].read_text(errors="replace").splitlines()
                pytest.fail(f"{error}\ndaemon log, last lines:\n" + "\n".join(daemon_log[-40:]))

            sessions = graph.store.run(
                "MATCH (s:Session) RETURN s.session_id AS sid, s.reconciliation_status AS reconciled, "
                "s.embedding_status AS embedded ORDER BY sid"
            )
            assert [(r["sid"], r["reconciled"], r["embedded"]) for r in sessions] == [
                (sid, "completed", "completed") for sid in sids
            ]
            facts = graph.store.run("MATCH (f:Fact {user_id: 'alice'}) RETURN count(f) AS n")[0]["n"]
            assert facts > 0

        finished = runs(platform.url)
        reconcile_runs = [run for run in finished if run.job_name == "reconcile_sessions"]
        assert [run.status for run in finished] == ["SUCCESS"] * len(finished)
        # One run per user, naming its sessions.
        assert sorted(run.tags["dagster/partition"] for run in reconcile_runs) == ["alice", "bob"]
        named = sorted(sid for run in reconcile_runs for sid in run.tags["sessions_graph/session_ids"].split(","))
        assert named == sids
        stats = partition_stats(platform.url)
        for asset in ("reconciled_session", "embedded_session"):
            assert stats[asset]["numMaterialized"] == 2 and stats[asset]["numPartitions"] == 2

        # Forgotten and imported again, a session is back at revision 1: the daemon's sensors still process it.
        with SessionsGraph(FalkorDBStore(server)) as graph:
            graph.forget_session("bob", "garden-1")
            import_transcript(graph, next(path for path in SAMPLES if path.stem == "garden-1"))
            wait_until_drained(platform.url, graph.store, timeout=400)
            again = graph.store.run("MATCH (s:Session {session_id: 'garden-1'}) "
                                    "RETURN s.reconciliation_status AS reconciled, s.embedding_status AS embedded")
            assert again == [{"reconciled": "completed", "embedded": "completed"}]
        bob_runs = [run for run in runs(platform.url) if run.tags.get("dagster/partition") == "bob"]
        assert len([run for run in bob_runs if run.job_name == "reconcile_sessions"]) == 2

        shots.mkdir()
        lineage = browse(
            f"{platform.url}/assets/embedded_session?view=lineage&lineageScope=upstream&lineageDepth=3",
            root,
            shots / "asset_graph.png",
            shows=("2 partitions", "100% filled"),
        )
        assert "reconciled_session" in lineage and "embedded_session" in lineage
        assert lineage.count("2 partitions") == 2 and lineage.count("100% filled") == 2
        assert "2 / 2 Passed" in lineage and "1 / 1 Passed" in lineage, lineage  # the checks ran in the batch run

        partitions = browse(
            f"{platform.url}/assets/reconciled_session?view=partitions", root, shots / "partitions.png",
            shows=("Materialized (2)",),
        )
        assert "Materialized (2)" in partitions and "Failed (0)" in partitions
        assert "alice" in partitions and "bob" in partitions
        alice = browse(
            f"{platform.url}/assets/reconciled_session?view=partitions&partition=alice", root, shots / "partition_alice.png",
            shows=("session_ids",),
        )
        assert "session_ids" in alice and ("orders-1,orders-2" in alice or "orders-2,orders-1" in alice)
        # A user partition's materialization carries that user's figures, not the run's.
        figures = alice.split("Metadata", 1)[1]
        assert "sessions 2" in figures and "superseded_facts" in figures
        assert "sessions_table" not in figures and "garden-1" not in figures

        # One group: the global lineage shows the assets and their edge without expanding anything.
        overview = browse(f"{platform.url}/asset-groups", root, shots / "global_lineage.png",
                          shows=("reconciled_session", "embedded_session", "pending_work"))
        assert all(name in overview for name in ("reconciled_session", "embedded_session", "pending_work"))
        assert "Expand all groups" not in overview

        embedded = browse(f"{platform.url}/assets/embedded_session?view=events", root, shots / "embedded_events.png",
                          shows=("recall_ms",))
        assert "recall_ms" in embedded and "passages" in embedded

        # The backlog as an asset: its counts over time, and the markdown chart rendered as a table.
        backlog = browse(f"{platform.url}/assets/pending_work", root, shots / "pending_work.png",
                         shows=("Table Plots",))
        assert "Table Plots" in backlog and "observed (UTC) pending" in backlog and "memory_files" in backlog

        # The derivation sensor's reason shows in its tick list (the cursor column), not only behind a click.
        sensor = browse(
            f"{platform.url}/locations/sessions_graph/sensors/derivation_milestones_sensor", root,
            shots / "derivation_sensor.png", shows=("Timestamp Status",),
        )
        ticks = sensor.split("Timestamp Status", 1)[1]
        assert "skipped: no user has reached a new milestone" in ticks or "users are due a derivation run" in ticks

        for name in ("asset_graph", "partitions", "partition_alice", "global_lineage", "embedded_events", "pending_work",
                     "derivation_sensor"):
            assert_rendered(shots / f"{name}.png")

