"""Derivation milestones: when a user is due a run (2, 4, 8 ... qualifying sessions), and the claim one run holds."""

from __future__ import annotations

from datetime import datetime, timedelta

from sessions_graph_core import validation
from sessions_graph_core.clock import format_utc
from sessions_graph_core.store.base import GraphStore

MILESTONES = (2, 4, 8, 16, 32, 64, 128)
# How many candidates one derivation run derives at most (the CLI's --seeds range).
SEEDS = 3
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


# With `s` bound: whether the session qualifies, from its user's own messages (the one rule every query
# below applies, with _THRESHOLDS as its parameters).
_QUALIFIES = (
    "OPTIONAL MATCH (s)-[:HAS_TURN]->(t:Turn) WHERE t.role = 'user' AND t.kind = 'message' AND t.text <> '' "
    "WITH s, count(t) AS turns, sum(size(t.text)) AS chars "
    "WITH s, s.reconciliation_status = 'completed' AND turns >= $min_turns AND chars >= $min_chars AS qualifies "
)
_THRESHOLDS = {"min_turns": MIN_USER_TURNS, "min_chars": MIN_USER_CHARS}


def qualifying(store: GraphStore, user_id: str) -> list[dict]:
    """The user's reconciled sessions with enough of the user's own words, oldest reconciliation first."""
    return store.run(
        "MATCH (s:Session {user_id: $uid, reconciliation_status: 'completed'}) " + _QUALIFIES + "WHERE qualifies "
        "RETURN s.session_id AS session_id, s.reconciled_at AS reconciled_at ORDER BY reconciled_at, session_id",
        {"uid": validation.user_id(user_id), **_THRESHOLDS},
    )


# Each session says whether it qualifies (`Session.qualifies`) and each user how many of theirs do
# (`User.qualifying`), kept by reconciliation and forgetting, so the sensor reads one number per user
# instead of every turn of every user: at 7,000 sessions that scan took 6.7 s of the primary every minute.
# The session's mark set anew, and its user's count moved by the change (a count not yet made stays unmade).
_RECOUNT = (
    "MATCH (s:Session {session_id: $sid}) " + _QUALIFIES +
    "WITH s, qualifies AND NOT $forgetting AS now, coalesce(s.qualifies, false) AS before "
    "SET s.qualifies = now "
    "WITH s, now, before WHERE now <> before "
    "MATCH (u:User {user_id: s.user_id}) WHERE u.qualifying IS NOT NULL "
    "SET u.qualifying = u.qualifying + CASE WHEN now THEN 1 ELSE -1 END"
)
# A user's count made from their sessions (a store from before the count, or a user the sensor meets first).
_COUNT = (
    "MATCH (s:Session {user_id: $uid}) " + _QUALIFIES +
    "SET s.qualifies = qualifies "
    "WITH count(CASE WHEN qualifies THEN 1 END) AS qualifying "
    "MATCH (u:User {user_id: $uid}) SET u.qualifying = qualifying RETURN qualifying"
)


def recount(store: GraphStore, session_id: str, *, forgetting: bool = False) -> None:
    """Mark whether the session qualifies now (never, when it is being forgotten) and move its user's count."""
    store.run(_RECOUNT, {"sid": session_id, "forgetting": forgetting, **_THRESHOLDS})


def _counted(store: GraphStore, user_id: str) -> int:
    rows = store.run(_COUNT, {"uid": user_id, **_THRESHOLDS})
    return rows[0]["qualifying"] if rows else 0


def derivation_state(store: GraphStore, user_id: str) -> dict:
    rows = store.run(
        "MATCH (u:User {user_id: $uid}) RETURN coalesce(u.derive_milestone, 0) AS milestone, "
        "u.derive_watermark AS watermark",
        {"uid": user_id},
    )
    return rows[0] if rows else {"milestone": 0, "watermark": None}


def due(store: GraphStore, user_id: str) -> int | None:
    """The milestone a run is due for, or None: not reached yet, or the adopted version is derive off."""
    # Here, not at the top: forgetting keeps the counts through this module, and a hook that forgets must
    # not import pydantic (ontology.model's).
    from sessions_graph_core.ontology.model import adopted

    uid = validation.user_id(user_id)
    if adopted(store, uid).derive == "off":
        return None
    milestone = next_milestone(derivation_state(store, uid)["milestone"])
    return milestone if len(qualifying(store, uid)) >= milestone else None


def due_users(store: GraphStore) -> list[tuple[str, int]]:
    """Every user a run is due for, with the milestone, for the Dagster sensor: a user whose count reached
    their next milestone is checked as `due` checks one (the sessions themselves, and derive off)."""
    rows = store.run(
        "MATCH (u:User) RETURN u.user_id AS user_id, u.qualifying AS qualifying, "
        "coalesce(u.derive_milestone, 0) AS milestone ORDER BY user_id"
    )
    found = []
    for row in rows:
        count = row["qualifying"] if row["qualifying"] is not None else _counted(store, row["user_id"])
        if count >= next_milestone(row["milestone"]):
            found.append((row["user_id"], due(store, row["user_id"])))
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
