"""The memory browser's link from a session to its run (issue 44), against a real Dagster instance on disk:
a materialized partition whose run names the session, found by `python -m sessions_graph_dagster.session_runs`."""

from __future__ import annotations

import html
import urllib.error
import urllib.request

import dagster as dg
import pytest
from dagster_helpers import SAMPLES, import_transcript, resources_for

from devtools.chromium import serving
from sessions_graph_core.cli.forget import forget_everywhere, in_dagster
from sessions_graph_core.ui.app import Browser, build_app
from sessions_graph_core.ui.guard import COOKIE, new_token
from sessions_graph_dagster.sessions import reconciled_session

DAGSTER_UI = "http://dagster.example:3000"


class Unfollowed(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return None  # the test reads where a redirect points, without going there


def where_to(base: str, token: str, path: str) -> tuple[int, str]:
    """The status and, for a redirect, where it points (else the page), with the cookie the token's URL sets."""
    opener = urllib.request.build_opener(Unfollowed())
    cookie = f"{COOKIE}_{base.rsplit(':', 1)[1]}={token}"
    try:
        with opener.open(urllib.request.Request(base + path, headers={"Cookie": cookie})) as answer:
            return answer.status, html.unescape(answer.read().decode())
    except urllib.error.HTTPError as answer:
        return answer.code, answer.headers.get("location") or html.unescape(answer.read().decode())


@pytest.fixture
def instance():
    with dg.instance_for_test() as inst:  # on disk under a temporary DAGSTER_HOME, which the child process opens
        yield inst


def test_a_session_links_to_its_run_and_one_without_a_run_to_its_users_partition(instance, graph, store):
    for path in SAMPLES:
        import_transcript(graph, path)
    instance.add_dynamic_partitions("users", ["alice", "bob"])
    result = dg.materialize([reconciled_session], instance=instance, resources=resources_for(store), partition_key="alice",
                            run_config={"ops": {"reconciled_session": {"config": {"session_ids": ["orders-1"]}}}})
    assert result.success
    token = new_token()
    browser = Browser(graph, "alice", token, forget_everywhere, dagster_url=DAGSTER_UI, ask_dagster=in_dagster)
    with serving(build_app(browser)) as base:
        assert where_to(base, token, "/sessions/orders-1/dagster") == (303, f"{DAGSTER_UI}/runs/{result.run_id}")
        assert where_to(base, token, "/sessions/orders-2/dagster") == (
            303, f"{DAGSTER_UI}/assets/reconciled_session?view=partitions&partition=alice")
        status, page = where_to(base, token, "/sessions/garden-1/dagster")  # bob's
        assert status == 404 and "no session 'garden-1' of user 'alice'" in page
        status, page = where_to(base, token, "/sessions/orders-1")
        assert status == 200 and 'href="/sessions/orders-1/dagster"' in page


def test_without_a_dagster_url_the_link_is_refused_with_what_to_give(graph):
    for path in SAMPLES:
        import_transcript(graph, path)
    token = new_token()
    with serving(build_app(Browser(graph, "alice", token, forget_everywhere))) as base:
        status, page = where_to(base, token, "/sessions/orders-1/dagster")
        assert status == 400 and "--dagster-url" in page
        assert "/dagster" not in where_to(base, token, "/sessions/orders-1")[1]
