"""The config file: who the user is, where the store lives, and how recall, extraction and the LLMs run.

The file is `~/.config/sessions-graph/config.toml` (or `SESSIONS_GRAPH_CONFIG`), written with mode
0600 because it may hold API keys and passwords. Environment variables override it: the names in
`ENV_ALIASES`, and `SESSIONS_GRAPH_<SECTION>_<KEY>` for every key (e.g. `SESSIONS_GRAPH_RECALL_TURNS_K`).
Hooks and detached children read the same file, so one `config set` reaches all of them.
"""

from __future__ import annotations

import os
import tempfile
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import tomli_w
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    field_validator,
    model_validator,
)
from pydantic import ValidationError as PydanticError

from sessions_graph_core import validation
from sessions_graph_core.config.paths import (  # noqa: F401 - CONFIG_ENV: callers import it from here
    CONFIG_ENV,
    ENV_ALIASES,
    ENV_PREFIX,
    config_path,
)
from sessions_graph_core.inputs import MAX_CONFIG_BYTES, MAX_JSON_DEPTH, InputError, nests_deeper, read_text
from sessions_graph_core.recall.config import RecallConfig
from sessions_graph_core.store.location import DEFAULT_IDLE_SECONDS, DEFAULT_TIMEOUT_S, StoreSettings, default_data_dir
from sessions_graph_core.validation import ValidationError

FILE_MODE = 0o600
STORE_URL_SCHEMES = ("bolt://", "bolt+s://", "bolt+ssc://", "neo4j://", "neo4j+s://", "neo4j+ssc://", "falkordb://")


class ConfigError(ValidationError):
    """A config file, key or value that cannot be used; says which and how to fix it."""


def _allowed(text: str) -> Any:
    """A field's description is the phrase every error about it shows as the allowed values."""
    return {"description": text}


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Identity(Section):
    user_id: str | None = Field(None, **_allowed("1-256 letters, digits, '_', '@', '.' or '-'"))

    @field_validator("user_id")
    @classmethod
    def _user(cls, value: str | None) -> str | None:
        if value is None:
            return None
        try:
            return validation.user_id(value)
        except ValidationError:
            raise ValueError("not a valid user id") from None


class Store(Section):
    data_dir: Path | None = Field(None, **_allowed("a directory for the embedded store"))
    url: str | None = Field(
        None, **_allowed(f"a Memgraph URL or a standalone FalkorDB server's, starting with {', '.join(STORE_URL_SCHEMES)}")
    )
    user: str = Field("", **_allowed("the Memgraph user name"))
    password: SecretStr = Field(SecretStr(""), **_allowed("the Memgraph or standalone FalkorDB password"))
    database: str = Field("memgraph", **_allowed("the Memgraph database name"))
    read_url: str | None = Field(None, **_allowed("falkordb://HOST:PORT of a replica that recall reads from"))
    replica_acks: int = Field(0, ge=0, le=16, **_allowed("how many replicas must hold a write before it counts as done (0-16)"))
    idle_seconds: int = Field(
        DEFAULT_IDLE_SECONDS, ge=0, le=7 * 86400,
        **_allowed("seconds without a command before an embedded store a command started stops itself (0: never; at most 604800)"),
    )
    timeout_s: float = Field(
        DEFAULT_TIMEOUT_S, gt=0, le=60,
        **_allowed("seconds a standalone FalkorDB server may take to answer a statement before it is reported as not answering (above 0, at most 60)"),
    )

    @field_validator("url")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        if value and not value.startswith(STORE_URL_SCHEMES):
            raise ValueError("not a Bolt or falkordb:// URL")
        if value and value.startswith("falkordb://"):
            _falkordb_url(value)
        return value or None

    @field_validator("read_url")
    @classmethod
    def _read_url(cls, value: str | None) -> str | None:
        if value:
            _falkordb_url(value)
        return value or None

    @field_validator("data_dir")
    @classmethod
    def _expanded(cls, value: Path | None) -> Path | None:
        # A NUL fails every file call with a traceback; a line end would start a setting of its own in a service unit.
        if value is None:
            return None
        if validation.has_control_characters(str(value)):
            raise ValueError("a directory path may not hold control characters")
        return _storable(validation.home_expanded(value))

    def settings(self) -> StoreSettings:
        falkordb = bool(self.url and self.url.startswith("falkordb://"))
        return StoreSettings(
            data_dir=self.data_dir or default_data_dir(),
            memgraph_url=None if falkordb else self.url,
            memgraph_user=self.user,
            memgraph_password="" if falkordb else self.password.get_secret_value(),
            memgraph_database=self.database,
            falkordb_url=self.url if falkordb else None,
            falkordb_password=self.password.get_secret_value() if falkordb else "",
            read_url=self.read_url,
            replica_acks=self.replica_acks,
            idle_seconds=self.idle_seconds,
            timeout_s=self.timeout_s,
        )


def _falkordb_url(value: str) -> None:
    from sessions_graph_core.store.falkordb.store import falkordb_address  # the one parser of these URLs

    falkordb_address(value)


_LENGTH = _allowed("an integer from 1 to 100000")


_THRESHOLD = _allowed("a number from 0 to 1")


class Extraction(Section):
    backend: Literal["spacy", "gliner", "llm", "spacy+llm"] | None = Field(
        None, **_allowed("spacy, gliner, llm or spacy+llm (unset: gliner when its weights are local, else spacy)")
    )
    model: str | None = Field(None, **_allowed("a model name or local directory for the backend"))
    entity_threshold: float | None = Field(None, ge=0, le=1, **_THRESHOLD)


LLM_PROVIDERS = ("anthropic", "openai", "openai-compatible")


class Llm(Section):
    provider: Literal["anthropic", "openai", "openai-compatible"] | None = Field(
        None, **_allowed("anthropic, openai or openai-compatible (unset: anthropic when its key is set, then openai, "
                         "then openai-compatible when llm.base_url is set)")
    )
    anthropic_api_key: SecretStr | None = Field(None, **_allowed("an Anthropic API key"))
    openai_api_key: SecretStr | None = Field(None, **_allowed("an OpenAI API key"))
    anthropic_model: str | None = Field(None, **_allowed("an Anthropic model name"))
    openai_model: str | None = Field(None, **_allowed("an OpenAI model name"))
    base_url: str | None = Field(
        None, **_allowed("the http:// or https:// URL of an OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1")
    )
    api_key: SecretStr | None = Field(None, **_allowed("the OpenAI-compatible server's key, if it asks for one"))
    model: str | None = Field(None, **_allowed("the model name the OpenAI-compatible server serves"))
    timeout_s: float = Field(120.0, gt=0, le=3600, **_allowed("seconds one LLM call may take, above 0 and at most 3600"))
    retries: int = Field(2, ge=0, le=10, **_allowed("how many times a failed or timed-out call is tried again (0-10)"))
    max_in_flight: int = Field(4, ge=1, le=64, **_allowed("how many LLM calls may wait on the server at once (1-64)"))
    max_tokens: int = Field(2048, ge=16, le=100000, **_allowed("the longest reply an OpenAI-compatible server may give, in tokens (16-100000)"))
    max_attempts: int = Field(3, ge=1, le=100, **_allowed(
        "how many reconcile runs ask the model again about a text whose reply could not be used, before "
        "giving up on it (1-100)"))

    @field_validator("base_url")
    @classmethod
    def _base_url(cls, value: str | None) -> str | None:
        if not value:
            return None
        if not value.startswith(("http://", "https://")) or validation.has_control_characters(value) or " " in value:
            raise ValueError("not an http:// or https:// URL")
        return value.rstrip("/")

    @field_validator("api_key", "anthropic_api_key", "openai_api_key")
    @classmethod
    def _key(cls, value: SecretStr | None) -> SecretStr | None:
        # A key is sent as an HTTP header, which cannot hold a line end: refused here, not at the first call.
        if value is not None and validation.has_control_characters(value.get_secret_value()):
            raise ValueError("an API key may not hold control characters")
        return value

    @field_validator("model", "anthropic_model", "openai_model")
    @classmethod
    def _model(cls, value: str | None) -> str | None:
        if value is not None and validation.has_control_characters(value):
            raise ValueError("a model name may not hold control characters")
        return value or None

    @model_validator(mode="after")
    def _endpoint_needs_model(self) -> Llm:
        # Each `config set` checks the whole section, so the message names every key still missing and the one
        # command that sets them together: set one by one, the first would be refused for lack of the others.
        missing = {"llm.base_url": "URL"} if self.provider == "openai-compatible" and not self.base_url else {}
        if (self.base_url or missing) and not self.model and self.chosen() == "openai-compatible":
            missing["llm.model"] = "MODEL"
        if not missing:
            return self
        given = {"llm.provider": self.provider, "llm.base_url": self.base_url, "llm.model": self.model}
        pairs = {key: value for key, value in given.items() if value} | missing
        command = "sessions-graph config set " + " ".join(f"{key} {value}" for key, value in pairs.items())
        raise ValueError(f"an OpenAI-compatible endpoint needs {' and '.join(missing)} as well; "
                         f"set them together in one command: {command}")

    def chosen(self) -> str | None:
        """llm.provider when set; else Anthropic, OpenAI, then an OpenAI-compatible server; None when none is set."""
        if self.provider:
            return self.provider
        if self.anthropic_api_key and self.anthropic_api_key.get_secret_value():
            return "anthropic"
        if self.openai_api_key and self.openai_api_key.get_secret_value():
            return "openai"
        if self.base_url:
            return "openai-compatible"
        return None

    def usable(self) -> str | None:
        """The chosen provider when what it needs is set (a key, or a server's URL), else None."""
        chosen = self.chosen()
        key = {"anthropic": self.anthropic_api_key, "openai": self.openai_api_key}.get(chosen or "")
        if chosen in ("anthropic", "openai") and not (key and key.get_secret_value()):
            return None
        return chosen


class Reconcile(Section):
    auto_reconcile: bool = Field(False, **_allowed("true or false"))


class Ontology(Section):
    path: Path | None = Field(None, **_allowed("the path of an ontology YAML file"))
    derive: Literal["extend", "off"] = Field("extend", **_allowed("extend or off"))

    @field_validator("path")
    @classmethod
    def _a_file(cls, value: Path | None) -> Path | None:
        if value is None:
            return None
        path = _storable(validation.home_expanded(value))
        try:
            regular = path.is_file() or not path.exists()
        except OSError as exc:  # e.g. a directory on the way that this user may not enter
            raise ValueError(f"{path} cannot be checked ({exc.strerror}); name a YAML file this user can read") from None
        if not regular:  # a device or pipe would be read at every reconcile
            raise ValueError(f"{path} is not a regular file (a directory, device or pipe); name a YAML file")
        return path


def _storable(path: Path) -> Path:
    problem = validation.path_problem(str(path))
    if problem:
        raise ValueError(f"{str(path)[:200]!r} {problem}")
    return path


class SessionStart(Section):
    memory_index: bool = Field(True, **_allowed("true or false"))
    resume: bool = Field(True, **_allowed("true or false"))


class Config(BaseModel):
    model_config = ConfigDict(extra="forbid")

    identity: Identity = Identity()
    store: Store = Store()
    recall: RecallConfig = RecallConfig()
    extraction: Extraction = Extraction()
    llm: Llm = Llm()
    reconcile: Reconcile = Reconcile()
    ontology: Ontology = Ontology()
    session_start: SessionStart = SessionStart()

    def get(self, key: str) -> Any:
        section, name = split_key(key)
        return getattr(getattr(self, section), name)


def _sections() -> dict[str, type[Section]]:
    return {name: field.annotation for name, field in Config.model_fields.items()}  # type: ignore[misc]


def keys() -> list[str]:
    """Every key the file may hold, as `section.key`."""
    return [f"{section}.{name}" for section, model in _sections().items() for name in model.model_fields]


def allowed_values(key: str) -> str:
    section, name = split_key(key)
    return _sections()[section].model_fields[name].description or ""


def is_secret(key: str) -> bool:
    section, name = split_key(key)
    annotation = str(_sections()[section].model_fields[name].annotation)
    return "SecretStr" in annotation


def split_key(key: str) -> tuple[str, str]:
    section, _, name = key.partition(".")
    model = _sections().get(section)
    if model is None or name not in model.model_fields:
        raise ConfigError(f"Unknown config key {key!r}: use one of {', '.join(keys())}")
    return section, name


# -- reading -------------------------------------------------------------------------------


def _error_message(error: PydanticError, where: str) -> str:
    lines = []
    for item in error.errors():
        item["msg"] = item["msg"].removeprefix("Value error, ")
        location = [str(part) for part in item["loc"] if not isinstance(part, int)]
        if len(location) >= 2 and location[0] in _sections() and location[1] in _sections()[location[0]].model_fields:
            key = f"{location[0]}.{location[1]}"
            lines.append(f"{where}: {key}: {item['msg']}; allowed: {allowed_values(key)}")
        elif item["type"] == "extra_forbidden":
            lines.append(f"{where}: unknown key {'.'.join(location)}; known keys: {', '.join(keys())}")
        else:
            lines.append(f"{where}: {'.'.join(location) or 'file'}: {item['msg']}")
    return "\n".join(lines)


def read_file(path: Path | None = None) -> dict[str, Any]:
    """The file's raw tables, or {} when there is no file."""
    path = path or config_path()
    if not path.exists():
        return {}
    try:
        data = tomllib.loads(read_text(path, what="config file", max_bytes=MAX_CONFIG_BYTES))
    except InputError as exc:
        raise ConfigError(str(exc)) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"Config file {path} is not valid TOML: {exc}") from None
    except RecursionError:
        data = None
    if data is None or nests_deeper(data, MAX_JSON_DEPTH):
        raise ConfigError(f"Config file {path} nests deeper than {MAX_JSON_DEPTH} levels; no setting does, so fix the file")
    return data


def _env_overrides(env: Mapping[str, str]) -> dict[str, tuple[str, str]]:
    """key -> (variable, raw value) for every variable that sets a key; the generic name wins."""
    found: dict[str, tuple[str, str]] = {}
    for variable, key in ENV_ALIASES.items():
        if env.get(variable):
            found[key] = (variable, env[variable])
    for key in keys():
        variable = ENV_PREFIX + key.replace(".", "_").upper()
        if env.get(variable):
            found[key] = (variable, env[variable])
    return found


def _typed(key: str, raw: str) -> Any:
    """A value typed as text (command line, environment) in the shape the file holds it."""
    section, name = split_key(key)
    annotation = str(_sections()[section].model_fields[name].annotation)
    if "list[" in annotation:
        return [item.strip() for item in raw.split(",") if item.strip()]
    return raw


def load_config(path: Path | None = None, *, env: Mapping[str, str] | None = None) -> Config:
    """The file's settings with the environment laid over them."""
    path = path or config_path()
    env = os.environ if env is None else env
    data = read_file(path)
    try:
        Config.model_validate(data)
    except PydanticError as exc:
        raise ConfigError(_error_message(exc, str(path))) from None
    for key, (variable, raw) in _env_overrides(env).items():
        section, name = split_key(key)
        data.setdefault(section, {})[name] = _typed(key, raw)
        try:
            Config.model_validate(data)
        except PydanticError as exc:
            raise ConfigError(_error_message(exc, f"environment variable {variable}")) from None
    return Config.model_validate(data)


def store_settings() -> StoreSettings:
    """Where the configured store is: the [store] section with the environment (MEMGRAPH_URL ...) over it."""
    return load_config().store.settings()


# -- writing -------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    if isinstance(value, SecretStr):
        return value.get_secret_value()
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def write_file(data: Mapping[str, Any], path: Path | None = None) -> Path:
    """Replace the file atomically with mode 0600 (it may hold keys), its folder with 0700."""
    path = path or config_path()
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".config-", suffix=".toml", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as file:
            tomli_w.dump(_plain(dict(data)), file)
        os.chmod(temporary, FILE_MODE)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def set_value(key: str, raw: str, path: Path | None = None) -> Any:
    """Validate one value and write it; a bad key or value raises ConfigError and writes nothing."""
    return set_values([(key, raw)], path)[0]


def set_values(pairs: Sequence[tuple[str, str]], path: Path | None = None) -> list[Any]:
    """Validate the values together and write them at once (keys that only make sense together, such as an
    endpoint's URL and model, are set in one call); anything bad raises ConfigError and writes nothing."""
    if not pairs:
        raise ConfigError("config set needs at least one KEY VALUE pair")
    path = path or config_path()
    data = read_file(path)
    for key, raw in pairs:
        section, name = split_key(key)
        problem = validation.text_problem(raw)  # the file is UTF-8 TOML: a lone surrogate could not be written
        if problem:
            raise ConfigError(f"config set {key}: the value {problem}; allowed: {allowed_values(key)}")
        data.setdefault(section, {})[name] = _typed(key, raw)
    try:
        config = Config.model_validate(data)
    except PydanticError as exc:
        raise ConfigError(_error_message(exc, f"config set {' '.join(key for key, _ in pairs)}")) from None
    for key, _ in pairs:
        if config.get(key) is None:  # a value its check turned into "unset" (an empty URL or model): TOML has no null
            raise ConfigError(f"config set {key}: an empty value sets nothing; to remove the key, run "
                              f"`sessions-graph config unset {key}`")
    write_file(config.model_dump(exclude_unset=True), path)
    return [config.get(key) for key, _ in pairs]


def unset_value(key: str, path: Path | None = None) -> bool:
    """Remove a key from the file, so its default (or the environment) applies again."""
    path = path or config_path()
    section, name = split_key(key)
    data = read_file(path)
    if name not in data.get(section, {}):
        return False
    del data[section][name]
    if not data[section]:
        del data[section]
    write_file(data, path)
    return True


def shown(value: Any, *, secret: bool) -> str:
    """A value as `config show|get` prints it; a secret shows only whether it is set and its last 4 characters."""
    if value is None:
        return "(unset)"
    if secret:
        text = value.get_secret_value() if isinstance(value, SecretStr) else str(value)
        if not text:
            return "(unset)"
        return "****" + text[-4:] if len(text) >= 12 else "****"
    if isinstance(value, SecretStr):
        return value.get_secret_value()
    if isinstance(value, list):
        return ", ".join(str(item) for item in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def source_of(key: str, path: Path | None = None, *, env: Mapping[str, str] | None = None) -> str:
    """Where a key's effective value comes from: an environment variable, the file, or the default."""
    env = os.environ if env is None else env
    overrides = _env_overrides(env)
    if key in overrides:
        return f"env {overrides[key][0]}"
    section, name = split_key(key)
    return "file" if name in read_file(path).get(section, {}) else "default"
