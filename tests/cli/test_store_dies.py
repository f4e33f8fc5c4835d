"""A store that dies in the middle of a command and cannot come back: one error line, exit 1,
no traceback (issue 15, item 9)."""

from __future__ import annotations

from conftest import EXAMPLES
from crash_proxy import CrashingProxy

from sessions_graph_core.store.falkordb.server import EmbeddedServer


def test_a_store_killed_mid_command_prints_one_error_line(cli, short_tmp):
    cli("store", "start")
    server = EmbeddedServer(short_tmp)
    proxy = CrashingProxy(server)

    def unstartable() -> None:  # the append-only log's manifest is garbage now: a restart exits at once
        for manifest in (short_tmp / "appendonlydir").glob("*.manifest"):
            manifest.write_text("garbage\n")

    proxy.arm("CREATE (s)-[:HAS_TURN]", after_kill=unstartable)
    try:
        out = cli("session", "import", str(EXAMPLES / "orders-1.jsonl"), code=1)
    finally:
        proxy.close()
    assert proxy.crashed.is_set()
    assert "Traceback" not in out
    lines = [line for line in out.splitlines() if line.strip()]  # the cli fixture drops the slow-start notes
    assert lines[0].startswith("error: The embedded FalkorDB server exited with code"), out
    assert sum(line.startswith("error:") for line in lines) == 1, out
