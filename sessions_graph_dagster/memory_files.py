"""Memory files: each pending file's text reconciled into entities and facts, replacing what its old text said."""

import time

import dagster as dg

from sessions_graph_core.reconcile import pipeline as reconcile

from .batches import MEMORY_FILES_PER_RUN
from .policies import STORE_RETRY
from .pools import RECONCILE_POOL
from .reporting import error_kind, table
from .resources import ExtractorResource, GraphStoreResource


@dg.asset(
    group_name="sessions_graph",
    kinds={"python", "graph"},
    retry_policy=STORE_RETRY,
    # Same pool as session reconciliation: both write a user's entities and facts.
    pool=RECONCILE_POOL,
    description="Memory files whose text changed, reconciled; what an older text produced is replaced.",
)
def extracted_memory_files(graph_store: GraphStoreResource, extractor: ExtractorResource) -> dg.MaterializeResult:
    started = time.perf_counter()
    backend = extractor.load()
    with graph_store.open() as store:
        results = [
            reconcile.reconcile_memory(store, memory_id, backend=backend)
            for memory_id in reconcile.pending_memories(store, limit=MEMORY_FILES_PER_RUN)
        ]
    failed = [result for result in results if result.status == "failed"]
    metadata = {
        "files": len(results),
        "failed": len(failed),
        "entities": sum(result.entities for result in results),
        "facts": sum(result.facts for result in results),
        "duration_s": round(time.perf_counter() - started, 3),
        "backend": backend.name,
        "files_table": table(
            # The file's id, not its path: a path is text its user chose (issue 42).
            ("memory", "status", "chunks", "entities", "facts", "error"),
            [(r.memory_id, r.status, r.chunks, r.entities, r.facts, error_kind(r.error)) for r in results],
        ),
    }
    if failed:
        raise dg.Failure(
            description=f"{len(failed)} of {len(results)} memory files failed: "
            + "; ".join(f"{r.memory_id}: {error_kind(r.error)}" for r in failed[:5]),
            metadata=metadata,
            allow_retries=False,
        )
    return dg.MaterializeResult(metadata=metadata)
