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
reconciled first; the user and the project are two subjects, and never join each other. The same holds
for one attribute of the speaker said with and without a word that says which one ("my everyday phone",
"my phone"), and for a clause the rules put in no slot whose words name the attribute of one of the
speaker's slots ("switched insurers, i'm with admiral now": see answered and adopt_questions below).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

import numpy as np
from pydantic import BaseModel
from spacy.lang.en.stop_words import STOP_WORDS

from sessions_graph_core.clock import now_iso
from sessions_graph_core.embeddings.models import VectorCache
from sessions_graph_core.reconcile import facts, frames, senses
from sessions_graph_core.reconcile.lexicon import GENERIC_HEADS, base_attributes, holds, lexicon
from sessions_graph_core.reconcile.statements import HELD, SELF, project_holder, waits
from sessions_graph_core.reconcile.tokens import TIME_MODIFIERS
from sessions_graph_core.store.base import GraphStore
from sessions_graph_core.text import WORDS_CACHED, comparable

# A holder names its attribute's matter when the embedder puts it this near one of the attribute's nouns
# ("bugs" / "bug tracker" 0.69, "data" / "database" 0.73, "tasks" / "task tracker" 0.67); things that
# have the attribute are further ("the website" / "framework" 0.55, "the blog" / "hosting" 0.50,
# "staging" / "hosting" 0.46).
NAMES_ATTRIBUTE = 0.65
# Each word's vector, embedded once while among the last WORDS_CACHED asked for (see _embed).
_VECTORS = VectorCache(WORDS_CACHED)
# Words before a holder that make it someone else's ("their data", "Dana's tickets").
_OTHERS = re.compile(r"(\b(their|his|her|your)|'s)\s+$")


def same_questions(store: GraphStore, user_id: str, project: str | None, items: Sequence[facts.Statement]) -> list[facts.Statement]:
    """The statements in the slot the user already has for the question they ask (_same_question), where
    exactly one slot asks it. One look-up for the batch; words are weighed only against slots of the same
    attribute or of the same speaker. A slot whose current statement ended it is no answer to join: the
    ending joins the slot that held its value (facts.adopt)."""
    speakers = _speakers_of(project)
    mine = {item.fact_id for item in items if item.slot and item.value is not None and not waits(item.slot)}
    if not mine:
        return list(items)
    rows = store.run(
        "MATCH (p:Fact {user_id: $user_id}) WHERE p.superseded_at IS NULL AND NOT p.slot CONTAINS $waiting "
        "AND (any(a IN $attributes WHERE p.slot ENDS WITH a) OR any(h IN $holders WHERE p.slot STARTS WITH h)) "
        "AND coalesce(p.value, '') <> '' RETURN DISTINCT p.slot AS slot, p.text AS text",
        {"user_id": user_id, "waiting": f"/{HELD}",
         "attributes": sorted({"/" + item.slot.rpartition("/")[2] for item in items if item.fact_id in mine}),
         "holders": sorted({f"{holder}/" for item in items if item.fact_id in mine
                            and (holder := item.slot.rpartition("/")[0]) in speakers})},
    )
    texts = {row["slot"]: row["text"] or "" for row in rows}
    if texts:
        slots = [*texts, *(item.slot for item in items if item.fact_id in mine)]
        _embed([part for slot in slots for part in (slot.rpartition("/")[0], *_nouns(slot.rpartition("/")[2]))])
    found = []
    for item in items:
        if item.fact_id in mine:
            same = {slot for slot, text in texts.items()
                    if slot != item.slot and _same_question(item.slot, item.text, slot, text, speakers)}
            if len(same) == 1:
                item = item.model_copy(update=facts.reading(next(iter(same)), item.value))
            texts.setdefault(item.slot, item.text)
        found.append(item)
    return found


def _same_question(slot: str, text: str, other: str, other_text: str, speakers: set[str]) -> bool:
    """Whether two slots ask one question: one attribute of the speaker under two holders of which one only
    names it ("bugs/issue tracker", "<project>/issue tracker"), or, of one speaker, one attribute said with
    and without a word that says which one ("me/everyday phone", "me/phone"; never two listed attributes)."""
    (holder, attribute), (other_holder, other_attribute) = slot.rpartition("/")[::2], other.rpartition("/")[::2]
    if attribute == other_attribute:
        return _speakers(slot, text, speakers) and _joins(other, slot, other_text, speakers)
    listed = set(lexicon().nouns.values())
    if holder != other_holder or holder not in speakers or {attribute, other_attribute} <= listed:
        return False
    return _one_kind(attribute, other_attribute)


def _one_kind(attribute: str, other: str) -> bool:
    """One attribute said with and without words that only say which one: the same last word, and no noun
    before it ("everyday phone" is my phone; "car insurance" and "home insurance", "work location" and
    "location" are two questions, "phone plan" and "bank card" are other things than a phone or a bank)."""
    words, others = attribute.split(), other.split()
    if _singular(words[-1]) != _singular(others[-1]):
        return False
    extra = set(words[:-1]) ^ set(others[:-1])
    return not any(senses.known(word) and word not in TIME_MODIFIERS for word in extra)


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
    nouns = _nouns(attribute)
    if _in_words(holder, attribute):
        return True
    vectors = _embed([holder, *nouns])
    return max(_similarity(vectors[holder], vectors[noun]) for noun in nouns) >= NAMES_ATTRIBUTE


@lru_cache(maxsize=WORDS_CACHED)
def _nouns(attribute: str) -> tuple[str, ...]:
    return tuple(sorted(set(base_attributes().get(attribute, {}).get("nouns", [])) | {attribute}))


def _in_words(phrase: str, attribute: str) -> bool:
    """Whether every word of the phrase is a word of one of the attribute's nouns ("bugs" of "bug tracker")."""
    words = _noun_words(attribute)
    return all(_singular(word) in words for word in re.split(r"[\s-]+", phrase))


@lru_cache(maxsize=WORDS_CACHED)
def _noun_words(attribute: str) -> frozenset[str]:
    # Asked for every word of every clause weighed against every slot: kept, as the attributes do not change.
    return frozenset(_singular(word) for noun in _nouns(attribute) for word in re.split(r"[\s-]+", noun))


def _embed(words: Iterable[str]) -> dict[str, np.ndarray | None]:
    """The words' vectors, those not yet embedded in one call of the embedder (a call per word costs
    most of the time this module takes)."""
    return _VECTORS.get(words, _embedded)


def _embedded(words: list[str]) -> Sequence[np.ndarray | None]:
    try:
        from sessions_graph_core.embeddings.models import load_embedder

        return list(load_embedder().embed(words))
    except Exception:  # noqa: BLE001 - no embedder on this host: words name what they say, no more
        return [None] * len(words)


def _similarity(a: np.ndarray | None, b: np.ndarray | None) -> float:
    return float(a @ b) if a is not None and b is not None else -1.0


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
_LAST_OBJECT = re.compile(r"\b(?:to|in|on|with|at|from|through|via|by)\s+(?:(?:the|a|an|my|our)\s+)?"
                          r"([\w.&'-]+(?:\s+[\w.&'-]+)?)$", re.IGNORECASE)
# Words after an attribute's noun that say it is a role held ("the scrum master role went to Ben").
_ROLE_WORDS = {"role", "position", "job", "seat"}
# Words that may follow an attribute's noun without making it say which of another thing ("insurers now").
_TIME_AFTER = {"now", "today", "lately", "instead", "nowadays"}
_TIME_WORDS = re.compile(r"(\s+(now|today|lately|instead|nowadays|these days))+$", re.IGNORECASE)
# A clause whose subject is a matter asks its question of the user or the project, whichever has it.
EITHER_SPEAKER = ""
_SPEAKER_SUBJECTS = {"i": SELF, "we": None}  # None: the project


class Question(BaseModel):
    """What a clause in no slot asks: whose it is, and the values it may say, likeliest first."""

    fact_id: str
    holder: str
    values: list[str]
    text: str
    subject: str = ""


def asked(item: facts.Statement, project: str | None) -> Question | None:
    """The question a statement in no slot asks, where it is the speaker's ("I", "we", "my paycheck",
    "our data") and says a value that is not one more of a kind ("also", "too"): its object, else a name
    it is about, the last first ("we moved accounting over to QuickBooks")."""
    said = (item.subject or "").lower()
    names = [_as_said(key.partition("|")[0], item.text) for key in reversed(item.about)]
    values = [v for v in dict.fromkeys([item.object or "", *names, _last_object(item.text)])
              if v and comparable(v) != comparable(said)]
    if item.slot or not values or _ONE_MORE.search(item.text.lower()):
        return None
    text = item.text.lower()
    if said in _SPEAKER_SUBJECTS:
        holder = _SPEAKER_SUBJECTS[said] or comparable(project_holder(project))
    elif f"my {said}" in text and not senses.people(said.split()[-1]):
        holder = SELF
    elif f"our {said}" in text and not senses.people(said.split()[-1]):
        holder = comparable(project_holder(project))
    elif _a_topic(item.subject or "", item.text):
        holder = EITHER_SPEAKER
    else:
        return None
    return Question(fact_id=item.fact_id, holder=holder, values=values, text=item.text, subject=item.subject or "")


def _a_topic(subject: str, text: str) -> bool:
    """Whether a subject is a matter rather than a holder ("heatmaps are in clarity now", "payroll is on deel
    now"): a common noun, not a person or a group, not someone else's, not a name (capitalised within the text)."""
    words = subject.lower().split()
    at = text.find(subject)
    named = at > 0 and subject[:1].isupper()
    return bool(words) and not named and not senses.people(words[-1]) and not _someone_elses(subject.lower(), text)


def _last_object(text: str) -> str:
    """The words after the clause's last preposition, without the time words after them: the value of "we
    do our accounting in quickbooks" or "i switched coworking spaces to industrious", where the parser tags
    no name."""
    found = _LAST_OBJECT.search(_TIME_WORDS.sub("", text.strip(" .!?")))
    return found[1] if found else ""


def _as_said(name: str, text: str) -> str:
    """An entity's name (its key's, in lower case) as the text spells it."""
    found = re.search(re.escape(name), text, flags=re.IGNORECASE)
    return found[0] if found else name


def answered_slots(questions: Sequence[Question], slots: Sequence[tuple[str, str]],
                   speakers: set[str]) -> list[tuple[str, str] | None]:
    """For each question, the one slot of its holder (of `slots`: (slot, value)) whose attribute the clause
    names by a word of its own, and the value the clause says for it (not a word of that attribute), another
    than the slot's; None when no slot or several do."""
    weighed = [_weighed(question, slots, speakers) for question in questions]
    # One embedder call for every question's words weighed by meaning and their attributes' nouns, and no
    # other word: a call per clause and every word of it, most never weighed, were a tenth of reconcile's CPU.
    _embed([embedded for candidates in weighed for _, attribute, _, words in candidates for word in words
            if not _in_words(word, attribute) for embedded in (word, *_nouns(attribute))])
    return [_answer(question, candidates) for question, candidates in zip(questions, weighed, strict=True)]


def _weighed(question: Question, slots: Sequence[tuple[str, str]], speakers: set[str]) -> list[tuple[str, str, str, list[str]]]:
    """(slot, its attribute, the value said, the clause's words that may name the attribute) for each slot of
    the question's holder that it may answer."""
    found = []
    content: dict[str, list[tuple[str, str, str]]] = {}  # the clause's words by the value left out of them
    for slot, held in slots:
        attribute = slot.rpartition("/")[2]
        if not held or not _asks_of(question.holder, slot.rpartition("/")[0], speakers):
            continue
        # A value is near its attribute by meaning ("T-Mobile", a mobile carrier); only the attribute's own words are none.
        value = next((v for v in question.values if not _in_words(v.lower(), attribute)), None)
        if not value or facts.same_value(held, value) or not holds(attribute, value):
            continue  # the same value, or one of another kind ("my train" is no time, "this morning" no CI)
        if value not in content:
            content[value] = _content_words(question.text, value)
        words = [word for word, before, after in content[value] if _may_name(word, before, after, attribute)]
        if question.holder == EITHER_SPEAKER:
            words = _subject_naming(question.subject, words, attribute)
        found.append((slot, attribute, value, words))
    return found


def _subject_naming(subject: str, words: list[str], attribute: str) -> list[str]:
    """Of a topic clause's words, the one that may name the attribute: its subject's head, where it is the
    head of one of the attribute's nouns. A matter the clause is about names its slot ("heatmaps are in clarity
    now"); a word elsewhere in the clause ("the query joins cook_log to get the latest date"), a word that only
    says which one ("the ledger format knowledge" is no knowledge base) or a subject only near an attribute in
    meaning ("the page would crash with a 500" is no pager) is about something else."""
    said = [word for word in subject.lower().split() if word not in _NO_NAME | _ROLE_WORDS]
    head = _singular(said[-1]) if said else ""
    heads = {_singular(noun.split()[-1]) for noun in _nouns(attribute)}
    return [word for word in words if _singular(word) == head and head in heads]


def _answer(question: Question, weighed: list[tuple[str, str, str, list[str]]]) -> tuple[str, str] | None:
    found = {(slot, value) for slot, attribute, value, words in weighed if any(_names(word, attribute) for word in words)}
    if len(found) != 1 or frames.classify(_masked(question.text, next(iter(found))[1])) == frames.NO_SLOT:
        return None
    return next(iter(found))


def _asks_of(asked_holder: str, holder: str, speakers: set[str]) -> bool:
    return holder == asked_holder or (asked_holder == EITHER_SPEAKER and holder in speakers)


def _content_words(text: str, value: str) -> list[tuple[str, str, str]]:
    """The clause's words that may name an attribute, each with the words before and after it ("" for none
    that could)."""
    said = set(re.findall(r"[a-z][a-z'-]*", value.lower()))
    words = re.findall(r"[a-z][a-z'-]*", text.lower())

    def content(word: str) -> bool:
        stop = word in STOP_WORDS or word.partition("'")[0] in STOP_WORDS  # "i'm", "we're"
        return len(word) > 2 and not stop and word not in _NO_NAME and word not in said

    def beside(n: int) -> str:
        return words[n] if 0 <= n < len(words) and content(words[n]) else ""

    def before_noun(n: int) -> str:
        # A group or a noun that is no verb, said right after: what this word says which of ("the billing
        # team", "billing days"), whether or not that noun names anything itself ("the office moved" does not).
        after = words[n + 1] if n + 1 < len(words) else ""
        plain = after.partition("'")[0]
        if after in _ROLE_WORDS:
            return ""  # "the scrum master role" is the role of scrum master
        noun = plain not in STOP_WORDS and after not in _TIME_AFTER and after not in said and (
            senses.people(after) == "group" or (senses.known(after) and not senses.verb(after)))
        return after if after and noun else beside(n + 1)

    at_value = _value_at(text.lower(), value.lower())
    return [(word, beside(n - 1), before_noun(n)) for n, word in enumerate(words)
            if content(word) and not _after_value(text.lower(), word, at_value)]


def _value_at(text: str, value: str) -> int:
    """Where the value ends in the text (the text's end where it is not said as such)."""
    found = text.find(value)
    return found + len(value) if found >= 0 else len(text)


def _after_value(text: str, word: str, at_value: int) -> bool:
    """A word said "of" after the value says what it holds ("a CSV of payouts", "a Hiscox list of insurers"), not
    which of the speaker's slots it answers ("registered with Dr. Okafor at the practice" still does)."""
    found = re.search(rf"\b{re.escape(word)}\b", text[at_value:])
    return bool(found) and text[at_value:at_value + found.start()].split()[-1:] == ["of"]


def _may_name(word: str, before: str, after: str, attribute: str) -> bool:
    """Whether a word of the clause may name the attribute, by the words beside it: not another kind of it
    ("home insurance" says no "car insurance"; "coworking spaces" says "coworking space") nor another thing
    it is said of ("my phone plan" says no phone). Whether it names it is `_names`, by meaning."""
    own = {_singular(w) for w in re.split(r"[\s-]+", attribute)}
    another_kind = bool(before) and _singular(before) not in own and _singular(word) in own
    return not another_kind and (not after or _singular(after) in own)


def _names(word: str, attribute: str) -> bool:
    return _names_attribute(word, attribute, "")


def _masked(text: str, value: str) -> str:
    return re.sub(re.escape(value), frames.MASK, text, flags=re.IGNORECASE)


def answered(store: GraphStore, user_id: str, project: str | None,
             claims: Sequence[facts.Statement]) -> tuple[list[facts.Statement], list[facts.Statement], list[Question]]:
    """Of a batch's statements in no slot: those that answer one of the speaker's slots, as statements in
    that slot; those that stay in none; and the questions of those, to keep on their nodes (keep_questions).
    One look-up, only where a statement in no slot is the speaker's."""
    questions = {q.fact_id: q for item in claims if (q := asked(item, project))}
    if not questions:
        return [], list(claims), []
    speakers = _speakers_of(project)
    slots = facts.current_values(store, user_id, _prefixes({q.holder for q in questions.values()}, speakers))
    answers = dict(zip(questions, answered_slots(list(questions.values()), slots, speakers), strict=True))
    slotted, rest, kept = [], [], []
    for item in claims:
        question = questions.get(item.fact_id)
        answer = answers[item.fact_id] if question else None
        if answer:
            slotted.append(_in_slot(item, *answer))
        else:
            rest.append(item)
            kept += [question] if question else []
    return slotted, rest, kept


def _speakers_of(project: str | None) -> set[str]:
    return {SELF, comparable(project_holder(project))}


def _prefixes(holders: set[str], speakers: set[str]) -> list[str]:
    """The slot prefixes of the holders asked of (both speakers' for EITHER_SPEAKER)."""
    return sorted({f"{holder}/" for holder in (speakers if EITHER_SPEAKER in holders else set()) | holders - {EITHER_SPEAKER}})


def _in_slot(item: facts.Statement, slot: str, value: str) -> facts.Statement:
    # Its own id: the claim's is shared by every source that says it, a slotted statement is one event.
    fact_id = "f-" + hashlib.sha256(f"{item.fact_id}\0{slot}\0{item.source_id}".encode()).hexdigest()[:24]
    return item.model_copy(update=facts.reading(slot, value) | {"fact_id": fact_id, "value": value})


def keep_questions(store: GraphStore, user_id: str, questions: Sequence[Question]) -> None:
    """Keep on each written node in no slot the question it asks, for a slotted statement written later."""
    if questions:
        store.run(
            "UNWIND $rows AS r MATCH (p:Fact {user_id: $user_id}) WHERE p.fact_id = r.fact_id AND NOT p.slot CONTAINS '/' "
            "SET p.asked_holder = r.holder, p.asked_values = r.values",
            {"user_id": user_id, "rows": [q.model_dump(include={"fact_id", "holder", "values"}) for q in questions]},
        )


def adopt_questions(store: GraphStore, user_id: str, project: str | None, items: Sequence[facts.Statement]) -> None:
    """Move into these statements' slots the statements in no slot, written before, that ask their question."""
    slots = [(item.slot, item.value or "") for item in items if item.slot and item.value and not waits(item.slot)]
    if not slots:
        return
    speakers = _speakers_of(project)
    holders = {slot.rpartition("/")[0] for slot, _ in slots}
    rows = store.run(
        "MATCH (p:Fact {user_id: $user_id}) WHERE NOT p.slot CONTAINS '/' AND p.asked_holder IN $holders "
        "RETURN p.fact_id AS fact_id, p.asked_holder AS holder, p.asked_values AS values, p.text AS text, "
        "coalesce(p.subject, '') AS subject",
        {"user_id": user_id, "holders": sorted(holders | ({EITHER_SPEAKER} if holders & speakers else set()))},
    )
    if not rows:
        return
    current = facts.current_values(store, user_id, _prefixes({row["holder"] for row in rows}, speakers))
    mine = {item.slot: item.fact_id for item in items if item.slot and item.value and not waits(item.slot)}
    answers = answered_slots([Question.model_validate(row) for row in rows], current, speakers)
    for row, answer in zip(rows, answers, strict=True):
        if answer and answer[0] in mine:
            slot, value = answer
            # Answered: a slotted node asks no question (the marker would only mislead a reader of the graph).
            # A candidate taken into a slot is shown from now on, with the statement that took it as why.
            store.run("MATCH (p:Fact {user_id: $user_id, fact_id: $fact_id}) SET p.value = $value, "
                      "p.asked_holder = null, p.asked_values = null, "
                      "p.promoted_at = CASE WHEN p.candidate THEN $now ELSE p.promoted_at END, "
                      "p.promoted_because = CASE WHEN p.candidate THEN 'taken into a slot' ELSE p.promoted_because END, "
                      "p.promoted_by = CASE WHEN p.candidate THEN [$by] ELSE p.promoted_by END, p.candidate = null",
                      {"user_id": user_id, "fact_id": row["fact_id"], "value": value, "now": now_iso(), "by": mine[slot]})
            facts.move_into(store, user_id, row["fact_id"], slot, value)
