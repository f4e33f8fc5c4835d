"""Jobs the sensors launch. Each selects its assets with their checks; partitioning comes from the assets."""

from __future__ import annotations

import dagster as dg

from .sessions import reconciled_session

STAGE_TAG = "sessions_graph/stage"

reconcile_job = dg.define_asset_job(
    "reconcile_sessions",
    selection=dg.AssetSelection.assets(reconciled_session),
    description="Reconcile a batch of pending sessions, then embed them.",
    tags={STAGE_TAG: "reconcile"},
)
