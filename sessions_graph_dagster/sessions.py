"""Session assets: a session's turns reconciled into the graph, then embedded for recall.

Both are partitioned by user (partitions.py); a run covers the sessions its config names, all of its
users', or, with none named, every session of its users (a per-user backfill). A run over several
users (a backfill of a range) runs once: a run per user would spend most of its time starting.
Each user partition's materialization still carries that user's own figures
(`context.add_asset_metadata(..., partition_key=...)`); the run's table of all its sessions goes to
the run's log, where the run is read.
"""

import time
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any

import dagster as dg
from pydantic import Field

from sessions_graph_core.embeddings import vectors as embeddings
from sessions_graph_core.embeddings import words
from sessions_graph_core.embeddings.alongside import EmbeddingAlongside
from sessions_graph_core.llm import LlmUsage
from sessions_graph_core.recall import evidence as recall_evidence
from sessions_graph_core.recall import search as recall
from sessions_graph_core.reconcile import facts
from sessions_graph_core.reconcile import pipeline as reconcile
from sessions_graph_core.reconcile.extraction.base import ExtractionBackend
from sessions_graph_core.reconcile.pipeline import ReconcileSummary
from sessions_graph_core.sessions import records as sessions
from sessions_graph_core.store.base import GraphStore

from .batches import SESSION_IDS_TAG, session_tags
from .partitions import SAME_USER, users_partitions
from .policies import EMBED_MAX_FAILURES, STORE_RETRY, rejected
from .pools import EMBED_POOL, RECONCILE_POOL
from .reporting import error_kind, table
from .resources import EmbedderResource, ExtractorResource, GraphStoreResource


class SessionSelection(dg.Config):
    session_ids: list[str] = Field(
        default_factory=list,
        description="The sessions this run covers, each of one of the run's users; empty: every session of those users",
    )


def selected_sessions(
    context: dg.AssetExecutionContext, store: GraphStore, users: Sequence[str], selection: SessionSelection
) -> list[str]:
    """The sessions a run covers; a named session that is not of the run's users rejects the run, changing nothing."""
    if not selection.session_ids:
        return [session.session_id for user in users for session in sessions.user_sessions(store, user)]
    owners = sessions.session_owners(store, selection.session_ids)
    foreign = [sid for sid in selection.session_ids if owners.get(sid) not in set(users)]
    if foreign:
        named = ", ".join(f"{sid} ({'user ' + owners[sid] if sid in owners else 'no such session'})" for sid in foreign[:5])
        raise rejected(
            context,
            f"{len(foreign)} of the sessions in the run config are not of the run's users "
            f"({', '.join(users[:5])}): {named}. Launch each session on its own user's partition.",
        )
    return list(dict.fromkeys(selection.session_ids))


PROBE_CHARS = 200


def _reconcile_all(
    store: GraphStore, keys: Sequence[str], backend: ExtractionBackend, alongside: EmbeddingAlongside | None
) -> dict[str, tuple[ReconcileSummary, float]]:
    """Each session's summary (a session that does not exist fails: bad input, no retry will help) and the
    seconds until it was done since the one before (sessions overlap: the next is extracted while one is written).
    Each session written is handed to `alongside`, when given, to embed while the next are reconciled."""
    done = {}
    mark = time.perf_counter()
    for summary in reconcile.reconcile_sessions(store, keys, backend=backend):
        now = time.perf_counter()
        done[summary.session_id], mark = (summary, now - mark), now
        if alongside is not None and summary.status == "completed":
            alongside.add(summary.session_id)
    return done


# A run of one session gives the second process nothing to overlap (it could start only once that
# session is reconciled): only its start and model load, about 1 CPU-s and 500 MB.
ALONGSIDE_MIN_SESSIONS = 2


def _embedding_alongside(
    context: dg.AssetExecutionContext, graph_store: GraphStoreResource, embedder: EmbedderResource, keys: Sequence[str]
) -> AbstractContextManager[EmbeddingAlongside | None]:
    """A second process that embeds the sessions as they are reconciled, when this run embeds them after
    (reconcile_job); none for a run that only reconciles, whose sessions the embedding sensor takes later."""
    embeds_after = embedded_session.key in context.job_def.asset_layer.selected_asset_keys
    if not (embeds_after and embedder.alongside and len(keys) >= ALONGSIDE_MIN_SESSIONS):
        return nullcontext(None)
    return EmbeddingAlongside(graph_store.settings(), embedder.name())


def _by_user(users: Sequence[str], owners: dict[str, str], keys: Sequence[str]) -> dict[str, list[str]]:
    """The run's sessions under each of its user partitions (a user with none named gets an empty list)."""
    grouped: dict[str, list[str]] = {user: [] for user in users}
    for key in keys:
        if owners.get(key) in grouped:
            grouped[owners[key]].append(key)
    return grouped


@dg.asset(
    partitions_def=users_partitions,
    group_name="sessions_graph",
    kinds={"python", "graph"},
    retry_policy=STORE_RETRY,
    backfill_policy=dg.BackfillPolicy.single_run(),
    pool=RECONCILE_POOL,
    description="The session's turns reconciled into entities, facts and decisions, with supersession and provenance.",
)
def reconciled_session(
    context: dg.AssetExecutionContext,
    config: SessionSelection,
    graph_store: GraphStoreResource,
    extractor: ExtractorResource,
    embedder: EmbedderResource,
) -> dg.MaterializeResult:
    started = time.perf_counter()
    backend = extractor.load()
    llm = getattr(backend, "llm", None)  # the llm and spacy+llm backends ask a model: this run's share is reported
    llm_before = llm.usage.model_copy() if llm is not None else None
    users = list(context.partition_keys)
    with graph_store.open() as store:
        keys = selected_sessions(context, store, users, config)
        with _embedding_alongside(context, graph_store, embedder, keys) as alongside:
            done = _reconcile_all(store, keys, backend, alongside)
        # The older facts each session's own statements replaced (seed 002: a new fact in a held slot supersedes it).
        superseded = facts.superseded_by_sessions(store, keys)
        owners = sessions.session_owners(store, keys)
    ahead = alongside.report if alongside is not None else None
    for user, mine in _by_user(users, owners, keys).items():
        summaries = [done[key][0] for key in mine]
        failed_here = [s.session_id for s in summaries if s.status == "failed"]
        context.add_asset_metadata(
            {
                "sessions": len(mine),
                # Which sessions, at a glance on the user's partition page.
                "session_ids": session_tags(mine)[SESSION_IDS_TAG],
                "failed": len(failed_here),
                "texts": sum(s.texts_considered for s in summaries),
                "texts_extracted": sum(s.texts_extracted for s in summaries),
                # Texts whose model reply could not be used: their turns wait for the next run.
                "texts_failed": sum(s.texts_failed for s in summaries),
                # Texts whose reply failed llm.max_attempts runs: written with the reading made without the model.
                "texts_given_up": sum(s.texts_given_up for s in summaries),
                "entities": sum(s.entities for s in summaries),
                "facts": sum(s.facts for s in summaries),
                "superseded_facts": sum(superseded[key] for key in mine),
                "duration_s": round(sum(done[key][1] for key in mine), 3),
                "backend": backend.name,
                # Vectors written by the process beside reconcile (the embed step's figures are what it wrote after).
                **({"passages_embedded_alongside": sum(ahead.passages_by_session.get(key, 0) for key in mine)}
                   if ahead else {}),
            },
            partition_key=user,
        )
    summaries = [summary for summary, _ in done.values()]
    failed = [summary for summary in summaries if summary.status == "failed"]
    batch = table(
        ("session", "user", "status", "texts", "extracted", "entities", "facts", "superseded", "error"),
        [
            (s.session_id, owners.get(s.session_id, ""), s.status, s.texts_considered, s.texts_extracted, s.entities,
             s.facts, superseded[s.session_id], error_kind(s.error))
            for s in sorted(summaries, key=lambda s: (s.status != "failed", s.session_id))
        ],
    )
    context.log.info(
        f"Reconciled {len(keys) - len(failed)} of {len(keys)} sessions of {len(users)} users in "
        f"{time.perf_counter() - started:.1f} s ({backend.name}); {sum(superseded.values())} older facts superseded."
        + _ahead_line(alongside)
        + f"\n{batch.value}"
    )
    if failed:
        # The graph records each session's error; failing the step shows them on the partitions and
        # lets a person re-run them from the UI once the cause is fixed. Re-running what succeeded is cheap:
        # reconciliation skips text it has already extracted.
        raise dg.Failure(
            description=f"{len(failed)} of {len(keys)} sessions failed to reconcile: "
            + "; ".join(f"{s.session_id}: {error_kind(s.error)}" for s in failed[:5]),
            metadata={"users": len(users), "sessions": len(keys), "failed": len(failed), "sessions_table": batch},
            allow_retries=False,
        )
    return dg.MaterializeResult(metadata=llm_metadata(llm.usage.since(llm_before)) if llm and llm_before else None)


def _ahead_line(alongside: EmbeddingAlongside | None) -> str:
    """What the embedding process beside reconcile did, for the run's log (its failure costs the embed step time, no data)."""
    report = alongside.report if alongside is not None else None
    if report is None:
        return ""
    if report.error:
        return f" Embedding alongside failed ({report.error}): the embed step embeds every session."
    return (f" Embedded {report.passages} passages of {report.sessions} sessions alongside "
            f"({report.cpu_s:.1f} CPU-s, peak {report.peak_rss_mb:.0f} MB).")


def llm_metadata(usage: LlmUsage) -> dict[str, Any]:
    """A run's LLM use, as the reconcile asset's metadata: calls, cache hits, tokens and unusable replies."""
    return {"llm": f"{usage.provider} {usage.model}", "llm_calls": usage.calls, "llm_cached": usage.cached,
            "llm_input_tokens": usage.input_tokens, "llm_output_tokens": usage.output_tokens,
            "llm_failed": usage.failed}


def _recall_probe(store: GraphStore, user_id: str, session_ids: Sequence[str], model: str) -> float | None:
    """Milliseconds one recall takes for the user right after their vectors were written, asked with the
    opening words of the first of their sessions in the run (None when those have no user text)."""
    for key in session_ids:
        opening = next((t.text for t in sessions.get_turns(store, key) if t.role == "user" and t.text.strip()), "")
        if opening:
            started = time.perf_counter()
            recall.recall(store, user_id, opening[:PROBE_CHARS], model=model)
            return round((time.perf_counter() - started) * 1000, 1)
    return None


@dg.asset(
    partitions_def=users_partitions,
    deps=[dg.AssetDep(reconciled_session, partition_mapping=SAME_USER)],
    group_name="sessions_graph",
    kinds={"python", "graph"},
    retry_policy=STORE_RETRY,
    backfill_policy=dg.BackfillPolicy.single_run(),
    pool=EMBED_POOL,
    description="Vectors for the session's turns, entities and facts (and its user's memory files) from the configured "
    "model; recall_ms is one recall for the user right after. First, the user's turns recorded before recall's per-turn "
    "evidence was written at ingest get it (turns_given_evidence).",
)
def embedded_session(
    context: dg.AssetExecutionContext, config: SessionSelection, graph_store: GraphStoreResource, embedder: EmbedderResource
) -> dg.MaterializeResult:
    model = embedder.name()
    users = list(context.partition_keys)
    rows: dict[str, tuple] = {}
    failed: list[tuple[str, str]] = []
    seconds: dict[str, float] = {}
    given_evidence: dict[str, int] = {}
    with graph_store.open() as store:
        keys = selected_sessions(context, store, users, config)
        owners = sessions.session_owners(store, keys)
        grouped = _by_user(users, owners, keys)
        for user, mine in grouped.items():
            # A user's sessions together: the model runs on full batches and the store takes a few
            # writes per batch, not per session.
            started = time.perf_counter()
            # Turns recorded by an older version are read by their text at every recall until filled.
            given_evidence[user] = recall_evidence.fill_turn_evidence(store, user)
            outcomes = embeddings.embed_sessions(store, mine, model=model)
            seconds[user] = time.perf_counter() - started
            for key in mine:
                done = outcomes[key]
                if isinstance(done, Exception):  # recorded on the session by embed_sessions
                    failed.append((key, type(done).__name__))
                    rows[key] = (key, "failed", 0, 0, 0, 0, type(done).__name__)
                else:
                    rows[key] = (key, "completed", done.turns, done.entities, done.facts, done.passages, "")
        # How often in a row each failed session has now failed, as embed_sessions counted it.
        in_a_row = {
            state.session_id: max(state.embedding_failures, 1)
            for state in sessions.session_states(store, [key for key, _ in failed])
        }
        # The first recall on a machine would build recall's word table (embeddings/words.py) inside its probe.
        words.prepare(model)
        probes = {
            user: _recall_probe(store, user, [key for key in mine if rows[key][1] == "completed"], model)
            for user, mine in grouped.items()
        }
    for user, mine in grouped.items():
        completed = [rows[key] for key in mine if rows[key][1] == "completed"]
        failed_here = [key for key in mine if rows[key][1] == "failed"]
        context.add_asset_metadata(
            {
                "sessions": len(mine),
                "session_ids": session_tags(mine)[SESSION_IDS_TAG],
                "failed": len(failed_here),
                # The embedding sensor retries a failed session with backoff until this many failures in a row.
                "retries_exhausted": sum(1 for key in failed_here if in_a_row.get(key, 1) >= EMBED_MAX_FAILURES),
                "turns": sum(row[2] for row in completed),
                "entities": sum(row[3] for row in completed),
                "facts": sum(row[4] for row in completed),
                "passages": sum(row[5] for row in completed),
                "turns_given_evidence": given_evidence[user],
                "duration_s": round(seconds[user], 3),
                "model": model,
                **({"recall_ms": probes[user]} if probes[user] is not None else {}),
            },
            partition_key=user,
        )
    batch = table(
        ("session", "user", "status", "failures in a row", "turns", "entities", "facts", "passages", "error"),
        [
            (r[0], owners.get(r[0], ""), r[1], in_a_row.get(r[0], 0), *r[2:6], r[6])
            for r in sorted(rows.values(), key=lambda r: (r[1] != "failed", r[0]))
        ],
    )
    probe_text = ", ".join(f"{user} {ms:.0f} ms" for user, ms in sorted(probes.items()) if ms is not None) or "none"
    context.log.info(
        f"Embedded {len(keys) - len(failed)} of {len(keys)} sessions of {len(users)} users with {model}; "
        f"recall after: {probe_text}.\n{batch.value}"
    )
    if failed:
        raise dg.Failure(
            description=f"{len(failed)} of {len(keys)} sessions failed to embed: "
            + "; ".join(f"{key}: {error}" for key, error in failed[:5]),
            metadata={
                "users": len(users),
                "sessions": len(keys),
                "failed": len(failed),
                "retries_exhausted": sum(1 for count in in_a_row.values() if count >= EMBED_MAX_FAILURES),
                "sessions_table": batch,
            },
            allow_retries=False,
        )
    return dg.MaterializeResult()
