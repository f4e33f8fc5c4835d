"""The pages: each reads through SessionsGraph for the one user the browser was opened for."""

from __future__ import annotations

import difflib
import gc
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlencode

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from sessions_graph_core.errors import NotFoundError, no_fact, no_session
from sessions_graph_core.graph import SessionsGraph
from sessions_graph_core.memory.files import MemoryCommandError, MemoryPathNotFoundError
from sessions_graph_core.recall.config import RecallConfig
from sessions_graph_core.recall.results import Recalled
from sessions_graph_core.ui.guard import TokenGuard, csrf_field
from sessions_graph_core.validation import ValidationError

TEMPLATES = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))
# Pages of rows, newest first: a page's time grows with its rows, not with the store.
SESSIONS_PER_PAGE = 200
FACTS_PER_PAGE = 200

# Forgetting everywhere (logs, Dagster, the check on disk) is the CLI's `forget`; a page forgets through it.
Forget = Callable[..., dict]
# Asks the Dagster instance at DAGSTER_HOME (module, JSON request) -> its JSON answer; the CLI's `in_dagster`.
AskDagster = Callable[[str, dict], dict]


@dataclass(frozen=True)
class Browser:
    graph: SessionsGraph
    user_id: str
    token: str
    forget: Forget
    recall_config: RecallConfig | None = None
    dagster_url: str | None = None
    ask_dagster: AskDagster | None = None

    def page(self, request: Request, name: str, status: int = 200, **context: object) -> Response:
        context |= {"user_id": self.user_id, "csrf": csrf_field(self.token), "dagster_url": self.dagster_url}
        return TEMPLATES.TemplateResponse(request, name, context, status_code=status)

    def refused(self, request: Request, message: str, status: int) -> Response:
        return self.page(request, "refused.html", status=status, message=message)


def _handled(view: Callable[[Browser, Request], Awaitable[Response]], browser: Browser) -> Callable[[Request], Awaitable[Response]]:
    """Bad input is a 400 page saying what was wrong; a missing (or another user's) id a 404, in the same words.

    The views are coroutines that call the graph without awaiting: one request at a time reaches the store,
    from the event loop's thread, which is all a page for one person needs."""

    async def endpoint(request: Request) -> Response:
        try:
            return await view(browser, request)
        except NotFoundError as exc:  # a NotFoundError is also a ValidationError: caught first
            return browser.refused(request, str(exc), 404)
        except (ValidationError, MemoryCommandError) as exc:
            return browser.refused(request, str(exc), 404 if isinstance(exc, MemoryPathNotFoundError) else 400)

    return endpoint


def _page_number(request: Request) -> int:
    given = request.query_params.get("page", "1")
    if not given.isdigit() or int(given) < 1:
        raise ValidationError(f"page must be a whole number from 1, got {given!r}")
    return int(given)


# -- facts -------------------------------------------------------------------------------------


async def facts_page(browser: Browser, request: Request) -> Response:
    as_of = request.query_params.get("as_of") or None
    number = _page_number(request)
    facts = browser.graph.traced_facts(browser.user_id, as_of=as_of, limit=FACTS_PER_PAGE,
                                       offset=(number - 1) * FACTS_PER_PAGE)
    subjects: dict[str, list] = {}
    for fact in facts:
        for subject in fact.subjects or ["(no subject)"]:
            subjects.setdefault(subject, []).append(fact)
    return browser.page(request, "facts.html", subjects=sorted(subjects.items(), key=lambda item: item[0].lower()),
                        as_of=as_of or "", shown=len(facts), number=number, more=len(facts) == FACTS_PER_PAGE)


# -- sessions ----------------------------------------------------------------------------------


async def sessions_page(browser: Browser, request: Request) -> Response:
    number = _page_number(request)
    rows = browser.graph.session_statuses(browser.user_id, limit=SESSIONS_PER_PAGE, offset=(number - 1) * SESSIONS_PER_PAGE)
    return browser.page(request, "sessions.html", sessions=rows, number=number, more=len(rows) == SESSIONS_PER_PAGE)


def _owned_session(browser: Browser, session_id: str):
    found = browser.graph.get_session(session_id, user_id=browser.user_id)
    if found is None:
        raise no_session(session_id, browser.user_id)
    return found


async def session_page(browser: Browser, request: Request) -> Response:
    sid = request.path_params["session_id"]
    info = _owned_session(browser, sid)
    state = browser.graph.session_statuses(browser.user_id, session_id=sid)[0]
    return browser.page(
        request, "session.html", session=info, state=state,
        turns=browser.graph.get_turns(sid, user_id=browser.user_id),
        entities=browser.graph.session_entities(sid), facts=browser.graph.session_facts(sid),
        memories=browser.graph.get_memories_for_session(sid),
    )


async def session_in_dagster(browser: Browser, request: Request) -> Response:
    """To the session's newest run in the Dagster UI; to its user's partition page where the instance has no run
    naming it (or there is no instance to ask). Looked up on the click: Dagster's import costs a second or two."""
    sid = request.path_params["session_id"]
    _owned_session(browser, sid)
    if not browser.dagster_url:
        raise ValidationError("no Dagster UI to link to: start sessions-graph ui with --dagster-url URL")
    found = browser.ask_dagster("session_runs", {"user_id": browser.user_id, "session_id": sid}) if browser.ask_dagster else {}
    if "failed" in found:
        return browser.refused(request, f"could not read the Dagster instance at DAGSTER_HOME: {found['failed']}", 502)
    if found.get("run_id"):
        return RedirectResponse(f"{browser.dagster_url}/runs/{found['run_id']}", status_code=303)
    query = urlencode({"view": "partitions", "partition": browser.user_id})
    return RedirectResponse(f"{browser.dagster_url}/assets/reconciled_session?{query}", status_code=303)


# -- memory files ------------------------------------------------------------------------------


async def memory_page(browser: Browser, request: Request) -> Response:
    files = browser.graph.memory_store(browser.user_id).files()
    tree = []  # (depth, name, full path or None for a directory), directories shown once, before their files
    seen: set[str] = set()
    for item in files:
        parts = item.path.strip("/").split("/")
        for depth in range(1, len(parts)):
            directory = "/" + "/".join(parts[:depth])
            if directory not in seen:
                seen.add(directory)
                tree.append((depth - 1, parts[depth - 1] + "/", None))
        tree.append((len(parts) - 1, parts[-1], item.path))
    return browser.page(request, "memory.html", tree=tree, count=len(files))


def _required(request: Request, name: str) -> str:
    value = request.query_params.get(name, "")
    if not value.strip():
        raise ValidationError(f"give ?{name}=... (it was missing or blank)")
    return value


async def memory_file_page(browser: Browser, request: Request) -> Response:
    path = _required(request, "path")
    files = browser.graph.memory_store(browser.user_id)
    text = files.read(path)
    versions = files.versions(path)  # raises "does not exist and never did" for another user's path too
    texts = [text if text is not None else ""] + [version.content for version in versions]
    diffs = [
        "\n".join(difflib.unified_diff(older.splitlines(), newer.splitlines(), "before", "after", lineterm=""))
        for newer, older in zip(texts, texts[1:], strict=False)
    ]
    return browser.page(request, "memory_file.html", path=path, text=text, versions=list(zip(versions, diffs, strict=True)))


# -- ask ---------------------------------------------------------------------------------------


def _budget(request: Request) -> int | None:
    given = request.query_params.get("budget", "").strip()
    if not given:
        return None
    if not given.isdigit():
        raise ValidationError(f"budget must be a whole number of tokens (0: no limit), got {given!r}")
    return int(given)


def _recall(browser: Browser, question: str, budget: int | None) -> Recalled:
    """The recall the agent would get: the configured recall and its model."""
    config = browser.recall_config
    return browser.graph.recall(browser.user_id, question, config=config, budget_tokens=budget,
                                **({"model": config.model()} if config else {}))


def settle(browser: Browser) -> None:
    """Load what the first Ask would load (the embedding model and recall's word lists), then take everything
    alive out of the garbage collector's full passes. A full pass walks every object of the loaded models
    (100-300 ms here), and one landing in a request was Ask's p95: at 100k turns, 624 -> 245 ms with this
    (docs/benchmarks/ui.md). What is made later is collected as usual."""
    _recall(browser, "warm up", None)
    gc.collect()
    gc.freeze()


async def ask_page(browser: Browser, request: Request) -> Response:
    question = request.query_params.get("q", "")
    budget = _budget(request)
    recalled = _recall(browser, question, budget) if question.strip() else None
    rows = []
    if recalled is not None:
        rows = sorted(
            [("turn", row.rank, row.score, row.text, row.session_id) for row in recalled.turns]
            + [("fact", row.rank, row.score, row.text, None) for row in recalled.facts]
            + [("memory", row.rank, row.score, f"{row.path}: {row.text}", None) for row in recalled.memories],
            key=lambda row: row[1] or 10**9,
        )
    return browser.page(request, "ask.html", question=question, budget="" if budget is None else budget,
                        recalled=recalled, rows=rows, rendered=recalled.render() if recalled else "")


# -- forget ------------------------------------------------------------------------------------


def _forgotten(browser: Browser, request: Request, what: str, receipts: list[dict]) -> Response:
    totals: dict[str, int] = {}
    for receipt in receipts:
        for name, number in receipt["graph"].items():
            totals[name] = totals.get(name, 0) + number
    clean = all(receipt["check"]["clean"] for receipt in receipts)
    return browser.page(request, "forgotten.html", what=what, totals=totals, receipts=receipts, clean=clean)


async def forget_session_page(browser: Browser, request: Request) -> Response:
    sid = request.path_params["session_id"]
    info = _owned_session(browser, sid)
    if request.method == "POST":
        receipt = browser.forget(browser.graph, browser.user_id, session_id=sid, path=None)
        return _forgotten(browser, request, f"session {sid}", [receipt])
    return browser.page(request, "forget_session.html", session=info, facts=browser.graph.session_facts(sid),
                        entities=browser.graph.session_entities(sid), memories=browser.graph.get_memories_for_session(sid))


async def forget_memory_page(browser: Browser, request: Request) -> Response:
    path = _required(request, "path")
    files = browser.graph.memory_store(browser.user_id)
    below = [item.path for item in files.files(path)] if files.is_directory(path) else []
    versions = [] if below else files.versions(path)  # a path that never was is refused here, before any forget
    if request.method == "POST":
        receipt = browser.forget(browser.graph, browser.user_id, session_id=None, path=path)
        return _forgotten(browser, request, f"{path} and its history", [receipt])
    return browser.page(request, "forget_memory.html", path=path, below=below, versions=versions,
                        live=files.read(path) is not None)


async def forget_fact_page(browser: Browser, request: Request) -> Response:
    fact_id = request.path_params["fact_id"]
    fact = browser.graph.traced_fact(browser.user_id, fact_id)
    if fact is None:
        raise no_fact(fact_id, browser.user_id)
    if not fact.sessions:
        raise ValidationError(f"no session stated “{fact.text}”: memory files say it; erase them from the Memory files page")
    sessions = [browser.graph.get_session(sid, user_id=browser.user_id) for sid in fact.sessions]
    if request.method == "POST":
        receipts = [browser.forget(browser.graph, browser.user_id, session_id=sid, path=None) for sid in fact.sessions]
        return _forgotten(browser, request, f"the {len(receipts)} sessions behind “{fact.text}”", receipts)
    return browser.page(request, "forget_fact.html", fact=fact, sessions=[s for s in sessions if s is not None])


async def home(browser: Browser, request: Request) -> Response:
    return RedirectResponse("/facts", status_code=303)


def link(path: str) -> str:
    """A /memories path as a query value."""
    return quote(path, safe="/")


def build_app(browser: Browser) -> Starlette:
    """The ASGI app: every route behind the token; the forget routes answer GET (the confirmation) and POST."""
    TEMPLATES.env.filters["q"] = link
    routes = [
        Route("/", _handled(home, browser)),
        Route("/facts", _handled(facts_page, browser)),
        Route("/sessions", _handled(sessions_page, browser)),
        Route("/sessions/{session_id}", _handled(session_page, browser)),
        Route("/sessions/{session_id}/dagster", _handled(session_in_dagster, browser)),
        Route("/memory", _handled(memory_page, browser)),
        Route("/memory/file", _handled(memory_file_page, browser)),
        Route("/ask", _handled(ask_page, browser)),
        Route("/forget/session/{session_id}", _handled(forget_session_page, browser), methods=["GET", "POST"]),
        Route("/forget/memory", _handled(forget_memory_page, browser), methods=["GET", "POST"]),
        Route("/forget/fact/{fact_id}", _handled(forget_fact_page, browser), methods=["GET", "POST"]),
    ]
    return Starlette(routes=routes, middleware=[Middleware(TokenGuard, token=browser.token)])
