"""`SessionsGraphConnector` events that spawn nothing, on the real store (spawning: tests/test_hooks.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from sessions_graph_core import SessionsGraph
from sessions_graph_core.integrations.connector import SessionsGraphConnector
from sessions_graph_core.sessions.projects import normalise_remote, project_key_for


def test_session_start_records_user_project_and_active_ids(graph: SessionsGraph, tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "remote", "add", "origin", "https://bob@GitHub.com:443/Acme/Orders.git"], check=True)
    connector = SessionsGraphConnector(graph)
    info = connector.session_start("s-1", "alice", cwd=tmp_path, metadata={"source_sdk": "claude-agent-sdk"})
    assert (info.user_id, info.project_key) == ("alice", "github.com_Acme_Orders")
    assert (connector.active_session_id, connector.active_user_id) == ("s-1", "alice")
    assert connector.record_turns([{"role": "user", "text": "hi"}]) == 1
    assert connector.record_turns([{"role": "user", "text": "hi"}]) == 1  # a second call appends (issue 36)
    assert graph.get_session("s-1").metadata == {"source_sdk": "claude-agent-sdk"}


def test_tool_end_links_only_the_users_written_files(graph: SessionsGraph) -> None:
    graph.memory_store("alice").create("/memories/a.md", "alice's note")
    graph.memory_store("bob").create("/memories/b.md", "bob's note")
    connector = SessionsGraphConnector(graph)
    connector.session_start("s-2", "alice")
    assert connector.tool_end("memory", {"command": "create", "path": "/memories/a.md", "file_text": "x"}) == 1
    assert connector.tool_end("memory", {"command": "create", "path": "/memories/b.md", "file_text": "x"}) == 0
    assert connector.tool_end("memory", {"command": "rename", "old_path": "/memories/x.md", "new_path": "/memories/a.md"}) == 1
    assert connector.tool_end("Bash", {"command": "create", "path": "/memories/a.md"}) == 0
    assert connector.tool_end("memory", {"command": "create", "path": "/memories/a.md"}, is_error=True) == 0
    assert connector.tool_end("memory", {"command": "create", "path": "/etc/passwd", "file_text": "x"}) == 0
    assert [m.path for m in graph.get_memories_for_session("s-2")] == ["/memories/a.md"]


@pytest.mark.parametrize(
    ("remote", "key"),
    [
        ("git@github.com:memgraph/ai-toolkit.git", "github.com_memgraph_ai-toolkit"),
        ("https://github.com/memgraph/ai-toolkit", "github.com_memgraph_ai-toolkit"),
        ("ssh://git@GitLab.example.com:2222/group/sub/repo.git", "gitlab.example.com_group_sub_repo"),
        ("https://user:token@host.io/a b/c.git", "host.io_a_b_c"),
        ("/srv/git/project.git", "srv_git_project"),
    ],
)
def test_remote_normalisation(remote: str, key: str) -> None:
    assert normalise_remote(remote) == key


def test_project_key_without_remote_or_directory(tmp_path: Path) -> None:
    folder = tmp_path / "My Project"
    folder.mkdir()
    assert project_key_for(folder) == "My_Project"
    assert project_key_for(tmp_path / "missing") is None
    assert project_key_for(None) is None
