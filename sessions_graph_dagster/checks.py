"""Asset checks on what users of the graph care about, scoped to the users a run covered."""

from datetime import UTC, datetime

import dagster as dg
from pydantic import Field

from sessions_graph_core.backlog import backlog
from sessions_graph_core.embeddings import vectors as embeddings
from sessions_graph_core.reconcile import entities, provenance
from sessions_graph_core.sessions import records as sessions
from sessions_graph_core.store.base import GraphStore

from .backlog import CAUGHT_UP_CHECK, WAITS_CHECK, caught_up_verdict, pending_work, waits_verdict
from .partitions import users_partitions
from .reporting import table
from .resources import EmbedderResource, GraphStoreResource
from .sessions import embedded_session, reconciled_session


def _users_of(context: dg.AssetCheckExecutionContext, store: GraphStore) -> list[str]:
    """The users the run covered (its partitions); every user when the check runs on its own."""
    if context.has_partition_key or context.has_partition_key_range:
        return sorted(context.partition_keys)
    return sessions.users_of(store)


@dg.asset_check(asset=embedded_session, blocking=True)
def embedding_model_consistent(
    context: dg.AssetCheckExecutionContext, graph_store: GraphStoreResource, embedder: EmbedderResource
) -> dg.AssetCheckResult:
    """Every vector of these sessions' users comes from the configured model: vectors of two models never mix."""
    with graph_store.open() as store:
        users = _users_of(context, store)
        other_sessions, other_vectors = embeddings.off_model(store, users, embedder.name())
    foreign = sum(other_vectors.values())
    return dg.AssetCheckResult(
        passed=not other_sessions and not foreign,
        metadata={
            "model": embedder.name(),
            "users": len(users),
            "sessions_on_other_model": len(other_sessions),
            "vectors_from_other_models": foreign,
            "other_models": table(("model", "vectors"), sorted(other_vectors.items())),
        },
    )


@dg.asset_check(asset=reconciled_session, blocking=True)
def no_orphans(context: dg.AssetCheckExecutionContext, graph_store: GraphStoreResource) -> dg.AssetCheckResult:
    """No chunk without a source, no entity that nothing mentions or is about, no fact without a source."""
    with graph_store.open() as store:
        users = _users_of(context, store)
        lost = provenance.orphans(store, users)
    return dg.AssetCheckResult(
        passed=not any(lost.values()),
        metadata={"users": len(users), **{f"orphan_{kind}": count for kind, count in lost.items()}},
    )


class ConformanceFloor(dg.Config):
    min_share: float = Field(default=0.5, ge=0.0, le=1.0, description="lowest share of a user's entities typed within the ontology")


@dg.asset_check(asset=reconciled_session)
def ontology_conformance(
    context: dg.AssetCheckExecutionContext, config: ConformanceFloor, graph_store: GraphStoreResource
) -> dg.AssetCheckResult:
    """Per user, the share of entities whose type is in the user's adopted ontology stays above the floor."""
    with graph_store.open() as store:
        users = _users_of(context, store)
        rows = entities.conformance(store, users)
    shares = {row["user_id"]: row["conformant"] / row["entities"] for row in rows if row["entities"]}
    below = sorted(user for user, share in shares.items() if share < config.min_share)
    return dg.AssetCheckResult(
        passed=not below,
        severity=dg.AssetCheckSeverity.WARN,
        metadata={
            "floor": config.min_share,
            "lowest_share": round(min(shares.values()), 3) if shares else 1.0,
            "users_below_floor": len(below),
            "shares": table(
                ("user", "entities", "conformant", "share"),
                [(r["user_id"], r["entities"], r["conformant"], f"{shares.get(r['user_id'], 1.0):.2f}") for r in rows],
            ),
        },
    )


@dg.asset_check(asset=pending_work.key, name=WAITS_CHECK)
def nothing_waits_too_long(graph_store: GraphStoreResource, embedder: EmbedderResource) -> dg.AssetCheckResult:
    """Fails while a session has waited longer than SESSIONS_GRAPH_MAX_WAIT_S (default 900) seconds for its
    reconciliation or vectors, naming the session and its age. backlog_sensor evaluates it on every change."""
    with graph_store.open() as store:
        now = backlog(store, model=embedder.name())
    return dg.AssetCheckResult(**waits_verdict(now, datetime.now(UTC)))


@dg.asset_check(asset=embedded_session, name=CAUGHT_UP_CHECK, partitions_def=users_partitions)
def caught_up(
    context: dg.AssetCheckExecutionContext, graph_store: GraphStoreResource, embedder: EmbedderResource
) -> dg.AssetCheckResult:
    """Per user: warns while any of the user's sessions waits for reconciliation or vectors, or failed, so a
    partition materialized once does not read as up to date while new work waits. backlog_sensor evaluates
    it whenever a user's backlog changes (the jobs leave a partitioned check out: Dagster 1.13 previews them)."""
    [user_id] = context.partition_keys if context.has_partition_key else [None]
    with graph_store.open() as store:
        users = {user.user_id: user for user in embeddings.unfinished_by_user(store, model=embedder.name())}
    if user_id is None:
        waiting = sorted(users)
        return dg.AssetCheckResult(
            passed=not waiting, severity=dg.AssetCheckSeverity.WARN,
            description=f"{len(waiting)} users have sessions waiting or failed: {', '.join(waiting[:10])}",
        )
    return dg.AssetCheckResult(**caught_up_verdict(user_id, users.get(user_id)))
