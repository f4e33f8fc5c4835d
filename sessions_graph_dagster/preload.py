"""What every run would load itself, loaded once by the code server's fork server (code_server.py) before
it forks any run: the definitions and the spaCy pipeline."""

from sessions_graph_core.reconcile.nlp import spacy_pipeline
from sessions_graph_dagster import definitions  # noqa: F401  (imported for its modules: the code location)

spacy_pipeline()
