"""Lint is part of the tests, so CI fails on it: `ruff check` with the rules in pyproject.toml."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def ruff() -> str:
    beside = Path(sys.executable).with_name("ruff")  # the virtualenv's, installed by the dev extra
    found = str(beside) if beside.exists() else shutil.which("ruff")
    assert found, "ruff is not installed: `pip install -e .[dev]` (scripts/install does it)"
    return found


def test_ruff_finds_nothing() -> None:
    result = subprocess.run([ruff(), "check", "--no-cache", str(ROOT)], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_reads_the_projects_rules(tmp_path: Path) -> None:
    """The check above can fail: a file breaking a selected rule is reported with the project's settings."""
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n")
    result = subprocess.run(
        [ruff(), "check", "--no-cache", "--config", str(ROOT / "pyproject.toml"), str(bad)], capture_output=True, text=True
    )
    assert result.returncode == 1 and "F401" in result.stdout
