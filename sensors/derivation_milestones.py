"""Users whose qualifying sessions reached a milestone (2, 4, 8 ... 128, then every 128) -> a derivation run each.

The milestone a user is due for is read from the graph (the user's last derived milestone and their
qualifying sessions), not from this sensor's cursor, so a stopped and restarted sensor asks for one
run per due user, never a burst of catch-up runs.
"""

import dagster as dg

from sessions_graph_core.ontology.derive import milestones
from sessions_graph_dagster.batches import Batch
from sessions_graph_dagster.jobs import ontology_job
from sessions_graph_dagster.partitions import users_partitions
from sessions_graph_dagster.resources import GraphStoreResource, LlmResource
from sessions_graph_dagster.run_requests import request_runs


@dg.sensor(
    job=ontology_job,
    minimum_interval_seconds=60,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Asks for a derivation run for each user whose qualifying sessions reached the next milestone.",
)
def derivation_milestones_sensor(
    context: dg.SensorEvaluationContext, graph_store: GraphStoreResource, llm: LlmResource
) -> dg.SensorResult:
    with graph_store.open() as store:
        due = milestones.due_users(store)
    if due and not llm.configured():
        result = dg.SensorResult(
            skip_reason=f"{len(due)} users are due a derivation run, but no LLM key is configured "
            "(set ANTHROPIC_API_KEY or OPENAI_API_KEY, or `sessions-graph config set`)"
        )
    else:
        result = request_runs(
            context.instance,
            "derive",
            [
                Batch({user: f"{user}:{milestone}"}, {"sessions_graph/milestone": str(milestone)}, partition=user)
                for user, milestone in due
            ],
            skip_reason="no user has reached a new milestone",
            partitions=users_partitions,
        )
    return _shown_in_the_tick_list(result)


def _shown_in_the_tick_list(result: dg.SensorResult) -> dg.SensorResult:
    """The UI lists a skipped tick as "0 runs requested" and keeps its reason behind a click, but prints
    each tick's cursor in the list: the cursor carries the reason. It holds no state: the graph does."""
    reason = result.skip_reason.skip_message if result.skip_reason else None
    if not reason:
        return result
    return dg.SensorResult(skip_reason=reason, cursor=f"skipped: {reason}")
