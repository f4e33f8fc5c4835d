"""GLiNER extraction: entities typed by the ontology's own type names, from local weights only."""

from __future__ import annotations

import os
from pathlib import Path

MODEL_DIR_ENV = "SESSIONS_GRAPH_GLINER_DIR"


def local_model_dir() -> Path | None:
    """The configured GLiNER weights directory, when it holds a model."""
    configured = os.environ.get(MODEL_DIR_ENV)
    if configured and (Path(configured) / "gliner_config.json").is_file():
        return Path(configured)
    return None
