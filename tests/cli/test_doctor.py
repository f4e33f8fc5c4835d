"""`sessions-graph doctor` in a ready environment and in broken ones, through the real CLI."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from sessions_graph_core.children import sessions_graph_command
from sessions_graph_core.config.model import CONFIG_ENV, ENV_ALIASES, ENV_PREFIX, set_value
from sessions_graph_core.failures import LOG_DIR_ENV, record_failure


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for variable in list(os.environ):
        if variable.startswith(ENV_PREFIX) or variable in ENV_ALIASES or variable == "DAGSTER_HOME":
            monkeypatch.delenv(variable)
    config = tmp_path / "config.toml"
    monkeypatch.setenv(CONFIG_ENV, str(config))
    monkeypatch.setenv(LOG_DIR_ENV, str(tmp_path / "log"))
    return config


def doctor() -> tuple[int, dict[str, dict]]:
    done = subprocess.run(
        [*sessions_graph_command(), "doctor", "--json"],
        capture_output=True, text=True, env=dict(os.environ), timeout=300, check=False,
    )
    return done.returncode, {check["name"]: check for check in json.loads(done.stdout)}


def test_a_ready_environment_passes(env: Path, data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    set_value("identity.user_id", "alice")
    set_value("store.data_dir", str(data_dir))
    home = tmp_path / "dagster_home"
    home.mkdir()
    (home / "dagster.yaml").write_text("telemetry:\n  enabled: false\n")
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    code, checks = doctor()
    assert code == 0
    for name in ("config", "user", "store", "schema", "embedder", "extractor", "mcp", "dagster home", "hook failures"):
        assert checks[name]["status"] == "pass", checks[name]
    assert "384 dimensions" in checks["embedder"]["detail"]
    assert checks["llm key"]["status"] == "info"
    assert "derivation" in checks["llm key"]["detail"] and "llm.anthropic_api_key" in checks["llm key"]["fix"]


def test_missing_user_and_unreachable_store_fail_with_fixes(env: Path) -> None:
    set_value("store.url", "bolt://127.0.0.1:9")
    set_value("extraction.backend", "llm")
    record_failure("hook", RuntimeError("store went away"), hook_event="Stop")
    code, checks = doctor()
    assert code == 1
    assert checks["user"]["status"] == "fail"
    assert checks["user"]["fix"] == "sessions-graph config set identity.user_id <your-name>"
    assert checks["store"]["status"] == "fail" and "bolt://127.0.0.1:9" in checks["store"]["fix"]
    assert checks["extractor"]["status"] == "fail" and "no LLM key" in checks["extractor"]["detail"]
    assert checks["hook failures"]["status"] == "warn" and "store went away" in checks["hook failures"]["detail"]
    assert checks["dagster home"]["status"] == "warn"


def test_a_malformed_config_fails_naming_file_and_key(env: Path) -> None:
    env.write_text("[recall]\nturns_k = 'wide'\n")
    env.chmod(0o600)
    code, checks = doctor()
    assert code == 1
    assert checks["config"]["status"] == "fail"
    assert f"{env}: recall.turns_k" in checks["config"]["detail"]


def test_a_readable_config_file_is_flagged(env: Path, data_dir: Path) -> None:
    set_value("identity.user_id", "alice")
    set_value("store.data_dir", str(data_dir))
    env.chmod(0o644)
    code, checks = doctor()
    assert checks["config"]["status"] == "warn" and checks["config"]["fix"] == f"chmod 600 {env}"
    assert code == 0  # advice, not a failure


def test_a_missing_or_malformed_ontology_file_is_named_with_the_fix(env: Path, data_dir: Path, tmp_path: Path) -> None:
    set_value("identity.user_id", "alice")
    set_value("store.data_dir", str(data_dir))
    schema = tmp_path / "schema.yaml"
    set_value("ontology.path", str(schema))
    code, checks = doctor()
    assert checks["ontology file"]["status"] == "warn" and "does not exist" in checks["ontology file"]["detail"]
    assert str(schema) in checks["ontology file"]["fix"] and code == 0
    schema.write_text("relation_types: []\n")
    _, checks = doctor()
    assert checks["ontology file"]["status"] == "warn" and "entity_types" in checks["ontology file"]["detail"]
    schema.write_text("entity_types:\n  - {name: Service, description: a running service}\n")
    _, checks = doctor()
    assert checks["ontology file"]["status"] == "pass" and "entity types 1" in checks["ontology file"]["detail"]


def documented_checks() -> list[tuple[str, bool]]:
    """The docs' Doctor table (docs/integrations.md): each check's name and whether it is required."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "integrations.md").read_text()
    section = page.split("\n## Doctor\n", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1:-1] for line in section.splitlines() if line.startswith("| `")]
    return [(name.strip().strip("`"), required.strip() == "yes") for name, _, required in rows]


def test_the_docs_name_every_check_as_the_doctor_prints_it(env: Path, data_dir: Path) -> None:
    set_value("identity.user_id", "alice")
    set_value("store.data_dir", str(data_dir))
    _, checks = doctor()
    assert [name for name, _ in documented_checks()] == list(checks)
    for name, required in documented_checks():
        assert checks[name]["required"] == required, name


def test_a_piped_table_keeps_each_check_on_one_line(env: Path, data_dir: Path) -> None:
    set_value("identity.user_id", "alice")
    set_value("store.data_dir", str(data_dir))
    environment = {key: value for key, value in os.environ.items() if key != "COLUMNS"}
    done = subprocess.run([*sessions_graph_command(), "doctor"], capture_output=True, text=True, env=environment,
                          timeout=300, check=False)
    store_row = next(line for line in done.stdout.splitlines() if line.startswith("│ store "))
    assert f"embedded FalkorDB in {data_dir} answers" in store_row
