"""Derivation milestones: when a user is due a run (2, 4, 8 ... qualifying sessions), and the claim one run holds."""

from __future__ import annotations

from datetime import datetime, timedelta

from sessions_graph_core import validation
from sessions_graph_core.clock import format_utc
from sessions_graph_core.ontology.model import (
    adopted,
)
from sessions_graph_core.store.base import GraphStore

MILESTONES = (2, 4, 8, 16, 32, 64, 128)
EVERY = 128
MIN_USER_TURNS = 2
MIN_USER_CHARS = 1000
CLAIM = timedelta(hours=3)


# -- milestones ------------------------------------------------------------------------------


def next_milestone(after: int) -> int:
    """The first milestone above `after`: 2, 4, 8 ... 128, then every 128."""
    for milestone in MILESTONES:
        if milestone > after:
            return milestone
    return after - after % EVERY + EVERY


def reached(count: int) -> int:
    """The highest milestone a count of qualifying sessions has reached (0 below the first)."""
    milestone = 0
    while next_milestone(milestone) <= count:
        milestone = next_milestone(milestone)
    return milestone


def qualifying(store: GraphStore, user_id: str) -> list[dict]:
    """The user's reconciled sessions with enough of the user's own words, oldest reconciliation first."""
    return store.run(
        "MATCH (s:Session {user_id: $uid, reconciliation_status: 'completed'})-[:HAS_TURN]->(t:Turn) "
        "WHERE t.role = 'user' AND t.kind = 'message' AND t.text <> '' "
        "WITH s, count(t) AS turns, sum(size(t.text)) AS chars "
        "WHERE turns >= $min_turns AND chars >= $min_chars "
        "RETURN s.session_id AS session_id, s.reconciled_at AS reconciled_at ORDER BY reconciled_at, session_id",
        {"uid": validation.user_id(user_id), "min_turns": MIN_USER_TURNS, "min_chars": MIN_USER_CHARS},
    )


def derivation_state(store: GraphStore, user_id: str) -> dict:
    rows = store.run(
        "MATCH (u:User {user_id: $uid}) RETURN coalesce(u.derive_milestone, 0) AS milestone, "
        "u.derive_watermark AS watermark",
        {"uid": user_id},
    )
    return rows[0] if rows else {"milestone": 0, "watermark": None}


def due(store: GraphStore, user_id: str) -> int | None:
    """The milestone a run is due for, or None: not reached yet, or the adopted version is derive off."""
    uid = validation.user_id(user_id)
    if adopted(store, uid).derive == "off":
        return None
    milestone = next_milestone(derivation_state(store, uid)["milestone"])
    return milestone if len(qualifying(store, uid)) >= milestone else None


def due_users(store: GraphStore) -> list[tuple[str, int]]:
    """Every user a run is due for, with the milestone, for the Dagster sensor."""
    rows = store.run(
        "MATCH (s:Session {reconciliation_status: 'completed'}) RETURN DISTINCT s.user_id AS user_id ORDER BY user_id"
    )
    found = [(row["user_id"], due(store, row["user_id"])) for row in rows]
    return [(user, milestone) for user, milestone in found if milestone is not None]


# -- the claim -------------------------------------------------------------------------------


def claim(store: GraphStore, user_id: str, token: str, now: datetime) -> bool:
    """Take the user's expiring claim in one statement; False when another run holds it."""
    rows = store.run(
        "MATCH (u:User {user_id: $uid}) WHERE u.derive_claimed_until IS NULL OR u.derive_claimed_until < $now "
        "SET u.derive_claimed_until = $until, u.derive_claim = $token RETURN u.derive_claim AS token",
        {"uid": user_id, "now": format_utc(now), "until": format_utc(now + CLAIM), "token": token},
    )
    return bool(rows)


def release(store: GraphStore, user_id: str, token: str) -> None:
    # Only our own claim: one that expired and was taken by another run stays theirs.
    store.run(
        "MATCH (u:User {user_id: $uid}) WHERE u.derive_claim = $token "
        "SET u.derive_claimed_until = null, u.derive_claim = null",
        {"uid": user_id, "token": token},
    )
