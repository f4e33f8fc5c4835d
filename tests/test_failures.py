"""Where the failure log and the hook settings cache live when SESSIONS_GRAPH_LOG_DIR is not set."""

from __future__ import annotations

from pathlib import Path

import platformdirs
import pytest

from sessions_graph_core.failures import APP_NAME, LOG_DIR_ENV, log_dir

ENVIRONMENTS = {  # name: (HOME, XDG_STATE_HOME); None: unset
    "XDG_STATE_HOME set": ("/home/ada", "/var/state/ada"),
    "XDG_STATE_HOME unset": ("/home/ada", None),
    "XDG_STATE_HOME empty": ("/home/ada", ""),
    "XDG_STATE_HOME relative (ignored)": ("/home/ada", "state"),
    "HOME relative": ("home/ada", None),
}


@pytest.mark.parametrize("home, state", list(ENVIRONMENTS.values()), ids=list(ENVIRONMENTS))
def test_the_log_folder_is_the_one_platformdirs_names(home: str, state: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """log_dir works the XDG rule out itself (a hook must not import platformdirs): it must agree with it."""
    monkeypatch.delenv(LOG_DIR_ENV, raising=False)
    monkeypatch.setenv("HOME", home)
    if state is None:
        monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_STATE_HOME", state)
    assert log_dir() == Path(platformdirs.user_state_dir(APP_NAME))


def test_the_log_folder_named_in_the_environment_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(LOG_DIR_ENV, str(tmp_path / "log"))
    monkeypatch.setenv("XDG_STATE_HOME", "/var/state/ada")
    assert log_dir() == tmp_path / "log"
