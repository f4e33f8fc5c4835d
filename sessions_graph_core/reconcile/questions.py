"""Two statements that ask the same question share one slot, whatever words each says it in.

The rule reader names a slot by the words of its clause, so one question said two ways lands in two
slots: "we track bugs in Jira" in bugs/issue tracker, "our bug tracker is Linear now" in
<project>/issue tracker. A holder that only names the attribute's own matter ("bugs" of an issue
tracker, "data" of a database, "broadband" of an internet provider) is no subject of its own: the
statement is the speaker's, and it asks what the speaker's slot of that attribute asks. Whether a
holder names its attribute is decided by meaning, not by a list: a word of it is a word of one of the
attribute's nouns (attributes.toml), or the embedder puts it near one of them. A holder that names
something else ("staging", "the website", "the growth team") or that is said to be someone else's
("their data", "Dana's tickets") stays its own subject.

A statement joins the speaker's slot of its attribute only where the user has exactly one such slot
besides its own, so the chain of that slot orders the two (SUPERSEDES from the later one), whichever was
reconciled first; the user and the project are two subjects, and never join each other.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from pydantic import BaseModel
from spacy.lang.en.stop_words import STOP_WORDS

from sessions_graph_core.reconcile import facts, frames, senses
from sessions_graph_core.reconcile.extraction.base import normalise
from sessions_graph_core.reconcile.statements import GENERIC_HEADS, HELD, SELF, base_attributes, waits
from sessions_graph_core.store.base import GraphStore

# A holder names its attribute's matter when the embedder puts it this near one of the attribute's nouns
# ("bugs" / "bug tracker" 0.69, "data" / "database" 0.73, "tasks" / "task tracker" 0.67); things that
# have the attribute are further ("the website" / "framework" 0.55, "the blog" / "hosting" 0.50,
# "staging" / "hosting" 0.46).
NAMES_ATTRIBUTE = 0.65
# Words before a holder that make it someone else's ("their data", "Dana's tickets").
_OTHERS = re.compile(r"(\b(their|his|her|your)|'s)\s+$")


def same_questions(store: GraphStore, user_id: str, project: str | None, items: Sequence[facts.Statement]) -> list[facts.Statement]:
    """The statements in the speaker's slot of their attribute that the user already has under another
    holder, where one of the two holders only names the attribute (see the module's docstring). One
    look-up for the batch; a holder's words are weighed only where another slot of its attribute exists."""
    speakers = {SELF, normalise(project or "our team")}
    asked = {item.fact_id: item.slot.rpartition("/")[2] for item in items
             if item.slot and item.value is not None and not waits(item.slot)}
    if not asked:
        return list(items)
    rows = store.run(
        "MATCH (p:Fact {user_id: $user_id}) WHERE p.superseded_at IS NULL AND NOT p.slot CONTAINS $waiting "
        "AND any(a IN $attributes WHERE p.slot ENDS WITH a) RETURN p.slot AS slot, p.text AS text",
        {"user_id": user_id, "waiting": f"/{HELD}", "attributes": sorted({f"/{a}" for a in asked.values()})},
    )
    known: dict[str, set[str]] = {}
    texts = {}
    for row in rows:
        known.setdefault(row["slot"].rpartition("/")[2], set()).add(row["slot"])
        texts[row["slot"]] = row["text"] or ""
    found = []
    for item in items:
        attribute = asked.get(item.fact_id)
        others = known.get(attribute, set()) - {item.slot} if attribute else set()
        if others and _speakers(item.slot, item.text, speakers):
            joined = {slot for slot in others if _joins(slot, item.slot, texts.get(slot, ""), speakers)}
            if len(joined) == 1:
                item = item.model_copy(update=facts._reading(next(iter(joined)), item.value))
        if attribute:
            known.setdefault(attribute, set()).add(item.slot)
            texts.setdefault(item.slot, item.text)
        found.append(item)
    return found


def _speakers(slot: str, text: str, speakers: set[str]) -> bool:
    """Whether a slot is the speaker's: held by the user or the project, or by a holder that only names
    the attribute."""
    holder, _, attribute = slot.rpartition("/")
    return holder in speakers or _names_attribute(holder, attribute, text)


def _joins(slot: str, own: str, text: str, speakers: set[str]) -> bool:
    """Whether a known slot of the same attribute is the speaker's too, and another subject than `own`'s
    only in words: never the user's and the project's, which are two."""
    if slot.rpartition("/")[0] in speakers and own.rpartition("/")[0] in speakers:
        return False
    return _speakers(slot, text, speakers)


def _names_attribute(holder: str, attribute: str, text: str) -> bool:
    """Whether `holder` only names the matter of `attribute` ("bugs" of an issue tracker), and the clause
    does not make it someone else's."""
    if _someone_elses(holder, text):
        return False
    nouns = set(base_attributes().get(attribute, {}).get("nouns", [])) | {attribute}
    words = {_singular(word) for noun in nouns for word in re.split(r"[\s-]+", noun)}
    if all(_singular(word) in words for word in re.split(r"[\s-]+", holder)):
        return True
    return max(facts._word_similarity(holder, noun) for noun in nouns) >= NAMES_ATTRIBUTE


def _someone_elses(holder: str, text: str) -> bool:
    if "'s " in holder:
        return True
    at = text.lower().find(holder)
    return at > 0 and bool(_OTHERS.search(text.lower()[:at]))


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


# -- a clause in no slot that asks one of the speaker's questions ----------------------------------
# "i switched insurers, i'm with admiral now" fills no slot, but its words name the attribute of the
# speaker's slot "me/insurance": it is that slot's next answer. Either statement may be reconciled
# first: a clause that finds no slot yet keeps its question on its node (holder and value), and a
# slotted statement written later takes the clauses that ask its question into its chain.

# Words that say only what kind of thing something is, or that the speaker is doing something: they name
# no attribute of their own ("the app", "my account", "I use").
_NO_NAME = GENERIC_HEADS | facts.KIND_WORDS | {"use", "using", "used", "new", "now", "days", "switched", "moved"}
# Said of a value that is one more of its kind, not a change of it.
_ONE_MORE = re.compile(r"\b(also|too|as well|another|still)\b")
_SPEAKER_SUBJECTS = {"i": SELF, "we": None}  # None: the project


class Question(BaseModel):
    """What a clause in no slot asks: whose it is, and the value it says."""

    fact_id: str
    holder: str
    value: str
    text: str


def asked(item: facts.Statement, project: str | None) -> Question | None:
    """The question a statement in no slot asks, where it is the speaker's ("I", "we", "my paycheck",
    "our data") and says a value (its object) that is not one more of a kind ("also", "too")."""
    value, said = (item.object or "").strip(), (item.subject or "").lower()
    if item.slot or not value or _ONE_MORE.search(item.text.lower()) or normalise(value) == normalise(said):
        return None
    text = item.text.lower()
    if said in _SPEAKER_SUBJECTS:
        holder = _SPEAKER_SUBJECTS[said] or normalise(project or "our team")
    elif f"my {said}" in text and not senses.people(said.split()[-1]):
        holder = SELF
    elif f"our {said}" in text and not senses.people(said.split()[-1]):
        holder = normalise(project or "our team")
    else:
        return None
    return Question(fact_id=item.fact_id, holder=holder, value=value, text=item.text)


def answered_slot(question: Question, slots: Sequence[tuple[str, str]]) -> str | None:
    """The one slot of the question's holder (of `slots`: (slot, value)) whose attribute the clause names
    by a word of its own, holding another value; None when no slot or several do."""
    words = _content_words(question.text, question.value)
    found = {slot for slot, value in slots
             if slot.rpartition("/")[0] == question.holder and value and not facts.same_value(value, question.value)
             and not _names(question.value, slot.rpartition("/")[2]) and any(_names(w, slot.rpartition("/")[2]) for w in words)}
    if len(found) != 1 or frames.classify(_masked(question)) == frames.NO_SLOT:
        return None
    return next(iter(found))


def _content_words(text: str, value: str) -> list[str]:
    said = set(re.findall(r"[a-z][a-z'-]*", value.lower()))
    return [word for word in dict.fromkeys(re.findall(r"[a-z][a-z'-]*", text.lower()))
            if len(word) > 2 and word not in STOP_WORDS and word not in _NO_NAME and word not in said]


def _names(word: str, attribute: str) -> bool:
    return _names_attribute(word, attribute, "")


def _masked(question: Question) -> str:
    return re.sub(re.escape(question.value), frames.MASK, question.text, flags=re.IGNORECASE)


def answered(store: GraphStore, user_id: str, project: str | None,
             claims: Sequence[facts.Statement]) -> tuple[list[facts.Statement], list[facts.Statement], list[Question]]:
    """Of a batch's statements in no slot: those that answer one of the speaker's slots, as statements in
    that slot; those that stay in none; and the questions of those, to keep on their nodes (keep_questions).
    One look-up, only where a statement in no slot is the speaker's."""
    questions = {q.fact_id: q for item in claims if (q := asked(item, project))}
    if not questions:
        return [], list(claims), []
    rows = store.run(
        "MATCH (p:Fact {user_id: $user_id}) WHERE p.superseded_at IS NULL AND coalesce(p.value, '') <> '' "
        "AND any(h IN $holders WHERE p.slot STARTS WITH h) AND NOT p.slot CONTAINS $waiting "
        "RETURN DISTINCT p.slot AS slot, p.value AS value",
        {"user_id": user_id, "waiting": f"/{HELD}", "holders": sorted({f"{q.holder}/" for q in questions.values()})},
    )
    slots = [(row["slot"], row["value"]) for row in rows]
    slotted, rest, kept = [], [], []
    for item in claims:
        question = questions.get(item.fact_id)
        slot = answered_slot(question, slots) if question else None
        if slot and question:
            slotted.append(_in_slot(item, slot, question.value))
        else:
            rest.append(item)
            kept += [question] if question else []
    return slotted, rest, kept


def _in_slot(item: facts.Statement, slot: str, value: str) -> facts.Statement:
    # Its own id: the claim's is shared by every source that says it, a slotted statement is one event.
    fact_id = "f-" + hashlib.sha256(f"{item.fact_id}\0{slot}\0{item.source_id}".encode()).hexdigest()[:24]
    return item.model_copy(update=facts._reading(slot, value) | {"fact_id": fact_id, "value": value})


def keep_questions(store: GraphStore, user_id: str, questions: Sequence[Question]) -> None:
    """Keep on each written node in no slot the question it asks, for a slotted statement written later."""
    if questions:
        store.run(
            "UNWIND $rows AS r MATCH (p:Fact {user_id: $user_id}) WHERE p.fact_id = r.fact_id AND NOT p.slot CONTAINS '/' "
            "SET p.asked_holder = r.holder, p.asked_value = r.value",
            {"user_id": user_id, "rows": [q.model_dump(include={"fact_id", "holder", "value"}) for q in questions]},
        )


def adopt_questions(store: GraphStore, user_id: str, items: Sequence[facts.Statement]) -> None:
    """Move into these statements' slots the statements in no slot, written before, that ask their question."""
    slots = [(item.slot, item.value or "") for item in items if item.slot and item.value and not waits(item.slot)]
    if not slots:
        return
    rows = store.run(
        "MATCH (p:Fact {user_id: $user_id}) WHERE NOT p.slot CONTAINS '/' AND p.asked_holder IN $holders "
        "RETURN p.fact_id AS fact_id, p.asked_holder AS holder, p.asked_value AS value, p.text AS text",
        {"user_id": user_id, "holders": sorted({slot.rpartition("/")[0] for slot, _ in slots})},
    )
    if not rows:
        return
    known = store.run(
        "MATCH (p:Fact {user_id: $user_id}) WHERE p.superseded_at IS NULL AND coalesce(p.value, '') <> '' "
        "AND any(h IN $holders WHERE p.slot STARTS WITH h) AND NOT p.slot CONTAINS $waiting "
        "RETURN DISTINCT p.slot AS slot, p.value AS value",
        {"user_id": user_id, "waiting": f"/{HELD}", "holders": sorted({f"{row['holder']}/" for row in rows})},
    )
    current = [(row["slot"], row["value"]) for row in known]
    mine = {slot for slot, _ in slots}
    for row in rows:
        slot = answered_slot(Question.model_validate(row), current)
        if slot in mine:
            store.run("MATCH (p:Fact {user_id: $user_id, fact_id: $fact_id}) SET p.value = $value",
                      {"user_id": user_id, "fact_id": row["fact_id"], "value": row["value"]})
            store.run(facts._ADOPT, {"user_id": user_id, "fact_id": row["fact_id"]} | facts._reading(slot, row["value"]))
