"""End to end: the daemon and webserver on 127.0.0.1, sample sessions flowing through the sensors,
the graph checked, and the UI checked in headless Chromium (screenshots kept in the test's directory).
"""

from __future__ import annotations

import html
import re
import shutil
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
SCREENSHOTS = Path(tempfile.gettempdir()) / "sessions-graph-ui"


def chromium() -> str:
    path = shutil.which("chromium")
    assert path, "chromium is missing: scripts/test installs Debian's chromium package (as root with apt-get)"
    return path


def browse(url: str, profile: Path, screenshot: Path) -> str:
    """The page's visible text after its scripts ran; a screenshot of it is saved beside."""
    base = [chromium(), *CHROMIUM_FLAGS]
    subprocess.run(
        [*base, f"--user-data-dir={profile / 'shot'}", f"--screenshot={screenshot}", url],
        check=True, capture_output=True, timeout=120,
    )
    dom = subprocess.run(
        [*base, f"--user-data-dir={profile / 'dom'}", "--dump-dom", url],
        check=True, capture_output=True, text=True, timeout=120,
    ).stdout
    text = re.sub(r"<script.*?</script>|<style.*?</style>", " ", dom, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())


@pytest.fixture
def platform_dirs():
    root = Path(tempfile.mkdtemp(prefix="sg-ui-", dir="/tmp"))
    server = EmbeddedServer(root / "data")
    server.ensure_running()
    yield root, server
    server.stop()
    shutil.rmtree(root, ignore_errors=True)


def test_sessions_flow_through_the_sensors_and_show_in_the_ui(platform_dirs):
    root, server = platform_dirs
    env = {"SESSIONS_GRAPH_DATA_DIR": str(server.data_dir)}
    with running_platform(root / "dagster_home", env) as platform:
        with SessionsGraph(FalkorDBStore(server)) as graph:
            graph.setup()
            sids = sorted(import_transcript(graph, path) for path in SAMPLES)
            try:
                wait_until_drained(platform.url, graph.store, timeout=400)
            except TimeoutError as error:
                daemon_log = platform.logs[0].read_text(errors="replace").splitlines()
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

        SCREENSHOTS.mkdir(exist_ok=True)
        lineage = browse(
            f"{platform.url}/assets/embedded_session?view=lineage&lineageScope=upstream&lineageDepth=3",
            root,
            SCREENSHOTS / "asset_graph.png",
        )
        assert "reconciled_session" in lineage and "embedded_session" in lineage
        assert lineage.count("2 partitions") == 2 and lineage.count("100% filled") == 2
        assert "2 / 2 Passed" in lineage and "1 / 1 Passed" in lineage  # the checks ran in the batch run

        partitions = browse(
            f"{platform.url}/assets/reconciled_session?view=partitions", root, SCREENSHOTS / "partitions.png"
        )
        assert "Materialized (2)" in partitions and "Failed (0)" in partitions
        assert "alice" in partitions and "bob" in partitions
        alice = browse(
            f"{platform.url}/assets/reconciled_session?view=partitions&partition=alice", root, SCREENSHOTS / "partition_alice.png"
        )
        assert "session_ids" in alice and ("orders-1,orders-2" in alice or "orders-2,orders-1" in alice)
