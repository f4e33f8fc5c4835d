"""The failure log of hooks and detached children: where errors go that must not reach the harness.

One JSON object per line in `SESSIONS_GRAPH_LOG_DIR` (default: the user state directory), so that
`sessions-graph doctor` can show the recent ones.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

LOG_DIR_ENV = "SESSIONS_GRAPH_LOG_DIR"
FAILURE_LOG = "failures.jsonl"
CHILD_LOG = "children.log"
APP_NAME = "sessions-graph"


def log_dir() -> Path:
    """SESSIONS_GRAPH_LOG_DIR, else the user state directory (platformdirs' `user_state_dir`)."""
    return Path(os.environ.get(LOG_DIR_ENV) or _user_state_dir())


def _user_state_dir() -> str:
    # Every hook reads its settings cache here. On Linux the place is the XDG rule, worked out here: importing
    # platformdirs costs a hook about 5 ms (it imports tempfile, hence shutil, random, bz2 and lzma). Anything
    # unusual (no absolute HOME, another system) is left to platformdirs. tests/test_failures.py checks that
    # both give the same folder.
    if sys.platform == "linux":
        state, home = os.environ.get("XDG_STATE_HOME", ""), os.environ.get("HOME", "")
        if os.path.isabs(state):
            return os.path.join(state, APP_NAME)
        if os.path.isabs(home):
            return os.path.join(home, ".local", "state", APP_NAME)
    import platformdirs

    return platformdirs.user_state_dir(APP_NAME)


def failure_log_path() -> Path:
    return log_dir() / FAILURE_LOG


def child_log_path() -> Path:
    """Where detached children write their stderr."""
    return log_dir() / CHILD_LOG


def record_failure(where: str, error: BaseException, **context: Any) -> None:
    """Append one failure; a log that cannot be written is given up on, never raised."""
    # Imported here: every hook imports this module, and only a failing one formats a failure.
    import traceback

    from sessions_graph_core.clock import now_iso

    entry = {
        "at": now_iso(),
        "where": where,
        "error": f"{type(error).__name__}: {error}",
        "traceback": "".join(traceback.format_exception(error)[-3:]),
        **{key: value for key, value in context.items() if value is not None},
    }
    try:
        path = failure_log_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8") as file:
            file.write(json.dumps(entry, default=str) + "\n")
    except OSError:
        pass


def recent_failures(limit: int = 20) -> list[dict[str, Any]]:
    """The newest failures, oldest first; unreadable lines are left out."""
    try:
        lines = failure_log_path().read_text(encoding="utf-8").splitlines()[-limit:]
    except OSError:
        return []
    entries = []
    for line in lines:
        try:
            entries.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return entries
