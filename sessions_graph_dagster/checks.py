"""Asset checks on what users of the graph care about, scoped to the users of the sessions a run covered."""

import dagster as dg
from pydantic import Field

from sessions_graph_core.store.base import GraphStore

from .reporting import table
from .resources import EmbedderResource, GraphStoreResource
from .sessions import embedded_session, reconciled_session


def _users_of(context: dg.AssetCheckExecutionContext, store: GraphStore) -> list[str]:
    """The users of the sessions the run covered; every user when the check runs on its own."""
    if context.has_partition_key or context.has_partition_key_range:
        rows = store.run(
            "MATCH (s:Session) WHERE s.session_id IN $ids RETURN DISTINCT s.user_id AS user_id ORDER BY user_id",
            {"ids": list(context.partition_keys)},
        )
    else:
        rows = store.run("MATCH (u:User) RETURN u.user_id AS user_id ORDER BY user_id")
    return [row["user_id"] for row in rows]


@dg.asset_check(asset=embedded_session, blocking=True)
def embedding_model_consistent(
    context: dg.AssetCheckExecutionContext, graph_store: GraphStoreResource, embedder: EmbedderResource
) -> dg.AssetCheckResult:
    """Every vector of these sessions' users comes from the configured model: vectors of two models never mix."""
    with graph_store.open() as store:
        users = _users_of(context, store)
        sessions = store.run(
            "MATCH (s:Session {embedding_status: 'completed'}) WHERE s.user_id IN $users AND s.embedding_model <> $model "
            "RETURN s.session_id AS session_id, s.embedding_model AS model ORDER BY session_id",
            {"users": users, "model": embedder.name()},
        )
        passages = store.run(
            "MATCH (p:Passage) WHERE p.user_id IN $users AND p.embedding_model <> $model "
            "RETURN p.embedding_model AS model, count(p) AS n ORDER BY model",
            {"users": users, "model": embedder.name()},
        )
    foreign = sum(row["n"] for row in passages)
    return dg.AssetCheckResult(
        passed=not sessions and not foreign,
        metadata={
            "model": embedder.name(),
            "users": len(users),
            "sessions_on_other_model": len(sessions),
            "vectors_from_other_models": foreign,
            "other_models": table(("model", "vectors"), [(row["model"], row["n"]) for row in passages]),
        },
    )


@dg.asset_check(asset=reconciled_session, blocking=True)
def no_orphans(context: dg.AssetCheckExecutionContext, graph_store: GraphStoreResource) -> dg.AssetCheckResult:
    """No chunk without a source, no entity that nothing mentions or is about, no fact without a source."""
    with graph_store.open() as store:
        users = _users_of(context, store)
        params = {"users": users}
        chunks = store.run(
            "MATCH (c:Chunk) WHERE c.user_id IN $users AND NOT ()-[:HAS_CHUNK]->(c) RETURN count(c) AS n", params
        )[0]["n"]
        entities = store.run(
            "MATCH (e:Entity) WHERE e.user_id IN $users AND NOT (e)-[:MENTIONED_IN]->() AND NOT ()-[:ABOUT]->(e) "
            "RETURN count(e) AS n",
            params,
        )[0]["n"]
        facts = store.run(
            "MATCH (f:Fact) WHERE f.user_id IN $users AND NOT (f)-[:FROM]->() RETURN count(f) AS n", params
        )[0]["n"]
    return dg.AssetCheckResult(
        passed=chunks == 0 and entities == 0 and facts == 0,
        metadata={"users": len(users), "orphan_chunks": chunks, "orphan_entities": entities, "orphan_facts": facts},
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
        rows = store.run(
            "MATCH (e:Entity) WHERE e.user_id IN $users "
            "RETURN e.user_id AS user_id, count(e) AS entities, "
            "sum(CASE WHEN e.ontology_conformant = false THEN 0 ELSE 1 END) AS conformant ORDER BY user_id",
            {"users": users},
        )
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
