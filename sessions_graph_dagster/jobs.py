"""Jobs the sensors launch. Each selects assets with their checks; partitioning comes from the assets."""

import dagster as dg

from .memory_files import extracted_memory_files
from .ontology import user_ontology
from .sessions import embedded_session, reconciled_session

STAGE_TAG = "sessions_graph/stage"

# Reconcile and embed in one run: the second step costs no second process start-up.
reconcile_job = dg.define_asset_job(
    "reconcile_sessions",
    selection=dg.AssetSelection.assets(reconciled_session, embedded_session),
    description="Reconcile a batch of pending sessions, then embed them.",
    tags={STAGE_TAG: "reconcile"},
)

embed_job = dg.define_asset_job(
    "embed_sessions",
    selection=dg.AssetSelection.assets(embedded_session),
    description="Embed sessions whose vectors failed, never ran or came from another model.",
    tags={STAGE_TAG: "embed"},
)

memory_files_job = dg.define_asset_job(
    "extract_memory_files",
    selection=dg.AssetSelection.assets(extracted_memory_files),
    description="Reconcile memory files whose text changed.",
    tags={STAGE_TAG: "memory_files"},
)

ontology_job = dg.define_asset_job(
    "derive_ontologies",
    selection=dg.AssetSelection.assets(user_ontology),
    description="Derive a user's next ontology version at a session milestone.",
    tags={STAGE_TAG: "derive"},
)
