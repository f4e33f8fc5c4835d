"""Statements in slots: what a clause claims of a slot, and the fact it becomes.

A slot is "<subject>/<attribute>" ("orders service/database", "me/location"). The clause reader
(reading/reader.py) reads a clause into Claims; this module holds what they are said with: the markers
for a holder the clause does not name outright (SELF, PROJECT, a pronoun's PERSON_REF/THING_REF) or a
slot known only by the value it held (HELD, HELD_HERE), the Claim and the fact it becomes (fact_of), the
session's Context that names a pronoun's referent (a statement whose holder it cannot name waits:
waiting), and another backend's statements put in this form (slot_of, normalised).

Subjects: first person is the user's own entity (SELF); "we", "our", "the team" are the session's
project (PROJECT, filled in by the pipeline: placed); "it", "he", "she", "they" the entity in focus.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sessions_graph_core.reconcile.extraction.base import ExtractedFact
from sessions_graph_core.reconcile.lexicon import HOUSEHOLD, PERSONAL, Lexicon, base_attributes
from sessions_graph_core.reconcile.tokens import FIRST_PERSON, WE_FORMS
from sessions_graph_core.text import comparable

SELF = "me"
PROJECT = "@project"  # the session's project; the pipeline puts its name in
OUR_TEAM = "our team"  # who "we" are in a session of no project

FOCUS_PRONOUNS = {"it", "he", "she", "they", "him", "her", "them", "its", "his", "their"}
PERSON_PRONOUNS = {"he", "she", "him", "her", "his"}
# A pronoun whose referent is not in its own text: the pipeline resolves it from the session's earlier turns.
PERSON_REF = "@person"
THING_REF = "@thing"
# Words that point at a thing the conversation names ("that box"), not one the clause does.
DEMONSTRATIVES = {"this", "that", "these", "those"}
OTHER_PRONOUNS = {*DEMONSTRATIVES, "there", "which", "who", "you", "what", "something", "everything", "one"}
# Words that lead in to what is said ("FYI the backend runs on ..."): no one holds anything by them.
LEAD_IN_WORDS = {"fyi", "btw", "fwiw", "ps", "imo", "tbh"}
# The attribute of a change that names the old value but not what it was the value of: the pipeline
# finds the slot of the same subject that held that value ("we've cancelled PagerDuty").
HELD = "*"
# The attribute's prefix in the slot of a statement whose holder is a pronoun that waits for a name.
WAITING = HELD * 2
# The attribute of a change that waits only for a slot of its own holder: a person giving up the thing named
# ("Tom gave up the payments service") ends a role of that thing, never one Tom holds of another.
HELD_HERE = HELD + "@"
# Names that are not entities: paths, URLs, code, JSON.
_JUNK = re.compile(r"[/\\{}\[\]<>=`|$;()\"]|://|^www\.|\.(py|js|ts|json|md|txt|ya?ml|toml|sh|rs|go|java|c|h|cpp|html|css)$")


def junk_name(name: str | None) -> bool:
    """Whether a subject or object is a path, a URL, JSON or code, a bare pronoun, a lead-in, or nothing."""
    text = (name or "").strip()
    low = comparable(text)
    return (
        not low
        or "\n" in text
        or bool(_JUNK.search(low))
        or low in FOCUS_PRONOUNS | OTHER_PRONOUNS | LEAD_IN_WORDS
        or low.startswith("'")
        or not any(ch.isalnum() for ch in low)
    )


# A holder that only counts or ranks what it is about ("three", "two machines", "one batch", "14.9s", "the
# other machine"): no one in particular holds a slot by it. A year starts a name ("2015 Honda Civic").
_COUNTED = re.compile(r"^(?:\d{1,3}(?:[.,:]\d+)*(?:s|ms|h|%)?|one|two|three|four|five|six|seven|eight|nine|ten|both|all|"
                      r"first|second|third|other|another|total)(?:\s|$)")


def counted(holder: str) -> bool:
    """Whether a slot's holder is a count, an amount or a rank rather than someone or something named."""
    return bool(_COUNTED.match(comparable(holder)))


# An attribute said with a count ("the two models", "both queues") is what several things are, each its own;
# a value said as "the other one" points back at something said before. Neither names what a slot holds.
_COUNTED_ATTRIBUTE = re.compile(r"^(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|both|all)\s")
_POINTING_VALUE = re.compile(r"^(?:the\s+)?(?:other|another)(?:\s|$)")


def names_nothing(attribute: str, value: str | None) -> bool:
    """Whether a slot's attribute is a count of things or its value only points back ("the other consumer")."""
    return bool(_COUNTED_ATTRIBUTE.match(comparable(attribute))) or (
        value is not None and bool(_POINTING_VALUE.match(comparable(value))))


# A name as code spells it: snake_case, camelCase ("statusURL"; not "McKenzie", nor a brand's one letter before
# its capital: "iOS", "eBay"), a dotted name ("jest.fn"), a flag ("--force").
_CODE_NAME = re.compile(r"[A-Za-z0-9]_[A-Za-z0-9]|^[a-z]{2,}[A-Z]|^[a-z_]+\.[a-z_]+|^--?[a-z]")
# What only a person or a household holds: a thing (a function, a field, a flag) has no home, plan or laptop.
NO_THINGS = PERSONAL | HOUSEHOLD | {"plan", "laptop"}


def code_name(text: str) -> bool:
    """Whether a holder or an attribute is an identifier of code ("render_pdf", "statusURL", "issued_at")."""
    return bool(_CODE_NAME.search(text.strip("`")))


def things_hold(attribute: str) -> bool:
    """Whether a thing may hold the attribute: one of the listed attributes, not a person's or a household's
    ("render_pdf" may have a database or an owner, not a home, a plan or an attribute of its own words)."""
    return attribute in base_attributes() and attribute not in NO_THINGS


# -- claims and the facts they become ---------------------------------------------------------


def waits(slot: str) -> bool:
    """Whether a slot waits for another to take it: a change that named only its old value ("me/*netflix"),
    or a pronoun's statement that waits for its name."""
    return slot.rpartition("/")[2].startswith(HELD)


@dataclass
class Claim:
    subject: str
    attribute: str
    value: str | None
    old: str | None = None
    decision: bool = False
    kept: bool = False  # the clause says the value did not change (Reader.continues)

    @classmethod
    def said(cls, subject: str, attribute: str, value: str | None, negated: bool, decision: bool = False) -> Claim:
        """`value` said of the slot; said negated ("we no longer use X") it ends the slot, X being what it held."""
        return cls(subject, attribute, None if negated else value, value if negated else None, decision)


def fact_of(claim: Claim, text: str, about: list[str], reason: str | None, triple: dict[str, Any]) -> ExtractedFact:
    """The claim as a statement in slot "<subject>/<attribute>", holding its value ("" for an ending)."""
    names = [n for n in (claim.subject, claim.value, claim.old) if n]
    seen = {comparable(n) for n in names}
    return ExtractedFact(
        text=text,
        kind="decision" if claim.decision or reason else "fact",
        slot=f"{comparable(claim.subject)}/{claim.attribute}" + (comparable(claim.old or "") if claim.attribute in (HELD, HELD_HERE) else ""),
        about=list(dict.fromkeys(names + [name for name in about if comparable(name) not in seen])),
        rationale=reason,
        value=claim.value or "",
        kept=claim.kept,
        **triple,
    )


# What tool output, code and logs look like inside a sentence: a file listing's line numbers ("54→"), box
# drawing (tables, test summaries), code fences and quotes, assignments and comparisons, JSON, rules of
# ===/---/___, a shell prompt, a stack trace.
_OUTPUT = re.compile(
    r"\d→|[\u2500-\u257f]|```|\"\"\"|\s(=|==|!=|->|=>|:=)\s|\w=\w|[{}]|\"\s?:|={3,}|-{3,}|_{3,}|(^|\s)[$#>] \S|"
    r"Traceback|^\s*at \S+\(|\w+Error:|^\W*\d+[-:]\s"
)


def looks_like_output(text: str) -> bool:
    """Whether a statement's text is a tool's output or code rather than something said."""
    return bool(_OUTPUT.search(text))


# Words that say whom a statement is addressed to, not whom it is about: "your plan", "your's son".
_ADDRESSED = {"you", "your", "yours", "your's", "ya"}


# Markdown run together into one sentence: bold, headings, list items and their numbers ("Round 2:** 3 fresh
# agents", "- **Hiccup:** ...", "2. Line 607 ...", "Removed orphan comments from: - `a.py` ...", "The key changes
# are: 1."), an enumeration "(a) keep ...", a tag, and lines run together, the next line's first word inside the
# sentence without its full stop ("... using request ID tracking The implementation follows ...", "The data is
# lost Where filtered"); a title's first word is followed by a capital ("I watched The Lion King").
_MARKDOWN = re.compile(r"\*\*|#{2,}|^[-*\u2022]\s|(^|\s)\d+\.\s|:\s+-\s|:\s+\d+\.$|(^|\s)\(?[a-z]\)\s|</?[a-z_-]+>|"
                       r"[a-z0-9)]\s(The|This|These|Those|It|Its|Where|When|What|How|Why|There|They|We)\s[a-z]")
# A sentence cut off where the reader ended it: on a conjunction, preposition or article, a dash or a colon.
_CUT_OFF = re.compile(r"(\b(and|or|but|nor|of|to|the|a|an|with|for|from|that|which|such as)|[-\u2013\u2014:,(])\W*$", re.I)
# What may come before the subject of a statement: a speaker's name (chat: "Jon: ..."), an interjection or a
# connective ("So, ...", "Yeah, ...", "However, ...").
_BEFORE_SUBJECT = re.compile(
    r"^(?:[A-Z][\w'.-]*(?: [A-Z][\w'.-]*)?:\s+)?(?:(?:so|then|also|and|but|however|yeah|yea|yes|yep|yup|oh|ah|aw|"
    r"hmm|haha|lol|well|now|just|wait|ok|okay|anyway|actually|plus|even)\b,?\s+)*",
    re.I,
)
# First words that make a clause something other than a statement: a question ("Does qmd support ...", "What
# file types are supported"), a request ("Let's ...", "Please ..."), a clause that hangs on one not said
# ("While it has the same depth", "That `dev-docs/` is for context"), an object pronoun where the subject
# belongs ("Me show my creativity", from "let me show ...").
_NOT_A_STATEMENT = {
    "is", "are", "was", "were", "am", "do", "does", "did", "can", "could", "should", "would", "will", "shall",
    "has", "have", "had", "what", "which", "who", "whom", "whose", "how", "why", "let", "let's", "lets", "please",
    "me", "us", "him", "them", "wanna", "gonna", "be",
    # said to the other speaker, not of anyone: "Your support means a ton to me", "Hey John, ...", "Thanks, John!"
    "you", "your", "hey", "hi", "hello", "thanks", "thank", "congrats", "congratulations", "sounds", "wow",
}
# Of those, the ones that make even a statement in a slot no statement: words to the other speaker ("Hey John,
# it's okay to ..."), a question ("Were related test files read", "Wait, does it only run on main"), a request
# ("Lets remove the auto git add"). Not "is" ("Is Oscar." answers the question before it) nor "let" ("Let my
# climbing club membership expire").
_NEVER_A_STATEMENT = {"hey", "hi", "hello", "thanks", "thank", "congrats", "congratulations", "wow",
                      "were", "does", "did", "do", "what", "which", "who", "how", "why", "lets"}
_HANGING = {"while", "whether", "that", "though", "although", "because", "since", "unless", "until", "once",
            "whereas", "if", "when", "whenever", "where", "like", "for"}
# Of those, the ones that leave even a statement in a slot hanging ("While the last would be ..."); "since the
# reorg I report to Marcus" is a statement, and "when Lena left the company" ends her role in a slot.
_HANGING_ALWAYS = {"while", "whether", "though", "although", "unless", "whereas", "if"}
# Words for a holder that the text itself must name for a statement without a slot to be read on its own.
_UNNAMED = FOCUS_PRONOUNS | OTHER_PRONOUNS - {"you"} | {"those", "these", "this", "that"}


# Second person anywhere: the statement is said to the other speaker ("I really appreciate your support", "Yeah,
# Jon, I'll watch your routine", "once you start building the project"), not of the user or their world.
_SECOND_PERSON = re.compile(r"\b(you|your|yours|yourself|yourselves|ya)\b", re.I)
# A possessive "your": in a slot too, what is held is the other speaker's ("I'm impressed by your willingness";
# "My number is 555-0142 if you need it" keeps its slot).
_YOUR = re.compile(r"\b(your|yours)\b", re.I)
# "We" with a modal is a wish or a promise ("We can always be there for each other", "We'll make some awesome
# memories"); "can", "should" and their kind said of anything but "I" say what may be, not what is ("Creativity
# sure can lighten someone's day", "the same workflow can be approximated"): neither is something that is so.
_WE_MAY = re.compile(r"\bwe(\s+(all|both|really|always|just|definitely|sure))*(\s+(can|could|will|would|should|might|may|must)\b|'ll\b)", re.I)
_MAY_BE = re.compile(r"^(?!i\b)([\w']+ ){0,4}?(can|could|should|might|may|must)\b(?!')", re.I)
# What names something in particular: a capitalised word inside the sentence ("plan mode is ..., Beads is ..."),
# a name in CamelCase or capitals ("AudioWorklet", "README"), a number, code or a quoted name. The first word
# counts only in those forms: a capital there is the sentence's ("Books have such an awesome power").
_NAMED = re.compile(r"(?<=[\s(\"'])[A-Z][\w'.-]*|\b[A-Z]+[a-z]+[A-Z]\w*|\b[A-Z]{2,}\b|\d|`|\"\w")
_NAMED_FIRST = re.compile(r"\W*([A-Z]+[a-z]+[A-Z]|[A-Z]{2,}\b|[`\"\d])")
# Whose statement it is: in the user's words "I"; in the assistant's "we" or the user ("I" is the assistant).
_ONESELF = re.compile(r"\b(i|me|my|mine|myself|user)\b", re.I)
_OUR_SIDE = re.compile(r"\b(we|us|our|ours|ourselves|user)\b", re.I)
# Words that make a statement a reaction or a saying when nothing in particular is named ("The kids had such a
# blast", "Volunteering is a great way to meet people", "The energy was really motivating"); "Heatmaps are in
# clarity now" names no one either, but says where something is.
_REACTING = re.compile(r"\b(so|such|really|truly|sure|super|totally|always|best|amazing|awesome|great|special|fun|"
                       r"cool|wonderful|lovely|incredible|heartwarming|inspiring|motivating|hectic|precaution)\b", re.I)
# The number of the next list item run into the end of a sentence ("... across all projects 2.").
_LIST_NUMBER = re.compile(r"\b(?!(round|step|phase|part|version|level|stage|grade|day|week|session|chapter|page)\b)[a-z]{3,} \d\.$")
# A question that starts with its verb and then a pronoun ("Is it lactose-free by any chance"); "Is Oscar."
# answers the question before it.
_QUESTION = re.compile(r"^(is|are|was|were|am|has|have|had|can|could|will|would|should)\s+(it|they|he|she|this|that|"
                       r"there|we|i|anyone|anything)\b", re.I)
# No speaker at all (names_something of a thing in particular only).
_NOBODY = re.compile(r"(?!)")
# Words for a quantity of no one in particular, as a subject.
_QUANTITIES = {"everyone", "everybody", "everything", "all", "much", "many", "most", "some", "someone", "somebody",
               "something", "nothing", "nobody", "no", "none", "few", "anyone", "anybody", "anything"}
# The speaker's own words and "we": a statement that says neither names whose it is.
_SPEAKERS = re.compile(r"\b(i|me|my|mine|myself|we|us|our|ours|ourselves|user)\b", re.I)
# "I" with a modal of what would or might be: a wish, an offer or a guess ("I could share my knowledge",
# "I'd really recommend this series"), not something that is so.
_I_WOULD = re.compile(r"^i(\s+\w+ly)?\s+(could|would|might|should|may)\b|^i'd\b", re.I)
# "I" with "will" or "can": a promise, an offer or a reaction ("I'll do some research", "I can provide more
# advice", "I can't wait for the pics"); a statement only when it names more than the "I" ("I'll take good care
# of my dogs first", "John: Also, I can host Fortnite competitions").
_I_WILL = re.compile(r"^i(\s+\w+ly)?\s+(will|won't|can|can't|cannot)\b|^i'll\b", re.I)
_MINE = re.compile(r"\b(my|mine|me|myself)\b", re.I)
# Something shown, not said: "here's ...", "here are ..." before a photo or a screenshot ("Jolene: Here are my pals
# keeping me company", "Yeah, here's a screenshot of the system").
_SHOWN = re.compile(r"^here('s|\s+(is|are))\b", re.I)
# A name set off at the end, not one the statement is about: the person it is said to ("Take care, Sam", "The salad
# idea is a smart move, Evan"); "I moved to Berlin, Germany" is about Germany.
_TO_SOMEONE = re.compile(r",\s+([A-Z][a-z]+)\W*$")
# A subject that points at what the row does not say: a pronoun or a demonstrative ("It's a wild ride",
# "They're my escape from reality", "That was fun").
_POINTING = {"it", "its", "it's", "they", "they're", "he", "he's", "she", "she's", "this", "that", "that's",
             "these", "those", "there", "there's"}
# A subject named only by its part in the conversation: what was just shown, run or proposed ("The diff is about
# 870 lines", "The call is cheap", "The first keeps boto3", "This PR adds the retry"); which diff, call or option
# the row does not say, and the next conversation has another. Said with a name it is a thing of the work ("the
# ledger-api diff"); a word that only holds the noun is not it ("on-call is handled by Opsgenie").
_OF_THE_CONVERSATION = {"diff", "patch", "call", "output", "snippet", "command", "file", "commit", "change", "pr",
                        "first", "second", "third", "former", "latter"}
# An object that points back at what the row does not say: "the same ...", "that <thing>", "his <thing>" ("I
# feel the same way", "I love that first movie too", "I love his tech").
_POINTS_BACK = r"\b(the same|that|those|these|its|his|her|their)\s+"
# A statement that ends on a pronoun for what it is about ("I want the best for them", "I can't imagine life
# without him", "I'm over the moon about it").
_ENDS_POINTING = re.compile(r"\b(it|them|him|her)(\s+(too|again|yet|anymore|already|either|so much|a lot))?\W*$", re.I)
# An assistant's reaction to what it just saw, before what it says next ("Good, `Path` is already imported").
_REACTION = re.compile(r"^(good|great|perfect|excellent|nice|done|right|alright|interesting)\b\W", re.I)


def names_something(body: str, speaker: re.Pattern[str]) -> bool:
    """Whether a statement (its lead-in taken off) says who or what it is of: the speaker (`speaker`: "I" in
    the user's words; in the assistant's, "we" or the user, its "I" being itself), or something in particular
    (_NAMED)."""
    return bool(speaker.search(body) or _NAMED.search(" " + body.partition(" ")[2]) or _NAMED_FIRST.match(body))


# The words that open a question: a verb put before its subject, or a question word.
_ASKING = {"is", "are", "was", "were", "am", "do", "does", "did", "can", "could", "should", "would", "will", "shall",
           "has", "have", "had", "what", "which", "who", "whom", "whose", "how", "why", "where"}


def asked(sentence: str) -> bool:
    """Whether a sentence is a question: it opens as one and ends on a question mark. Every clause in it is
    asked, not said: "can I make the udev rule survive a reflash?" says nothing of the rule, though the clause
    after "make" opens on its subject. "I moved to Leeds, how about you?" opens as a statement and keeps it."""
    return sentence.rstrip().endswith("?") and _first_word(_BEFORE_SUBJECT.sub("", sentence.strip())) in _ASKING


def _first_word(body: str) -> str:
    """The first word of what is said, in lower case, without the marks around it."""
    return (body.split(maxsplit=1) or [""])[0].lower().strip(",.;:!?\"'`(")


def _wish_or_saying(body: str) -> bool:
    """A wish, what may be, or a reaction or saying, that names neither the speaker's "I" nor anything in
    particular ("We can be on this trip together", "Things have been hectic lately")."""
    return bool(_WE_MAY.search(body) or _MAY_BE.search(body) or _REACTING.search(body)) and not names_something(body, _ONESELF)


def readable_alone(fact: ExtractedFact) -> bool:
    """Whether a statement reads as a statement of the user or their world on its own (labelling rule in
    tests/data/junk_facts): not cut off, not a question, request or hanging clause, not said to the other
    speaker, not a wish or what may be, not a list's next number run in, its subject (or, where the reading
    names none, one thing it is about) said in it and not a bare pronoun ("It was so much fun.", "Deserves
    understanding."), and not a reaction or saying that names nothing in particular ("Books have such an
    awesome power").
    A statement in a slot, or a decision, is judged by its slot and the session around it ("Let's use Kafka",
    "since the reorg I report to Marcus", a pronoun the session names, "Is Oscar."): a slot refuses only one
    cut off, a greeting, question, request or hanging clause by its first word, a "your" in it, or a wish,
    what may be or a reaction that names nothing in particular ("The energy was really motivating"); a
    decision is always kept here.
    Either way a statement is refused whose subject is a pronoun or demonstrative and that names nothing in
    particular ("It's not too serious"), whose subject is named only by its part in the conversation ("The diff
    is about 870 lines", "The first keeps boto3"), that asks with its verb first ("Is it lactose-free"), that shows
    rather than says ("Here are my pals keeping me company"), or that is said to someone by name and says
    nothing of the speaker's own ("Evan: Take care, Sam"). One in no slot whose subject is no one in
    particular must name the speaker ("I", "we", "my") or something in particular ("Networking plays a big
    role" names neither), not be a wish, offer or promise ("I could share my knowledge", "I'll do some
    research"), say of its subject nothing that only the conversation names ("I love that first movie too",
    "I want the best for them"), and have its subject said after the speaker's label ("Maria: Looks like a
    blast")."""
    if fact.kind != "fact":
        return True
    text = fact.text.strip()
    body = _BEFORE_SUBJECT.sub("", text)
    first = _first_word(body)
    if _CUT_OFF.search(text.rstrip(".!?")) or _YOUR.search(body) or _left_open(text):
        return False
    if first in _NEVER_A_STATEMENT or (first in _HANGING_ALWAYS and "," not in body) or _QUESTION.match(body):
        return False
    if _SHOWN.match(body) or _said_to_someone(fact, body):
        return False
    if _pointing_subject(fact, body) or _of_the_conversation(fact):
        return False
    if fact.slot:
        return not _wish_or_saying(body)
    if _LIST_NUMBER.search(text):
        return False
    if first in _NOT_A_STATEMENT or (first in _HANGING and "," not in body):
        return False
    if _SECOND_PERSON.search(body) or _WE_MAY.search(body) or _MAY_BE.search(body) or _wish_or_saying(body):
        return False
    if _I_WOULD.match(body) or _promise(body) or _points_back(fact, body) or (_generic(first) and not names_something(body, _SPEAKERS)):
        return False
    # A backend that names no subject (the LLM's readings) names what the statement is about instead. A
    # subject said only in the speaker's label is the speaker's "I" ("Nate: I was bored today"), else no
    # subject at all ("Joanna: Pets have a way of brightening our days", "Maria: Looks like a blast").
    named = [comparable(name) for name in ([fact.subject] if fact.subject else fact.about)]
    return first not in _UNNAMED and any(
        name and (_said(name, body) or (_said(name, text) and names_something(body, _ONESELF))) for name in named
    )


def _left_open(text: str) -> bool:
    """Whether the statement was cut inside a bracket or a span of code: a clause's words that stop before
    the closing mark ("... with `pytest-xdist.", "... 0.41 (the highest.")."""
    return text.count("(") != text.count(")") or text.count("`") % 2 == 1


def _said_to_someone(fact: ExtractedFact, body: str) -> bool:
    """Whether the statement ends on the name of the person it is said to, a name it is not about, and says
    nothing of the speaker's own ("Evan: Love the quote, Sam"; "I've had some tough times with my business,
    Jon" is the speaker's)."""
    named = _TO_SOMEONE.search(body)
    about = {comparable(name) for name in [fact.subject, fact.object, *fact.about] if name}
    return bool(named) and comparable(named.group(1)) not in about and not _MINE.search(body)


def _generic(first: str) -> bool:
    """Whether a statement's first word makes its subject no one in particular: an activity ("Networking plays
    a big role ...") or a quantity ("Everyone shared ...", "So many people ...", "All that mattered ...").
    A bare noun is not enough: "heatmaps are in clarity now" says where the user's heatmaps are."""
    return first in _QUANTITIES or (first.endswith("ing") and len(first) > 5)


def _said(name: str, text: str) -> bool:
    return re.search(rf"\b{re.escape(name)}\b", comparable(text)) is not None


def _names_a_thing(body: str) -> bool:
    """Whether the statement names something in particular (names_something), the speaker's "I" not counted."""
    return names_something(re.sub(r"\bI\b", "i", body), _NOBODY)


def names_in_particular(text: str) -> bool:
    """Whether a statement's text, its lead-in and speaker's label taken off, names something in particular
    (_names_a_thing): a name, a number, code or a quoted name; the speaker's "I" is not counted."""
    return _names_a_thing(_BEFORE_SUBJECT.sub("", text.strip()))


def _pointing_subject(fact: ExtractedFact, body: str) -> bool:
    """Whether the statement starts with a pronoun or demonstrative that the reader found no other subject
    for, and names nothing in particular ("It's not too serious", "They're my escape from reality"); "It's on
    Fly.io now" names where, and "These days I work as a paramedic" is said of "I"."""
    first = (body.split(maxsplit=1) or [""])[0].lower().strip(",.;:!?\"`(").replace("\u2019", "'")
    subject = comparable(fact.subject or "")
    of_another = bool(subject) and subject not in _POINTING | FOCUS_PRONOUNS | OTHER_PRONOUNS and _said(subject, body)
    return first in _POINTING and not of_another and not _names_a_thing(body)


def _of_the_conversation(fact: ExtractedFact) -> bool:
    """Whether the statement's subject is named only by its part in the conversation: "the", "this" or "that"
    and the noun alone ("The diff is about 870 lines"), or such a subject of the clause before that the row
    leaves out ("The first keeps boto3 and moves the work into astar": "Moves the work into astar")."""
    subject = re.sub(r"^(the|this|that)\s+", "", comparable(fact.subject or ""))
    if subject not in _OF_THE_CONVERSATION:
        return False
    return not _said(subject, fact.text) or re.search(rf"\b(the|this|that)\s+{subject}\b", fact.text, re.I) is not None


def _promise(body: str) -> bool:
    """Whether the statement is the speaker's promise, offer or reaction: "I will" or "I can" said of nothing
    but the "I" ("I'll do some research", "I can't wait for the pics")."""
    return bool(_I_WILL.match(body)) and not (_MINE.search(body) or _names_a_thing(body))


def _points_back(fact: ExtractedFact, body: str) -> bool:
    """Whether what the statement says of its subject is something only the conversation names, with
    nothing named: it ends on a pronoun ("I want the best for them"), or its object is said as "the same
    ...", "that ...", "those ..." or "his ..." ("I love that first movie too", "I miss those moments")."""
    if _names_a_thing(body):
        return False
    if _ENDS_POINTING.search(body):
        return True
    thing = (fact.object or "").strip()
    if not thing:
        return False
    words = re.escape(thing.removeprefix("same ")).replace(r"\ ", r"\s+")
    return re.search(rf"{_POINTS_BACK}(\w+\s+)?{words}\b", body, re.I) is not None


def worth_stating(fact: ExtractedFact, *, by_assistant: bool) -> bool:
    """Whether a statement the reader found is one to keep: not a tool's output or code, nor markdown run
    together, read on its own (readable_alone), not held by a bare possessive or "you" ("your/manager"), not a
    number doing something ("42 -[pass in]-> 3.1s"), and, in the assistant's words, not about the assistant
    ("Let me check", "I'll fix it"), not its reaction ("Good, ..."), and, in no slot, naming something of the
    user's work or world, not only its own "I" ("I think the format includes indentation"), and said as
    something that is so (_said_as_so)."""
    holder = comparable(fact.slot.partition("/")[0]) if fact.slot else ""
    subject = comparable(fact.subject or "")
    return not (
        looks_like_output(fact.text)
        or _MARKDOWN.search(fact.text) is not None
        or not readable_alone(fact)
        or holder == "my"
        or holder.split(" ")[0] in _ADDRESSED
        or subject in _ADDRESSED
        or (subject and not any(ch.isalpha() for ch in subject))
        or (by_assistant and _the_assistants_own(fact))
        or not _said_as_so(fact, by_assistant=by_assistant)
    )


def _said_as_so(fact: ExtractedFact, *, by_assistant: bool) -> bool:
    """Whether the clause is said as something that is so (reading/mood.py): not only another clause's time or
    condition ("When she was 12."), whoever says it; and, in the assistant's words, not advice to the user
    ("Keep it to one page; the detail can live in linked docs."). The user's own imperative is what they want
    done ("use pnpm, not npm"), and stays."""
    return fact.mood == "stated" or (fact.mood == "advised" and not by_assistant)


def one_row_each(stated: Sequence[ExtractedFact], *, by_assistant: bool) -> list[ExtractedFact]:
    """A turn's statements worth stating, no two of them saying the same words: where the parser hangs one clause
    under another ("My new manager is Ana Kovač, she led the hardware team": "is" under "led"), the reader reads
    the inner clause, and the outer one as the whole sentence around it. A statement in no slot whose text lies
    inside another's, or repeats an earlier one's, is not written: the other says it. One in a slot or a decision
    is never dropped; the statement whose text starts or ends with it says the rest of its sentence without it
    ("She led the hardware team."), so that each row says its own clause and nothing of the sentence is lost. One
    in no slot whose rest would not be worth stating on its own ("Which is great.") keeps its whole sentence."""
    kept = [fact for n, fact in enumerate(stated) if _carries(fact) or not _said_by_another(n, stated)]
    found = []
    for fact in kept:
        rest = _without_parts(fact, [other for other in kept if other is not fact and _carries(other)])
        found.append(rest if _carries(fact) or worth_stating(rest, by_assistant=by_assistant) else fact)
    return found


def _carries(fact: ExtractedFact) -> bool:
    """Whether the statement holds more than its words: a slot's value or a decision."""
    return bool(fact.slot) or fact.kind == "decision"


def _said_by_another(n: int, stated: Sequence[ExtractedFact]) -> bool:
    """Whether the n-th statement's words lie inside another statement's, or are an earlier one's."""
    said = comparable(stated[n].text)
    return any(lies_inside(said, comparable(other.text)) and (len(other.text) > len(stated[n].text) or m < n)
               for m, other in enumerate(stated) if m != n)


def lies_inside(inner: str, outer: str) -> bool:
    """Whether the words of `inner` stand in `outer` as whole words (both compared as `comparable` gives them)."""
    return re.search(rf"(?<!\w){re.escape(inner)}(?!\w)", outer) is not None


# What joined a clause to the one cut from before or after it: punctuation and a conjunction at the seam.
_SEAM_START = re.compile(r"^[\s,;:\u2013\u2014-]*(?:(?:and|but|or|so|then)\b[\s,]*)?", re.I)
_SEAM_END = re.compile(r"[\s,;:\u2013\u2014-]*(?:\b(?:and|but|or|so|then)[\s,]*)?$", re.I)


def _without_parts(fact: ExtractedFact, parts: Sequence[ExtractedFact]) -> ExtractedFact:
    """The statement without the statements of its turn (`parts`) its text starts or ends with, one after another,
    the longest first, where what is left says something."""
    text = fact.text.strip()
    body = rest = text.rstrip(" .!?")
    cores = sorted({part.text.strip().rstrip(" .!?") for part in parts}, key=len, reverse=True)
    while (cut := _cut(rest, cores)) is not None:
        rest = cut
    if rest == body or not any(ch.isalpha() for ch in rest):
        return fact
    return fact.model_copy(update={"text": rest[:1].upper() + rest[1:] + (text[len(body):].strip() or ".")})


def _cut(text: str, cores: Sequence[str]) -> str | None:
    """The text without the first of `cores` it starts or ends with, nor what joined it to the rest; None for none."""
    for core in cores:
        if _starts_with(text, core):
            return _SEAM_START.sub("", text[len(core) :])
        if _starts_with(text[::-1], core[::-1]):
            return _SEAM_END.sub("", text[: len(text) - len(core)])
    return None


def _starts_with(text: str, start: str) -> bool:
    """Whether the text starts with `start` (case aside) as whole words, with more after it."""
    return (0 < len(start) < len(text) and text[: len(start)].lower() == start.lower()
            and not text[len(start)].isalnum())


def _the_assistants_own(fact: ExtractedFact) -> bool:
    """Whether, in the assistant's words, the statement is its own: about itself, its reaction ("Good, ..."),
    or, in no slot, naming nothing of the user's work or world ("The format includes indentation")."""
    text = fact.text.strip()
    return (of_the_speaker(fact) or _REACTION.match(text) is not None
            or not (fact.slot or names_something(_BEFORE_SUBJECT.sub("", text), _OUR_SIDE)))


def of_the_speaker(fact: ExtractedFact) -> bool:
    """Whether the statement is about whoever said it ("I", "me", "let me"): in the assistant's words, the assistant."""
    holder = fact.slot.partition("/")[0] if fact.slot else None
    return holder == SELF or comparable(fact.subject or "") in FIRST_PERSON


def placed(fact: ExtractedFact, project: str | None) -> ExtractedFact:
    """The statement with PROJECT replaced by the session's project (project_holder)."""
    return _swapped(fact, PROJECT, project_holder(project)) if _mentions(fact, PROJECT) else fact


def project_holder(project: str | None) -> str:
    """Who "we" are in a session: its project, or "our team" in a session of no project."""
    return project or OUR_TEAM


@dataclass
class Context:
    """What a session has talked about so far, for a pronoun a later turn leaves to it."""

    person: str | None = None
    thing: str | None = None
    # The user's slots that hold a current statement, loaded when first needed: a pronoun the session
    # does not resolve is the one holder the user has of that attribute ("It's on Fly.io now").
    known: Callable[[], Sequence[str]] | None = None
    _known: Sequence[str] | None = None

    def resolve(self, stated: list[ExtractedFact]) -> list[ExtractedFact]:
        """The statements with PERSON_REF/THING_REF replaced by the entity in focus, else by the only
        holder of the statement's attribute the user has; a statement whose holder neither names waits
        for one (`waiting`); any other whose referent neither names is dropped (a bare pronoun is no subject)."""
        found = []
        for fact in stated:
            for marker, name in ((PERSON_REF, self.person), (THING_REF, self.thing)):
                if fact is not None and _mentions(fact, marker):
                    name = name or self.only_holder(fact.slot, marker)
                    fact = _swapped(fact, marker, name) if name else waiting(fact, marker)
            if fact is not None:
                found.append(fact)
        return found

    def only_holder(self, slot: str, marker: str) -> str | None:
        """The one holder of the slot's attribute among the user's slots: a person's attribute for
        "he"/"she", any other for "it"; none when the user has none or several."""
        holder, _, attribute = slot.rpartition("/")
        if holder != marker or self.known is None or (attribute in PERSONAL) != (marker == PERSON_REF):
            return None
        if self._known is None:
            self._known = self.known()
        holders = {known.rpartition("/")[0] for known in self._known if known.rpartition("/")[2] == attribute} - {SELF}
        return next(iter(holders)) if len(holders) == 1 else None

    def notice(self, extraction_entities: Sequence[Any], stated: Sequence[ExtractedFact]) -> None:
        """Move the focus to the last person named and the last thing a statement was about."""
        people = [e.name for e in extraction_entities if e.type == "Person" and not junk_name(e.name)]
        people += [f.subject for f in stated if f.subject and f.subject[:1].isupper() and f.subject not in people
                   and f.subject.lower() == (f.slot.rpartition("/")[0] or f.subject.lower())
                   and f.slot.rpartition("/")[2] in PERSONAL]
        self.person = people[-1] if people else self.person
        things = [f.slot.rpartition("/")[0] for f in stated if f.slot]
        things = [t for t in things if t and t not in (SELF, PROJECT) and not t.startswith(("@", HELD))  # not one waiting
                  and comparable(t) not in {comparable(p) for p in people}]
        self.thing = things[-1] if things else self.thing


def waiting(fact: ExtractedFact, marker: str) -> ExtractedFact | None:
    """A statement whose holder is a pronoun that nothing reconciled yet names ("It's on Fly.io now",
    reconciled before "our app is hosted on Render"): it waits in a slot of its own,
    "<marker><digest>/<WAITING><attribute>", until the user has one holder of that attribute
    (facts.adopt_waiting); None when the pronoun is not the holder (a value needs a name now)."""
    holder, _, attribute = fact.slot.rpartition("/")
    if holder != marker or not attribute or attribute.startswith(HELD) or marker in (fact.value, fact.object):
        return None
    digest = hashlib.sha256(fact.text.encode()).hexdigest()[:10]
    said = "it" if marker == THING_REF else "they"
    return fact.model_copy(update={
        "slot": f"{marker}{digest}/{WAITING}{attribute}",
        "subject": said if fact.subject == marker else fact.subject,
        "about": [name for name in fact.about if name != marker],
    })


def _mentions(fact: ExtractedFact, marker: str) -> bool:
    return marker in (fact.subject, fact.object, fact.value, *fact.about) or fact.slot.startswith(marker + "/")


def _swapped(fact: ExtractedFact, marker: str, name: str) -> ExtractedFact:
    """The statement with `marker` (PROJECT or a pronoun's stand-in) replaced by `name`."""

    def swap(text: str | None) -> str | None:
        return name if text == marker else text

    return fact.model_copy(update={
        "slot": comparable(name) + fact.slot[len(marker):] if fact.slot.startswith(marker + "/") else fact.slot,
        "subject": swap(fact.subject),
        "object": swap(fact.object),
        "value": swap(fact.value),
        "about": list(dict.fromkeys(name if item == marker else item for item in fact.about)),
    })


SELF_WORDS = FIRST_PERSON | {"user", "the user"}
PROJECT_WORDS = WE_FORMS | {"ours", "team", "our team", "the team", "project", "our project", "the project"}


def slot_of(slot: str, lex: Lexicon) -> str:
    """A backend's slot in this module's form: "<subject>/<attribute>", first person as SELF, "we" as
    PROJECT, the attribute by its lexicon name ("Orders Service/DB" -> "orders service/database")."""
    if "/" not in slot:
        return ""
    subject, _, attribute = slot.rpartition("/")
    subject, attribute = comparable(subject), comparable(attribute)
    if not subject or not attribute or junk_name(subject):
        return ""
    subject = SELF if subject in SELF_WORDS else PROJECT if subject in PROJECT_WORDS else subject
    spaced = comparable(attribute.replace("_", " ").replace("-", " "))
    return f"{subject}/{lex.nouns.get(attribute) or lex.nouns.get(spaced) or attribute}"


def normalised(fact: ExtractedFact, lex: Lexicon) -> ExtractedFact | None:
    """Another backend's statement with this backend's subjects, attributes and quality gate, or None
    when nothing of it passes (its text is empty, or all it is about is junk)."""
    text = " ".join(fact.text.split())
    if not text:
        return None

    def who(name: str) -> str:
        low = comparable(name)
        return SELF if low in SELF_WORDS else PROJECT if low in PROJECT_WORDS else name.strip()

    about = [who(name) for name in fact.about if not junk_name(name) or comparable(name) in SELF_WORDS | PROJECT_WORDS]
    slot = slot_of(fact.slot, lex) if fact.slot else ""
    if slot and slot.split("/")[0] not in {comparable(name) for name in about}:
        about.insert(0, slot.rsplit("/", 1)[0])
    return fact.model_copy(update={
        "text": text, "slot": slot, "about": list(dict.fromkeys(about)),
        "rationale": " ".join(fact.rationale.split()) if fact.rationale else fact.rationale,
    })
