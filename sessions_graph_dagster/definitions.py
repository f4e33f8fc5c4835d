"""The code location: assets, checks, jobs, sensors and resources of the sessions-graph platform."""

from __future__ import annotations

import dagster as dg

from sensors.pending_sessions import pending_sessions_sensor

from .jobs import reconcile_job
from .resources import EmbedderResource, ExtractorResource, GraphStoreResource
from .sessions import reconciled_session

defs = dg.Definitions(
    assets=[reconciled_session],
    jobs=[reconcile_job],
    sensors=[pending_sessions_sensor],
    resources={
        "graph_store": GraphStoreResource(),
        "extractor": ExtractorResource(),
        "embedder": EmbedderResource(),
    },
    # The steps are short and talk to one store: a process per step would cost more than the work.
    executor=dg.in_process_executor,
)
