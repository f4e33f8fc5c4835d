"""Generated hostile input at the hook, import, MCP and config entry points (issue 36): nested JSON up to
50,000 deep, oversized text, lone surrogates, NULs, devices and pipes. Each call ends (a watchdog turns a
hang into a failure), raises nothing but our own clear error, and a refused call writes nothing."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import watchdog
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_graph_core.config.model import CONFIG_ENV, ConfigError, load_config, set_value
from sessions_graph_core.failures import LOG_DIR_ENV
from sessions_graph_core.inputs import MAX_JSON_DEPTH, InputError, read_bytes
from sessions_graph_core.integrations import hooks
from sessions_graph_core.integrations.mcp import CheckedLines
from sessions_graph_core.sessions.jsonl import read_transcript
from sessions_graph_core.store.falkordb.server import EmbeddedServer
from sessions_graph_core.store.falkordb.store import FalkorDBStore
from sessions_graph_core.validation import ValidationError

HOSTILE = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def nested_text(depth: int, kind: str) -> str:
    """A JSON value nested `depth` deep, written as text (building it as a value would need the depth in frames)."""
    if kind == "list":
        return "[" * depth + '"leaf"' + "]" * depth
    return '{"a": ' * depth + '"leaf"' + "}" * depth


depths = st.one_of(st.integers(MAX_JSON_DEPTH + 1, 600), st.sampled_from([1_000, 5_000, 50_000]))
kinds = st.sampled_from(["list", "dict"])
# Any code point, the lone surrogates and NUL included.
hostile_text = st.text(st.characters(blacklist_categories=()), max_size=200)


@pytest.fixture
def hook_env(short_tmp: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "config.toml"))
    monkeypatch.setenv(LOG_DIR_ENV, str(tmp_path / "log"))
    set_value("identity.user_id", "alice")
    set_value("store.data_dir", str(short_tmp))
    yield short_tmp
    EmbeddedServer(short_tmp).stop()


def sessions_in(data_dir: Path) -> list[str]:
    server = EmbeddedServer(data_dir)
    if not server.responds():
        return []
    store = FalkorDBStore(server, graph="sessions_graph")
    try:
        return [row["sid"] for row in store.run("MATCH (s:Session) RETURN s.session_id AS sid")]
    finally:
        store.close()


@HOSTILE
@given(depth=depths, kind=kinds, where=st.sampled_from(["tool_input", "tool_response", "cwd"]))
def test_a_hook_given_nested_input_records_nothing_and_raises_nothing(hook_env: Path, depth: int, kind: str, where: str) -> None:
    raw = f'{{"session_id": "s-{uuid.uuid4().hex}", "{where}": {nested_text(depth, kind)}}}'
    with watchdog():
        assert hooks.run_hook("PostToolUse", raw.encode()) is None
    assert sessions_in(hook_env) == []


@HOSTILE
@given(size=st.integers(1, 5_000), text=hostile_text)
def test_a_hook_given_oversized_or_unreadable_input_records_nothing(
    hook_env: Path, monkeypatch: pytest.MonkeyPatch, size: int, text: str
) -> None:
    monkeypatch.setattr(hooks, "MAX_STDIN_BYTES", 1_000)  # the real 64 MiB, scaled down
    payload = json.dumps({"session_id": f"s-{uuid.uuid4().hex}", "tool_input": "x" * (1_000 + size)})
    with watchdog():
        assert hooks.run_hook("PostToolUse", payload.encode()) is None
        assert hooks.run_hook("PostToolUse", text.encode("utf-8", "surrogatepass")) is None
    assert sessions_in(hook_env) == []


@HOSTILE
@given(depth=depths, kind=kinds, line=hostile_text)
def test_an_import_of_nested_or_hostile_lines_is_refused_before_anything_is_written(
    tmp_path: Path, depth: int, kind: str, line: str
) -> None:
    path = tmp_path / f"{uuid.uuid4().hex}.jsonl"
    good = json.dumps({"role": "user", "text": "a good line"})
    deep = '{"type": "tool_call", "tool_name": "Bash", "tool_input": {"a": ' + nested_text(depth, kind) + "}}"
    path.write_bytes(f"{good}\n{deep}\n".encode() + line.encode("utf-8", "surrogatepass") + b"\n")
    with watchdog(), pytest.raises(ValidationError) as refused:
        read_transcript(path)  # the import reads every line before it writes: a refusal here writes nothing
    assert f"{path}:2:" in str(refused.value) or f"{path}:3:" in str(refused.value) or "UTF-8" in str(refused.value)


@HOSTILE
@given(
    body=st.one_of(
        st.builds(lambda depth, kind: '{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": '
                  '{"name": "recall", "arguments": {"question": ' + nested_text(depth, kind) + "}}}", depths, kinds),
        st.builds(lambda text: json.dumps({"jsonrpc": "2.0", "id": text, "method": "tools/list"}), hostile_text),
        st.builds(lambda text: json.dumps([{"jsonrpc": "2.0", "id": 1, "method": text}]), hostile_text),
        hostile_text,
    )
)
def test_every_mcp_line_is_passed_on_valid_or_answered_with_an_error(body: str) -> None:
    import mcp_types

    with watchdog():
        checked = CheckedLines(None, {}).check(body)  # type: ignore[arg-type]
        if isinstance(checked, str):
            if checked.strip():
                mcp_types.jsonrpc_message_adapter.validate_json(checked, by_name=False)  # the SDK takes it
            return
    request_id, code, message = checked
    assert code in (mcp_types.PARSE_ERROR, mcp_types.INVALID_REQUEST) and message
    assert request_id is None or isinstance(request_id, (int, str)) and "\ufffd" not in str(request_id)


@HOSTILE
@given(depth=depths, text=hostile_text)
def test_a_config_file_of_any_shape_is_loaded_or_refused_with_a_config_error(tmp_path: Path, depth: int, text: str) -> None:
    for content in (
        b'[identity]\nuser_id = "alice"\n[recall]\nlanes = ' + b"[" * depth + b"]" * depth + b"\n",
        text.encode("utf-8", "surrogatepass"),
    ):
        path = tmp_path / "config.toml"
        path.write_bytes(content)
        with watchdog():
            try:
                load_config(path, env={})
            except ConfigError as exc:
                assert str(exc)


@pytest.mark.parametrize("special", ["/dev/zero", "fifo", "directory", "large file"])
def test_devices_pipes_directories_and_large_files_are_refused_not_read_for_ever(tmp_path: Path, special: str) -> None:
    path = Path(special) if special.startswith("/") else tmp_path / special
    if special == "fifo":
        os.mkfifo(path)
    elif special == "directory":
        path.mkdir()
    elif special == "large file":
        path.write_bytes(b"x" * 1_000_001)
    with watchdog(), pytest.raises(InputError):
        read_bytes(path, what="input", max_bytes=1_000_000)
