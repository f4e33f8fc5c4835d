"""The memory browser's pages (issue 44): how long each view takes to render, p50 and p95, at N turns.

    .venv/bin/python benchmarks/bench_ui.py [--turns 10000,100000] [--turns-per-session 50] [--reconciled 20] [--requests 30]

For each size a fresh embedded store is filled for one user (the pages show one user, so all N turns
are that user's, the worst case): sessions of LoCoMo's turns, recorded; the first --reconciled sessions
also reconciled and embedded (reading 100k turns takes hours on this machine), so the facts, a session's
products and recall have real rows; and 100 memory files, each edited twice. The app is served by
uvicorn on 127.0.0.1 as `sessions-graph ui` serves it (settled first, as it is), and each page is fetched --requests times (after
one warm-up) through HTTP with the token's cookie: the time is the whole request, from sending it to the
last byte of the page. Ask's recall is also timed called directly, in the same process, to tell the
page's share from recall's.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

from bench_forget import sentences  # LoCoMo's turns
from rich.console import Console
from rich.table import Table

from devtools.chromium import serving
from sessions_graph_core import SessionsGraph
from sessions_graph_core.cli.forget import forget_everywhere
from sessions_graph_core.store.falkordb.server import EmbeddedServer
from sessions_graph_core.store.falkordb.store import FalkorDBStore
from sessions_graph_core.ui.app import Browser, build_app, settle
from sessions_graph_core.ui.guard import new_token

USER = "bench-ui-user"
FILES = 100
QUESTION = "what did Caroline research"


def fill(graph: SessionsGraph, turns: int, per_session: int, reconciled: int) -> list[str]:
    said = sentences()
    sessions = []
    for number in range(turns // per_session):
        sid = f"bench-ui-{number:06d}"
        day = f"2026-{1 + number % 12:02d}-{1 + number % 28:02d}T10:00:00Z"  # statements' dates spread over the year
        graph.record_session_start(sid, user_id=USER, started_at=day)
        start = number * per_session
        graph.record_turns(sid, [{"role": "user" if i % 2 == 0 else "assistant", "text": said[(start + i) % len(said)],
                                  "timestamp": day} for i in range(per_session)], user_id=USER)
        graph.end_session(sid)
        sessions.append(sid)
    for sid in sessions[:reconciled]:
        graph.reconcile_session(sid)
        graph.embed_session(sid)
    files = graph.memory_store(USER)
    for number in range(FILES):
        path = f"/memories/projects/p{number % 10}/notes-{number}.md"
        files.create(path, said[number] + "\n")
        files.str_replace(path, said[number][:20], said[number][:20] + " (edited)")
    graph.embed_memories(USER)
    return sessions


def views(sessions: list[str]) -> dict[str, str]:
    return {
        "facts": "/facts",
        "facts as of": "/facts?as_of=2026-06-01",
        "sessions": "/sessions",
        "session": f"/sessions/{sessions[0]}",
        "memory files": "/memory",
        "memory file": "/memory/file?path=/memories/projects/p1/notes-1.md",
        "ask": "/ask?q=" + QUESTION.replace(" ", "+"),
        "forget confirm": f"/forget/session/{sessions[0]}",
    }


def timed(opener: urllib.request.OpenerDirector, url: str, requests: int) -> list[float]:
    with opener.open(url) as answer:  # warm-up: the first recall loads the embedding model
        assert answer.status == 200, url
        answer.read()
    times = []
    for _ in range(requests):
        started = time.perf_counter()
        with opener.open(url) as answer:
            answer.read()
        times.append((time.perf_counter() - started) * 1000)
    return times


def recall_alone(graph: SessionsGraph, requests: int) -> list[float]:
    """The Ask page's recall called directly, without the page: what the page adds is the difference."""
    graph.recall(USER, QUESTION)
    times = []
    for _ in range(requests):
        started = time.perf_counter()
        graph.recall(USER, QUESTION)
        times.append((time.perf_counter() - started) * 1000)
    return times


def measure(turns: int, per_session: int, reconciled: int, requests: int) -> dict[str, list[float]]:
    root = Path(tempfile.mkdtemp(prefix="sg-bench-ui-", dir="/tmp"))
    graph = SessionsGraph(FalkorDBStore.open(root, keep_running=True))
    try:
        graph.setup()
        started = time.perf_counter()
        sessions = fill(graph, turns, per_session, reconciled)
        held = sum(row.turn_count for row in graph.session_statuses(USER, limit=len(sessions)))
        print(f"{held} turns in {len(sessions)} sessions, filled in {time.perf_counter() - started:.0f} s", flush=True)
        token = new_token()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        browser = Browser(graph, USER, token, forget_everywhere)
        settle(browser)  # as `sessions-graph ui` does before it prints its URL
        with serving(build_app(browser)) as base:
            opener.open(f"{base}/?token={token}").read()
            found = {name: timed(opener, base + path, requests) for name, path in views(sessions).items()}
        return found | {"recall alone (Ask's, no page)": recall_alone(graph, requests)}
    finally:
        graph.close()
        EmbeddedServer(root).stop()
        shutil.rmtree(root, ignore_errors=True)


def percentile(values: list[float], share: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(share * 100) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", default="10000,100000")
    parser.add_argument("--turns-per-session", type=int, default=50)
    parser.add_argument("--reconciled", type=int, default=20)
    parser.add_argument("--requests", type=int, default=30)
    args = parser.parse_args()
    sizes = [int(size) for size in args.turns.split(",")]
    results = {size: measure(size, args.turns_per_session, args.reconciled, args.requests) for size in sizes}
    table = Table("view", *[f"{size} turns p50 / p95 ms" for size in sizes])
    for name in results[sizes[0]]:
        table.add_row(name, *[f"{statistics.median(results[size][name]):.0f} / {percentile(results[size][name], 0.95):.0f}"
                              for size in sizes])
    console = Console()
    console.print(table)
    console.print(f"{args.requests} requests per view after one warm-up; {args.reconciled} sessions of "
                  f"{args.turns_per_session} turns reconciled and embedded; load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
