"""`sessions-graph doctor`: is this machine ready to record sessions and answer recall, and if not, what to do.

Each check loads or runs the real thing once (the store answers a query, the embedder embeds a
sentence, the extractor reads one) and says how to fix a failure. A failed required check makes
the command exit 1; the others are advice.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import shutil
import stat
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from sessions_graph_core.config.model import Config, config_path, load_config
from sessions_graph_core.config.paths import CONFIG_ENV
from sessions_graph_core.failures import failure_log_path, recent_failures
from sessions_graph_core.validation import ValidationError

Status = Literal["pass", "fail", "warn", "info"]
DOCTOR_SENTENCE = "Alice moved the orders service to Postgres in Berlin last week."


class Check(BaseModel):
    name: str
    status: Status
    detail: str
    fix: str = ""
    required: bool = True


def check_config() -> tuple[Check, Config | None]:
    try:
        path = config_path()
    except ValidationError as exc:
        return Check(name="config", status="fail", detail=str(exc), fix=f"set {CONFIG_ENV} to the config file's full path, or unset it"), None
    try:
        config = load_config()
    except ValidationError as exc:
        return Check(name="config", status="fail", detail=str(exc), fix=f"correct the named key in {path}, or `sessions-graph config set KEY VALUE [KEY VALUE]...` (keys that need each other in one call)"), None
    if not path.exists():
        return Check(name="config", status="info", detail=f"no file at {path}: defaults and the environment apply", required=False), config
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        return Check(name="config", status="warn", detail=f"{path} has mode {mode:04o}: others can read keys in it", fix=f"chmod 600 {path}", required=False), config
    return Check(name="config", status="pass", detail=f"{path} (mode 0600)"), config


def check_user(config: Config) -> Check:
    if config.identity.user_id:
        return Check(name="user", status="pass", detail=f"identity.user_id = {config.identity.user_id}")
    return Check(
        name="user", status="fail", detail="no identity.user_id: hooks record nothing and the tools refuse",
        fix="sessions-graph config set identity.user_id <your-name>",
    )


def _store_fix(config: Config) -> str:
    settings = config.store.settings()
    if settings.memgraph_url:
        return f"start Memgraph at {settings.memgraph_url}, or check store.url / store.user / store.password"
    return f"see the server log in {settings.data_dir}; `sessions-graph store start` shows the error"


def check_store(config: Config) -> list[Check]:
    from sessions_graph_core.graph import SessionsGraph
    from sessions_graph_core.store.location import open_store

    settings = config.store.settings()
    where = settings.where()
    try:
        graph = SessionsGraph(open_store(settings, keep_running=True))
    except Exception as exc:  # noqa: BLE001 - any failure to connect is this check's answer
        return [
            Check(name="store", status="fail", detail=f"{where}: {exc}", fix=_store_fix(config)),
            Check(name="schema", status="fail", detail="not checked: the store is unreachable", fix=_store_fix(config)),
        ]
    try:
        graph.store.ping()
        checks = [Check(name="store", status="pass", detail=f"{where} answers; {service_state(config)}")]
        try:
            graph.setup()
            checks.append(Check(name="schema", status="pass", detail="constraints and indexes in place"))
        except Exception as exc:  # noqa: BLE001
            checks.append(Check(name="schema", status="fail", detail=str(exc), fix="sessions-graph setup"))
        return checks
    except Exception as exc:  # noqa: BLE001
        return [Check(name="store", status="fail", detail=f"{where}: {exc}", fix=_store_fix(config))]
    finally:
        graph.close()


def service_state(config: Config) -> str:
    """Whether a login service keeps the embedded store up (`sessions-graph service install`), in words for
    the store check (the README's doctor table names every check, and this is part of the store's)."""
    from sessions_graph_core.integrations import service

    settings = config.store.settings()
    if not settings.embedded:
        return "a server of its own, no login service"
    try:
        kind = service.manager()
    except ValidationError as exc:
        return str(exc)
    paths = service.installed(kind)
    if not paths:
        return (f"no login service (`sessions-graph service install` keeps it up from login; without it the store "
                f"stops after {settings.idle_seconds} s without use)")
    replies = service.ask_manager(kind, "state", paths)
    if all(reply.ok for reply in replies):
        return f"login service installed and running ({kind}: {', '.join(path.name for path in paths)})"
    return f"login service installed but not running ({'; '.join(reply.said for reply in replies)}): `sessions-graph service status`"


def check_embedder(config: Config) -> Check:
    from sessions_graph_core.embeddings.models import MAGE_PREFIX, load_embedder

    model = config.recall.model()
    if model.startswith(MAGE_PREFIX):
        return check_mage_embedder(config, model)
    try:
        embedder = load_embedder(model)
        vectors = embedder.embed([DOCTOR_SENTENCE])
    except Exception as exc:  # noqa: BLE001
        return Check(
            name="embedder", status="fail", detail=f"{model}: {exc}",
            fix="sessions-graph config unset recall.embedding_model (the default model ships with the package)",
        )
    return Check(name="embedder", status="pass", detail=f"{embedder.model} ({vectors.shape[1]} dimensions) embedded a sentence")


def check_mage_embedder(config: Config, model: str) -> Check:
    """A `mage:` model runs inside the configured store, so the check embeds a sentence there."""
    from sessions_graph_core.embeddings.models import MAGE_PREFIX, load_embedder
    from sessions_graph_core.store.location import open_store

    fix = (
        "run Memgraph with MAGE (the memgraph/memgraph-mage image) and at least 2 GiB of memory for the model "
        "inside it, or sessions-graph config unset recall.embedding_model to embed on this machine"
    )
    try:
        store = open_store(config.store.settings(), keep_running=True)
    except Exception as exc:  # noqa: BLE001 - the store check names the cause and its fix
        return Check(name="embedder", status="fail", detail=f"{model}: the store is unreachable: {exc}", fix=fix)
    try:
        vectors = load_embedder(model, store=store).embed([DOCTOR_SENTENCE])
    except Exception as exc:  # noqa: BLE001
        return Check(name="embedder", status="fail", detail=f"{model}: {exc}", fix=fix)
    finally:
        store.close()
    name = model.removeprefix(MAGE_PREFIX)
    return Check(name="embedder", status="pass", detail=f"{name} ({vectors.shape[1]} dimensions) inside Memgraph")


def check_extractor(config: Config) -> Check:
    from sessions_graph_core.ontology.model import DEFAULT_MODEL
    from sessions_graph_core.reconcile.extraction.registry import get_backend

    name = config.extraction.backend
    if name in ("llm", "spacy+llm"):
        if config.llm.usable() is None:
            return Check(
                name="extractor", status="fail", detail=f"extraction.backend = {name} but no LLM key or endpoint is set",
                fix="sessions-graph config set llm.anthropic_api_key <key>, or set extraction.backend spacy",
            )
        called = "the llm endpoint check calls it" if config.llm.usable() == "openai-compatible" else "not called here: it is billed"
        return Check(name="extractor", status="pass", detail=f"LLM extraction via {config.llm.usable()} ({called})")
    try:
        backend = get_backend(name)
        [extraction] = backend.extract([DOCTOR_SENTENCE], DEFAULT_MODEL, [])
    except Exception as exc:  # noqa: BLE001
        return Check(name="extractor", status="fail", detail=f"{name or 'default'} backend: {exc}", fix="sessions-graph config set extraction.backend spacy")
    return Check(
        name="extractor", status="pass",
        detail=f"{type(backend).__name__} found {len(extraction.entities)} entities in a test sentence",
    )


class _Ping(BaseModel):
    working: bool


def check_ontology_file(config: Config) -> Check:
    """A configured schema file is read at every reconcile; one that is missing or malformed is only warned
    about there, so the doctor says it once, with the fix."""
    from sessions_graph_core.ontology.model import read_schema_file

    path = config.ontology.path
    if path is None:
        return Check(name="ontology file", status="info", required=False,
                     detail="ontology.path not set: the built-in schema and what derivation adopts apply")
    fix = f"write a schema YAML at {path} (entity_types, relation_types), or `sessions-graph config set ontology.path PATH`"
    if not path.exists():
        return Check(name="ontology file", status="warn", required=False, fix=fix,
                     detail=f"{path} does not exist: reconcile keeps the adopted version and warns")
    try:
        model, _ = read_schema_file(path)
    except ValidationError as exc:
        return Check(name="ontology file", status="warn", required=False, detail=str(exc), fix=fix)
    return Check(name="ontology file", status="pass", required=False,
                 detail=f"{path}: entity types {len(model.node_types)}, relation types {len(model.relation_types)}")


def check_llm(config: Config) -> Check:
    provider = config.llm.usable()
    if provider == "openai-compatible":
        return check_endpoint(config)
    if provider:
        return Check(name="llm key", status="pass", detail=f"{provider} key set: ontology derivation and LLM extraction are on", required=False)
    return Check(
        name="llm key", status="info", required=False,
        detail="no key: ontology derivation and LLM extraction are off; recording, embedding, extraction and recall work",
        fix="sessions-graph config set llm.anthropic_api_key <key> (or llm.openai_api_key, or llm.model and llm.base_url)",
    )


def check_endpoint(config: Config) -> Check:
    """One small structured call to the OpenAI-compatible server, uncached and not retried; says what failed."""
    import openai

    from sessions_graph_core.llm import LlmClient, LlmReplyError

    llm = LlmClient.from_config(config)
    llm.cache = None
    llm.client = llm.client.with_options(max_retries=0)
    where = f"{config.llm.base_url} model {llm.model}"
    failed = partial(Check, name="llm endpoint", status="fail", required=False)
    try:
        llm.ask("You check that a server works.", "Does this server work? Answer true.", _Ping)
    except openai.APIConnectionError as exc:  # a timeout is one too
        return failed(detail=f"unreachable: {where}: {exc}", fix="start the server, or correct llm.base_url")
    except openai.NotFoundError as exc:
        return failed(detail=f"unknown model: {where}: {exc}", fix="set llm.model to a model the server serves")
    except (openai.BadRequestError, LlmReplyError) as exc:
        return failed(detail=f"no structured output: {where}: {exc}", fix="use a server or model that takes JSON mode or a JSON schema")
    except openai.APIError as exc:
        return failed(detail=f"the server refused the call: {where}: {exc}", fix="check llm.api_key and the server's log")
    mode = "JSON schema" if llm.takes_schema else "JSON mode"
    return Check(name="llm endpoint", status="pass", required=False,
                 detail=f"{where} answered a structured call ({mode}; {llm.usage.input_tokens + llm.usage.output_tokens} tokens)")


def check_mcp() -> Check:
    # Found, not imported: importing the SDK takes over a second and `sessions-graph mcp` imports it anyway.
    if importlib.util.find_spec("mcp") is None:
        return Check(name="mcp", status="fail", detail="the mcp package is missing: `sessions-graph mcp` cannot serve the tools",
                     fix="pip install 'sessions-graph[mcp]'", required=False)
    version = importlib.metadata.version("mcp")
    return Check(name="mcp", status="pass", detail=f"mcp {version} installed: `sessions-graph mcp` serves recall and memory",
                 required=False)


def check_executable() -> Check:
    found = shutil.which("sessions-graph")
    if found:
        return Check(name="executable", status="pass", detail=found, required=False)
    return Check(
        name="executable", status="warn", required=False,
        detail="sessions-graph is not on PATH, so the shipped hook and MCP configs cannot start it",
        fix="put the venv's bin folder on PATH, or write its full path into the hook and MCP configs",
    )


def check_dagster_home() -> Check:
    home = os.environ.get("DAGSTER_HOME")
    if not home:
        return Check(name="dagster home", status="warn", required=False,
                     detail="DAGSTER_HOME is not set in this shell: `dagster` commands (a backfill) find no instance; "
                     "the platform scripts/main started has its own",
                     fix="export DAGSTER_HOME=<checkout>/.dagster_home (scripts/main makes it), or a folder with dagster.yaml")
    if not (Path(home) / "dagster.yaml").is_file():
        return Check(name="dagster home", status="warn", required=False, detail=f"{home} holds no dagster.yaml",
                     fix=f"cp dagster.yaml {home}/")
    return Check(name="dagster home", status="pass", detail=home, required=False)


def check_hook_failures() -> Check:
    failures = recent_failures(limit=50)
    if not failures:
        return Check(name="hook failures", status="pass", detail="none logged", required=False)
    last = failures[-1]
    return Check(
        name="hook failures", status="warn", required=False,
        detail=f"{len(failures)} recent; last at {last.get('at')}: {last.get('error')}",
        fix=f"read {failure_log_path()}; fix the cause, then delete the file",
    )


def run_checks() -> list[Check]:
    config_check, config = check_config()
    checks = [config_check]
    if config is None:
        return [*checks, check_mcp(), check_executable(), check_dagster_home(), check_hook_failures()]
    steps: list[Callable[[], Check | list[Check]]] = [
        partial(check_user, config),
        partial(check_store, config),
        partial(check_embedder, config),
        partial(check_extractor, config),
        partial(check_ontology_file, config),
        partial(check_llm, config),
        check_mcp,
        check_executable,
        check_dagster_home,
        check_hook_failures,
    ]
    for step in steps:
        result = step()
        checks.extend(result if isinstance(result, list) else [result])
    return checks


def failed_required(checks: list[Check]) -> bool:
    return any(check.status == "fail" and check.required for check in checks)
