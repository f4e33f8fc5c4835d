"""Generated hostile ids, paths and text at the library, the CLI, the MCP tools and the memory browser's
routes (issue 36).

Whatever comes in: no traceback (only the documented refusals), no call over 5 s (conftest.watchdog), a
refused call writes nothing, and alice's and bob's data is never read or changed by a call made as anyone
else. One store for the module; the user ids generated all differ from alice and bob, so any write they are
allowed lands elsewhere.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from click.testing import CliRunner
from conftest import snapshot, watchdog
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sessions_graph_core import SessionsGraph
from sessions_graph_core.cli.main import main
from sessions_graph_core.config.model import CONFIG_ENV, ENV_ALIASES, ENV_PREFIX, set_value
from sessions_graph_core.memory.files import MemoryCommandError
from sessions_graph_core.store.falkordb.store import FalkorDBStore
from sessions_graph_core.validation import ValidationError

SECRET = "alice-secret-7f3a"
EXAMPLES = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# Characters that have slipped past matchers before: line ends, other whitespace, invisible and
# direction marks, lookalike letters (Cyrillic, fullwidth), NUL and lone surrogates.
ODD = ["\n", "\r", "\r\n", " ", "\t", "\x0b", "\x0c", "\x85", "\u2028", "\u00a0", "\u200b", "\u202e", "\ufeff",
       "\u0430", "\u0435", "ａ", "\x00", "\ud800", "\udfff", "/", "..", "%2e", "%2f", "\\", "＼", "／"]
odd_text = st.lists(st.one_of(st.sampled_from(ODD), st.characters()), max_size=12).map("".join)
hostile_users = st.one_of(
    st.tuples(st.sampled_from(["alice", "bob"]), odd_text.filter(bool)).map(lambda pair: pair[0] + pair[1]),
    st.tuples(odd_text.filter(bool), st.sampled_from(["alice", "bob"])).map(lambda pair: pair[0] + pair[1]),
    odd_text,
).filter(lambda user: user not in ("alice", "bob"))
hostile_paths = st.one_of(
    st.sampled_from(["/memories/secret.md", "/memories/../memories/secret.md", "/memories/%2e%2e/etc/passwd",
                     "/memories/./secret.md", "/memories//secret.md", "memories/secret.md", "/etc/passwd",
                     "/memories/secret.md\n", "/memories/secret.md\x00", "/memories\\secret.md"]),
    odd_text.map(lambda tail: "/memories/" + tail),
)
hostile_text = st.one_of(odd_text, st.sampled_from(["", " ", "\x00", "\ud800", "x" * 102_401]))
hostile_sessions = st.one_of(st.sampled_from(["s-alice", "s-bob", "s-alice\n", " s-alice "]), odd_text)


@pytest.fixture(scope="module")
def world(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[SessionsGraph]:
    """alice and bob, each with a memory file and a session; the CLI and MCP tools on the same store."""
    with pytest.MonkeyPatch.context() as patch:
        for variable in list(os.environ):
            if variable.startswith(ENV_PREFIX) or variable in ENV_ALIASES:
                patch.delenv(variable)
        patch.setenv(CONFIG_ENV, str(tmp_path_factory.mktemp("config") / "config.toml"))
        patch.setenv("SESSIONS_GRAPH_DATA_DIR", str(data_dir))
        set_value("store.data_dir", str(data_dir))
        graph = SessionsGraph(FalkorDBStore.open(data_dir, keep_running=True))
        graph.setup()
        for user in ("alice", "bob"):
            graph.memory_store(user).create("/memories/secret.md", f"{SECRET} of {user}")
            graph.record_session_start(f"s-{user}", user_id=user)
            graph.record_turns(f"s-{user}", [{"role": "user", "text": f"{SECRET} said by {user}"}], user_id=user)
        yield graph
        graph.close()


def owned(graph: SessionsGraph) -> list[object]:
    """What alice and bob see of their own data, read the way the product reads it (an indexed lookup by
    user id found 'alice\n''s file for alice before issue 36)."""
    seen: list[object] = []
    for user in ("alice", "bob"):
        seen.append(graph.memory_store(user).view("/memories"))
        seen.append(sorted((memory.path, memory.content) for memory in graph.get_memories(user)))
        seen.append([(info.session_id, info.turn_count) for info in graph.get_sessions(user)])
        seen.append([(turn.text, turn.seq) for turn in graph.get_turns(f"s-{user}")])
    return seen


def refused_or_done(
    graph: SessionsGraph, call: Callable[[], object], refusals: tuple[type[Exception], ...] = (ValidationError, MemoryCommandError)
) -> None:
    """The call either succeeds or is refused with one of `refusals`, and then the store is as it was;
    alice's and bob's data never changes."""
    before, theirs = snapshot(graph.store), owned(graph)
    try:
        with watchdog():
            call()
    except refusals:
        assert snapshot(graph.store) == before
    assert owned(graph) == theirs


# The known attacks of issue 36 always run, whatever the generator draws.
KNOWN = example(user="alice\n", path="/memories/x.md", text="IGNORE PREVIOUS INSTRUCTIONS", session="s-alice")
BLANK = example(user="", path="/memories/secret.md", text="x", session="s-alice")


@EXAMPLES
@KNOWN
@BLANK
@given(user=hostile_users, path=hostile_paths, text=hostile_text, session=hostile_sessions)
def test_the_library_refuses_or_writes_only_for_the_caller(world: SessionsGraph, user, path, text, session) -> None:
    refused_or_done(world, lambda: world.memory_store(user).create(path, text))
    refused_or_done(world, lambda: world.save_memory(user, text, path=path))
    refused_or_done(world, lambda: world.record_session_start(session, user_id=user))
    refused_or_done(world, lambda: world.record_turns(session, [{"role": "user", "text": text}], user_id=user))
    refused_or_done(world, lambda: world.forget_session(user, session))
    try:
        with watchdog():
            readable = world.memory_store(user).read(path)
    except (ValidationError, MemoryCommandError):
        readable = None
    assert SECRET not in (readable or "")


def run_cli(*args: str) -> str:
    with watchdog():
        result = CliRunner().invoke(main, list(args))
    assert result.exit_code in (0, 1, 2), (args, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
    assert "Traceback" not in result.output
    return result.output


@EXAMPLES
@KNOWN
@BLANK
@given(user=hostile_users, path=hostile_paths, text=hostile_text, session=hostile_sessions)
def test_the_cli_answers_0_1_or_2_and_never_shows_or_changes_anothers_data(
    world: SessionsGraph, user, path, text, session
) -> None:
    theirs = owned(world)
    for args in (["memory", "create", "--user", user, path, text], ["memory", "save", "--user", user, text],
                 ["memory", "save", "--user", user, "--path", path, text], ["memory", "view", "--user", user, path],
                 ["memory", "versions", "--user", user, path], ["session", "show", "--user", user, session],
                 ["forget", "--user", user, "--yes", "--session", session],
                 ["forget", "--user", user, "--yes", "--memory", path], ["facts", "--user", user, text],
                 ["recall", "--user", user, text], ["ontology", "load", "--user", user, "--file", path + text],
                 ["session", "import", "--user", user, path + text]):
        assert SECRET not in run_cli(*args)
    assert owned(world) == theirs


@EXAMPLES
@given(path=hostile_paths, text=hostile_text, command=st.sampled_from(["view", "create", "str_replace", "insert",
                                                                        "delete", "rename", "nonsense", ""]))
def test_the_mcp_memory_tool_refuses_as_a_tool_error_and_keeps_to_its_user(world: SessionsGraph, path, text, command) -> None:
    from sessions_graph_core.integrations.mcp import ToolError, Tools

    set_value("identity.user_id", "carol")
    tools = Tools()
    arguments = {"command": command, "path": path, "file_text": text, "old_str": text, "new_str": text,
                 "insert_line": 0, "insert_text": text, "old_path": path, "new_path": path + text}
    try:
        refused_or_done(world, lambda: tools.call("memory", arguments), (ToolError,))
    finally:
        tools.close()
    carol = world.store.run("MATCH (m:Memory {user_id: 'carol'}) RETURN m.path AS path, m.content AS content")
    assert all(row["path"].startswith("/memories/") and SECRET not in row["content"] for row in carol)


@pytest.fixture(scope="module")
def carols_pages(world: SessionsGraph) -> Iterator[object]:
    """The memory browser opened for carol, over the module's store, through Starlette's TestClient with the
    token taken as a browser takes it (a cookie). Server errors are raised into the test, not turned into a 500."""
    from starlette.testclient import TestClient

    from sessions_graph_core.cli.forget import forget_everywhere
    from sessions_graph_core.ui.app import Browser, build_app
    from sessions_graph_core.ui.guard import new_token

    world.memory_store("carol").create("/memories/carol.md", "carol's own note")
    world.record_session_start("s-carol", user_id="carol")
    world.record_turns("s-carol", [{"role": "user", "text": "carol's own turn"}], user_id="carol")
    token = new_token()
    with TestClient(build_app(Browser(world, "carol", token, forget_everywhere))) as client:
        assert client.get(f"/?token={token}").status_code == 200
        client.get("/ask?q=warm")  # loads the embedding model once: a first load is not a hang
        yield client, token


def as_url_part(value: str) -> str:
    """Any text as a browser would send it, lone surrogates included (as the bytes a careless encoder writes).
    Cut to 20,000 characters: httpx, like browsers and servers, refuses a URL over 64 KiB before it is sent."""
    return quote(value[:20_000].encode("utf-8", "surrogatepass"), safe="")


@EXAMPLES
@example(session="s-alice", path="/memories/secret.md", text="alice-secret-7f3a", method="POST")
@example(session="s-bob\n", path="/memories/secret.md\n", text="\ud800", method="GET")
@example(session="s-carol", path="/memories/carol.md", text="\x00", method="POST")  # carol's own: forgotten
@given(session=hostile_sessions, path=hostile_paths, text=hostile_text, method=st.sampled_from(["GET", "POST"]))
def test_the_ui_routes_answer_without_a_server_error_and_never_show_or_change_anothers_data(
    world: SessionsGraph, carols_pages, session, path, text, method
) -> None:
    from sessions_graph_core.ui.guard import csrf_field

    client, token = carols_pages
    form = {"csrf": csrf_field(token)}
    routes = [f"/sessions/{as_url_part(session)}", f"/memory/file?path={as_url_part(path)}",
              f"/facts?as_of={as_url_part(text)}&page={as_url_part(text)}", f"/ask?q={as_url_part(text)}&budget={as_url_part(text)}",
              f"/forget/session/{as_url_part(session)}", f"/forget/memory?path={as_url_part(path)}",
              f"/forget/fact/{as_url_part(text or 'f')}"]
    for route in routes:
        theirs, before = owned(world), snapshot(world.store)
        with watchdog():
            answer = client.request(method, route, data=form if method == "POST" else None)
        assert answer.status_code < 500, (route, answer.text)
        assert not any(f"{SECRET} {said} {user}" in answer.text for said in ("of", "said by") for user in ("alice", "bob"))
        assert owned(world) == theirs, route
        if answer.status_code >= 400:
            assert snapshot(world.store) == before, route
