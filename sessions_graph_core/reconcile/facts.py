"""Facts and decisions: statements in slots, superseded rather than deleted (seed 002).

A slot names what a statement is about ("orders service/owner"). Statements of one user and
slot form one chain (a decision and a fact in one slot say what holds there, so either replaces the other) ordered by `rank` (valid_at, then source order, then id), whatever
order they were reconciled in: each one SUPERSEDES the one before it, which gets
`superseded_at`. A statement equal to the one that held the slot at its time (or to the one right
after it, when that was reconciled first) is a restatement: it links to the existing node instead
of making a new one, and the node holds from the earlier of the two. Statements without a slot never supersede;
equal ones are one node.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Literal

import numpy as np
from pydantic import BaseModel

from sessions_graph_core import validation
from sessions_graph_core.clock import now_iso, to_iso
from sessions_graph_core.reconcile import entities, senses
from sessions_graph_core.reconcile.extraction.base import ExtractedFact
from sessions_graph_core.reconcile.lexicon import PERSONAL, Lexicon, lexicon, value_kind
from sessions_graph_core.reconcile.statements import HELD, HELD_HERE, PERSON_REF, SELF, SELF_WORDS, WAITING, waits
from sessions_graph_core.reconcile.tokens import I_FORMS, WE_FORMS
from sessions_graph_core.store.base import GraphStore
from sessions_graph_core.text import WORDS_CACHED, comparable

SourceKind = Literal["Turn", "Memory"]
# A source node bound to `src` from the id in `sid`.
SOURCE_BY_ID = {
    "Turn": "MATCH (src:Turn {turn_id: sid})",
    "Memory": "MATCH (src:Memory {memory_id: sid})",
}


class Source(BaseModel):
    """Where statements come from: a turn of a session, or a memory file."""

    kind: SourceKind
    source_id: str
    user_id: str
    user_key: str
    session_id: str | None
    valid_at: str
    order: int
    project: str | None = None  # the session's project_key: who "we" are


class Statement(BaseModel):
    """One fact or decision as one source states it, ready to be written."""

    fact_id: str
    source_id: str
    session_ids: list[str]
    kind: str
    slot: str
    claim: str
    text: str
    subject: str | None
    predicate: str | None
    object: str | None
    rationale: str | None
    confidence: float | None
    value: str | None
    valid_at: str
    rank: str
    about: list[str]
    kept: bool = False  # it says the slot's value did not change (ExtractedFact.kept)
    # Written but not shown until confirmed: the reader is not sure it is worth reading (learned_gate.held_back).
    candidate: bool = False


def claim(fact: ExtractedFact) -> str:
    """What a statement asserts, for telling restatements apart from changes: the value a slot holds
    ("live in Porto" and "moved to Porto" say one thing), else the triple, else the text."""
    if fact.slot and fact.value is not None:
        return comparable(f"{fact.slot} = {fact.value or '(none)'}")
    if fact.subject and fact.predicate and fact.object:
        return comparable(f"{fact.subject} | {fact.predicate} | {fact.object}")
    return comparable(fact.text)


def fact_id(source: Source, fact: ExtractedFact) -> str:
    # A slotted statement is one event (its source is part of it); a slotless one is the claim itself.
    parts = [source.user_id, fact.kind, fact.slot, claim(fact)] + ([source.source_id] if fact.slot else [])
    return "f-" + hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24]


def _stored_triple(fact: ExtractedFact) -> tuple[str | None, str | None, str | None]:
    """What recall shows as `subject -[predicate]-> object`: for a statement whose slot value is known,
    the slot's reading ("orders service -[owner]-> Carol"), else the triple as said."""
    if fact.slot and fact.value is not None and "/" in fact.slot and not waits(fact.slot):
        holder, attribute = fact.slot.rsplit("/", 1)
        return holder, attribute, fact.value or "(none)"
    return fact.subject, fact.predicate, fact.object


def statement(source: Source, fact: ExtractedFact, about: Sequence[str], index: int) -> Statement:
    """`about` holds entity keys; `index` is the statement's place among its source's statements."""
    fid = fact_id(source, fact)
    subject, predicate, obj = _stored_triple(fact)
    return Statement(
        fact_id=fid,
        source_id=source.source_id,
        session_ids=[source.session_id] if source.session_id else [],
        kind=fact.kind,
        slot=fact.slot,
        claim=claim(fact),
        text=fact.text,
        subject=subject,
        predicate=predicate,
        object=obj,
        rationale=fact.rationale,
        confidence=fact.confidence,
        value=fact.value,
        valid_at=source.valid_at,
        rank=f"{source.valid_at}|{source.order:09d}|{index:04d}|{fid}",
        about=list(about),
        kept=fact.kept,
    )


_NEW_FACT = (
    "ON CREATE SET f.user_id = $user_id, f.user_key = $user_key, f.text = x.text, f.claim = x.claim, "
    "f.subject = x.subject, f.predicate = x.predicate, f.object = x.object, f.slot = x.slot, f.kind = x.kind, "
    "f.rationale = x.rationale, f.confidence = x.confidence, f.value = x.value, f.valid_at = x.valid_at, f.rank = x.rank, "
    "f.session_id = x.session_ids[0], f.source_id = x.source_id, f.kept = x.kept, "
    "f.candidate = CASE WHEN x.candidate THEN true ELSE null END "
)
# With `f` and `x` bound: the sessions that stated it, and the entities it is about (already written).
_LINKS = (
    "FOREACH (sid IN x.session_ids | MERGE (s:Session {session_id: sid}) MERGE (s)-[:DISCOVERED]->(f)) "
    "FOREACH (key IN x.about | MERGE (n:Entity {user_id: $user_id, entity_key: key}) MERGE (f)-[:ABOUT]->(n)) "
)

# With `f` (a statement in its slot) and `new` bound: f put between the statement before it and the one
# after it in its slot's chain (when `new`; a restatement is already in it).
_INTO_CHAIN = (
    "OPTIONAL MATCH (p:Fact {user_id: $user_id, slot: f.slot}) WHERE new AND p.rank < f.rank "
    "WITH f, new, p ORDER BY p.rank DESC WITH f, new, collect(p)[0] AS prev "
    "OPTIONAL MATCH (n:Fact {user_id: $user_id, slot: f.slot}) WHERE new AND n.rank > f.rank "
    "WITH f, prev, n ORDER BY n.rank WITH f, prev, collect(n)[0] AS next "
    # By id, not by variable: FalkorDB rejects a pattern whose bound end is null.
    "OPTIONAL MATCH (:Fact {fact_id: next.fact_id})-[skipped:SUPERSEDES]->(:Fact {fact_id: prev.fact_id}) "
    "DELETE skipped "
    "FOREACH (x IN CASE WHEN prev IS NULL THEN [] ELSE [prev] END | "
    "  MERGE (f)-[:SUPERSEDES]->(x) SET x.superseded_at = f.valid_at) "
    "FOREACH (x IN CASE WHEN next IS NULL THEN [] ELSE [next] END | "
    "  MERGE (x)-[:SUPERSEDES]->(f) SET f.superseded_at = x.valid_at) "
    "RETURN f.fact_id AS fact_id"
)

# One statement: a restatement links to the statement it repeats; anything else is put between
# the statement before it and the one after it in its slot's chain.
_RECORD = (
    "WITH $statement AS x, $statement.source_id AS sid {source} "
    "OPTIONAL MATCH (p:Fact {{user_id: $user_id, slot: x.slot}}) "
    "WHERE p.valid_at <= x.valid_at AND p.fact_id <> x.fact_id "
    "WITH x, src, p ORDER BY p.rank DESC "
    "WITH x, src, collect(p)[0] AS held "
    # The statement after it, for a restatement reconciled before what it restates.
    "OPTIONAL MATCH (q:Fact {{user_id: $user_id, slot: x.slot}}) WHERE q.rank > x.rank AND q.fact_id <> x.fact_id "
    "WITH x, src, held, q ORDER BY q.rank WITH x, src, held, collect(q)[0] AS after "
    "WITH x, src, held IS NOT NULL AND held.claim = x.claim AS repeats, "
    "  after IS NOT NULL AND after.claim = x.claim AS repeated, held, after "
    "WITH x, src, repeated AND NOT repeats AS earlier, "
    "  CASE WHEN repeats THEN held.fact_id WHEN repeated THEN after.fact_id ELSE x.fact_id END AS target "
    "MERGE (f:Fact {{fact_id: target}}) " + _NEW_FACT.replace("{", "{{").replace("}", "}}") + "MERGE (f)-[:FROM]->(src) "
    + _LINKS.replace("{", "{{").replace("}", "}}") +
    # Said earlier than the node that holds it: the claim holds from the earlier statement on (and says
    # "did not change" only where that statement does).
    "FOREACH (_ IN CASE WHEN earlier THEN [1] ELSE [] END | SET f.valid_at = x.valid_at, f.rank = x.rank, f.kept = x.kept) "
    "WITH f, target = x.fact_id AS new, earlier "
    "OPTIONAL MATCH (f)-[:SUPERSEDES]->(older:Fact) "
    "WITH f, new, collect(older) AS olders, earlier "
    "FOREACH (o IN CASE WHEN earlier THEN olders ELSE [] END | SET o.superseded_at = f.valid_at) "
    "WITH f, new " + _INTO_CHAIN.replace("{", "{{").replace("}", "}}")
)


def record(store: GraphStore, kind: SourceKind, user_id: str, user_key: str, item: Statement) -> str:
    """Write one slotted statement; returns the id of the node that holds it (an older one if restated)."""
    resolved = _resolved(store, user_id, item)
    twin = _twin(store, user_id, resolved.slot, item.source_id, item.value) if resolved.slot != item.slot else None
    if twin:  # the same turn already said it in that slot ("we stopped using Sentry": error tracking, and *sentry)
        return twin
    moved = resolved.slot.rpartition("/")[0] != item.slot.rpartition("/")[0]
    item = resolved
    params = {"user_id": user_id, "user_key": user_key, "statement": item.model_dump()}
    rows = store.run(_RECORD.format(source=SOURCE_BY_ID[kind]), params)
    if not rows:
        raise LookupError(f"{kind} {item.source_id!r} is gone; its statements were not written")
    if moved:  # a change said of another name for the holder: recall finds it under the holder's
        holder = item.slot.rpartition("/")[0]
        store.run(_ABOUT_HOLDER, {"user_id": user_id, "fact_id": rows[0]["fact_id"], "slot": item.slot, "holder": holder})
    return rows[0]["fact_id"]


# -- restatements said another way ("our database is Postgres" ... "we're still on PostgreSQL") -----
# The store tells a restatement from a change by its claim; a value said another way gets the claim of
# the statement it repeats, so it joins that node instead of superseding it.

# A shortened name is the full one when the embedder puts them this near ("Postgres" / "PostgreSQL"
# 0.91, "Priya" / "Priya Shah" 0.85, "node" / "Node.js" 0.83); "Dr. Kim" / "Dr. Kimura" are 0.80 and
# "Java" / "JavaScript" 0.33 apart.
SAME_VALUE_SIMILARITY = 0.82
_VERSION = re.compile(r"^v?\d+(\.\d+)*[a-z]?$")
_NUMERONYM = re.compile(r"^([a-z])(\d+)([a-z])$")
_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")  # "JavaScript": Java, Script; "AWS": AWS


def said_again(store: GraphStore, user_id: str, items: Sequence[Statement]) -> list[Statement]:
    """The statements with the claim and value of the neighbour in their slot that they say again (_repeated),
    where its claim is not theirs already. One look-up for the batch; the batch's own statements count as
    neighbours of those after them."""
    slots = sorted({item.slot for item in items if item.value and item.slot and not waits(item.slot)})
    if not slots:
        return list(items)
    rows = store.run(
        "MATCH (p:Fact {user_id: $user_id}) WHERE p.slot IN $slots AND coalesce(p.value, '') <> '' "
        "RETURN p.slot AS slot, p.fact_id AS fact_id, p.claim AS claim, p.value AS value, p.rank AS rank, "
        "coalesce(p.kept, false) AS kept",
        {"user_id": user_id, "slots": slots},
    )
    known: dict[str, list[dict]] = {}
    for row in rows:
        known.setdefault(row["slot"], []).append(row)
    found = []
    for item in items:
        if item.slot in known:
            others = [row for row in known[item.slot] if row["fact_id"] != item.fact_id]
            repeated = _repeated(others, item.rank, item.claim, item.value, item.kept) if item.value else None
            if repeated and repeated["claim"] != item.claim:
                item = item.model_copy(update={"claim": repeated["claim"], "value": repeated["value"]})
            known[item.slot].append(item.model_dump())
        found.append(item)
    return found


def _repeated(rows: Sequence[dict], rank: str, claim: str, value: str | None, kept: bool) -> dict | None:
    """Of the other statements in a slot (rows with claim, value, rank and kept), the neighbour a statement of
    `rank` says again: the one that held the slot before it, else the one after it, where the two make one
    claim, say one value in other words, or the later says nothing changed ("I'm in New York, same as ever"
    after "I live in NYC"), whichever of the two was reconciled first."""
    held = max((row for row in rows if row["rank"] < rank), key=lambda row: row["rank"], default=None)
    after = min((row for row in rows if row["rank"] > rank), key=lambda row: row["rank"], default=None)
    for row, unchanged in ((held, kept), (after, bool(after and after["kept"]))):
        if row and (row["claim"] == claim or unchanged or (value and row["value"] and same_value(value, row["value"]))):
            return row
    return None


def same_value(one: str, other: str) -> bool:
    """Whether two values of one slot name one thing said another way: case, punctuation or "the"
    ("GitHub" / "github"), a version said on one side only ("PostgreSQL 16" / "Postgres"), an
    abbreviation ("NYC" / "New York City", "k8s" / "Kubernetes", "VW" / "Volkswagen"), a shortened name the
    embedder puts near the full one ("Priya" / "Priya Shah"); or word by word ("React + TS" / "React with
    TypeScript"), one value being the other with words added ("Hetzner" / "the Hetzner box"). Two versions
    that differ are two values ("iPhone 14" / "iPhone 15", "Mazda 3" / "Mazda CX-5"), and so are values
    with a word of their own each ("Portland, Oregon" / "Portland, Maine")."""
    return _same_name(one, other) or _same_words(one, other)


def _same_name(one: str, other: str) -> bool:
    (a, version_a), (b, version_b) = _versioned(one), _versioned(other)
    if not a or not b or (version_a and version_b and version_a != version_b):
        return False
    if _key(a) == _key(b):
        return True
    (short, _), (full, said) = sorted(((a, one), (b, other)), key=lambda pair: len(pair[0]))
    # Past a version, only the word itself may be longer ("node 20" / "Node.js"): "Pixel 7" is no "Pixel Fold".
    return _abbreviates(short, full, said) or _shortened(short, full, whole_words=not (version_a or version_b))


def _same_words(one: str, other: str) -> bool:
    """Each word of the value with fewer words is a word of the other said another way; the other's words
    left over (if any) only say what kind of thing the name is: said in lower case beside a capitalised
    name ("the Hetzner box"), not a word of the name ("React Native", "New York", typed "react native"),
    nor a second name joined to it ("Postgres and Redis")."""
    (short, _), (long, joined) = sorted((_name_words(one), _name_words(other)), key=lambda words: len(words[0]))
    left = list(long)
    for word in short:
        match = next((w for w in left if _same_name(word, w) or _initialism(word, w) or _initialism(w, word)), None)
        if match is None:
            return False
        left.remove(match)
    described = not joined and all(w.islower() for w in left) and any(w[:1].isupper() for w in long)
    return bool(short) and (not left or described)


def _name_words(value: str) -> tuple[list[str], bool]:
    """The words of a value that name something, as said, and whether the value joins two names."""
    words = re.findall(r"[^\s,;]+", value)
    named = [word for word in words if _key(word) and word.lower() not in JOINING_WORDS]
    return named, any(word.lower() in BOTH_WORDS for word in words)


# Words that join the names of a value and name nothing ("React + TS", "React with TypeScript", "Hetzner
# in Falkenstein"); of them, those by which a value is two things ("Postgres and Redis").
BOTH_WORDS = {"+", "&", "and", "plus", "with"}
JOINING_WORDS = BOTH_WORDS | {"a", "an", "the", "on", "in", "at", "of"}


def _initialism(short: str, full: str) -> bool:
    """"VW" of "Volkswagen", "MS" of "Microsoft": a word said in two to four capitals whose letters are, in
    order, letters of one longer word that starts with the first of them."""
    letters, word = short.lower(), full.lower()
    if not (short.isalpha() and short.isupper() and 2 <= len(short) <= 4) or not word.isalpha() or len(word) <= len(short):
        return False
    rest = iter(word[1:])
    return word[0] == letters[0] and all(letter in rest for letter in letters[1:])


def _versioned(value: str) -> tuple[str, str]:
    """The value's name and its trailing version ("postgresql", "16"); a value that is only numbers is all name."""
    words = comparable(value).removeprefix("the ").split()
    cut = len(words)
    while cut > 1 and _VERSION.match(words[cut - 1]):
        cut -= 1
    return " ".join(words[:cut]), " ".join(words[cut:])


def _key(name: str) -> str:
    return "".join(ch for ch in name if ch.isalnum())


def _abbreviates(short: str, full: str, said: str) -> bool:
    """"nyc" of "New York City" and "js" of "JavaScript" (the initials of its words as `said`, capitals
    inside a word starting one), "k8s" of "kubernetes" (first letter, how many letters between, last letter)."""
    parts, key = _PARTS.findall(re.sub(r"^the\s+", "", said, flags=re.IGNORECASE)), _key(full)
    if len(parts) > 1 and len(_key(short)) > 1 and _key(short) == "".join(part[0] for part in parts).lower():
        return True
    numeronym = _NUMERONYM.match(short)
    return bool(numeronym) and key[:1] == numeronym[1] and key[-1:] == numeronym[3] and len(key) == int(numeronym[2]) + 2


def _shortened(short: str, full: str, whole_words: bool) -> bool:
    """"Postgres" of "PostgreSQL", "Priya" of "Priya Shah" (with `whole_words`): a start of the full name
    that the embedder puts near it."""
    key = _key(short)
    if len(key) < 4 or not key.isalpha() or not _key(full).startswith(key):
        return False
    if not whole_words and len(short.split()) != len(full.split()):
        return False
    return _word_similarity(short, full) >= SAME_VALUE_SIMILARITY


# -- changes of a value whose attribute was not said ("we've cancelled PagerDuty") -----------------
# They wait in slot "<subject>/*<value>" until a statement puts that value in a slot of the same
# subject; whichever of the two is reconciled first, the change then joins that slot's chain.


def _twin(store: GraphStore, user_id: str, slot: str, source_id: str, value: str | None) -> str | None:
    """A statement of the same source already in `slot` with the same value: a waiting change that
    resolves there says what that one says (one ending read twice: by the value's kind and by the value)."""
    rows = store.run(
        "MATCH (p:Fact {user_id: $user_id, slot: $slot, source_id: $source_id}) WHERE coalesce(p.value, '') = $value "
        "RETURN p.fact_id AS fact_id LIMIT 1",
        {"user_id": user_id, "slot": slot, "source_id": source_id, "value": value or ""},
    )
    return rows[0]["fact_id"] if rows else None


def reading(slot: str, value: str | None) -> dict[str, str]:
    """A statement's slot, claim and triple once it is in `slot` holding `value` ("" when it ended it)."""
    holder, _, attribute = slot.rpartition("/")
    shown = value or "(none)"
    return {"slot": slot, "claim": comparable(f"{slot} = {shown}"), "subject": holder, "predicate": attribute, "object": shown}


def _resolved(store: GraphStore, user_id: str, item: Statement) -> Statement:
    """A pending change in the slot of its subject that holds (or held) the value it names, if one does."""
    holder, _, attribute = item.slot.rpartition("/")
    if not waits(item.slot) or attribute.startswith(WAITING):
        return item
    old, here = _held(attribute)
    rows = store.run(
        "MATCH (p:Fact {user_id: $user_id}) WHERE p.slot STARTS WITH $prefix AND NOT p.slot STARTS WITH $waiting "
        "AND p.value IS NOT NULL AND (toLower(p.value) CONTAINS $old OR left(toLower(p.value), 1) = left($old, 1)) "
        "RETURN p.slot AS slot, p.value AS value ORDER BY p.rank DESC",
        {"user_id": user_id, "prefix": f"{holder}/", "waiting": f"{holder}/{HELD}", "old": old},
    )
    slot = _holding([(comparable(row["value"]), row["slot"]) for row in rows], old)
    if not slot and holder != SELF and not here:
        rows = store.run(
            "MATCH (p:Fact {user_id: $user_id}) WHERE NOT p.slot STARTS WITH $mine AND NOT p.slot CONTAINS $waiting "
            "AND p.slot <> '' AND left(toLower(p.value), 1) = left($old, 1) RETURN DISTINCT p.slot AS slot, p.value AS value",
            {"user_id": user_id, "mine": f"{SELF}/", "waiting": f"/{HELD}", "old": old},
        )
        slot = _elsewhere([(comparable(row["value"]), row["slot"]) for row in rows], old)
    return item.model_copy(update=reading(slot, item.value)) if slot else item


def _held(attribute: str) -> tuple[str, bool]:
    """The old value a waiting change names, and whether only a slot of its own holder may take it (HELD_HERE)."""
    if attribute.startswith(HELD_HERE):
        return attribute[len(HELD_HERE):], True
    return attribute[len(HELD):], False


def _elsewhere(values: Sequence[tuple[str, str]], old: str) -> str | None:
    """The one slot of a holder other than the user that holds `old` exactly: a change that named its
    old value said of a thing named otherwise ("we moved the marketing site off Kinsta" after "our
    website is hosted on Kinsta"); none when the user has none or several (the user's own slots never
    take a change said of something else: "I left Google" is not my sister's job there)."""
    slots = {slot for value, slot in values if value == old and not slot.startswith(f"{SELF}/")}
    slots = slots or {slot for value, slot in values if not slot.startswith(f"{SELF}/") and same_value(value, old)}
    return next(iter(slots)) if len(slots) == 1 else None


_ADOPT = (
    "MATCH (f:Fact {user_id: $user_id, fact_id: $fact_id}) OPTIONAL MATCH (f)-[r:SUPERSEDES]-(:Fact) DELETE r "
    "WITH DISTINCT f SET f.slot = $slot, f.claim = $claim, f.subject = $subject, f.predicate = $predicate, "
    "f.object = $object, f.superseded_at = null WITH f, true AS new " + _INTO_CHAIN
)


# With `f` (a statement that says again what `p` says) bound: p is backed by f's turns, sessions and
# entities, holds from the earlier of the two on, and f is gone (as _RECORD does for a restatement).
_JOIN = (
    "MATCH (f:Fact {user_id: $user_id, fact_id: $fact_id}) MATCH (p:Fact {user_id: $user_id, fact_id: $into}) "
    "OPTIONAL MATCH (f)-[:FROM]->(src) WITH f, p, collect(src) AS sources "
    "OPTIONAL MATCH (s:Session)-[:DISCOVERED]->(f) WITH f, p, sources, collect(s) AS sessions "
    "OPTIONAL MATCH (f)-[:ABOUT]->(n) WITH f, p, sources, sessions, collect(n) AS about "
    "OPTIONAL MATCH (p)-[:SUPERSEDES]->(older:Fact) WITH f, p, sources, sessions, about, collect(older) AS olders "
    "FOREACH (x IN sources | MERGE (p)-[:FROM]->(x)) FOREACH (x IN sessions | MERGE (x)-[:DISCOVERED]->(p)) "
    "FOREACH (x IN about | MERGE (p)-[:ABOUT]->(x)) "
    "FOREACH (_ IN CASE WHEN f.rank < p.rank THEN [1] ELSE [] END | SET p.valid_at = f.valid_at, p.rank = f.rank) "
    "FOREACH (o IN CASE WHEN f.rank < p.rank THEN olders ELSE [] END | SET o.superseded_at = f.valid_at) "
    "DETACH DELETE f"
)


def move_into(store: GraphStore, user_id: str, fact_id: str, slot: str, value: str | None) -> None:
    """Put a written statement into `slot`'s chain holding `value`, out of whatever chain it was in; where
    its neighbour in that chain says the same (the one holding the slot at its time, else the one after
    it), it joins that node instead, as a restatement recorded directly does."""
    moved = reading(slot, value)
    rows = store.run(
        "MATCH (f:Fact {user_id: $user_id, fact_id: $fact_id}) MATCH (p:Fact {user_id: $user_id, slot: $slot}) "
        "WHERE p.fact_id <> f.fact_id RETURN p.fact_id AS fact_id, p.claim AS claim, p.value AS value, "
        "p.rank AS rank, coalesce(p.kept, false) AS kept, f.rank AS own, coalesce(f.kept, false) AS own_kept",
        {"user_id": user_id, "fact_id": fact_id, "slot": slot},
    )
    twin = _repeated(rows, rows[0]["own"], moved["claim"], value, rows[0]["own_kept"]) if rows else None
    if twin:
        store.run(_JOIN, {"user_id": user_id, "fact_id": fact_id, "into": twin["fact_id"]})
    else:
        store.run(_ADOPT, {"user_id": user_id, "fact_id": fact_id} | moved)


def adopt(store: GraphStore, user_id: str, items: Sequence[Statement]) -> None:
    """Move the changes waiting for a value these statements put in a slot into that slot's chain
    (one look-up for them all: almost always nothing waits)."""
    held: dict[str, list[tuple[str, str]]] = {}  # per subject: (value, slot)
    for item in items:
        if item.value and item.slot and not waits(item.slot):
            held.setdefault(item.slot.rpartition("/")[0], []).append((comparable(item.value), item.slot))
    if not held:
        return
    # Every change the user has waiting (not a waiting pronoun): one said of another holder may be this one's.
    waiting = store.run(
        "MATCH (p:Fact {user_id: $user_id}) WHERE p.slot CONTAINS $held AND NOT p.slot CONTAINS $pronoun "
        "RETURN p.fact_id AS fact_id, p.value AS value, p.slot AS pending, p.source_id AS source_id ORDER BY p.rank",
        {"user_id": user_id, "held": f"/{HELD}", "pronoun": f"/{WAITING}"},
    )
    elsewhere = [pair for holder, pairs in held.items() if holder != SELF for pair in pairs]
    for row in waiting:
        holder, _, attribute = row["pending"].rpartition("/")
        old, here = _held(attribute)
        slot = _holding(held.get(holder, []), old)
        if not slot and holder != SELF and not here:
            slot = _elsewhere(elsewhere, old)
        if slot and _twin(store, user_id, slot, row["source_id"], row["value"]):
            # Its turn already said it in that slot: one statement, not two links of the chain.
            store.run("MATCH (p:Fact {user_id: $user_id, fact_id: $fact_id}) DETACH DELETE p",
                      {"user_id": user_id, "fact_id": row["fact_id"]})
        elif slot:
            if not slot.startswith(f"{holder}/"):  # recall finds it under the holder it now is of
                store.run(_ABOUT_HOLDER, {"user_id": user_id, "fact_id": row["fact_id"], "slot": slot,
                                          "holder": slot.rpartition("/")[0]})
            move_into(store, user_id, row["fact_id"], slot, row["value"])


_ABOUT_HOLDER = (
    "MATCH (f:Fact {user_id: $user_id, fact_id: $fact_id}) "
    "MATCH (:Fact {user_id: $user_id, slot: $slot})-[:ABOUT]->(n:Entity {user_id: $user_id, name_key: $holder}) "
    "WITH f, n LIMIT 1 MERGE (f)-[:ABOUT]->(n)"
)


# A statement in no slot has slot '' (tested by size: this FalkorDB finds no node by `slot = ''`).
_HOLD_SAID = (
    "MATCH (f:Fact {user_id: $user_id, fact_id: $fact_id}) WHERE size(f.slot) = 0 "
    "SET f.slot = $slot, f.value = $value, f.claim = $claim WITH f, true AS new " + _INTO_CHAIN
)


def hold_said(store: GraphStore, user_id: str) -> None:
    """Put a statement no slot holds into the slot of a change waiting for what it names (_held_by): "we use
    Zapier to glue our forms" (read in no slot) is what "we ditched Zapier" ends; in either order of
    reconciling, once (a statement in a slot is no longer a candidate). One look-up when nothing waits."""
    waiting = store.run(
        "MATCH (p:Fact {user_id: $user_id}) WHERE p.slot CONTAINS $held AND NOT p.slot CONTAINS $pronoun "
        "AND p.subject IS NOT NULL RETURN p.slot AS slot, p.subject AS subject",
        {"user_id": user_id, "held": f"/{HELD}", "pronoun": f"/{WAITING}"},
    )
    if not waiting:
        return
    names = sorted({name for row in waiting for name in _waiting_names(row["slot"])})
    said = store.run(
        "MATCH (p:Fact {user_id: $user_id}) WHERE size(p.slot) = 0 AND p.object IS NOT NULL AND p.subject IS NOT NULL "
        "AND any(name IN $names WHERE toLower(p.object) CONTAINS name OR name CONTAINS toLower(p.object)) "
        "RETURN p.fact_id AS fact_id, p.subject AS subject, p.object AS object",
        {"user_id": user_id, "names": names},
    )
    for row in said:
        held = next(((w["slot"], value) for w in waiting if (value := _held_by(w["slot"], w["subject"], row))), None)
        if held:
            store.run(_HOLD_SAID, {"user_id": user_id, "fact_id": row["fact_id"], "slot": held[0], "value": held[1],
                                   "claim": comparable(f"{held[0]} = {held[1]}")})


def _waiting_names(slot: str) -> list[str]:
    """What a statement in no slot must name to be what a waiting change ends: its old value, and for a role
    of a thing that a person held, the thing."""
    holder, _, attribute = slot.rpartition("/")
    old, here = _held(attribute)
    return [old, holder] if here else [old]


def _held_by(slot: str, subject: str, said: dict) -> str | None:
    """The value a statement in no slot (`said`: its subject and object) held in the waiting `slot` of a
    change said with `subject`: its object, where it names the old value and has the change's speaker ("we use
    Zapier ..." for "we ditched Zapier"); its subject, where a person gave up a role of the thing it names ("I
    volunteer at the food bank" for "I stepped away from the food bank": food bank/*@me). None otherwise."""
    holder, _, attribute = slot.rpartition("/")
    old, here = _held(attribute)
    named = [(comparable(said["object"]), slot)]
    if _speaker(said["subject"]) == _speaker(subject) and _holding(named, old):
        return said["object"]
    if here and _speaker(said["subject"]) == _speaker(old) and _holding(named, holder):
        return said["subject"]
    return None


def _speaker(subject: str) -> str:
    """A subject as said, with the forms of "I" and of "we" as one."""
    said = comparable(subject)
    return "i" if said in I_FORMS else "we" if said in WE_FORMS else said


def adopt_waiting(store: GraphStore, user_id: str, items: Sequence[Statement]) -> None:
    """Move the statements whose pronoun holder waits (statements.waiting) into the slot of the one
    holder the user now has of their attribute: a person's for "he"/"she", any other for "it"; they
    keep waiting while the user has none or several. One look-up when nothing waits."""
    attributes = {item.slot.rpartition("/")[2] for item in items if item.slot and not waits(item.slot)}
    if not attributes:
        return
    waiting = store.run(
        "MATCH (p:Fact {user_id: $user_id}) WHERE p.slot STARTS WITH '@' AND p.slot CONTAINS $waiting "
        "RETURN p.fact_id AS fact_id, p.slot AS slot, p.value AS value ORDER BY p.rank",
        {"user_id": user_id, "waiting": f"/{WAITING}"},
    )
    waiting = [row for row in waiting if row["slot"].partition(f"/{WAITING}")[2] in attributes]
    if not waiting:
        return
    holders: dict[str, set[str]] = {}
    for slot in known_slots(store, user_id):
        holder, _, attribute = slot.rpartition("/")
        holders.setdefault(attribute, set()).add(holder)
    for row in waiting:
        marker, _, attribute = row["slot"].partition(f"/{WAITING}")
        if marker.startswith(PERSON_REF) != (attribute in PERSONAL):
            continue
        found = holders.get(attribute, set()) - {SELF}
        if len(found) != 1:
            continue
        slot = f"{next(iter(found))}/{attribute}"
        store.run(_ABOUT_HOLDER, {"user_id": user_id, "fact_id": row["fact_id"], "slot": slot, "holder": next(iter(found))})
        move_into(store, user_id, row["fact_id"], slot, row["value"])


def _holding(values: Sequence[tuple[str, str]], old: str) -> str | None:
    """The slot whose value is `old`, or else names it by a word of its own ("Civic" of "Honda Civic"), or
    else says it another way (same_value: "The Economist" / "Economist", "Postgres" / "PostgreSQL", "k8s")."""
    exact = next((slot for value, slot in values if value == old), None)
    worded = exact or next((slot for value, slot in values if f" {old} " in f" {value} "), None)
    return worded or next((slot for value, slot in values if same_value(value, old)), None)


def same_holders(store: GraphStore, user_id: str, items: Sequence[Statement]) -> list[Statement]:
    """The statements with each slot's holder as the user already names it, where another mention
    of it is the only slot of that attribute the user has: "the warehouse" after "the data
    warehouse", "the data warehouse" after "the warehouse"; and with a word of no attribute as the
    user already says it of that holder ("logging" after "logs": see _known_word). One look-up for the batch."""
    if not items:
        return list(items)
    rows = store.run(
        "MATCH (p:Fact {user_id: $user_id}) WHERE p.slot <> '' AND NOT p.slot CONTAINS $waiting RETURN DISTINCT p.slot AS slot",
        {"user_id": user_id, "waiting": f"/{HELD}"},
    )
    known = {row["slot"] for row in rows}
    found = []
    for item in items:
        slot = _known_word(_known_form(item.slot, known), known)
        if slot != item.slot:
            update = reading(slot, item.value) if item.value is not None else {"slot": slot}
            item = item.model_copy(update=update)
        known.add(item.slot)
        found.append(item)
    return found


def _value_kinds(items: Sequence[Statement], lex: Lexicon) -> dict[str, str | None]:
    """Each slotted statement's value's listed kind (by fact id), for the passes that join slots by it."""
    return {item.fact_id: value_kind(item.value, lex) for item in items if item.value and not waits(item.slot)}


def current_values(store: GraphStore, user_id: str, prefixes: Sequence[str]) -> list[tuple[str, str]]:
    """(slot, value) of each current statement with a value in a slot under one of the holder prefixes
    ("me/", "acme-shop/"); waiting slots left out. One look-up."""
    rows = store.run(
        "MATCH (p:Fact {user_id: $user_id}) WHERE p.superseded_at IS NULL AND coalesce(p.value, '') <> '' "
        "AND any(h IN $prefixes WHERE p.slot STARTS WITH h) AND NOT p.slot CONTAINS $waiting "
        "RETURN DISTINCT p.slot AS slot, p.value AS value",
        {"user_id": user_id, "waiting": f"/{HELD}", "prefixes": list(prefixes)},
    )
    return [(row["slot"], row["value"]) for row in rows]


def same_kinds(store: GraphStore, user_id: str, items: Sequence[Statement]) -> list[Statement]:
    """The statements in the slot the user already has for a value of the same kind, where one of
    the two slots is named by that kind and the other by a word of no attribute ("we use Jira for
    tickets" ... "tickets are tracked in Linear": tickets is the issue tracker), and no other slot of
    that holder holds a value of that kind. One look-up, only for statements in a slot not yet known."""
    lex = lexicon()
    attributes = set(lex.nouns.values())
    kinds = _value_kinds(items, lex)
    if not any(kinds.values()):
        return list(items)
    prefixes = sorted({item.slot.rpartition("/")[0] + "/" for item in items if kinds.get(item.fact_id)})
    current: dict[str, set[tuple[str, str]]] = {}
    for slot, value in current_values(store, user_id, prefixes):
        current.setdefault(slot.rpartition("/")[0], set()).add((slot, value))
    found = []
    for item in items:
        holder, _, attribute = item.slot.rpartition("/")
        kind = kinds.get(item.fact_id)
        held = current.get(holder, set())
        if kind and item.slot not in {slot for slot, _ in held}:
            same = {slot for slot, value in held if value_kind(value, lex) == kind}
            other = next(iter(same), "").rpartition("/")[2]
            named = (attribute == kind and other not in attributes) or (other == kind and attribute not in attributes)
            if len(same) == 1 and named:
                item = item.model_copy(update=reading(next(iter(same)), item.value))
        found.append(item)
    return found


def same_things(store: GraphStore, user_id: str, items: Sequence[Statement]) -> list[Statement]:
    """The statements in the slot the user already has for the thing they are about, named the other way
    round: a thing named as a slot of its holder ("we settled on Terraform for infra": <project>/infra) and the
    thing as the holder of its value's kind ("we moved infra to Pulumi": infra/infrastructure as code) are one
    slot when both values are of that kind and exactly one such slot is held. One look-up for the batch, only
    for statements whose value has a listed kind."""
    lex = lexicon()
    attributes = set(lex.nouns.values())
    kinds = _value_kinds(items, lex)
    # Each statement's other form: (its value's kind, whether the form is a holder, the holder or slot looked for).
    forms: dict[str, tuple[str, bool, str]] = {}
    for item in items:
        holder, _, attribute = item.slot.rpartition("/")
        kind = kinds.get(item.fact_id)
        if kind and attribute == kind and holder != SELF:
            forms[item.fact_id] = (kind, True, holder)  # "infra/infrastructure as code": look for "<anyone>/infra"
        elif kind and attribute not in attributes:
            forms[item.fact_id] = (kind, False, f"{attribute}/{kind}")  # "<project>/infra": look for "infra/iac"
    if not forms:
        return list(items)
    rows = store.run(
        "MATCH (p:Fact {user_id: $user_id}) WHERE p.superseded_at IS NULL AND coalesce(p.value, '') <> '' "
        "AND (p.slot IN $exact OR any(h IN $holders WHERE p.slot ENDS WITH h)) RETURN DISTINCT p.slot AS slot, p.value AS value",
        {"user_id": user_id, "exact": sorted({key for _, holder, key in forms.values() if not holder}),
         "holders": sorted({f"/{key}" for _, holder, key in forms.values() if holder})},
    )
    held = [(row["slot"], value_kind(row["value"], lex)) for row in rows]
    found = []
    for item in items:
        kind, by_holder, key = forms.get(item.fact_id, (None, False, ""))
        same = {slot for slot, other in held
                if kind and other == kind and (slot.rpartition("/")[2] if by_holder else slot) == key}
        if len(same) == 1 and item.slot not in same:
            item = item.model_copy(update=reading(next(iter(same)), item.value))
        found.append(item)
    return found


# Two words of no attribute name one slot of a holder when the embedder puts them this near
# ("logs" / "logging", "password manager" / "passwords"; "frontend" / "backend" are 0.67 apart).
SAME_WORD_SIMILARITY = 0.75


def _known_word(slot: str, known: set[str]) -> str:
    """The slot of the same holder the user already has under another word of no attribute that the
    embedder puts near this one, when exactly one is; the slot as it is otherwise."""
    holder, _, attribute = slot.rpartition("/")
    attributes = set(lexicon().nouns.values())
    if not slot or slot in known or waits(slot) or attribute in attributes:
        return slot
    others = sorted({k.rpartition("/")[2] for k in known if k.rpartition("/")[0] == holder} - attributes - {attribute})
    others = [other for other in others if not other.startswith(HELD)]
    near = [other for other in others
            if _word_similarity(attribute, other) >= SAME_WORD_SIMILARITY or senses.same_sense(attribute, other)]
    return f"{holder}/{near[0]}" if len(near) == 1 else slot


# Attribute words only, one at a time (text.WORDS_CACHED says why the cache is bounded).
@lru_cache(maxsize=WORDS_CACHED)
def _word_vector(word: str) -> np.ndarray | None:
    try:
        from sessions_graph_core.embeddings.models import load_embedder

        return load_embedder().embed([word])[0]
    except Exception:  # noqa: BLE001 - no embedder on this host: words differ as said
        return None


def _word_similarity(one: str, other: str) -> float:
    a, b = _word_vector(one), _word_vector(other)
    return float(a @ b) if a is not None and b is not None else -1.0


def _known_form(slot: str, known: set[str]) -> str:
    holder, _, attribute = slot.rpartition("/")
    if not slot or slot in known or waits(slot) or holder == SELF:
        return slot
    others = {k.rpartition("/")[0] for k in known if k.rpartition("/")[2] == attribute} - {holder, SELF}
    same = [other for other in others
            if _longer(other, holder) or _longer(holder, other) or _bare_name(other) == _bare_name(holder)]
    return f"{same[0]}/{attribute}" if len(same) == 1 else slot


# Words that say what kind of thing a holder is: "the search service", "the data team" and "the staging
# servers" are what "search", "data" and "staging" name.
KIND_WORDS = {"service", "services", "team", "app", "application", "server", "servers", "environment", "env",
              "cluster", "site", "website", "platform"}


def _bare_name(holder: str) -> str:
    """A holder as one spelling: without a last word that only says its kind, and with its words run
    together ("front-end", "front end" and "frontend" are one)."""
    words = holder.replace("-", " ").split()
    if len(words) > 1 and words[-1] in KIND_WORDS:
        words = words[:-1]
    return "".join(words)


def _longer(mention: str, short: str) -> bool:
    """Whether `mention` names `short` with more words before it ("data warehouse" / "warehouse"); not
    where the words before it are its possessor ("the design team's standup" is not our standup)."""
    return f" {mention}".endswith(f" {short}") and not mention[: -len(short)].rstrip().endswith("'s")


_CLAIMS = (
    "UNWIND $claims AS x "
    "MERGE (f:Fact {fact_id: x.fact_id}) " + _NEW_FACT +
    # A slotless claim holds from its earliest statement, whichever was reconciled first.
    "ON MATCH SET f.valid_at = CASE WHEN x.valid_at < f.valid_at THEN x.valid_at ELSE f.valid_at END "
    + _LINKS +
    "WITH f, x UNWIND x.source_ids AS sid {source} MERGE (f)-[:FROM]->(src)"
)


def record_claims(store: GraphStore, kind: SourceKind, user_id: str, user_key: str, items: Sequence[Statement]) -> None:
    """Write slotless statements in one statement; equal claims are one node, backed by every source."""
    merged: dict[str, dict] = {}
    for item in items:
        row = merged.setdefault(item.fact_id, item.model_dump() | {"source_ids": [], "session_ids": [], "about": []})
        # Rows stay one per fact: FalkorDB does not show a row the writes of an earlier row of the same statement.
        if item.valid_at < row["valid_at"]:
            row.update(valid_at=item.valid_at, rank=item.rank, source_id=item.source_id)
        row["source_ids"] = list(dict.fromkeys(row["source_ids"] + [item.source_id]))
        row["session_ids"] = list(dict.fromkeys(row["session_ids"] + item.session_ids))
        row["about"] = list(dict.fromkeys(row["about"] + item.about))
    if merged:
        query = _CLAIMS.replace("{source}", SOURCE_BY_ID[kind])
        store.run(query, {"user_id": user_id, "user_key": user_key, "claims": list(merged.values())})


def promote_stated_again(store: GraphStore, user_id: str, fact_ids: Sequence[str]) -> None:
    """Show the candidates among these nodes that more than one session has stated: said again elsewhere,
    it is no passing remark. The promotion keeps when and why; the sessions are its DISCOVERED links (and no
property holds their ids, so forgetting one leaves none behind: forgetting._unpromote)."""
    if fact_ids:
        store.run(
            "MATCH (f:Fact {user_id: $user_id}) WHERE f.fact_id IN $ids AND f.candidate "
            "MATCH (s:Session)-[:DISCOVERED]->(f) WHERE s.user_id = $user_id "
            "WITH f, collect(DISTINCT s.session_id) AS sessions WHERE size(sessions) > 1 "
            "SET f.candidate = null, f.promoted_at = $now, f.promoted_because = 'stated again'",
            {"user_id": user_id, "ids": list(dict.fromkeys(fact_ids)), "now": now_iso()},
        )


# -- reading -------------------------------------------------------------------------------


class FactView(BaseModel):
    fact_id: str
    kind: str
    text: str
    slot: str
    value: str | None = None  # what the slot holds; "" when the statement ended it
    rationale: str | None = None
    session_id: str | None = None
    valid_at: str
    superseded_at: str | None = None
    replaced: list[str] = []
    candidate: bool = False  # written but not shown by default (Statement.candidate)


FACT_COLUMNS = (
    "x.fact_id AS fact_id, x.kind AS kind, x.text AS text, x.slot AS slot, x.value AS value, x.rationale AS rationale, "
    "x.session_id AS session_id, x.valid_at AS valid_at, x.superseded_at AS superseded_at, "
    "coalesce(x.candidate, false) AS candidate"
)
# With `x` a fact: shown, or a candidate and candidates are asked for ($candidates).
_SHOWN = "($candidates OR x.candidate IS NULL)"
_ABOUT = "MATCH (:Entity {user_id: $user_id, name_key: $name})<-[:ABOUT]-(x:Fact) "


def _about_name(store: GraphStore, user_id: str, about: str) -> str:
    validation.user_id(user_id)
    if comparable(about) in SELF_WORDS | {comparable(user_id)}:
        return SELF
    return entities.find(store, user_id, about) or comparable(about)


def current(store: GraphStore, user_id: str, about: str, *, candidates: bool = False) -> list[FactView]:
    """What is true now about the entity `about` names, each with what it replaced (newest first); candidates
    only when asked for."""
    rows = store.run(
        _ABOUT + f"WHERE x.superseded_at IS NULL AND {_SHOWN} WITH DISTINCT x "
        "OPTIONAL MATCH (x)-[:SUPERSEDES*1..5]->(old:Fact) "
        "WITH x, old ORDER BY old.rank DESC "
        f"WITH x, collect(old.text) AS replaced RETURN {FACT_COLUMNS}, replaced ORDER BY valid_at, text",
        {"user_id": user_id, "name": _about_name(store, user_id, about), "candidates": candidates},
    )
    return [FactView.model_validate(row) for row in rows]


def history(store: GraphStore, user_id: str, about: str, *, candidates: bool = False) -> list[FactView]:
    """Statements about the entity that something later replaced; candidates only when asked for."""
    rows = store.run(
        _ABOUT + f"WHERE x.superseded_at IS NOT NULL AND {_SHOWN} WITH DISTINCT x RETURN {FACT_COLUMNS} ORDER BY valid_at, text",
        {"user_id": user_id, "name": _about_name(store, user_id, about), "candidates": candidates},
    )
    return [FactView.model_validate(row) for row in rows]


def as_of(store: GraphStore, user_id: str, about: str, moment: str, *, candidates: bool = False) -> list[FactView]:
    """What was true about the entity at `moment` (an ISO-8601 UTC string); candidates only when asked for."""
    rows = store.run(
        _ABOUT + f"WHERE x.valid_at <= $at AND (x.superseded_at IS NULL OR x.superseded_at > $at) AND {_SHOWN} "
        f"WITH DISTINCT x RETURN {FACT_COLUMNS} ORDER BY valid_at, text",
        {"user_id": user_id, "name": _about_name(store, user_id, about), "at": to_iso(moment), "candidates": candidates},
    )
    return [FactView.model_validate(row) for row in rows]


class NearbyFact(BaseModel):
    via: str
    fact: str


def nearby(store: GraphStore, user_id: str, about: str) -> list[NearbyFact]:
    """Current facts two hops away: about an entity that shares a current statement with this one."""
    rows = store.run(
        _ABOUT + "WHERE x.superseded_at IS NULL AND x.candidate IS NULL "
        "MATCH (x)-[:ABOUT]->(o:Entity) WHERE o.name_key <> $name "
        "MATCH (o)<-[:ABOUT]-(f:Fact {kind: 'fact'}) WHERE f.superseded_at IS NULL AND f.candidate IS NULL "
        "AND NOT (f)-[:ABOUT]->(:Entity {user_id: $user_id, name_key: $name}) "
        "RETURN DISTINCT o.name AS via, f.text AS fact ORDER BY via, fact",
        {"user_id": user_id, "name": _about_name(store, user_id, about)},
    )
    return [NearbyFact.model_validate(row) for row in rows]


def known_slots(store: GraphStore, user_id: str) -> list[str]:
    """Slots that hold a current statement, for backends that can reuse them."""
    rows = store.run(
        "MATCH (x:Fact {user_id: $user_id}) WHERE x.slot <> '' AND x.superseded_at IS NULL AND NOT x.slot CONTAINS $waiting "
        "RETURN DISTINCT x.slot AS slot ORDER BY slot",
        {"user_id": validation.user_id(user_id), "waiting": f"/{HELD}"},
    )
    return [row["slot"] for row in rows]


def superseded_by_sessions(store: GraphStore, session_ids: Sequence[str]) -> dict[str, int]:
    """For each session, how many older facts the statements it made replaced (0 for none)."""
    rows = store.run(
        "MATCH (f:Fact)-[:SUPERSEDES]->(old:Fact) WHERE f.session_id IN $ids "
        "RETURN f.session_id AS session_id, count(DISTINCT old) AS replaced",
        {"ids": list(session_ids)},
    )
    found = {row["session_id"]: int(row["replaced"]) for row in rows}
    return {sid: found.get(sid, 0) for sid in session_ids}


class TracedFact(FactView):
    """A statement with where it came from: the entities it is about, the turns or memory files that
    said it and the sessions that stated it (seed 004), for a person reading what is held about them."""

    subjects: list[str] = []
    sources: list[str] = []
    sessions: list[str] = []


def traced(
    store: GraphStore, user_id: str, *, moment: str | None = None, limit: int = 200, offset: int = 0,
    candidates: bool = False,
) -> list[TracedFact]:
    """The user's statements true now (or at `moment`), newest first, a page of `limit` from `offset`, each
    traced to its sources. Each edge is walked from the fact: a pattern starting at the user's sessions
    would scan them all for every fact."""
    rows = store.run(
        "MATCH (x:Fact {user_id: $user_id}) WHERE ($at IS NULL AND x.superseded_at IS NULL) OR "
        "($at IS NOT NULL AND x.valid_at <= $at AND (x.superseded_at IS NULL OR x.superseded_at > $at)) "
        f"WITH x WHERE {_SHOWN} WITH x ORDER BY x.valid_at DESC, x.text SKIP $offset LIMIT $limit "
        "OPTIONAL MATCH (x)<-[:DISCOVERED]-(s) WHERE s.user_id = $user_id WITH x, collect(DISTINCT s.session_id) AS sessions "
        "OPTIONAL MATCH (x)-[:FROM]->(src) "
        "WITH x, sessions, collect(DISTINCT coalesce(src.turn_id, src.memory_id)) AS sources "
        "OPTIONAL MATCH (x)-[:ABOUT]->(n:Entity) WITH x, sessions, sources, collect(DISTINCT n.name) AS subjects "
        "OPTIONAL MATCH (x)-[:SUPERSEDES*1..5]->(old:Fact) WITH x, sessions, sources, subjects, old ORDER BY old.rank DESC "
        "WITH x, sessions, sources, subjects, collect(old.text) AS replaced "
        f"RETURN {FACT_COLUMNS}, subjects, replaced, sources, sessions ORDER BY valid_at DESC, text",
        {"user_id": validation.user_id(user_id), "at": to_iso(moment) if moment else None, "limit": int(limit),
         "offset": int(offset), "candidates": candidates},
    )
    return [TracedFact.model_validate(row) for row in rows]


def traced_one(store: GraphStore, user_id: str, fact_id: str) -> TracedFact | None:
    """One of the user's statements, traced; None when the user has none of this id (another's reads as missing)."""
    rows = store.run(
        "MATCH (x:Fact {user_id: $user_id, fact_id: $fact_id}) "
        "OPTIONAL MATCH (x)-[:ABOUT]->(n:Entity) WITH x, collect(DISTINCT n.name) AS subjects "
        "OPTIONAL MATCH (x)-[:FROM]->(src) "
        "WITH x, subjects, collect(DISTINCT coalesce(src.turn_id, src.memory_id)) AS sources "
        "OPTIONAL MATCH (x)<-[:DISCOVERED]-(s) WHERE s.user_id = $user_id "
        f"RETURN {FACT_COLUMNS}, subjects, sources, collect(DISTINCT s.session_id) AS sessions",
        {"user_id": validation.user_id(user_id), "fact_id": fact_id},
    )
    return TracedFact.model_validate(rows[0]) if rows else None
