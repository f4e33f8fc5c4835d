"""`sessions-graph forget`: erase a session, a memory file or a whole user, and what only they back,
everywhere it was written, and print a receipt of what went where and of the check run afterwards."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

import click

from sessions_graph_core.cli.common import console, fail, opened_graph, require_session, resolve_user, user_option
from sessions_graph_core.failures import log_dir

if TYPE_CHECKING:
    from sessions_graph_core.graph import SessionsGraph

# The graph and the erasure checks are imported where a forget runs: `--help` needs neither.

DAGSTER_HOME = "DAGSTER_HOME"


def _counts(counts: dict[str, int]) -> str:
    shown = [f"{number} {name}" for name, number in counts.items() if number]
    return ", ".join(shown) or "nothing left to remove"


@click.command("forget")
@click.option("--session", "session_id", default=None, help="Forget this session (its turns, vectors and what only it backs).")
@click.option("--memory", "path", default=None, help="Erase this /memories file or directory of --user, history included.")
@user_option("The owner (default: identity.user_id, for --session and --memory); alone, erase every node of this user (an erasure request).")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.option("--json", "as_json", is_flag=True, help="Print the receipt as JSON.")
def forget_command(session_id: str | None, path: str | None, user_id: str | None, yes: bool, as_json: bool) -> None:
    """Forget a session, a memory file, or a user; safe to run again after a crash.

    Then the store's log is rewritten from what it holds now, our logs and the Dagster instance
    (DAGSTER_HOME) lose what names it, and every file under the data directory, the log directory and
    DAGSTER_HOME is searched for its ids and lines of text. Exits 1 when the search finds one.
    """
    if session_id and path:
        fail("pass one of --session, --memory PATH --user U, or --user U alone", 2)
    if not session_id and not path and user_id is None:
        fail("what to forget? pass --session ID, --memory PATH (with --user) or --user U", 2)
    user_id = resolve_user(user_id)
    with opened_graph() as graph:
        _finish_unfinished(graph)
        if session_id:
            require_session(graph, session_id, user_id)
            what = f"session {session_id} of user {user_id}"
        elif path:
            what = f"{path} of user {user_id}, with its whole history"
        else:
            if not graph.user_exists(user_id):
                fail(f"nothing to forget: the store holds nothing of user {user_id!r}")
            what = f"every session, memory and fact of user {user_id}"
        if not yes and not click.confirm(f"Forget {what}? This cannot be undone", default=False):
            fail("nothing was forgotten", 1)
        receipt = forget_everywhere(graph, user_id, session_id=session_id, path=path)
    receipt = {"forgot": what, **receipt}
    if as_json:
        click.echo(json.dumps(receipt, indent=2, ensure_ascii=False))
    else:
        _print_receipt(receipt)
    if not receipt["check"]["clean"]:
        sys.exit(1)


def forget_everywhere(graph: SessionsGraph, user_id: str, *, session_id: str | None, path: str | None) -> dict:
    """Forget in the graph, then in the files and records that kept a copy; the receipt's fields."""
    from sessions_graph_core.reconcile import erasure

    traces = graph.forget_traces(user_id, session_id=session_id, path=path)
    strings = traces.strings
    unfinished = _unfinished_marker()
    unfinished.parent.mkdir(parents=True, exist_ok=True)
    unfinished.touch()
    if session_id:
        counts = asdict(graph.forget_session(user_id, session_id))
    elif path:
        counts = asdict(graph.forget_memory_path(user_id, path))
        if not counts["memories"] and not counts["versions"]:
            unfinished.unlink(missing_ok=True)
            fail(f"nothing to forget: user {user_id!r} has no file or directory {path}, nor any history of one")
    else:
        counts = graph.forget_user(user_id)
    history = graph.erase_history()
    if not history.not_rewritten:
        unfinished.unlink(missing_ok=True)
    own_logs = erasure.scrub_logs(strings)
    # Dagster's records name sessions, files and users, never turns or text (reporting.py), and each run is
    # read whole: its keys are what to look for there.
    keys = [key for key in traces.keys if key in strings]
    dagster = _forget_in_dagster(user_id, whole_user=not session_id and not path, strings=keys)
    folders = [Path(folder) for folder in history.directories] + [log_dir()]
    folders += [Path(os.environ[DAGSTER_HOME])] if os.environ.get(DAGSTER_HOME) else []
    found = erasure.find_on_disk(folders, strings)
    held = set(graph.still_held(sorted(set().union(*found.values())))) if found else set()
    leaks = {name: len(hits - held) for name, hits in found.items() if hits - held}
    in_dagster = dagster.get("found", {})
    return {
        "graph": {name: number for name, number in counts.items() if number},
        "indexes": "range, full-text and vector entries go with their nodes (FalkorDB keeps indexes in memory)",
        "log": {"telemetry_keys_deleted": history.telemetry_keys, "rewritten": list(history.rewritten),
                "not_rewritten": history.not_rewritten},
        "own_logs": {"lines_removed": own_logs},
        "dagster": dagster,
        "check": {
            "strings": len(strings),
            "searched": [str(folder) for folder in folders],
            "found": leaks,
            "found_in_dagster": in_dagster,
            "held_by_kept_data": len(held),
            "clean": not leaks and not in_dagster,
        },
    }


def _unfinished_marker() -> Path:
    """A file (no id, no text in it) that says a forget changed the graph and the store's log was not
    rewritten after it yet: a crash in between would leave the forgotten text in the log, and the
    forget cannot be run again once the graph has forgotten what it addressed."""
    return log_dir() / "forget-unfinished"


def _finish_unfinished(graph: SessionsGraph) -> None:
    """Rewrite the store's log that an earlier forget left as it was (it crashed before it could)."""
    if _unfinished_marker().exists():
        if not graph.erase_history().not_rewritten:
            _unfinished_marker().unlink(missing_ok=True)


def _forget_in_dagster(user_id: str, *, whole_user: bool, strings: list[str]) -> dict:
    """What sessions_graph_dagster.forgetting did in the instance at DAGSTER_HOME."""
    return in_dagster("forgetting", {"user_id": user_id, "whole_user": whole_user, "strings": strings})


def in_dagster(module: str, request: dict) -> dict:
    """The JSON answer of `python -m sessions_graph_dagster.<module>` given `request` on stdin, in the instance at
    DAGSTER_HOME (run apart: the core imports no Dagster); {"skipped": why} where there is none or no Dagster,
    {"failed": its last line, "found": {"instance": 1}} where it failed (the instance was not searched)."""
    if not os.environ.get(DAGSTER_HOME):
        return {"skipped": "DAGSTER_HOME is not set: no Dagster instance to look in"}
    done = subprocess.run(
        [sys.executable, "-m", f"sessions_graph_dagster.{module}"], input=json.dumps(request), capture_output=True,
        text=True, check=False,
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        if "No module named" in last:
            return {"skipped": f"Dagster is not installed here ({last})"}
        return {"failed": last, "found": {"instance": 1}}
    return json.loads(done.stdout)


def _print_receipt(receipt: dict) -> None:
    log, dagster, check = receipt["log"], receipt["dagster"], receipt["check"]
    lines = [
        f"forgot {receipt['forgot']}: {_counts(receipt['graph'])}",
        f"  indexes: {receipt['indexes']}",
        f"  store log: rewritten on {', '.join(log['rewritten']) or 'no server'}"
        + "".join(f"; NOT on {where} ({why})" for where, why in log["not_rewritten"].items())
        + f"; {log['telemetry_keys_deleted']} query-log streams deleted",
        f"  our logs: {_lines_removed(receipt['own_logs']['lines_removed'])}",
        f"  dagster: {_dagster_line(dagster)}",
        f"  check: {check['strings']} forgotten strings searched for in {', '.join(check['searched'])}: "
        + ("none found" if check["clean"] else f"FOUND in {_counts({**check['found'], **check['found_in_dagster']})}")
        + (f" ({check['held_by_kept_data']} also said by kept data, not counted)" if check["held_by_kept_data"] else ""),
    ]
    console.print("\n".join(lines), highlight=False, soft_wrap=True)


def _lines_removed(by_file: dict[str, int]) -> str:
    removed = [f"{number} lines of {name}" for name, number in by_file.items() if number]
    return f"removed {', '.join(removed)}" if removed else "no line named it"


def _dagster_line(dagster: dict) -> str:
    if "skipped" in dagster or "failed" in dagster:
        return dagster.get("skipped") or f"failed: {dagster['failed']}"
    left = "".join(f"; run {run} left ({why})" for run, why in dagster["runs_left"].items())
    return (f"{dagster['runs_deleted']} runs deleted, partitions deleted: {', '.join(dagster['partitions_deleted']) or 'none'}, "
            f"{len(dagster['vacuumed'])} SQLite files vacuumed{left}")
