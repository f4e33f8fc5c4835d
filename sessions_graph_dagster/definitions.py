"""The code location: assets, checks, jobs, sensors and resources of the sessions-graph platform."""

import dagster as dg

from sensors.backlog import backlog_sensor
from sensors.derivation_milestones import derivation_milestones_sensor
from sensors.embedding_catchup import embedding_catchup_sensor
from sensors.hook_spool import hook_spool_sensor
from sensors.memory_files import memory_files_sensor
from sensors.pending_sessions import pending_sessions_sensor

from .backlog import pending_work
from .checks import embedding_model_consistent, no_orphans, nothing_waits_too_long, ontology_conformance
from .jobs import embed_job, memory_files_job, ontology_job, reconcile_job
from .memory_files import extracted_memory_files
from .ontology import user_ontology
from .resources import EmbedderResource, ExtractorResource, GraphStoreResource, LlmResource
from .sessions import embedded_session, reconciled_session

defs = dg.Definitions(
    assets=[reconciled_session, embedded_session, extracted_memory_files, user_ontology, pending_work],
    asset_checks=[no_orphans, ontology_conformance, embedding_model_consistent, nothing_waits_too_long],
    jobs=[reconcile_job, embed_job, memory_files_job, ontology_job],
    sensors=[
        pending_sessions_sensor,
        embedding_catchup_sensor,
        memory_files_sensor,
        derivation_milestones_sensor,
        backlog_sensor,
        hook_spool_sensor,
    ],
    resources={
        "graph_store": GraphStoreResource(),
        "extractor": ExtractorResource(),
        "embedder": EmbedderResource(),
        "llm": LlmResource(),
    },
    # The steps are short and talk to one store: a process per step would cost more than the work.
    executor=dg.in_process_executor,
)
