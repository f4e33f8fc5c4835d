"""`sessions-graph ui` itself: it listens on 127.0.0.1 only, prints a URL whose token opens the pages,
and refuses a request without it; an unknown user is refused before anything listens."""

from __future__ import annotations

import os
import subprocess
import urllib.error
import urllib.request
from http.cookiejar import CookieJar
from urllib.parse import urlsplit

import pytest
from conftest import EXAMPLES

from sessions_graph_core.children import sessions_graph_command
from sessions_graph_core.store.falkordb.server import EmbeddedServer

START_SECONDS = 120


def status_of(url: str, jar: CookieJar | None = None) -> tuple[int, str]:
    """The status and page; with a jar, cookies are kept as a browser keeps them."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar if jar is not None else CookieJar()))
    try:
        with opener.open(url, timeout=60) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


@pytest.fixture
def started(cli, short_tmp):
    cli("session", "import", str(EXAMPLES / "orders-1.jsonl"))
    env = {**os.environ, "SESSIONS_GRAPH_DATA_DIR": str(short_tmp), "SESSIONS_GRAPH_CONFIG": str(short_tmp / "config.toml")}
    command = subprocess.Popen([*sessions_graph_command(), "ui", "--user", "alice"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert command.stdout is not None
        line = command.stdout.readline()  # blocks until the URL is printed (or the command ends)
        assert "?token=" in line, (line, command.stderr.read() if command.poll() is not None else "")
        yield line.split(": ", 1)[1].strip()
    finally:
        command.terminate()
        command.wait(timeout=60)
        EmbeddedServer(short_tmp).stop()


def test_the_printed_url_opens_the_pages_on_localhost_and_nothing_else_does(started):
    address = urlsplit(started)
    assert address.hostname == "127.0.0.1"
    jar = CookieJar()
    status, page = status_of(started, jar)  # the token becomes a cookie, and the page it redirects to opens
    assert status == 200 and "Facts now" in page and "alice" in page
    assert status_of(f"http://127.0.0.1:{address.port}/sessions", jar)[0] == 200
    assert status_of(f"http://127.0.0.1:{address.port}/facts")[0] == 403
    assert status_of(f"http://127.0.0.1:{address.port}/facts?token=wrong")[0] == 403


def test_an_unknown_user_is_refused_before_anything_listens(cli):
    cli("session", "import", str(EXAMPLES / "orders-1.jsonl"))
    assert "no user 'nobody'" in cli("ui", "--user", "nobody", code=1)


@pytest.mark.parametrize(("option", "value"), [
    ("--host", "\x00"), ("--host", "127.0.0.1\n"), ("--host", "a" * 300), ("--host", ""),
    ("--dagster-url", "javascript:alert(1)"), ("--dagster-url", "http://127.0.0.1:3000\n"),
])
def test_a_malformed_host_or_dagster_url_is_refused_before_anything_listens(cli, option, value):
    """A NUL host was a TypeError traceback; a dagster URL becomes a link on the session page."""
    cli("session", "import", str(EXAMPLES / "orders-1.jsonl"))
    said = cli("ui", "--user", "alice", option, value, code=2)
    assert option in said and "listening" not in said
