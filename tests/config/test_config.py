"""The config file: every key's validation, env overrides, masking, file mode, and the CLI."""

from __future__ import annotations

import itertools
import os
import stat
import subprocess
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import watchdog
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sessions_graph_core.children import sessions_graph_command
from sessions_graph_core.cli.main import main
from sessions_graph_core.config import model as config
from sessions_graph_core.config.model import ConfigError, load_config, set_value
from sessions_graph_core.recall.config import RecallConfig

# One good and one bad value for every key; the bad one must be refused at write time.
CASES = {
    "identity.user_id": ("alice@example.com", "alice smith"),
    "store.data_dir": ("~/sg-data", "/tmp/sg\x00data"),
    "store.url": ("bolt://localhost:7687", "http://localhost:7687"),
    "store.user": ("memgraph", None),
    "store.password": ("s3cret-password", None),
    "store.database": ("memgraph", None),
    "store.read_url": ("falkordb://127.0.0.1:6401", "falkordb://:secret@127.0.0.1:6401"),
    "store.replica_acks": ("1", "17"),
    "store.idle_seconds": ("600", "-5"),
    "store.timeout_s": ("2.5", "0"),
    "recall.embedding_model": ("paraphrase-MiniLM-L3-v2", None),
    "recall.profile": ("upstream", "widest"),
    "recall.lanes": ("turns, text", "turns,everything"),
    "recall.budget_tokens": ("1500", "-1"),
    "recall.memories_k": ("5", "-1"),
    "recall.turns_k": ("10", "ten"),
    "recall.text_k": ("10", "1001"),
    "recall.entities_k": ("5", "2.5"),
    "recall.edges_per_entity": ("3", "-3"),
    "recall.facts_k": ("8", "x"),
    "recall.fact_turns_k": ("4", "-1"),
    "recall.user_fact_types": ("2", "-1"),
    "recall.user_facts_k": ("6", "-1"),
    "recall.expansion_words": ("3", "-1"),
    "recall.turn_chars": ("1200", "0"),
    "extraction.backend": ("spacy", "bert"),
    "extraction.model": ("urchade/gliner_small", None),
    "extraction.entity_threshold": ("0.4", "1.5"),
    "llm.anthropic_api_key": ("sk-ant-abcdefghijklmnop", "sk-ant-abcdefghijklmnop\r\nX-Injected: 1"),
    "llm.openai_api_key": ("sk-abcdefghijklmnop", "sk-abcdefghijklmnop\r\nX-Injected: 1"),
    "llm.anthropic_model": ("claude-sonnet-4-5", None),
    "llm.openai_model": ("gpt-5", None),
    "llm.provider": ("openai-compatible", "ollama"),
    "llm.base_url": ("http://127.0.0.1:11434/v1", "ftp://127.0.0.1/v1"),
    "llm.api_key": ("local-server-key", "local-server-key\r\nX-Injected: 1"),
    "llm.model": ("qwen2.5:7b-instruct", "qwen\x1b[2Jinstruct"),
    "llm.timeout_s": ("30", "0"),
    "llm.retries": ("3", "11"),
    "llm.max_in_flight": ("1", "0"),
    "llm.max_tokens": ("512", "8"),
    "llm.max_attempts": ("5", "0"),
    "reconcile.auto_reconcile": ("true", "sometimes"),
    "ontology.path": ("~/coding.yaml", None),
    "ontology.derive": ("off", "merge"),
    "session_start.memory_index": ("false", "perhaps"),
    "session_start.resume": ("no", "2"),
}


@pytest.fixture
def path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    target = tmp_path / "conf" / "config.toml"
    monkeypatch.setenv(config.CONFIG_ENV, str(target))
    for variable in list(os.environ):
        if variable.startswith(config.ENV_PREFIX) and variable != config.CONFIG_ENV or variable in config.ENV_ALIASES:
            monkeypatch.delenv(variable)
    return target


def test_cases_cover_every_key() -> None:
    assert sorted(CASES) == sorted(config.keys())


# What a key's good value needs set first: an endpoint needs its model, an openai-compatible provider its endpoint.
NEEDS = {"llm.base_url": [("llm.model", "qwen2.5:7b-instruct")],
         "llm.provider": [("llm.model", "qwen2.5:7b-instruct"), ("llm.base_url", "http://127.0.0.1:11434/v1")]}


@pytest.mark.parametrize("key", sorted(CASES))
def test_every_key_accepts_a_good_value_and_refuses_a_bad_one(key: str, path: Path) -> None:
    good, bad = CASES[key]
    for needed, value in NEEDS.get(key, []):
        set_value(needed, value)
    set_value(key, good)
    stored = tomllib.loads(path.read_text())
    section, name = key.split(".")
    assert name in stored[section]
    before = path.read_bytes()
    if bad is None:
        return
    with pytest.raises(ConfigError) as refused:
        set_value(key, bad)
    assert key in str(refused.value)
    assert "allowed:" in str(refused.value)
    assert path.read_bytes() == before


@pytest.mark.parametrize("key", ["ontology.path", "store.data_dir"])
def test_a_home_of_no_user_is_refused_with_why(key: str, path: Path) -> None:
    """`~name` for a user this machine does not have: exit 2 saying so, the file unchanged (was a traceback)."""
    set_value("recall.turns_k", "12")
    before = path.read_bytes()
    result = CliRunner().invoke(main, ["config", "set", key, "~no-such-user-on-this-machine/x"])
    assert (result.exit_code, result.exception.__class__) == (2, SystemExit), result.output
    assert key in result.output and "no home directory is known" in result.output
    assert path.read_bytes() == before


def test_values_are_stored_typed(path: Path) -> None:
    set_value("recall.turns_k", "12")
    set_value("reconcile.auto_reconcile", "yes")
    set_value("extraction.entity_threshold", "0.25")
    set_value("recall.lanes", "turns,text")
    stored = tomllib.loads(path.read_text())
    assert stored == {
        "recall": {"turns_k": 12, "lanes": ["turns", "text"]},
        "reconcile": {"auto_reconcile": True},
        "extraction": {"entity_threshold": 0.25},
    }
    loaded = load_config()
    assert loaded.recall.model_dump(exclude_unset=True) == {"turns_k": 12, "lanes": ["turns", "text"]}
    assert loaded.reconcile.auto_reconcile is True


def test_unknown_key_is_refused_with_the_known_keys(path: Path) -> None:
    with pytest.raises(ConfigError, match="Unknown config key 'recall.width'.*recall.turns_k"):
        set_value("recall.width", "3")
    assert not path.exists()


def test_options_that_change_nothing_are_refused(path: Path) -> None:
    """Retired keys (validated once, never read) are refused by name, and the file keeps nothing of them."""
    for key in ("extraction.chunk_size", "extraction.chunk_overlap", "extraction.relation_threshold"):
        with pytest.raises(ConfigError, match=f"Unknown config key '{key}'"):
            set_value(key, "100")
    assert not path.exists() or "chunk" not in path.read_text()


def test_file_is_written_with_mode_0600_in_a_0700_folder(path: Path) -> None:
    set_value("llm.openai_api_key", "sk-abcdefghijklmnop")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    path.chmod(0o644)
    set_value("llm.openai_model", "gpt-5")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_environment_overrides_the_file(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    set_value("identity.user_id", "alice")
    set_value("recall.turns_k", "5")
    set_value("store.url", "bolt://file-host:7687")
    monkeypatch.setenv("SESSIONS_GRAPH_USER", "bob")
    monkeypatch.setenv("SESSIONS_GRAPH_RECALL_TURNS_K", "9")
    monkeypatch.setenv("MEMGRAPH_URL", "bolt://env-host:7687")
    loaded = load_config()
    assert (loaded.identity.user_id, loaded.recall.turns_k, loaded.store.url) == ("bob", 9, "bolt://env-host:7687")
    assert config.source_of("recall.turns_k") == "env SESSIONS_GRAPH_RECALL_TURNS_K"
    assert config.source_of("recall.text_k") == "default"
    monkeypatch.delenv("SESSIONS_GRAPH_RECALL_TURNS_K")
    assert config.source_of("recall.turns_k") == "file"
    # The environment is never written into the file.
    set_value("recall.text_k", "4")
    assert tomllib.loads(path.read_text())["identity"] == {"user_id": "alice"}


def test_generic_variable_wins_over_alias(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SESSIONS_GRAPH_USER", "bob")
    monkeypatch.setenv("SESSIONS_GRAPH_IDENTITY_USER_ID", "carol")
    assert load_config().identity.user_id == "carol"


def test_bad_environment_value_names_the_variable(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SESSIONS_GRAPH_RECONCILE_AUTO_RECONCILE", "sometimes")
    with pytest.raises(ConfigError, match="environment variable SESSIONS_GRAPH_RECONCILE_AUTO_RECONCILE: reconcile.auto_reconcile"):
        load_config()


def test_malformed_file_names_the_file(path: Path) -> None:
    path.parent.mkdir(parents=True)
    path.write_text("[recall\nturns_k = 3\n")
    with pytest.raises(ConfigError, match=f"Config file {path} is not valid TOML"):
        load_config()
    path.write_text("[recall]\nturns_k = 'many'\n")
    with pytest.raises(ConfigError, match=f"{path}: recall.turns_k: .*allowed: an integer from 0 to 1000"):
        load_config()
    path.write_text("[recall]\nwidth = 3\n")
    with pytest.raises(ConfigError, match=f"{path}: unknown key recall.width"):
        load_config()
    path.write_text("[colour]\nmode = 'dark'\n")
    with pytest.raises(ConfigError, match=f"{path}: unknown key colour"):
        load_config()


def test_missing_file_gives_defaults(path: Path) -> None:
    loaded = load_config()
    assert loaded.identity.user_id is None
    assert loaded.reconcile.auto_reconcile is False
    assert loaded.store.settings().backend == "falkordb"


def test_store_section_becomes_store_settings(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    set_value("store.url", "bolt://db:7687")
    set_value("store.password", "pw-123456")
    settings = config.store_settings()
    assert (settings.backend, settings.memgraph_url) == ("memgraph", "bolt://db:7687")
    assert settings.memgraph_password == "pw-123456" and "pw-123456" not in repr(settings)
    monkeypatch.setenv("MEMGRAPH_PASSWORD", "from-env-99")
    assert config.store_settings().memgraph_password == "from-env-99"


def test_unset_restores_the_default(path: Path) -> None:
    set_value("recall.turns_k", "3")
    assert config.unset_value("recall.turns_k") is True
    assert config.unset_value("recall.turns_k") is False
    loaded = load_config().recall
    assert "turns_k" not in loaded.model_fields_set and loaded.turns_k == RecallConfig().turns_k


def test_masking() -> None:
    from pydantic import SecretStr

    assert config.shown(SecretStr("sk-ant-abcdefghijklmnop"), secret=True) == "****mnop"
    assert config.shown(SecretStr("short"), secret=True) == "****"
    assert config.shown(None, secret=True) == "(unset)"


def _cli(*arguments: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*sessions_graph_command(), *arguments],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )


def test_cli_set_get_show(path: Path) -> None:
    env = {**os.environ, "COLUMNS": "200"}
    done = _cli("config", "set", "llm.anthropic_api_key", "sk-ant-abcdefghijklmnop", env=env)
    assert done.returncode == 0, done.stderr
    assert "sk-ant-abcdefghijklmnop" not in done.stdout
    assert "****mnop" in done.stdout
    shown = _cli("config", "show", env=env)
    assert shown.returncode == 0, shown.stderr
    assert "llm.anthropic_api_key" in shown.stdout and "****mnop" in shown.stdout
    assert "sk-ant-abcdefghijklmnop" not in shown.stdout
    assert _cli("config", "get", "llm.anthropic_api_key", env=env).stdout.strip() == "****mnop"
    revealed = _cli("config", "get", "llm.anthropic_api_key", "--reveal", env=env)
    assert revealed.stdout.strip() == "sk-ant-abcdefghijklmnop"
    refused = _cli("config", "set", "recall.turns_k", "-2", env=env)
    assert refused.returncode == 2
    assert "recall.turns_k" in refused.stderr and "an integer from 0 to 1000" in refused.stderr
    unknown = _cli("config", "get", "nope.key", env=env)
    assert unknown.returncode == 2 and "Unknown config key 'nope.key'" in unknown.stderr


ENDPOINT = {"llm.provider": "openai-compatible", "llm.base_url": "http://127.0.0.1:11434/v1", "llm.model": "qwen2.5:7b"}


@pytest.mark.parametrize("order", list(itertools.permutations(ENDPOINT)))
def test_an_endpoint_set_in_one_call_takes_its_keys_in_any_order(path: Path, order: tuple[str, ...]) -> None:
    stored = config.set_values([(key, ENDPOINT[key]) for key in order])
    assert stored == [ENDPOINT[key] for key in order]
    written = load_config(env={}).llm
    assert (written.provider, written.base_url, written.model) == tuple(ENDPOINT.values())


def test_an_endpoint_set_one_key_at_a_time_is_refused_with_the_one_command_that_sets_it(path: Path) -> None:
    config.set_values([("recall.turns_k", "7")])
    before = path.read_bytes()
    with pytest.raises(ConfigError) as refused:
        set_value("llm.provider", "openai-compatible")
    assert ("llm.base_url and llm.model as well; set them together in one command: sessions-graph config set "
            "llm.provider openai-compatible llm.base_url URL llm.model MODEL") in str(refused.value)
    with pytest.raises(ConfigError) as refused:
        set_value("llm.base_url", ENDPOINT["llm.base_url"])
    assert f"llm.base_url {ENDPOINT['llm.base_url']} llm.model MODEL" in str(refused.value)
    # One bad pair of several writes none of them.
    with pytest.raises(ConfigError, match="llm.base_url"):
        config.set_values([("llm.model", "m"), ("llm.base_url", "ftp://host/v1")])
    assert path.read_bytes() == before
    # The model first, then the URL, then the provider, one call each, still gets there.
    for key in ("llm.model", "llm.base_url", "llm.provider"):
        set_value(key, ENDPOINT[key])
    assert load_config(env={}).llm.usable() == "openai-compatible"


def test_cli_config_set_takes_several_pairs_and_refuses_a_key_without_a_value(path: Path) -> None:
    env = {**os.environ, "COLUMNS": "200"}
    alone = _cli("config", "set", "llm.base_url", ENDPOINT["llm.base_url"], env=env)
    assert alone.returncode == 2 and "llm.model MODEL" in alone.stderr and not path.exists()
    odd = _cli("config", "set", "llm.model", "m", "llm.base_url", env=env)
    assert odd.returncode == 2 and "'llm.base_url' has no value" in odd.stderr and not path.exists()
    done = _cli("config", "set", *itertools.chain(*reversed(ENDPOINT.items())), env=env)
    assert done.returncode == 0, done.stderr
    assert [line.split(" = ")[0] for line in done.stdout.splitlines()] == list(reversed(ENDPOINT))
    assert tomllib.loads(path.read_text())["llm"] == {key.removeprefix("llm."): value for key, value in ENDPOINT.items()}


ODD_VALUES = st.one_of(
    st.text(st.characters(blacklist_categories=()), max_size=40),  # NUL, lone surrogates, line ends included
    st.sampled_from(["", " ", "\n", "alice\n", "аlice", "x" * 300, "[" * 5_000, "nan", "inf", "-1", "1e400",
                     "http://h\n/x", "javascript:alert(1)", "/tmp/x\nExecStartPre=/bin/sh", "k\r\nX-Injected: 1"]),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@example(pairs=[("llm.anthropic_model", "")])  # was a TypeError traceback: the check made it None, TOML has no null
@example(pairs=[("store.data_dir", "/tmp/x\nExecStartPre=/bin/sh"), ("llm.api_key", "k\r\nX-Injected: 1")])
@example(pairs=[("ontology.path", "x" * 300)])  # was an OSError traceback: the file check's stat, name too long
@example(pairs=[("store.data_dir", "x" * 300)])
@example(pairs=[("store.database", "\ud800")])  # was a UnicodeEncodeError traceback writing the file
@example(pairs=[("ontology.path", "~0")])  # was a RuntimeError traceback: ~0 names no user, expanduser raised
@given(pairs=st.lists(st.tuples(st.sampled_from(sorted(CASES)), ODD_VALUES), min_size=1, max_size=3))
def test_config_set_of_any_values_writes_them_all_or_exits_2_and_changes_nothing(path: Path, pairs) -> None:
    """`config set` with hostile values (issue 36): no traceback and no hang; a refused call leaves the file
    as it was, byte for byte; an accepted one loads again."""
    before = path.read_bytes() if path.exists() else None
    with watchdog():
        result = CliRunner().invoke(main, ["config", "set", *itertools.chain(*pairs)])
    assert result.exception is None or isinstance(result.exception, SystemExit), (pairs, result.exception)
    assert result.exit_code in (0, 2), (pairs, result.output)
    if result.exit_code == 2:
        assert "error" in result.output.lower()
        assert (path.read_bytes() if path.exists() else None) == before
    else:
        load_config()


@pytest.mark.parametrize("key", ["ontology.path", "store.data_dir"])
@pytest.mark.parametrize("value", ["x" * 256, "/tmp/" + "d/" * 2_100 + "o.yaml"])
def test_a_path_no_file_system_can_hold_is_refused_with_why(key: str, value: str, path: Path) -> None:
    """A name over 255 bytes or a path over 4,096: exit 2 saying so, the file unchanged (was a traceback)."""
    set_value("recall.turns_k", "12")
    before = path.read_bytes()
    result = CliRunner().invoke(main, ["config", "set", key, value])
    assert (result.exit_code, result.exception.__class__) == (2, SystemExit), result.output
    assert key in result.output and "too long for a file name" in result.output
    assert path.read_bytes() == before


@pytest.mark.parametrize("command", [["config", "show"], ["doctor"]])
def test_a_config_variable_naming_the_home_of_no_user_says_so(command: list[str], path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """SESSIONS_GRAPH_CONFIG=~name/... for a user this machine does not have: the variable named and how to
    fix it, not pathlib's RuntimeError traceback."""
    monkeypatch.setenv(config.CONFIG_ENV, "~no-such-user-on-this-machine/config.toml")
    result = CliRunner().invoke(main, command)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (1, 2) and config.CONFIG_ENV in result.output, result.output
    assert "no home directory is known" in result.output
