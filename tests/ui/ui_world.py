"""The memory browser's tests share one store, one server and one headless Chromium per module (a module-scoped fixture).

The store holds alice's two orders sessions (the second replaces the first's database and owner), a
pending session, a planted session and memory file whose words nowhere else says (forget_helpers),
and bob's garden session: the user whose ids the pages must refuse as not there.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import EXAMPLES
from forget_helpers import PLANTED

from devtools.chromium import Chromium, serving
from sessions_graph_core import SessionsGraph
from sessions_graph_core.cli.forget import forget_everywhere
from sessions_graph_core.failures import LOG_DIR_ENV
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend
from sessions_graph_core.sessions.jsonl import read_transcript
from sessions_graph_core.store.falkordb.server import EmbeddedServer
from sessions_graph_core.store.falkordb.store import FalkorDBStore
from sessions_graph_core.ui.app import Browser, build_app
from sessions_graph_core.ui.guard import new_token

USER, OTHER = "alice", "bob"
PENDING, FAILED = "zz-pending", "zz-failed"
BACKEND_DOWN = "the extraction backend went away"
# Where the tests also save their screenshots, for docs/ui.md (unset: only the test's own directory).
SHOTS_ENV = "SESSIONS_GRAPH_UI_SHOTS"
MAX_TABS = 60


class Down(SpacyBackend):
    """A backend that fails every call: the session it reads is recorded as failed, with the error."""

    def extract(self, texts, ontology, known_slots=()):  # type: ignore[no-untyped-def]
        raise RuntimeError(BACKEND_DOWN)


@dataclass
class World:
    graph: SessionsGraph
    base: str
    token: str
    places: dict[str, Path]
    browser: Chromium

    def url(self, path: str) -> str:
        return self.base + path


def fill(graph: SessionsGraph) -> None:
    for path in sorted(EXAMPLES.glob("*.jsonl")):
        transcript = read_transcript(path)
        sid = transcript.header.session_id
        graph.import_transcript(transcript, session_id=sid, user_id=transcript.header.user_id)
        graph.end_session(sid)
    session_id, text = PLANTED["session"]
    graph.record_session_start(session_id, user_id=USER)
    graph.record_turns(session_id, [{"role": "user", "text": text}], user_id=USER)
    graph.end_session(session_id)
    for sid in graph.get_pending_reconciliation_sessions():
        graph.reconcile_session(sid)
        graph.embed_session(sid)
    path, content = PLANTED["memory"]
    files = graph.memory_store(USER, session_id=session_id)
    files.create(path, content + "\n")
    files.str_replace(path, "ledger store", "ledger store of record")
    graph.memory_store(OTHER).create("/memories/garden.md", "Biscuit digs by the basil.\n")
    for memory_id in graph.get_pending_memories():
        graph.reconcile_memory(memory_id)
    graph.embed_memories(USER)
    graph.record_session_start(PENDING, user_id=USER)
    graph.record_turns(PENDING, [{"role": "user", "text": "Dana reviews the payments service."}], user_id=USER)
    graph.record_session_start(FAILED, user_id=USER)
    graph.record_turns(FAILED, [{"role": "user", "text": "Erin runs the search service."}], user_id=USER)
    graph.end_session(FAILED)
    assert graph.reconcile_session(FAILED, backend=Down()).status == "failed"


def served(filler: Callable[[SessionsGraph], None]) -> Iterator[World]:
    """A fresh embedded store filled by `filler`, the pages over it and a browser holding the token's cookie;
    the logs in a folder of their own and no Dagster instance, so a forget's check searches only those."""
    root = Path(tempfile.mkdtemp(prefix="sg-ui-", dir="/tmp"))
    places = {"data": root / "data", "logs": root / "logs"}
    with pytest.MonkeyPatch.context() as env:
        env.setenv(LOG_DIR_ENV, str(places["logs"]))
        env.delenv("DAGSTER_HOME", raising=False)
        graph = SessionsGraph(FalkorDBStore.open(places["data"], keep_running=True))
        graph.setup()
        browser = None
        try:
            filler(graph)
            token = new_token()
            browser = Chromium()
            with serving(build_app(Browser(graph, USER, token, forget_everywhere))) as base:
                assert browser.goto(f"{base}/?token={token}") == 200
                yield World(graph, base, token, places, browser)
        finally:
            if browser is not None:
                browser.close()
            graph.close()
            EmbeddedServer(places["data"]).stop()
            shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    yield from served(fill)


def shoot(world: World, name: str, folder: Path) -> Path:
    """A screenshot of the page shown, in `folder` and, when asked for, beside docs/ui.md."""
    png = folder / f"{name}.png"
    world.browser.screenshot(png)
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000, f"{png}: {len(data)} bytes, nothing drawn?"
    if os.environ.get(SHOTS_ENV):
        shutil.copy(png, Path(os.environ[SHOTS_ENV]) / png.name)
    return png


def shown(world: World, path: str, status: int = 200) -> str:
    assert world.browser.goto(world.url(path)) == status, world.browser.text()
    return world.browser.text()


def submit_by_keyboard(world: World, label: str) -> str:
    """Tab to the button that reads `label` and press Enter, as a keyboard user would; the page it loads."""
    for _ in range(MAX_TABS):
        world.browser.press("Tab")
        if world.browser.focused() == label:
            assert world.browser.press_and_load("Enter") == 200, world.browser.text()
            return world.browser.text()
    raise AssertionError(f"no button {label!r} within {MAX_TABS} presses of Tab")
