"""The hook's settings: validated in full by load_config whenever the config file or environment changed, else cached."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sessions_graph_core.config import model as config
from sessions_graph_core.config.hook_cache import HookSettings, cache_path, hook_settings
from sessions_graph_core.config.model import ConfigError, set_value
from sessions_graph_core.failures import LOG_DIR_ENV
from sessions_graph_core.store.location import StoreSettings


@pytest.fixture
def path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for variable in list(os.environ):
        if variable.startswith(config.ENV_PREFIX) or variable in config.ENV_ALIASES:
            monkeypatch.delenv(variable)
    target = tmp_path / "config.toml"
    monkeypatch.setenv(config.CONFIG_ENV, str(target))
    monkeypatch.setenv(LOG_DIR_ENV, str(tmp_path / "log"))
    set_value("identity.user_id", "alice")
    set_value("store.data_dir", str(tmp_path / "data"))
    set_value("reconcile.auto_reconcile", "true")
    set_value("session_start.resume", "false")
    return target


def refuse_validation(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("load_config ran although nothing changed")

    monkeypatch.setattr(config, "load_config", refused)


def test_settings_come_from_the_validated_config(path: Path) -> None:
    assert hook_settings() == HookSettings(
        user_id="alice", store=StoreSettings(data_dir=path.parent / "data", graph="sessions_graph"),
        auto_reconcile=True, memory_index=True, resume=False,
    )


def test_an_unchanged_config_is_not_validated_again(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = hook_settings()
    refuse_validation(monkeypatch)
    assert hook_settings() == first


def test_a_changed_file_is_validated_again(path: Path) -> None:
    hook_settings()
    path.write_text(path.read_text() + "\n[recall]\nturns_k = -4\n")
    with pytest.raises(ConfigError, match="recall.turns_k"):
        hook_settings()
    with pytest.raises(ConfigError, match="recall.turns_k"):  # a refused config is never cached
        hook_settings()


def test_a_changed_environment_is_validated_again(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hook_settings()
    monkeypatch.setenv("SESSIONS_GRAPH_USER", "bob")
    assert hook_settings().user_id == "bob"
    monkeypatch.setenv("SESSIONS_GRAPH_RECONCILE_AUTO_RECONCILE", "sometimes")
    with pytest.raises(ConfigError, match="SESSIONS_GRAPH_RECONCILE_AUTO_RECONCILE"):
        hook_settings()


def test_a_memgraph_store_is_never_cached(path: Path) -> None:
    set_value("store.url", "bolt://localhost:7687")
    set_value("store.password", "s3cret-password")
    assert hook_settings().store.memgraph_url == "bolt://localhost:7687"
    assert not cache_path().exists()


def test_a_torn_cache_is_checked_again(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hook_settings()
    cache_path().write_text('{"key": ')
    assert hook_settings().user_id == "alice"
    refuse_validation(monkeypatch)
    assert hook_settings().user_id == "alice"  # and written whole again


def test_config_set_leaves_the_next_hook_nothing_to_check(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(LOG_DIR_ENV, str(tmp_path / "log"))
    cli("config", "set", "identity.user_id", "carol")
    refuse_validation(monkeypatch)
    assert hook_settings().user_id == "carol"
