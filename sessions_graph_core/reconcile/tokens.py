"""Judging one spaCy token: whether it is a name (as tagged, or typed in lower case as chat is), a person's
name, the speaker (the forms of "I" and "we"), a time, a word that says when or how much rather than what, and
which token the small parser mislabelled (a direct object, a name read as a verb or as punctuation).

The clause reader (reading/) and the extraction backend (extraction/spacy.py) ask these; they know no
attribute and no slot.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import cache
from typing import Any

from sessions_graph_core.reconcile import senses

# The forms of "I" and of "we" by which the speakers say themselves as a subject, an object or an owner ...
I_FORMS = {"i", "me", "my"}
WE_FORMS = {"we", "us", "our"}
# ... and every word that says them: standing alone ("mine"), reflexive ("myself"), and "let's" ("'s" as
# spaCy splits it).
FIRST_PERSON = I_FORMS | {"myself", "mine"}
FIRST_PLURAL = WE_FORMS | {"ours", "ourselves", "let", "'s"}
# Modifiers that say when, not what: "our new CTO" is the CTO.
TIME_MODIFIERS = {"new", "current", "old", "former", "previous", "present", "main", "own", "actual", "latest",
                  "favourite", "favorite", "preferred", "usual", "regular", "default", "primary", "go-to",
                  # which one, not what: "a different gym, PureGym", "a cheaper bank"
                  "different", "better", "cheaper", "closer", "nearer", "local", "nearby"}
# Words that say how much of a group, not which one: "the whole team" is the team, "everyone" is all of us.
WHOLE_WORDS = {"whole", "entire"}
EVERYONE = {"everyone", "everybody"}
# Adverbs by which a clause says its value is as it was: "I still live in Porto", "saw Dr. Alvarez again",
# "I'm in New York, same as ever"; and what "as" or "like" it is ("as before", "as ever", "like always").
CONTINUITY_ADVERBS = {"still", "again", "same"}
CONTINUITY_TIMES = {"before", "ever", "always", "usual"}
_CLOCK = re.compile(r"^\d{1,2}([:.]\d{2})?\s?(am|pm|a\.m\.|p\.m\.)?$|^(mon|tues|wednes|thurs|fri|satur|sun)days?$")


def as_said(tokens: Iterable[Any]) -> str:
    """The tokens' words in the order the text said them, on one line: each keeps the spacing it was said
    with, and one space stands where words were left out between two ("batch, first" without its comma is
    "batch first", not "batchfirst"). A subtree is not in the text's order where the parse crosses itself
    ("My sister Femke had ..., a girl called Lotte": "girl" hangs on "sister")."""
    ordered = sorted(tokens, key=lambda t: t.i)
    text = "".join(t.text + (t.whitespace_ if n + 1 < len(ordered) and ordered[n + 1].i == t.i + 1 else " ")
                   for n, t in enumerate(ordered))
    return " ".join(text.split())


def a_value(token: Any) -> bool:
    """A name that can be a slot's value: a proper noun or a named entity, not a time or a number."""
    # A capitalised noun counts: the small model tags many a name at the start of a sentence a noun ("Florence/NOUN").
    named = token.pos_ == "PROPN" or bool(token.ent_type_) or (token.pos_ == "NOUN" and token.is_title)
    return named and token.dep_ != "compound" and token.ent_type_ not in {
        "DATE", "TIME", "CARDINAL", "ORDINAL", "MONEY", "PERCENT", "QUANTITY"}


def proper_name(token: Any) -> bool:
    """A name, as the tagger sees it or as a word no vocabulary holds ("pipedrive"); not a common word."""
    return name_like(token) and token.ent_type_ not in {"DATE", "TIME"} and (
        token.pos_ == "PROPN" or token.is_title or not common_word(token.lower_))


def name_like(token: Any) -> bool:
    """A token that names something: a name as the tagger sees it, or a name typed in lower case, as chat
    is ("our crm is hubspot", "my vpn is nordvpn", "my mail client is thunderbird/ADJ"): a bare word with
    no article, modifier or time about it, tagged a noun, or tagged anything else and no word of the
    vocabulary (the small model tags an unknown lower-case word a verb or an adjective as often as a noun)."""
    if token.pos_ == "PROPN" or (token.is_title and token.i > token.sent.start):
        return True
    counted = token.ent_type_ == "CARDINAL" and not any(ch.isalpha() for ch in token.text)  # "1password" is a name
    if token.ent_type_ in {"DATE", "TIME", "ORDINAL", "MONEY", "PERCENT", "QUANTITY"} or counted or token.is_stop:
        return False
    bare = not any(t.dep_ in {"det", "poss", "amod", "nummod", "prep"} for t in token.children)
    word = token.lower_
    if not bare or not word.isalnum() or not any(ch.isalpha() for ch in word) or word != token.text:
        return False
    return token.pos_ == "NOUN" or (token.pos_ in {"VERB", "ADJ", "NUM", "X", "ADV"} and not common_word(word))


# Endings of words that say what a thing is like or what was done to it ("deduplicated", "executable",
# "synchronous"): no name ends so, however rare the word.
_DESCRIBING = re.compile(r"[a-z]{3,}(?:ed|able|ible|ous)$")


def describing(token: Any) -> bool:
    """A word typed in lower case that describes rather than names: "Links are deduplicated", "the API is
    synchronous", "`recipes` is undefined" (not "the crm is on pipedrive")."""
    return token.text.islower() and bool(_DESCRIBING.match(token.text))


def a_name(token: Any) -> bool:
    """A name as tagged, or typed in lower case and no word of the vocabulary ("i cancelled protonvpn",
    "ditched lastpass for bitwarden"; not "for cost reasons")."""
    return token.pos_ == "PROPN" or (name_like(token) and not common_word(token.lower_))


def one_of_a_class(token: Any) -> bool:
    """A noun said with "a"/"an" ("a swiftie", "a Capricorn"): one of a class, not a name."""
    return any(t.dep_ == "det" and t.lower_ in {"a", "an"} for t in token.children)


def no_verb(token: Any) -> bool:
    """A word the tagger called a verb that WordNet knows as no verb: a name typed in lower case after a
    "to" the parser took for an infinitive's ("we relocated to bologna/VERB")."""
    return token.pos_ == "VERB" and token.lower_.isalpha() and not senses.verb(token.lower_)


def name_read_as_verb(token: Any) -> bool:
    """A capitalised word inside the sentence that the tagger called a gerund, with nothing hung on it: a name
    ending in "-ing" ("to Starling/VBG", "is Starling/VBG now"), not a verb ("is Using", which starts nothing)."""
    return token.tag_ == "VBG" and token.is_title and token.i > token.sent.start and direct_object(token) is None


@cache
def _vocabulary() -> frozenset[str]:
    from sessions_graph_core.embeddings.models import TOKENIZER_FILE

    return frozenset(word for word in json.loads(TOKENIZER_FILE.read_text())["model"]["vocab"] if word.isalpha())


# What a word of the vocabulary may end in and still be that word ("moved", "recordings").
_SUFFIXES = ("s", "es", "ed", "d", "ing", "er", "ers", "ly")


def common_word(word: str) -> bool:
    """Whether a lower-case word is a whole word of the embedder's vocabulary (bert-base-uncased), as it
    is or less a plain suffix: "superset", "spark" are; "pipedrive", "vidyard", "1password" are not."""
    words = _vocabulary()
    if word in words:
        return True
    return any(word.endswith(suffix) and len(word) - len(suffix) > 2 and (word[: -len(suffix)] in words
               or word[: -len(suffix)] + "e" in words) for suffix in _SUFFIXES)


def person_name(token: Any) -> str:
    """The name a PERSON token ends, with its title ("Dr. Lin"), without a noun before it ("brother Luis")."""
    start = token.i
    while start > 0 and token.doc[start - 1].is_title and token.doc[start - 1].head.i in range(start, token.i + 1) \
            and token.doc[start - 1].dep_ in {"compound", "nmod", "amod"}:
        start -= 1
    return token.doc[start : token.i + 1].text.strip(" ,'")


def person_like(token: Any) -> bool:
    """A name that may be a person's: tagged PERSON, or a name the small model left untyped in the role
    a person takes (who does something, or who is named beside a noun: "my sister Ana")."""
    return token.pos_ == "PROPN" and (
        token.ent_type_ == "PERSON" or (not token.ent_type_ and token.dep_ in {"nsubj", "appos", "nsubjpass", "dobj"}))


def named_person(token: Any) -> bool:
    """A person's name, or a capitalised word the tagger called a noun where a name stands ("Eva/NOUN is")."""
    return person_like(token) or (token.pos_ == "NOUN" and token.is_title and token.i == token.sent.start
                                   and not any(t.dep_ in {"det", "poss", "compound", "amod"} for t in token.children))


def bare_title(token: Any) -> bool:
    """A title said with no article, as of the one who holds it ("became CTO", "is now VP")."""
    return (token.is_upper and len(token.text) > 1 and token.pos_ in {"PROPN", "NOUN"}
            and not any(t.dep_ in {"det", "poss"} for t in token.children))


def the_role(token: Any) -> bool:
    """"the scrum master": a role with "the" and nothing that makes it one of many ("the best", "the same")."""
    return ((token.pos_ == "NOUN" or (token.pos_ == "PROPN" and token.is_upper))
            and any(t.dep_ == "det" and t.lower_ == "the" for t in token.children)
            and not any(t.dep_ in {"amod", "prep", "relcl", "acl"} and t.lower_ not in TIME_MODIFIERS for t in token.children))


def a_time(token: Any) -> bool:
    """A time or a day: tagged so, or written as one ("10:15", "9am", "Thursdays") where the tagger missed it."""
    return token.ent_type_ in {"DATE", "TIME"} or bool(_CLOCK.match(token.lower_))


# Units of how long something takes: "5 minutes", "an hour", "twenty minutes" say no time of day or week.
DURATION_UNITS = {"second", "minute", "hour", "day", "week", "month", "year"}


def a_duration(token: Any) -> bool:
    """How long, not when: a unit of time counted by a number or "a"/"an" ("5 minutes", "an hour")."""
    unit = token.lemma_.lower() in DURATION_UNITS or token.lower_.rstrip("s") in DURATION_UNITS
    return unit and any(t.dep_ == "nummod" or (t.dep_ == "det" and t.lower_ in {"a", "an"}) for t in token.children)


def _when_word(token: Any) -> bool:
    """"new" in "my new phone number", not in "New Relic"."""
    return token.lower_ in TIME_MODIFIERS and token.pos_ != "PROPN"


def no_word_of_the_name(token: Any) -> bool:
    """A word a phrase drops: a time word, or how much of it ("the whole team" is the team)."""
    return _when_word(token) or (token.lower_ in WHOLE_WORDS and token.pos_ != "PROPN")


def nobody(token: Any) -> bool:
    """"nobody", "no one": none of us."""
    return token.lower_ == "nobody" or (token.lower_ == "one" and any(t.lower_ == "no" for t in token.children))


def everyone(token: Any) -> bool:
    """"everyone talks in Mattermost now" is us, as "we" is; "everyone at my gym", "everyone else" are not."""
    return token.lower_ in EVERYONE and not any(t.dep_ in {"prep", "advmod", "amod", "relcl", "acl"} for t in token.children)


def named_in(token: Any) -> bool:
    """Whether a phrase names someone or something ("the contract with Acme Cleaning", "the Zoom licence")."""
    return any(t.pos_ == "PROPN" for t in token.subtree)


def a_new(noun: Any | None) -> bool:
    """A common noun said as "a new <noun>" ("a new physio"): one in place of another."""
    return noun is not None and noun.pos_ == "NOUN" and any(t.dep_ == "det" and t.lower_ in {"a", "an"} for t in noun.children) \
        and any(t.dep_ == "amod" and t.lower_ == "new" for t in noun.children)


def named_after(noun: Any) -> Any | None:
    """The name after a noun's comma or colon that ends the clause ("a new dentist, Dr. Kim.", "a new
    dentist now: Dr. Yu."), whatever the parser hung it on: the name's last word."""
    doc = noun.doc
    # (the parser may hang the comma or colon itself on the noun: "a new GP/dobj :/punct Dr. Mensah")
    comma = max(t.i for t in noun.subtree if not t.is_punct) + 1
    while comma < len(doc) and doc[comma].pos_ == "ADV":
        comma += 1
    end = comma + 1
    # a name as tagged, or typed in lower case and typed a person's ("a new hairdresser, marco/NOUN"), or a
    # number ("a new number: 555-0202")
    while end < len(doc) and (doc[end].pos_ == "PROPN" or doc[end].ent_type_ == "PERSON"
                              or (doc[end].pos_ in {"NUM", "SYM"} and doc[comma + 1].pos_ == "NUM")):
        end += 1
    if comma >= len(doc) or doc[comma].text not in {",", ":"} or end == comma + 1 or (end < len(doc) and not doc[end].is_punct):
        return None
    return doc[end - 1]


def modifies(child: Any, head: Any) -> bool:
    """Whether a left child is part of its head's noun phrase; a noun with a subject right before it is
    a compound the small parser read as a clause ("my team/nsubj lead/ROOT is Oscar")."""
    if child.dep_ in {"compound", "amod", "nmod", "nummod", "npadvmod"}:
        return True
    return (child.dep_ == "nsubj" and head.pos_ in {"NOUN", "PROPN"} and child.pos_ in {"NOUN", "PROPN"}
            and child.i == head.i - 1)


def direct_object(verb: Any) -> Any | None:
    """The verb's direct object, where the small parser mislabels it: of two nouns both tagged objects
    the second ("switched task/dobj tracking/dobj to Linear"), a name tagged as a verb ("use
    Spotify/VERB/xcomp for music"), and a name right after the verb tagged an adverbial noun, as the
    parser does with a name it labels a person ("we dropped Zoom/npadvmod"; not a day: "moved Monday")."""
    objects = [t for t in verb.children if t.dep_ == "dobj"]
    if objects:
        first = objects[0]
        return next((t for t in objects[1:] if t.i == first.i + 1 and t.pos_ in {"NOUN", "PROPN"}), first)
    after = verb.i + 2 if verb.i + 1 < len(verb.doc) and verb.doc[verb.i + 1].dep_ == "prt" else verb.i + 1
    return next((t for t in verb.rights if t.i == after and (
        (t.dep_ == "xcomp" and t.is_title and not any(c.dep_ in {"aux", "nsubj", "dobj"} for c in t.children))
        or (t.dep_ == "npadvmod" and t.pos_ == "PROPN" and t.ent_type_ not in {"DATE", "TIME"}))), None)


def mistagged(verb: Any) -> Any | None:
    """A word after the verb the tagger called punctuation, which no punctuation is ("is RabbitMQ/PUNCT"),
    or a number it hung on the verb as an adverbial ("is 555/npadvmod -0100")."""
    return next((t for t in verb.rights if (t.pos_ == "PUNCT" and any(ch.isalpha() for ch in t.text))
                 or (t.pos_ == "NUM" and t.dep_ == "npadvmod" and t.i == verb.i + 1)
                 or (t.pos_ == "PROPN" and t.dep_ == "advmod" and t.i == verb.i + 1)
                 or (t.dep_ in {"intj", "dep"} and t.text[:1].isupper() and t.pos_ in {"X", "PROPN", "INTJ"})), None)


def fragment(verb: Any) -> list[Any]:
    """A verbless piece the parser split off as a sentence of its own ("We'll use MongoDB" + "as the
    database for X"): its preposition belongs to the verb before it."""
    if verb.dep_ != "ROOT" or verb.sent.end >= len(verb.doc):
        return []
    following = verb.doc[verb.sent.end].sent
    if following.root.pos_ == "ADP" and not any(t.pos_ in {"VERB", "AUX"} for t in following):
        return [following.root]
    return []


def own_clause(verb: Any) -> list[Any]:
    """The verb's clause in order: its subtree without the clauses coordinated with it or its reasons."""
    cut = {t.i for child in verb.children if (child.dep_ == "conj" and child.pos_ in {"VERB", "AUX"})
           or (child.dep_ == "advcl" and any(m.dep_ == "mark" for m in child.children)) for t in child.subtree}
    return [t for t in verb.subtree if t.i not in cut and not (t.dep_ == "cc" and t.head == verb) and not t.is_punct]


def as_well(token: Any) -> bool:
    """"as well" (spaCy: "well" an adverb with "as" under it)."""
    return token.lower_ == "well" and any(t.lower_ == "as" for t in token.children)


def continuity_cue(token: Any) -> bool:
    """"still", "again", "same (as ever)", "as/like before", "as ever", "as always", "as usual" said of a clause."""
    if token.dep_ == "advmod" and token.lower_ in CONTINUITY_ADVERBS:
        return True
    return token.dep_ == "prep" and token.lower_ in {"as", "like"} and any(
        t.lower_ in CONTINUITY_TIMES and t.dep_ in {"pcomp", "pobj", "prep", "advmod"} for t in token.children)

