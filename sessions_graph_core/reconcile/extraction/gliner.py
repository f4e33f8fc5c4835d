"""GLiNER extraction: entities typed by the ontology's own type names, from local weights only.

GLiNER finds entities of any label it is given, so the user's ontology types are the labels.
It finds no statements, so facts and decisions still come from spaCy's dependency parse.
Weights come from `extraction.model` (a local directory, or a model name already in the
Hugging Face cache) or SESSIONS_GRAPH_GLINER_DIR; nothing is downloaded unless
SESSIONS_GRAPH_ALLOW_DOWNLOAD=1.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from sessions_graph_core.config.model import load_config
from sessions_graph_core.ontology.model import OntologyModel
from sessions_graph_core.reconcile.extraction.base import ExtractedEntity, Extraction

MODEL_DIR_ENV = "SESSIONS_GRAPH_GLINER_DIR"
ALLOW_DOWNLOAD_ENV = "SESSIONS_GRAPH_ALLOW_DOWNLOAD"
CONFIG_FILE = "gliner_config.json"
DEFAULT_THRESHOLD = 0.5


def configured_model() -> str | None:
    return os.environ.get(MODEL_DIR_ENV) or load_config().extraction.model


def _present(name: str) -> bool:
    if (Path(name).expanduser() / CONFIG_FILE).is_file():
        return True
    if Path(name).expanduser().exists():
        return False
    from huggingface_hub import try_to_load_from_cache

    try:
        return isinstance(try_to_load_from_cache(name, CONFIG_FILE), str)
    except ValueError:  # not a model name either (a directory that does not exist)
        return False


def local_model_dir() -> str | None:
    """The configured GLiNER model when its weights are on this machine (a directory or the cache)."""
    name = configured_model()
    return name if name and _present(name) else None


@cache
def _load(name: str, allow_download: bool) -> Any:
    from gliner import GLiNER

    return GLiNER.from_pretrained(str(Path(name).expanduser()) if Path(name).expanduser().exists() else name,
                                  local_files_only=not allow_download)


def entities_from(predictions: Sequence[dict[str, Any]]) -> list[ExtractedEntity]:
    """GLiNER's spans (`text`, `label`) as entities, the first label of each name winning."""
    found: dict[str, ExtractedEntity] = {}
    for span in predictions:
        name = " ".join(str(span["text"]).split())
        if name:
            found.setdefault(name.lower(), ExtractedEntity(name=name, type=span["label"]))
    return list(found.values())


class GlinerBackend:
    name = "gliner"
    reads_known_slots = False

    def __init__(self, model: str | None = None, threshold: float | None = None) -> None:
        self.model = model or configured_model()
        if not self.model:
            raise ValueError(
                f"GLiNER needs weights: set extraction.model to a local model directory (or {MODEL_DIR_ENV})"
            )
        self.allow_download = os.environ.get(ALLOW_DOWNLOAD_ENV) == "1"
        if not self.allow_download and not _present(self.model):
            raise ValueError(
                f"GLiNER weights for {self.model!r} are not on this machine and downloading is off "
                f"(set {ALLOW_DOWNLOAD_ENV}=1 to allow it)"
            )
        self.threshold = threshold if threshold is not None else (load_config().extraction.entity_threshold or DEFAULT_THRESHOLD)

    def extract(self, texts: Sequence[str], ontology: OntologyModel, known_slots: Sequence[str] = ()) -> list[Extraction]:
        # The statements are the rule reader's; imported here so that `config show`, which asks only
        # whether GLiNER's weights are present, does not load the reader.
        from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend

        statements = SpacyBackend().extract(texts, ontology, known_slots)
        model = _load(self.model, self.allow_download)  # type: ignore[arg-type]
        predictions = model.inference(list(texts), ontology.labels(), threshold=self.threshold)
        return [
            Extraction(entities=entities_from(spans), facts=parsed.facts)
            for spans, parsed in zip(predictions, statements, strict=True)
        ]
