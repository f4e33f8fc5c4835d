"""The few settings a hook reads, checked by the full config validation only when the config changed.

Validating the config means pydantic, whose import and model building take longer than a hook may
run. The file and the environment rarely change between two harness events, so `load_config()` runs
only when they did, and its verdict with the handful of values hooks use is cached, keyed by a digest
of the file's bytes and of every variable that can change the outcome. A config that fails the check
is never cached: every hook checks it again and logs the same error until it is fixed. Secrets are
never cached: the settings of a Memgraph store (which need its password) are checked every time.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

try:
    # CPython's own BLAKE2, which hashlib re-exports: importing hashlib loads OpenSSL for every algorithm, 3 ms
    # of CPU in each hook (a quarter of what the hook's imports cost beside the interpreter's start) for one
    # digest. A build without the private module (it is CPython's, not the language's) takes hashlib's.
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - every CPython build here has it
    from hashlib import blake2b

from sessions_graph_core.config.paths import ENV_ALIASES, ENV_PREFIX, config_path
from sessions_graph_core.failures import log_dir
from sessions_graph_core.inputs import MAX_CONFIG_BYTES, InputError, read_bytes
from sessions_graph_core.store.location import StoreSettings
from sessions_graph_core.validation import ValidationError
from sessions_graph_core.values import Value

if TYPE_CHECKING:
    from sessions_graph_core.config.model import Config

CACHE_FILE = "hook-settings.json"
# Besides our own variables, those that move the default config and data directories.
_LOCATION_VARIABLES = ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME")


class HookSettings(Value):
    __slots__ = ("user_id", "store", "auto_reconcile", "memory_index", "resume")

    user_id: str | None
    store: StoreSettings
    auto_reconcile: bool
    memory_index: bool
    resume: bool

    def __init__(self, user_id: str | None, store: StoreSettings, auto_reconcile: bool, memory_index: bool, resume: bool) -> None:
        self._fill(user_id, store, auto_reconcile, memory_index, resume)

    @classmethod
    def from_config(cls, config: Config) -> HookSettings:
        return cls(
            user_id=config.identity.user_id,
            store=config.store.settings(),
            auto_reconcile=config.reconcile.auto_reconcile,
            memory_index=config.session_start.memory_index,
            resume=config.session_start.resume,
        )


def cache_path() -> Path:
    return log_dir() / CACHE_FILE


def fingerprint(path: Path) -> str:
    """What the settings depend on: the config file's path and bytes and the variables that override it."""
    digest = blake2b(str(path).encode(), digest_size=32)
    try:
        digest.update(read_bytes(path, what="config file", max_bytes=MAX_CONFIG_BYTES))
    except InputError as exc:  # reading the settings says what is wrong
        digest.update(f"unreadable {exc}".encode())
    for name in sorted(os.environ):
        if name.startswith(ENV_PREFIX) or name in ENV_ALIASES or name in _LOCATION_VARIABLES:
            digest.update(f"\0{name}={os.environ[name]}".encode())
    return digest.hexdigest()


def _cached(key: str) -> HookSettings | None:
    try:
        entry = json.loads(cache_path().read_text(encoding="utf-8"))
        if entry["key"] != key:
            return None
        fields = entry["settings"]
        return HookSettings(**{**fields, "store": StoreSettings(**fields["store"])})
    except (OSError, ValueError, KeyError, TypeError):  # missing, torn or from another version: check again
        return None


def _remember(key: str, settings: HookSettings) -> None:
    """Replace the cache atomically; a cache that cannot be written only costs the next hook time."""
    import tempfile  # only when the config changed: most hooks find the cache and never write it

    target = cache_path()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".hook-settings-", dir=target.parent)
    except OSError:
        return
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump({"key": key, "settings": {**settings.as_dict(), "store": settings.store.cacheable()}}, file)
        os.replace(temporary, target)
    except OSError:
        Path(temporary).unlink(missing_ok=True)


def hook_settings() -> HookSettings:
    """The settings of the config file and environment, validated in full whenever either changed.

    Raises ConfigError (from load_config) when the config is invalid.
    """
    path = config_path()
    key = fingerprint(path)
    found = _cached(key)
    if found is not None:
        return found
    from sessions_graph_core.config.model import load_config

    settings = HookSettings.from_config(load_config(path))
    if settings.store.cacheable() is not None and fingerprint(path) == key:  # unchanged while it was being checked
        _remember(key, settings)
    return settings


def refresh() -> None:
    """Check the changed config now (after `config set`), so that the next hook finds it cached."""
    try:
        hook_settings()
    except ValidationError:
        pass  # an environment variable the file does not fix: every hook logs it
