"""Where the config comes from: the file's path and the environment variables that override its keys.

Kept apart from the config models (config.py, pydantic) because hooks and spawned children need
these names in processes that must start fast.
"""

from __future__ import annotations

import os
from pathlib import Path

from sessions_graph_core.validation import ValidationError, home_expanded

CONFIG_ENV = "SESSIONS_GRAPH_CONFIG"
# `SESSIONS_GRAPH_<SECTION>_<KEY>` sets any key, e.g. SESSIONS_GRAPH_RECALL_TURNS_K.
ENV_PREFIX = "SESSIONS_GRAPH_"

# Well-known variables that other tools already use for the same settings.
ENV_ALIASES = {
    "SESSIONS_GRAPH_USER": "identity.user_id",
    "SESSIONS_GRAPH_DATA_DIR": "store.data_dir",
    "MEMGRAPH_URL": "store.url",
    "MEMGRAPH_USER": "store.user",
    "MEMGRAPH_PASSWORD": "store.password",
    "MEMGRAPH_DATABASE": "store.database",
    "ANTHROPIC_API_KEY": "llm.anthropic_api_key",
    "OPENAI_API_KEY": "llm.openai_api_key",
}


def config_path() -> Path:
    explicit = os.environ.get(CONFIG_ENV)
    if explicit:
        try:
            return home_expanded(Path(explicit))
        except ValidationError as exc:
            raise ValidationError(f"{CONFIG_ENV}: {exc}") from None
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "sessions-graph" / "config.toml"
