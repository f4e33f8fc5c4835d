"""Choosing an extraction backend by name, or by what this machine has."""

from __future__ import annotations

from sessions_graph_core.reconcile.extraction.base import ExtractionBackend
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend

BACKENDS = ("spacy", "gliner", "llm", "spacy+llm")


def get_backend(name: str | None = None) -> ExtractionBackend:
    """The named backend; with no name, GLiNER when its weights are present locally, else spaCy."""
    if name is None:
        from sessions_graph_core.reconcile.extraction.gliner import local_model_dir

        name = "gliner" if local_model_dir() is not None else "spacy"
    if name == "spacy":
        return SpacyBackend()
    if name == "gliner":
        from sessions_graph_core.reconcile.extraction.gliner import GlinerBackend

        return GlinerBackend()
    if name == "llm":
        from sessions_graph_core.reconcile.extraction.llm import LlmBackend

        return LlmBackend.from_config()
    if name == "spacy+llm":
        from sessions_graph_core.reconcile.extraction.hybrid import HybridBackend

        return HybridBackend.from_config()
    raise ValueError(f"Unknown extraction backend {name!r}: use one of {', '.join(BACKENDS)}")
