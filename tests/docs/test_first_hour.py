"""The README's first hour, run as a newcomer runs it: its new-shell block, taken from README.md as written,
in a fresh bash (no profile, none of the test's environment but a home of its own) from the folder that holds
a checkout named `sessions-graph`, against the store `scripts/main` leaves behind.

What `scripts/main` does before that block is done here without its install and without Dagster: the store
chosen and written into the config file (`scripts/store-location`, as main sources it), started and set up, the
samples imported, a memory file saved, and `reconcile --pending` and `embed --pending` standing in for the
sensors' runs (the runs call the same library functions; tests/dagster covers the sensors)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES

from sessions_graph_core.store.falkordb.server import EmbeddedServer

ROOT = Path(__file__).resolve().parents[2]
VENV = Path(sys.executable).parent.parent


def first_hour_block() -> str:
    """The README's shell block that starts in a new shell (`cd sessions-graph && ...`)."""
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("\n## First hour\n", 1)[1].split("\n## ", 1)[0]
    blocks = [block.split("\n```", 1)[0] for block in section.split("```bash\n")[1:]]
    new_shell = [block for block in blocks if block.startswith("cd sessions-graph")]
    assert len(new_shell) == 1, "the README's First hour has no block that starts with `cd sessions-graph`"
    return new_shell[0]


def bash(script: str, cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(["bash", "--noprofile", "--norc", "-euo", "pipefail", "-c", script], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture
def after_main(short_tmp: Path):
    """A folder holding a checkout named sessions-graph (its venv, scripts and samples), a home for a new
    shell, and the store as scripts/main leaves it; the store is stopped afterwards whatever happened."""
    checkout = short_tmp / "sessions-graph"
    checkout.mkdir()
    for name in ("scripts", "examples"):
        (checkout / name).symlink_to(ROOT / name)
    (checkout / ".venv").symlink_to(VENV)
    home = short_tmp / "home"
    home.mkdir()
    env = {"HOME": str(home), "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "COLUMNS": "200"}
    if os.environ.get("PYTHONPATH"):  # a worktree's code over the shared venv's, as the tests run it
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    sg = checkout / ".venv" / "bin" / "sessions-graph"
    bash(f'sg={sg}; source scripts/store-location; "$sg" store start; "$sg" setup; '
         f'"$sg" session import {EXAMPLES}/*.jsonl; '
         '"$sg" memory save --user alice --path /memories/projects/orders/database.md '
         '"The orders service moved from Postgres to CockroachDB after the multi-region failover test."; '
         '"$sg" reconcile --pending; "$sg" embed --pending', checkout, env)
    yield short_tmp, env
    EmbeddedServer(checkout / ".sessions-graph").stop()


def test_a_new_shell_reaches_a_working_recall_from_the_readme_alone(after_main) -> None:
    folder, env = after_main
    out = bash(first_hour_block(), folder, env)
    assert "Carol" in out  # the README: "Carol now (replacing Alice), from orders-2"
    assert "orders-1" in out and "orders-2" in out
    assert "Tests run against the embedded store, never a mock." in out  # the memory file, viewed and recalled
    assert "forgot session orders-1" in out
    assert out.splitlines()[-1].startswith("stopped the store in ")  # scripts/stop, the block's last line
