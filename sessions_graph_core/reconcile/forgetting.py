"""Exact forgetting: remove what a source produced and nothing another source still backs.

Every step is an idempotent statement and the sweeps at the end look for orphans rather than
remembering what they touched, and the node a forget is addressed by (the session, the file, the
user) goes last, so a forget that crashed half-way finishes when it is run again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from sessions_graph_core import validation
from sessions_graph_core.errors import no_session
from sessions_graph_core.memory import paths as memory_paths
from sessions_graph_core.ontology.derive import milestones
from sessions_graph_core.sessions import records as session_records
from sessions_graph_core.store.base import GraphStore

_SOURCE_ID = "coalesce(src.turn_id, src.memory_id)"


@dataclass(frozen=True)
class Forgotten:
    facts: int = 0
    mentions: int = 0
    chunks: int = 0
    entities: int = 0
    turns: int = 0
    passages: int = 0
    memories: int = 0
    versions: int = 0
    sessions: int = 0
    projects: int = 0
    reread: int = 0  # sources of facts the forgotten source had worded, queued to be read again


def _count(rows: list[dict]) -> int:
    return int(rows[0]["n"]) if rows else 0


def forget_sources(store: GraphStore, user_id: str, source_ids: Sequence[str]) -> Forgotten:
    """Remove what the turns or memory files `source_ids` produced (they may already be deleted)."""
    params = {"user_id": user_id, "ids": list(source_ids)}
    reread = _unword(store, params)
    store.run(
        f"MATCH (f:Fact {{user_id: $user_id}})-[r:FROM]->(src) WHERE {_SOURCE_ID} IN $ids DELETE r", params
    )
    _unpromote(store, params)
    store.run(
        "MATCH (:Entity {user_id: $user_id})-[m:MENTIONED_IN]->(:Chunk) WHERE any(s IN m.sources WHERE s IN $ids) "
        "SET m.sources = [s IN m.sources WHERE NOT s IN $ids]",
        params,
    )
    unmentioned = store.run(
        "MATCH (n:Entity {user_id: $user_id})-[m:MENTIONED_IN]->(:Chunk) WHERE size(m.sources) = 0 "
        "WITH n, m DELETE m RETURN count(m) AS n, collect(DISTINCT n.entity_key) AS keys",
        params,
    )
    store.run(f"MATCH (src)-[r:HAS_CHUNK]->(:Chunk {{user_id: $user_id}}) WHERE {_SOURCE_ID} IN $ids DELETE r", params)
    named_only_here = _drop_unnamed(store, user_id, unmentioned[0]["keys"] if unmentioned else [])
    swept = sweep(store, user_id)
    return replace(swept, mentions=_count(unmentioned), entities=swept.entities + named_only_here, reread=reread)


def _unword(store: GraphStore, params: dict) -> int:
    """Facts worded by a forgotten source that another source backs in other words lose every source, and
    those sources are read again: the fact comes back in their words, not the forgotten ones. A turn is
    read again once it has no chunk (pipeline.session_units), so its chunk edges go too."""
    rows = store.run(
        "MATCH (f:Fact {user_id: $user_id})-[:FROM]->(worder) WHERE f.source_id IN $ids "
        "AND coalesce(worder.turn_id, worder.memory_id) = f.source_id "
        "OPTIONAL MATCH (worder)-[:HAS_CHUNK]->(wc:Chunk) WITH f, collect(id(wc)) AS worded "
        f"MATCH (f)-[:FROM]->(src) WHERE NOT {_SOURCE_ID} IN $ids "
        "OPTIONAL MATCH (src)-[:HAS_CHUNK]->(c:Chunk) WITH f, worded, collect(c) AS chunks "
        # The same text reads the same way: a backing source holding the worder's chunk, or the wording itself, says it alike.
        "WHERE none(c IN chunks WHERE id(c) IN worded OR c.text CONTAINS f.text) "
        "MATCH (f)-[r:FROM]->(other) WITH f, r, other DELETE r "
        f"WITH DISTINCT other WHERE NOT {_SOURCE_ID.replace('src', 'other')} IN $ids "
        "OPTIONAL MATCH (other)-[h:HAS_CHUNK]->() WHERE other:Turn DELETE h "
        "WITH DISTINCT other "
        "OPTIONAL MATCH (s:Session)-[:HAS_TURN]->(other) "
        "FOREACH (m IN CASE WHEN other:Memory THEN [other] ELSE [] END | SET m.extraction_status = 'pending') "
        "RETURN count(DISTINCT other) AS n, collect(DISTINCT s.session_id) AS sessions",
        params,
    )
    for session_id in rows[0]["sessions"] if rows else []:
        session_records.mark_pending(store, session_id)
        milestones.recount(store, session_id)
    return _count(rows)


def _unpromote(store: GraphStore, params: dict) -> None:
    """A candidate shown because a second session stated it is held back again when the turns left behind it
    are of one session (facts.promote_stated_again): the graph is what it was before that session came."""
    store.run(
        "MATCH (f:Fact {user_id: $user_id}) WHERE f.promoted_because = 'stated again' "
        "MATCH (f)-[:FROM]->(t:Turn) WITH f, collect(DISTINCT t.session_id) AS sessions WHERE size(sessions) = 1 "
        "SET f.candidate = true, f.promoted_at = null, f.promoted_because = null",
        params,
    )


def _drop_unnamed(store: GraphStore, user_id: str, entity_keys: Sequence[str]) -> int:
    """Delete the entities that lost their last mention, with the ABOUT edges of facts another source
    still backs: no remaining source names them, so keeping them would keep the forgotten name."""
    return _count(store.run(
        "MATCH (n:Entity {user_id: $user_id}) WHERE n.entity_key IN $keys AND NOT (n)-[:MENTIONED_IN]->() "
        "DETACH DELETE n RETURN count(n) AS n",
        {"user_id": user_id, "keys": list(entity_keys)},
    ))


def sweep(store: GraphStore, user_id: str) -> Forgotten:
    """Delete the user's facts, chunks and entities that nothing backs any more."""
    orphans = store.run(
        "MATCH (f:Fact {user_id: $user_id}) WHERE NOT (f)-[:FROM]->() RETURN f.fact_id AS fact_id ORDER BY f.rank",
        {"user_id": user_id},
    )
    for row in orphans:
        _drop_fact(store, row["fact_id"])
    chunks = _count(
        store.run(
            "MATCH (c:Chunk {user_id: $user_id}) WHERE NOT ()-[:HAS_CHUNK]->(c) DETACH DELETE c RETURN count(c) AS n",
            {"user_id": user_id},
        )
    )
    entities = _count(
        store.run(
            "MATCH (n:Entity {user_id: $user_id}) WHERE NOT (n)-[:MENTIONED_IN]->() AND NOT ()-[:ABOUT]->(n) "
            "DETACH DELETE n RETURN count(n) AS n",
            {"user_id": user_id},
        )
    )
    return Forgotten(facts=len(orphans), chunks=chunks, entities=entities, passages=_sweep_passages(store, user_id))


def _sweep_passages(store: GraphStore, user_id: str) -> int:
    """Delete the user's vectors whose source (turn, file, entity or fact) is gone."""
    from sessions_graph_core.embeddings.vectors import SOURCE  # here: the hook path never loads the embedders

    swept = 0
    for kind, (label, key, _) in SOURCE.items():
        swept += _count(store.run(
            f"MATCH (p:Passage {{user_id: $uid, kind: $kind}}) "
            f"OPTIONAL MATCH (source:{label} {{user_id: $uid, {key}: p.source_id}}) "
            "WITH p, source WHERE source IS NULL DETACH DELETE p RETURN count(p) AS n",
            {"uid": user_id, "kind": kind},
        ))
    return swept


def _drop_fact(store: GraphStore, fact_id: str) -> None:
    """Delete a statement and close the gap it leaves in its slot's chain."""
    store.run(
        "MATCH (f:Fact {fact_id: $fact_id}) WHERE NOT (f)-[:FROM]->() "
        "OPTIONAL MATCH (f)-[:SUPERSEDES]->(prev:Fact) "
        "OPTIONAL MATCH (next:Fact)-[:SUPERSEDES]->(f) "
        "FOREACH (p IN CASE WHEN prev IS NULL THEN [] ELSE [prev] END | "
        "  SET p.superseded_at = next.valid_at "
        "  FOREACH (n IN CASE WHEN next IS NULL THEN [] ELSE [next] END | MERGE (n)-[:SUPERSEDES]->(p))) "
        "DETACH DELETE f",
        {"fact_id": fact_id},
    )


def forget_session(store: GraphStore, user_id: str, session_id: str) -> Forgotten:
    """Forget a session of `user_id`: its turns, their vectors, what only they back, and the session itself.

    What another source still backs stays, rid of the session's id. Memory files it wrote stay
    (they are sources of their own; `forget_memory_path` forgets one).
    """
    uid, sid = validation.user_id(user_id), validation.session_id(session_id)
    rows = store.run(
        "MATCH (s:Session {session_id: $sid, user_id: $uid}) OPTIONAL MATCH (s)-[:HAS_TURN]->(t:Turn) "
        "RETURN s.session_id AS sid, collect(t.turn_id) AS turn_ids",
        {"sid": sid, "uid": uid},
    )
    if not rows:  # another user's session reads as missing: its existence is theirs to know
        raise no_session(sid, uid)
    turn_ids = rows[0]["turn_ids"]
    params = {"sid": sid, "uid": uid, "ids": turn_ids}
    milestones.recount(store, sid, forgetting=True)
    store.run("MATCH (:Session {session_id: $sid})-[d:DISCOVERED]->() DELETE d", params)
    forgotten = forget_sources(store, uid, turn_ids)
    _unname_sources(store, uid, turn_ids, session_id=sid)
    turns = _count(store.run(
        "MATCH (:Session {session_id: $sid})-[:HAS_TURN]->(t:Turn) DETACH DELETE t RETURN count(t) AS n", params
    ))
    passages = forgotten.passages + _sweep_passages(store, uid)
    store.run("MATCH (v:MemoryVersion {user_id: $uid}) WHERE v.session_id = $sid SET v.session_id = null", params)
    sessions = _count(store.run("MATCH (s:Session {session_id: $sid}) DETACH DELETE s RETURN count(s) AS n", params))
    return replace(forgotten, turns=turns, passages=passages, sessions=sessions)


def _unname_sources(store: GraphStore, user_id: str, source_ids: Sequence[str], *, session_id: str = "") -> None:
    """Facts that survive name another backing source (and session) in place of the forgotten ones."""
    params = {"uid": user_id, "sid": session_id, "ids": list(source_ids)}
    store.run(
        "MATCH (f:Fact {user_id: $uid}) WHERE f.session_id = $sid "
        "OPTIONAL MATCH (s:Session)-[:DISCOVERED]->(f) WHERE s.session_id <> $sid "
        "WITH f, min(s.session_id) AS other SET f.session_id = other",
        params,
    )
    store.run(
        f"MATCH (f:Fact {{user_id: $uid}}) WHERE f.source_id IN $ids OPTIONAL MATCH (f)-[:FROM]->(src) "
        f"WITH f, min({_SOURCE_ID}) AS other SET f.source_id = other",
        params,
    )


def forget_memory_path(store: GraphStore, user_id: str, path: str) -> Forgotten:
    """Erase a memory file (or every file under a directory): its text, its whole history, its vectors
    and what only it backs. Unlike a delete, no version keeps the text."""
    uid = validation.user_id(user_id)
    canonical = memory_paths.normalize(path)
    params = {"uid": uid, "path": canonical, "below": canonical + "/"}
    rows = store.run(
        "OPTIONAL MATCH (m:Memory {user_id: $uid}) WHERE m.path = $path OR m.path STARTS WITH $below "
        "WITH collect(m.memory_id) AS live "
        "OPTIONAL MATCH (v:MemoryVersion {user_id: $uid}) WHERE v.path = $path OR v.path STARTS WITH $below "
        "RETURN live, collect(v.memory_id) AS old",
        params,
    )
    ids = sorted(set(rows[0]["live"]) | set(rows[0]["old"])) if rows else []
    params["ids"] = ids
    keys = [row["key"] for row in store.run(
        "MATCH (m:Memory {user_id: $uid})-[:ABOUT]->(p:Project) WHERE m.memory_id IN $ids RETURN DISTINCT p.key AS key",
        params,
    )]
    forgotten = forget_sources(store, uid, ids)
    _unname_sources(store, uid, ids)
    versions = _count(store.run(
        "MATCH (v:MemoryVersion {user_id: $uid}) WHERE v.memory_id IN $ids DETACH DELETE v RETURN count(v) AS n", params
    ))
    memories = _count(store.run(
        "MATCH (m:Memory {user_id: $uid}) WHERE m.memory_id IN $ids DETACH DELETE m RETURN count(m) AS n", params
    ))
    passages = forgotten.passages + _sweep_passages(store, uid)
    return replace(forgotten, passages=passages, versions=versions, memories=memories, projects=_drop_orphan_projects(store, keys))


FORGET_USER_BATCH = 5_000


def forget_user(store: GraphStore, user_id: str) -> dict[str, int]:
    """Erase every node of a user (an erasure request), the User last; how many of each label went."""
    uid = validation.user_id(user_id)
    counts: dict[str, int] = {}
    # Projects are shared: only those the user's own files were about may go, once nothing is about them.
    keys = [row["key"] for row in store.run(
        "MATCH (:Memory {user_id: $uid})-[:ABOUT]->(p:Project) RETURN DISTINCT p.key AS key", {"uid": uid}
    )]
    while True:  # in batches, so a large user is not one huge statement; the User node goes last
        rows = store.run(
            "MATCH (n) WHERE n.user_id = $uid AND NOT n:User WITH n LIMIT $batch "
            "WITH n, labels(n)[0] AS label DETACH DELETE n RETURN label, count(*) AS n",
            {"uid": uid, "batch": FORGET_USER_BATCH},
        )
        for row in rows:
            counts[row["label"]] = counts.get(row["label"], 0) + int(row["n"])
        if not rows:
            break
    users = _count(store.run("MATCH (u:User {user_id: $uid}) DETACH DELETE u RETURN count(u) AS n", {"uid": uid}))
    if users:
        counts["User"] = users
    projects = _drop_orphan_projects(store, keys)
    if projects:
        counts["Project"] = projects
    return counts


def _drop_orphan_projects(store: GraphStore, keys: Sequence[str]) -> int:
    """Delete those of `keys`' projects that no memory file is about any more (a key may be the user's
    repository name). Projects are shared: only the ones the forgotten files were about are looked at."""
    return _count(store.run(
        "UNWIND $keys AS key MATCH (p:Project {key: key}) WHERE NOT ()-[:ABOUT]->(p) DELETE p RETURN count(p) AS n",
        {"keys": list(keys)},
    ))


def forget_memory(store: GraphStore, user_id: str, memory_id: str) -> Forgotten:
    """Remove what a memory file's text produced; works before or after the file is deleted."""
    return forget_sources(store, validation.user_id(user_id), [validation.memory_id(memory_id)])


# Shorter strings (a word, a short id) turn up in unrelated bytes, so the check after a forget would
# report what it cannot tell apart from other data.
TRACE_MIN_CHARS = 12
ID_MIN_CHARS = 8


@dataclass(frozen=True)
class Traces:
    """What must not be left anywhere once a session, a memory path or a user is forgotten: the ids other
    records name it by (`keys`: the session, the memory files, the user), its turns' ids and its lines of text."""

    keys: tuple[str, ...] = ()
    turn_ids: tuple[str, ...] = ()
    lines: tuple[str, ...] = ()

    @property
    def strings(self) -> list[str]:
        """Everything, less what is too short to tell apart from other bytes."""
        ids = [item for item in (*self.keys, *self.turn_ids) if len(item) >= ID_MIN_CHARS]
        return sorted({*ids, *(line for line in self.lines if len(line) >= TRACE_MIN_CHARS)})


def traces(store: GraphStore, user_id: str, *, session_id: str | None = None, path: str | None = None) -> Traces:
    """The traces of the session, the memory path or (with neither) the whole user; read before forgetting."""
    uid = validation.user_id(user_id)
    if session_id is not None:
        rows = store.run(
            "MATCH (s:Session {session_id: $sid, user_id: $uid}) OPTIONAL MATCH (s)-[:HAS_TURN]->(t:Turn) "
            "WITH s, collect(t.turn_id) AS turns, collect(t.text) + collect(t.tool_input) AS texts "
            "RETURN [s.session_id] AS keys, turns, texts",
            {"sid": validation.session_id(session_id), "uid": uid},
        )
    elif path is not None:
        canonical = memory_paths.normalize(path)
        rows = store.run(
            "OPTIONAL MATCH (m:Memory {user_id: $uid}) WHERE m.path = $path OR m.path STARTS WITH $below "
            "WITH collect(m) AS live "
            "OPTIONAL MATCH (v:MemoryVersion {user_id: $uid}) WHERE v.path = $path OR v.path STARTS WITH $below "
            "WITH live, collect(v) AS old "
            "RETURN [m IN live | m.memory_id] + [v IN old | v.memory_id] AS keys, [] AS turns, "
            "[m IN live | m.content] + [v IN old | v.content] + [m IN live | m.path] + [v IN old | v.path] AS texts",
            {"uid": uid, "path": canonical, "below": canonical + "/"},
        )
    else:
        rows = store.run(
            "MATCH (n) WHERE n.user_id = $uid AND (n:Session OR n:Turn OR n:Memory OR n:MemoryVersion) "
            "RETURN collect(coalesce(n.memory_id, CASE WHEN n:Session THEN n.session_id END)) AS keys, "
            "collect(n.turn_id) AS turns, "
            "collect(coalesce(n.text, n.content)) + collect(n.path) + collect(n.tool_input) AS texts",
            {"uid": uid},
        )
        rows = [{**rows[0], "keys": [uid, *rows[0]["keys"]]}] if rows else []
    if not rows:
        return Traces()
    lines = {line.strip() for text in rows[0]["texts"] if text for line in text.splitlines()}
    return Traces(keys=tuple(sorted(set(rows[0]["keys"]))), turn_ids=tuple(rows[0]["turns"]), lines=tuple(sorted(lines - {""})))


def still_held(store: GraphStore, strings: Sequence[str]) -> list[str]:
    """Which of `strings` a kept node holds in its text (another session or user said the same line): on
    disk they are no trace of the forget. One scan of the graph per string, so only for strings found."""
    held = []
    for text in strings:
        rows = store.run(
            "MATCH (n) WHERE any(key IN ['text', 'content', 'path', 'name', 'tool_input', 'session_id', 'turn_id', "
            "'memory_id', 'user_id'] WHERE n[key] IS NOT NULL AND toString(n[key]) CONTAINS $text) "
            "RETURN count(n) > 0 AS held LIMIT 1",
            {"text": text},
        )
        if rows and rows[0]["held"]:
            held.append(text)
    return held
