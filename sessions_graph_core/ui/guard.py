"""Who may use the pages: the holder of the token printed at start (in the URL once, then a cookie), and
only through forms the pages themselves rendered (a CSRF field derived from the token)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from urllib.parse import parse_qs

from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp

COOKIE = "sessions_graph_ui"
REFUSED = "wrong or missing token: open the URL `sessions-graph ui` printed (it holds ?token=...)"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def csrf_field(token: str) -> str:
    """The value every form carries back: known only to pages served with the token."""
    return hmac.new(token.encode(), b"csrf", hashlib.sha256).hexdigest()


def _cookie(request: Request) -> str:
    """One cookie per port: browsers share cookies across a host's ports, and two `ui`s (two users) may run."""
    return f"{COOKIE}_{request.url.port}"


def _same(given: str | None, expected: str) -> bool:
    return given is not None and hmac.compare_digest(given.encode(), expected.encode())


class TokenGuard(BaseHTTPMiddleware):
    """403 for a request without the token; a token in the URL becomes a same-site cookie and is dropped
    from the address, so it is not left in the history or sent on as a referrer."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        super().__init__(app)
        self.token = token

    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        in_url = request.query_params.get("token")
        if in_url is not None:
            if not _same(in_url, self.token):
                return PlainTextResponse(REFUSED, status_code=403)
            rest = [(key, value) for key, value in request.query_params.multi_items() if key != "token"]
            target = request.url.replace_query_params(**dict(rest)) if rest else request.url.remove_query_params("token")
            response = RedirectResponse(str(target.path) + (f"?{target.query}" if target.query else ""), status_code=303)
            response.set_cookie(_cookie(request), self.token, httponly=True, samesite="strict")
            return response
        if not _same(request.cookies.get(_cookie(request)), self.token):
            return PlainTextResponse(REFUSED, status_code=403)
        if request.method == "POST":
            # The body read here is kept for the page (Starlette caches it); forms are urlencoded.
            given = parse_qs((await request.body()).decode("utf-8", "replace")).get("csrf", [None])[0]
            if not _same(given, csrf_field(self.token)):
                return PlainTextResponse("refused: this form was not sent by a page of this browser; reload the page "
                                         "and submit it again", status_code=403)
        return await call_next(request)
