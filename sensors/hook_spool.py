"""Hook events spooled while the store was starting or loading -> applied to the graph, oldest first.

A hook that finds the store not answering spools its event and starts a detached drain. This sensor is
the backstop when that drain died or was never started (the machine stopped in between): nothing spooled
waits for a person to run `sessions-graph store drain`. It asks for no run; the drain is a few writes.
"""

import dagster as dg

from sessions_graph_core.integrations import spool
from sessions_graph_core.integrations.hooks import drain_spool
from sessions_graph_core.store.falkordb.server import EmbeddedServer
from sessions_graph_dagster.resources import GraphStoreResource


@dg.sensor(
    minimum_interval_seconds=10,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Applies the hook events spooled while the embedded store was loading (integrations/spool.py).",
)
def hook_spool_sensor(context: dg.SensorEvaluationContext, graph_store: GraphStoreResource) -> dg.SkipReason:
    settings = graph_store.settings()
    if not settings.embedded:
        return dg.SkipReason("the store is a server: hooks write to it directly and never spool")
    waiting = len(spool.pending(settings.data_dir))
    if not waiting:
        return dg.SkipReason("no hook event is spooled")
    # A tick must not wait out a load of minutes: the next tick, or the hook's own drainer, applies them.
    if not EmbeddedServer(settings.data_dir).responds():
        return dg.SkipReason(f"{waiting} spooled hook events wait for the store, which is not answering yet")
    applied = drain_spool(wait=False, store=settings)
    left = len(spool.pending(settings.data_dir))
    context.log.info(f"applied {applied} spooled hook events; {left} left")
    if not applied and left:
        return dg.SkipReason(f"another drain is applying the {left} spooled hook events")
    return dg.SkipReason(f"applied {applied} spooled hook events; {left} left for the next tick")
