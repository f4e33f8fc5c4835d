"""Session assets: a session's turns reconciled into the graph, then embedded for recall.

Both are partitioned by user (partitions.py); a run covers the sessions its config names, all of its
users', or, with none named, every session of its users (a per-user backfill). A run over several
users (a backfill of a range) runs once: a run per user would spend most of its time starting.
"""

import time
from collections.abc import Sequence

import dagster as dg
from pydantic import Field

from sessions_graph_core.embeddings import vectors as embeddings
from sessions_graph_core.embeddings.models import EmbeddingUnavailableError
from sessions_graph_core.reconcile import facts
from sessions_graph_core.reconcile import pipeline as reconcile
from sessions_graph_core.reconcile.extraction.base import ExtractionBackend
from sessions_graph_core.reconcile.pipeline import ReconcileSummary
from sessions_graph_core.sessions import records as sessions
from sessions_graph_core.store.base import GraphStore
from sessions_graph_core.validation import ValidationError

from .batches import SESSION_IDS_TAG, session_tags
from .partitions import SAME_USER, users_partitions
from .policies import EMBED_MAX_FAILURES, STORE_RETRY
from .pools import EMBED_POOL, RECONCILE_POOL
from .reporting import table
from .resources import EmbedderResource, ExtractorResource, GraphStoreResource


class SessionSelection(dg.Config):
    session_ids: list[str] = Field(
        default_factory=list,
        description="The sessions this run covers, each of one of the run's users; empty: every session of those users",
    )


def selected_sessions(store: GraphStore, users: Sequence[str], selection: SessionSelection) -> list[str]:
    """The sessions a run covers; a named session that is not of the run's users fails the run, changing nothing."""
    if not selection.session_ids:
        return [session.session_id for user in users for session in sessions.user_sessions(store, user)]
    owners = sessions.session_owners(store, selection.session_ids)
    foreign = [sid for sid in selection.session_ids if owners.get(sid) not in set(users)]
    if foreign:
        named = ", ".join(f"{sid} ({'user ' + owners[sid] if sid in owners else 'no such session'})" for sid in foreign[:5])
        raise dg.Failure(
            description=f"{len(foreign)} of the sessions in the run config are not of the run's users "
            f"({', '.join(users[:5])}): {named}. Launch each session on its own user's partition.",
            allow_retries=False,
        )
    return list(dict.fromkeys(selection.session_ids))


def _reconcile_one(store: GraphStore, session_id: str, backend: ExtractionBackend) -> ReconcileSummary:
    try:
        return reconcile.reconcile_session(store, session_id, backend=backend)
    except ValidationError as error:  # the partition names no session: bad input, no retry will help
        return ReconcileSummary(session_id=session_id, status="failed", error=str(error))


@dg.asset(
    partitions_def=users_partitions,
    group_name="sessions",
    kinds={"python", "graph"},
    retry_policy=STORE_RETRY,
    backfill_policy=dg.BackfillPolicy.single_run(),
    pool=RECONCILE_POOL,
    description="The session's turns reconciled into entities, facts and decisions, with supersession and provenance.",
)
def reconciled_session(
    context: dg.AssetExecutionContext, config: SessionSelection, graph_store: GraphStoreResource, extractor: ExtractorResource
) -> dg.MaterializeResult:
    started = time.perf_counter()
    backend = extractor.load()
    with graph_store.open() as store:
        keys = selected_sessions(store, list(context.partition_keys), config)
        summaries = [_reconcile_one(store, key, backend) for key in keys]
        # The older facts the batch's own statements replaced (seed 002: a new fact in a held slot supersedes it).
        superseded = facts.superseded_by_sessions(store, keys)
    failed = [summary for summary in summaries if summary.status == "failed"]
    rows = [
        (s.session_id, s.status, s.texts_considered, s.texts_extracted, s.entities, s.facts, s.error or "")
        for s in sorted(summaries, key=lambda s: (s.status != "failed", s.session_id))
    ]
    metadata = {
        "users": len(context.partition_keys),
        "sessions": len(keys),
        # Which sessions, at a glance on the user's partition page (the table below has them all).
        "session_ids": session_tags(keys)[SESSION_IDS_TAG],
        "failed": len(failed),
        "texts": sum(s.texts_considered for s in summaries),
        "texts_extracted": sum(s.texts_extracted for s in summaries),
        "entities": sum(s.entities for s in summaries),
        "facts": sum(s.facts for s in summaries),
        "superseded_facts": int(superseded),
        "duration_s": round(time.perf_counter() - started, 3),
        "backend": backend.name,
        "sessions_table": table(("session", "status", "texts", "extracted", "entities", "facts", "error"), rows),
    }
    if failed:
        # The graph records each session's error; failing the step shows them on the partitions and
        # lets a person re-run them from the UI once the cause is fixed. Re-running what succeeded is cheap:
        # reconciliation skips text it has already extracted.
        raise dg.Failure(
            description=f"{len(failed)} of {len(keys)} sessions failed to reconcile: "
            + "; ".join(f"{s.session_id}: {s.error}" for s in failed[:5]),
            metadata=metadata,
            allow_retries=False,
        )
    return dg.MaterializeResult(metadata=metadata)


@dg.asset(
    partitions_def=users_partitions,
    deps=[dg.AssetDep(reconciled_session, partition_mapping=SAME_USER)],
    group_name="sessions",
    kinds={"python", "graph"},
    retry_policy=STORE_RETRY,
    backfill_policy=dg.BackfillPolicy.single_run(),
    pool=EMBED_POOL,
    description="Vectors for the session's turns, entities and facts (and its user's memory files) from the configured model.",
)
def embedded_session(
    context: dg.AssetExecutionContext, config: SessionSelection, graph_store: GraphStoreResource, embedder: EmbedderResource
) -> dg.MaterializeResult:
    started = time.perf_counter()
    rows: list[tuple] = []
    failed: list[tuple[str, str]] = []
    with graph_store.open() as store:
        keys = selected_sessions(store, list(context.partition_keys), config)
        for key in keys:
            try:
                done = embeddings.embed_session(store, key, model=embedder.name())
            except (EmbeddingUnavailableError, ValidationError) as error:  # recorded on the session by embed_session
                failed.append((key, str(error)))
                rows.append((key, "failed", 0, 0, 0, 0, str(error)))
                continue
            rows.append((key, "completed", done.turns, done.entities, done.facts, done.passages, ""))
        # How often in a row each failed session has now failed, as embed_session counted it.
        in_a_row = {
            state.session_id: max(state.embedding_failures, 1)
            for state in sessions.session_states(store, [key for key, _ in failed])
        }
    completed = [row for row in rows if row[1] == "completed"]
    metadata = {
        "users": len(context.partition_keys),
        "sessions": len(keys),
        # Which sessions, at a glance on the user's partition page (the table below has them all).
        "session_ids": session_tags(keys)[SESSION_IDS_TAG],
        "failed": len(failed),
        # The embedding sensor retries a failed session with backoff until this many failures in a row.
        "retries_exhausted": sum(1 for count in in_a_row.values() if count >= EMBED_MAX_FAILURES),
        "turns": sum(row[2] for row in completed),
        "entities": sum(row[3] for row in completed),
        "facts": sum(row[4] for row in completed),
        "passages": sum(row[5] for row in completed),
        "duration_s": round(time.perf_counter() - started, 3),
        "model": embedder.name(),
        "sessions_table": table(
            ("session", "status", "failures in a row", "turns", "entities", "facts", "passages", "error"),
            [(r[0], r[1], in_a_row.get(r[0], 0), *r[2:]) for r in sorted(rows, key=lambda r: (r[1] != "failed", r[0]))],
        ),
    }
    if failed:
        raise dg.Failure(
            description=f"{len(failed)} of {len(keys)} sessions failed to embed: "
            + "; ".join(f"{key}: {error}" for key, error in failed[:5]),
            metadata=metadata,
            allow_retries=False,
        )
    return dg.MaterializeResult(metadata=metadata)
