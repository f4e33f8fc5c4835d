"""Statements in slots: who a clause is about, which single-valued attribute it fills, and with what.

A slot is "<subject>/<attribute>" ("orders service/database", "me/location"). The attributes and the
kinds of values are lexicon.py's; whether a token is a name, a time or a mislabelled object is
tokens.py's; what a clause says of them is this module's (the Reader). A clause fills a slot when
- a noun names the attribute: "my manager is Priya", "we use Postgres as the orders service database";
- a verb states it: "I live in Porto", "Alice owns the orders service" (inverse: the slot is on the object);
- a generic verb ("use", "switch to", "move to", "replace A with B") takes a value whose kind is an
  attribute's: listed, or nearest by the embedder to an attribute's examples (CockroachDB ~ Postgres).
Transitions name the old value ("from A to B", "off A", "replaced A with B", "took over from A");
endings ("stopped using A", "no longer runs on A", "stepped down as lead of X", "sold A") fill the
slot with no value, which supersedes what held it. Multi-valued statements (likes, visits) never
get a slot here.

Subjects: first person is the user's own entity (SELF); "we", "our", "the team" are the session's
project (PROJECT, filled in by the pipeline); "it", "he", "she", "they" the entity in focus.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sessions_graph_core.reconcile import frames, senses
from sessions_graph_core.reconcile.extraction.base import ExtractedFact, normalise
from sessions_graph_core.reconcile.lexicon import (
    HOUSEHOLD,
    PERSONAL,
    RELATIONAL,
    Lexicon,
    base_attributes,
    leaning_kind,
    nearest_kind,
    singular,
)
from sessions_graph_core.reconcile.nlp import lemma
from sessions_graph_core.reconcile.tokens import (
    FIRST_PERSON,
    FIRST_PLURAL,
    WE_FORMS,
    a_name,
    a_new,
    a_time,
    a_value,
    as_well,
    bare_title,
    continuity_cue,
    direct_object,
    everyone,
    fragment,
    mistagged,
    modifies,
    name_like,
    name_read_as_verb,
    named_after,
    named_in,
    named_person,
    no_verb,
    no_word_of_the_name,
    nobody,
    one_of_a_class,
    own_clause,
    person_like,
    person_name,
    proper_name,
    the_role,
)

SELF = "me"
PROJECT = "@project"  # the session's project; the pipeline puts its name in

TEAM_WORDS = {"team", "company"}
FOCUS_PRONOUNS = {"it", "he", "she", "they", "him", "her", "them", "its", "his", "their"}
PERSON_PRONOUNS = {"he", "she", "him", "her", "his"}
# A pronoun whose referent is not in its own text: the pipeline resolves it from the session's earlier turns.
PERSON_REF = "@person"
THING_REF = "@thing"
OTHER_PRONOUNS = {"this", "that", "these", "those", "there", "which", "who", "you", "what", "something", "everything", "one"}
# The attribute of a change that names the old value but not what it was the value of: the pipeline
# finds the slot of the same subject that held that value ("we've cancelled PagerDuty").
HELD = "*"
# The attribute's prefix in the slot of a statement whose holder is a pronoun that waits for a name.
WAITING = HELD * 2
# The attribute of a change that waits only for a slot of its own holder: a person giving up the thing named
# ("Tom gave up the payments service") ends a role of that thing, never one Tom holds of another.
HELD_HERE = HELD + "@"
# Words of a thing held by its name ("a Netflix subscription"; "sub" is how chat says it).
MEMBERSHIPS = {"subscription", "membership", "account", "contract", "licence", "license", "sub"}
SUBSCRIBE_VERBS = {"pay", "subscribe", "unsubscribe", "renew"}
# Verbs of renting: what one rents is held as a subscription is ("I rent a parking space"), by its words.
RENT_VERBS = {"rent", "lease"}
# Objects that name no thing of their own but all one does: "we track work in Trello" is our tracker, as
# "we track everything in Trello" is ("we track the roadmap in Trello" is the roadmap's).
WHATEVER_WE_DO = {"work", "everything", "thing", "stuff", "all"}
# Verbs that move a thing to a new value: "switched feature flags to Unleash".
SWITCH_VERBS = {"switch", "move", "migrate", "shift", "port", "transition", "change"}
# Verbs by which one finds a new one of a thing in place of the old: "found a new physio, Dr. Kowalski".
FINDING_VERBS = {"get", "find", "hire", "pick", "choose"}
# Verbs by which a thing of ours is kept in a named tool: "we keep our passwords in Bitwarden".
KEEP_VERBS = {"keep", "store", "track", "manage"}
# Verbs of becoming: their complement is a state, as after "be".
STATE_VERBS = {"go", "turn", "become", "stay", "remain"}
# Verbs by which things are sent somewhere: "logs go to Papertrail" fills the project's "logs".
ROUTE_VERBS = {"go", "flow", "ship", "route", "live", "sit", "land", "stream", "feed", "run"}
# "another team", "some tool": no named value ("a" is no sign: "a Pixel 8", "a keto diet").
INDEFINITE = {"another", "some", "any", "other", "each", "every"}
# Modifiers that say a role was held and is no longer: "my former employer", "our previous CTO".
FORMER_WORDS = {"former", "previous", "ex"}
# Verbs whose value is a thing of some kind: the kind, or a noun beside the verb, names the attribute.
GENERIC_VERBS = {
    "use", "switch", "move", "migrate", "go", "pick", "choose", "adopt", "replace", "swap", "drop", "standardise",
    "standardize", "install", "upgrade", "downgrade", "change", "transition", "shift", "port", "opt", "settle",
    "run", "be", "rewrite", "deploy", "host", "buy", "get", "start", "begin", "select", "prefer", "eat", "become",
    "convert", "land", "roll", "bring", "bank", "track", "chat", "write", "build", "store", "keep", "pay",
    "trade", "exchange", "decide", "rebuild", "reimplement", "live", "put", "place", "stick", "revert", "ditch", "dump",
    "scrap",
}
# Nouns of a change: "we finished the move from Oracle to PostgreSQL" moves as "we moved" does.
TRANSITION_NOUNS = {"move", "migration", "switch", "transition", "switchover", "changeover", "port"}
# Verbs that end what the slot held when no new value follows.
ENDING_VERBS = {"stop", "quit", "cancel", "leave", "sell", "abandon", "ditch", "deprecate", "remove", "uninstall",
                "kill", "ax", "axe", "scrap", "dump",
                "retire", "end", "discontinue", "give", "step", "drop", "lose", "resign", "sunset", "decommission",
                "close", "shut", "terminate", "delete", "unsubscribe"}
# The particles with which some of them end ("" for none): "gave up", "gave away", "stepped down", "stepped away
# from"; "ended up using X" ends nothing.
ENDING_PARTICLES = {"give": {"up", "away"}, "step": {"down", "away"}, "end": {""}}
# Verbs by which one thing is given up for another: "we ditched LastPass for Bitwarden" is a change of value,
# not an ending (nor "swapped A for B", "traded A for B").
TRADE_VERBS = {"replace", "swap", "drop", "ditch", "dump", "scrap", "trade", "exchange"}
# Verbs that end what they are said of only with their particle: "we turned off X" ends X as "we shut X" does
# ("we turned to X", "we switched to X" end nothing).
PHRASAL_ENDINGS = {("turn", "off"), ("switch", "off"), ("wind", "down"), ("phase", "out")}
# Verbs with a particle by which one comes to a choice: "we ended up picking Vercel", "we wound up using X".
ARRIVALS = {("end", "up"), ("wind", "up")}
# Verbs by which a thing held for a time ends by itself ("my gym membership expired", "I let the Datadog
# contract lapse", "the subscription ran out"), with the particle each needs.
LAPSE_VERBS = {"expire": "", "lapse": "", "run": "out", "end": ""}
# Verbs by which someone takes a role ("Carol is taking over ownership of X from Alice").
TAKE_VERBS = {"take", "inherit", "assume", "succeed"}
HAND_VERBS = {"hand", "transfer", "pass", "give", "reassign", "move"}
DECIDERS = {"we", "i", "team", "let", "us"}
# Verbs by which a thing is sent through a service: "we send email through Mailgun" fills the project's email.
SEND_VERBS = {"send", "ship", "route", "push", "stream", "forward", "pipe", "deliver", "process", "handle", "accept", "collect"}
SEND_PREPOSITIONS = ("through", "via", "to", "with", "into")
HABIT_VERBS = {"drink", "smoke", "play", "practice", "practise", "eat"}
SOURCE_VERBS = {"get", "buy", "order", "take", "receive", "borrow", "rent", "bring", "keep", "store"}
SERVE_VERBS = {"run", "power", "handle", "process", "orchestrate", "host", "serve", "store", "schedule", "track",
               "monitor", "back", "drive", "build", "deploy"}
# Verbs by which a named provider serves a thing of ours: "Octopus supplies our electricity".
PROVIDE_VERBS = {"supply", "provide", "do", "manage", "insure", "cover"}
RESCHEDULE_VERBS = {"move", "push", "shift", "reschedule", "change", "bring", "switch"}
# Attributes the frame fallback leaves to the rules: the holder and value of a role are the other way
# round ("Dana owns X"), a schedule wants a time, and a name, a number or an address their own form.
FRAMED_BY_RULES = {"owner", "lead", "maintainer", "schedule", "name", "phone number", "email"}
CHOICE_VERBS = {"use", "switch", "adopt", "choose", "pick", "migrate", "move", "standardise", "standardize", "go",
                "replace", "swap", "drop", "rewrite", "deploy", "host", "write", "select", "opt", "settle", "decide",
                "stick", "revert"}  # "we're sticking with Postgres", "we reverted to Jenkins": a choice kept or taken back
ASPECT_VERBS = {"start", "begin", "continue", "keep", "finish", "complete", "try"}
# Verbs that take a decision back ("we scrapped the plan to use Kafka", "we walked back the move to Kafka").
REVERSING_VERBS = {"scrap", "reverse", "undo", "abandon", "drop", "cancel", "ditch", "shelve", "overturn", "kill"}
REVERSING_PARTICLES = {"walk": "back", "roll": "back", "call": "off", "back": "out"}
# Adverbs by which a clause adds a value to those held rather than changing one ("we also use Grafana").
ADDING_ADVERBS = {"also", "too", "additionally"}
# Words by which a value points back at what a slot holds ("the same car", "our usual CI").
REFERRING_WORDS = {"same", "usual", "existing", "current"}
# What a decision is called when a sentence says what it is ("the plan is to use X", "the decision on CI is X"):
# no holder of a slot of its own (extraction/spacy._with_choice reads such a sentence as the choice it says).
DECISION_NOUNS = {"plan", "decision", "choice", "pick", "call", "verdict", "consensus", "conclusion"}
INTENT_VERBS = {"decide", "agree", "plan", "want", "choose", "opt", "need", "vote", "elect", "go"}  # "go": "going to use"
RATIONALE_MARKERS = {"because", "since", "as", "so"}
GROUP_NOUNS = {"team", "department", "group", "squad", "club", "org", "organisation", "organization", "committee",
               "division", "unit", "chapter", "guild", "band", "crew", "office", "company"}
# Verbs by which "the N I <verb>" is mine: "the phone I use", "the dentist we go to", "the car I drive".
USING_VERBS = {"use", "have", "own", "drive", "ride", "go", "see", "pay", "bank", "rely", "be"}
# Every verb a rule of this module reads by name: WordNet judges endings only among the others.
LISTED_VERBS = (GENERIC_VERBS | ENDING_VERBS | TRADE_VERBS | set(LAPSE_VERBS) | TAKE_VERBS | HAND_VERBS | SEND_VERBS
                | HABIT_VERBS | SOURCE_VERBS | SERVE_VERBS | PROVIDE_VERBS | RESCHEDULE_VERBS | CHOICE_VERBS | ASPECT_VERBS
                | REVERSING_VERBS | INTENT_VERBS | USING_VERBS | SUBSCRIBE_VERBS | RENT_VERBS | SWITCH_VERBS
                | FINDING_VERBS | KEEP_VERBS | STATE_VERBS | ROUTE_VERBS | {"be", "have", "do"})
# Names that are not entities: paths, URLs, code, JSON.
_JUNK = re.compile(r"[/\\{}\[\]<>=`|$;()\"]|://|^www\.|\.(py|js|ts|json|md|txt|ya?ml|toml|sh|rs|go|java|c|h|cpp|html|css)$")


def junk_name(name: str | None) -> bool:
    """Whether a subject or object is a path, a URL, JSON or code, a bare pronoun, or nothing."""
    text = (name or "").strip()
    low = normalise(text)
    return (
        not low
        or "\n" in text
        or bool(_JUNK.search(low))
        or low in FOCUS_PRONOUNS | OTHER_PRONOUNS
        or low.startswith("'")
        or not any(ch.isalnum() for ch in low)
    )


# -- reading clauses ---------------------------------------------------------------------------


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


@dataclass
class Clause:
    """One clause's parts as Reader._claims's steps read them; a step may read them anew for the steps after
    it ("got rid of X" as "dropped X")."""

    verb: Any
    subject: Any | None
    lemma: str
    particle: str  # "" for none
    ends: bool  # the verb, with its particle, ends what it is said of
    preps: dict[str, Any]
    dobj: Any | None
    attr: Any | None
    acomp: Any | None
    passive: bool
    negated: bool
    who: str | None
    decider: bool  # said by us ("we", "I", "the team"), whose choices are decisions

    @property
    def key(self) -> str:
        """The verb as attributes.toml lists it, with its particle ("take over")."""
        return " ".join(part for part in (self.lemma, self.particle) if part)

    @property
    def target(self) -> Any | None:
        """What is had, paid for or subscribed to: the object, or the name after the verb's preposition."""
        return self.dobj if self.dobj is not None else self.preps.get({"pay": "for", "unsubscribe": "from"}.get(self.lemma, "to"))


@dataclass
class Copula:
    """What a copula's steps read (Reader._copula): "<subject> is <value>", the value the complement or the
    first preposition's object."""

    subject: Any
    who: str | None
    complement: Any | None
    preps: dict[str, Any]
    negated: bool
    held: tuple[str, str | None] | None  # the attribute the subject names, and whose
    value: Any | None


@dataclass
class Reader:
    """Reads one text's clauses; keeps the entity in focus for the pronouns that follow."""

    lex: Lexicon
    lemma: Callable[[Any], str]
    focus: dict[str, str] = field(default_factory=dict)
    # The last clause's ending, for a clause coordinated with it ("cancelled Spotify and switched to X").
    ended: tuple[int, Claim] | None = None

    # names

    def name(self, token: Any) -> str | None:
        """What a subject/value token names: SELF, PROJECT, the entity in focus, or its phrase."""
        low = token.lower_
        if low in FIRST_PERSON:
            return SELF
        if low in FIRST_PLURAL or everyone(token):
            return PROJECT
        if low in FOCUS_PRONOUNS:
            return self.referent(token)
        if token.pos_ == "PRON" or low in OTHER_PRONOUNS:
            return None
        named = next((t for t in token.children if t.dep_ == "appos" and person_like(t)), None)
        if token.pos_ == "NOUN" and named is not None and self.attribute_of(token) is None:
            return self.name(named)  # "my sister, Ana": the person is the one named
        if token.pos_ == "PROPN" and token.ent_type_ == "PERSON":
            return person_name(token)  # "Dana's brother Luis" is Luis
        words = self.words(token)
        ours = not any(t.dep_ == "det" and t.lower_ not in {"the", "this"} for t in token.children)  # not "another team"
        owner = self.possessor(token)
        # "the team", "my team", "our company" are us; "my sister's team", "Dana's team" are not
        if len(words) == 1 and words[0] in TEAM_WORDS and ((ours and owner in (None, SELF)) or owner == PROJECT):
            return PROJECT
        text = " ".join(words)
        if owner == SELF and token.pos_ == "NOUN":
            return f"my {text}"
        if owner and owner not in (SELF, PROJECT) and token.pos_ == "NOUN":
            return f"{owner}'s {text}"
        return self.phrase(token)

    def referent(self, token: Any) -> str | None:
        """Who "he"/"she" or what "it"/"they" is: the last person named before it in this text, or the
        last thing a clause was about; failing that, what the session said before (the pipeline fills
        PERSON_REF/THING_REF in from earlier turns)."""
        if token.lower_ in PERSON_PRONOUNS:
            named = [t for t in token.doc[: token.i] if person_like(t)]
            return self.name(named[-1]) if named else self.focus.get("person", PERSON_REF)
        if token.dep_ == "poss":  # "the inventory service uses MySQL as its database": its subject's
            subject = next((t for t in token.sent if t.dep_ in {"nsubj", "nsubjpass"} and t.i < token.i
                            and t.pos_ in {"NOUN", "PROPN"}), None)
            return self.name(subject) if subject is not None else self.focus.get("thing")
        if self.focus.get("thing"):
            return self.focus["thing"]
        earlier = [t for t in token.doc[: token.sent.start] if t.dep_ in {"nsubj", "dobj", "pobj", "nsubjpass"}
                   and t.pos_ in {"NOUN", "PROPN"} and t.ent_type_ not in {"PERSON", "DATE", "TIME"}]
        return self.phrase(earlier[-1]) if earlier else THING_REF

    def phrase(self, token: Any) -> str:
        """The noun phrase a token heads, without determiners, time words or clauses."""
        left = token.i
        for child in token.lefts:
            if modifies(child, token) and not no_word_of_the_name(child):
                left = min(left, child.left_edge.i)
        # A name keeps the name it is of ("Gold's Gym"); a noun's possessor is not its words ("the support team's").
        named = token.pos_ == "PROPN"
        owned = set() if named else {w.i for c in token.children if c.dep_ == "poss" for w in c.subtree}
        before = token.doc[token.i - 1] if token.i > 0 else None
        if token.dep_ == "dobj" and before is not None and before.dep_ == "dobj" and before.head == token.head:
            left = min(left, before.left_edge.i)  # "task/dobj tracking/dobj": one object, see direct_object
        right = token.i
        for child in token.rights:
            if child.dep_ in {"compound", "nummod", "appos"} and child.i == right + 1:
                right = child.i
        doc = token.doc
        if token.pos_ in {"NUM", "X"} or any(t.text == "-" and t.i > token.i for t in token.subtree):
            right = max(right, token.right_edge.i)  # "555-0199", "multi-region"
        while token.pos_ == "NUM" and right + 1 < len(doc) and not doc[right].whitespace_ and doc[right + 1].text not in ".,;:!?":
            right += 1  # "555-0100" split by the parser into two phrases: one value, written without spaces
        if named:
            left = min([left] + [c.left_edge.i for c in token.lefts if c.dep_ == "poss" and c.pos_ == "PROPN"])
        tokens = [t for t in doc[left : right + 1] if t.pos_ not in {"DET", "PRON"} and t.i not in owned
                  and (t.dep_ != "poss" or t.i == token.i or (named and t.pos_ == "PROPN"))
                  and not no_word_of_the_name(t) and (t.dep_ != "case" or named)]
        # Spaced as said: "on-call rotation", not "on - call rotation".
        text = "".join(t.text + (t.whitespace_ if n + 1 < len(tokens) and tokens[n + 1].i == t.i + 1 else " ")
                       for n, t in enumerate(tokens))
        return " ".join(text.split()).strip(" ,.'") or token.text

    def words(self, token: Any) -> list[str]:
        return [w.lower() for w in self.phrase(token).split()]

    def possessor(self, token: Any) -> str | None:
        # "my" may hang on a word of the phrase that the parser made the subject of its head ("my team lead is").
        owners = [token, *(t for t in token.lefts if t.dep_ == "nsubj" and modifies(t, token))]
        for child in (c for t in owners for c in t.children):
            if child.dep_ == "poss" and child.lower_ in TEAM_WORDS and self.name(child) == PROJECT:
                return PROJECT  # "the team's roadmap" is ours
            if child.dep_ == "poss":
                if child.lower_ in FIRST_PERSON:
                    return SELF
                if child.lower_ in FIRST_PLURAL:
                    return PROJECT
                if child.lower_ in FOCUS_PRONOUNS:
                    return self.referent(child)
                return self.phrase(child)
        # "the phone I use now", "the bank we're with", "the phone my sister uses": what someone uses, has or
        # goes to is theirs.
        for clause in (c for c in token.children if c.dep_ == "relcl" and self.lemma(c) in USING_VERBS):
            doer = next((t for t in clause.children if t.dep_ in {"nsubj", "nsubjpass"}), None)
            if doer is not None and (doer.lower_ in FIRST_PERSON | FIRST_PLURAL or doer.pos_ in {"NOUN", "PROPN"}):
                return self.name(doer)
        return None

    def someone_else(self, subject: Any) -> bool:
        """Whether a clause's subject is a person or a group other than the speaker and us ("Tom", "my
        brother", "the design team"), who holds things of their own."""
        if self.name(subject) in (SELF, PROJECT, None) or subject.pos_ == "PRON":
            return False
        return subject.ent_type_ == "PERSON" or person_like(subject) or senses.people(self.lemma(subject)) in {"person", "group"}

    def our_group(self, token: Any) -> bool:
        """"the company", "the whole team": the group the speaker is in, said with no one's name before it."""
        plain = all(t.lower_ in {"the", "this"} for t in token.children if t.dep_ == "det")
        return self.words(token) in ([w] for w in TEAM_WORDS) and plain and self.possessor(token) is None

    def place_in(self, token: Any) -> Any | None:
        """The place a thing said to be somewhere is in ("a flat in San Jose", "a little flat in Leeds")."""
        return next((o for c in token.children if c.dep_ == "prep" and c.lower_ in {"in", "at"}
                     for o in c.children if o.dep_ == "pobj" and self.kind(o) == "location"), None)

    def role_said(self, complement: Any | None, preps: dict[str, Any]) -> tuple[str, Any] | None:
        """(the role, what it is held of) for a copula whose words are a role's listed phrase with "be"
        ("be in charge of", "be responsible for" in attributes.toml's inverse verbs): "Tom is in charge of
        the billing service", "Ana is responsible for the wiki"."""
        word = complement if complement is not None else preps.get("in")
        if word is None or complement is None and word is not preps.get("in"):
            return None
        for child in word.children:
            target = next((t for t in child.children if t.dep_ == "pobj"), None) if child.dep_ == "prep" else None
            said = " ".join(["be", *([] if complement is not None else ["in"]), word.lower_, child.lower_])
            if target is not None and self.lex.inverse_verbs.get(said):
                return self.lex.inverse_verbs[said], target
        return None

    def of_object(self, token: Any) -> Any | None:
        for child in token.children:
            if child.dep_ == "prep" and child.lower_ in {"of", "for"}:
                return next((t for t in child.children if t.dep_ == "pobj"), None)
        return None

    def attribute_of(self, token: Any) -> tuple[str, str | None] | None:
        """(attribute, slot subject) when the noun phrase names an attribute: "the orders service database",
        "my manager", "ownership of the orders service", "our CI"; the subject may be None (not said)."""
        nominal = token is not None and (token.pos_ in {"NOUN", "PROPN"} or token.dep_ in {"pobj", "dobj", "nsubj", "nsubjpass"})
        if not nominal:
            return None
        found = self.lex.noun(self.words(token))
        if not found or (token.pos_ == "PROPN" and normalise(self.phrase(token)) in self.lex.values):
            return None  # "Google Analytics" is a value of analytics, not the analytics of Google
        if self.our_group(token):
            return None  # "the (whole) company is on Teams": the company is us, not whom we work for
        attribute, rest = found
        holder = self.of_object(token)
        if rest and holder is not None and attribute in RELATIONAL:
            return " ".join(self.words(token)), self.name(holder)  # the whole role: "product manager" of X
        if rest and attribute in RELATIONAL and self.lex.values.get(normalise(" ".join(self.words(token)))) == "occupation":
            # "our product manager" is a role of ours (a job title), not the manager of a product
            return " ".join(self.words(token)), self.possessor(token)
        if rest and self.possessor(token) == SELF and not any(t.pos_ == "PROPN" for t in token.lefts):
            # "my work laptop": a laptop of mine, not of "work"; "my home city" is my home
            same = (self.lex.noun(rest) or ("", []))[0] == attribute
            return (attribute if same else f"{' '.join(rest)} {attribute}"), SELF
        if rest and set(rest) <= TEAM_WORDS and self.possessor(token) in (PROJECT, None) and attribute not in HOUSEHOLD:
            # "our team wiki", "the team wiki": ours, as "the team" is ("our company bank" is no household's)
            return attribute, PROJECT
        if rest:
            return attribute, " ".join(rest)
        if holder is not None:
            return attribute, self.name(holder)
        return attribute, self.possessor(token)

    def kind(self, token: Any | None, guess: bool = True) -> str | None:
        """The attribute a value is a value of: listed, by its entity label, or (`guess`) nearest by the embedder."""
        if token is None:
            return None
        text = self.phrase(token)
        listed = self.lex.values.get(normalise(text)) or self.lex.values.get(token.lower_) or self.lex.model(text)
        if listed:
            return listed
        head_noun = self.lex.noun(self.words(token))
        if head_noun:  # "a keto diet" is a diet
            return head_noun[0]
        if token.ent_type_ in self.lex.ner and token.ent_type_ not in {"ORG"}:
            return self.lex.ner[token.ent_type_]
        indefinite = any(t.dep_ == "det" and t.lower_ in INDEFINITE for t in token.children)  # "another team"
        if guess and (token.pos_ in {"PROPN", "NOUN", "ADJ"} or no_verb(token)) and token.ent_type_ not in {"PERSON", "DATE", "TIME", "CARDINAL"} and not indefinite:
            # What the word means first ("utrecht" is a city, "a jeep" a car), then what it is near;
            # a job is said of a person, and only as "is a <job>" (see occupation).
            meant = senses.kind(text, self.lex.kinds.items())
            return meant if meant and meant != "occupation" else nearest_kind(text)
        return None

    # clauses

    def claims(self, verb: Any, subject: Any | None) -> list[Claim]:
        """The slotted claims of one clause (a verb and its subject, inherited when coordinated)."""
        # "We moved to Denver" is the household's move; "the team" or "everyone relocated to Munich" is not mine.
        team = subject is not None and subject.lower_ not in FIRST_PLURAL and (
            self.lemma(subject) in TEAM_WORDS | GROUP_NOUNS or everyone(subject))
        if self.lemma(verb) == "be" and subject is not None and self.lemma(subject) in DECISION_NOUNS and (
                not self.attribute_of(subject) or any(t.dep_ == "xcomp" for t in verb.children)):
            # "the decision on CI is Buildkite", "the plan is to use Vue" hold nothing of "decision" or "plan":
            # such a sentence is read as the choice it says (extraction/spacy._with_choice); "my phone plan is X" stays
            return []
        said = self._claims(verb, subject) or self.framed(verb, subject) or self.no_longer(verb, subject)
        if not said:
            self.talked_about(verb, subject)
        if subject is not None and nobody(subject):  # "nobody lives in Leeds" is no home of ours that ended
            said = [claim for claim in said if claim.attribute not in HOUSEHOLD | PERSONAL]
        if subject is not None and any(c.attribute == HELD for c in said) and self.someone_else(subject):
            # "the design team stopped using Jira", "my brother sold his Civic": what they ended waits for a slot
            # of their own, never the one thing of ours (or anyone's) that held the same name
            said = [Claim(c.subject, HELD_HERE, c.value, c.old, c.decision) if c.attribute == HELD else c for c in said]
        found = [claim if team else _household(claim) for claim in said]
        for claim in found:
            if claim.subject and claim.subject != PROJECT:
                self.focus["thing"] = claim.subject
        if self.continues(verb):  # a clause that says nothing changed ends nothing, and changes nothing
            found = [replace(c, kept=True) for c in found if c.value]
        if self.adds(verb):  # "we also started using Grafana": one more of a kind beside the one held
            found = [c for c in found if c.value is None]
        self.ended = next(((verb.i, c) for c in found if c.value is None and c.old), None)
        return [c for c in found if c.subject and not junk_name(c.subject) and (c.value is None or not junk_name(c.value))
                and not self.refers_back(verb, c)]

    def continues(self, verb: Any) -> bool:
        """Whether the clause says its value is as it was: by a verb of remaining ("stays", "remains",
        "continues"), by "still", "again", "as before", "same as ever", by a change or an ending it denies
        ("I haven't left Stripe", "we never moved off CircleCI") or beside one ("deploys haven't changed,
        it's all GitHub Actions"); not when it also says "now" ("still renting, but in Lisbon now"), nor of a
        change it makes ("I moved again, this time to Braga")."""
        changes = SWITCH_VERBS | ENDING_VERBS | TRADE_VERBS | FINDING_VERBS
        if any(t.lower_ == "now" for t in verb.children) or (self.lemma(verb) in changes and not self.negated(verb)):
            return False
        denied = [t for t in (verb, *verb.children) if (t is verb or t.dep_ in {"ccomp", "parataxis"})
                  and self.lemma(t) in SWITCH_VERBS | ENDING_VERBS and self.negated(t)]
        return senses.continuing(self.lemma(verb)) or bool(denied) or any(continuity_cue(t) for t in verb.children)

    def adds(self, verb: Any) -> bool:
        """Whether the clause says one more value beside what is held ("we also use Grafana", "I drive a
        Fiat too", "we use Loom as well"); not of a change it makes ("we also moved the docs to Mintlify")."""
        if self.lemma(verb) in SWITCH_VERBS | TRADE_VERBS:
            return False
        return any(t.dep_ == "advmod" and (t.lower_ in ADDING_ADVERBS or as_well(t)) for t in verb.children)

    def refers_back(self, verb: Any, claim: Claim) -> bool:
        """"I still drive the same car", "we still use our usual CI": a value that only points back at what the
        slot holds names no value, so it is no change (a restatement with nothing to compare)."""
        if not claim.value:
            return False
        head = normalise(claim.value).split()[-1]
        return any(t.lower_ in REFERRING_WORDS and t.dep_ == "amod" and t.head.lower_ == head for t in verb.subtree)

    def let_go(self, verb: Any, lemma: str) -> Any | None:
        """The thing a verb and its bare-infinitive complement end together, as WordNet's phrasal verb says
        ("let The Economist go": let_go); None for any other clause."""
        done = next((t for t in verb.children if t.dep_ in {"ccomp", "xcomp"} and t.pos_ == "VERB"), None)
        if done is None or lemma in LISTED_VERBS or direct_object(done) is not None or not senses.ends(f"{lemma}_{self.lemma(done)}"):
            return None
        return next((t for t in [*done.children, *verb.children] if t.dep_ in {"nsubj", "dobj"}), None)

    def no_longer(self, verb: Any, subject: Any | None) -> list[Claim]:
        """A name the speaker says they no longer do anything with ("I don't watch Netflix anymore", "we
        no longer bother with Zapier"), whatever the verb: it ends whatever slot of theirs held that name (only a
        value the user holds: facts._resolved), the verb unread."""
        if subject is None or not self.stopped(verb):
            return []
        who = self.name(subject)
        named = next((t for t in own_clause(verb) if t.i > verb.i and t.dep_ in {"dobj", "pobj"} and a_name(t)), None)
        return [Claim(who, HELD, None, self.name(named))] if who and named is not None else []

    def stopped(self, verb: Any) -> bool:
        """A negated clause that says it stopped: "not ... anymore", "not ... any more", "no longer"."""
        again = any(t.lower_ == "anymore" or (t.lower_ == "more" and any(c.lower_ == "any" for c in t.children))
                    for t in verb.children)
        longer = any(t.lower_ == "longer" and any(c.lower_ == "no" for c in t.children) for t in verb.children)
        return longer or (again and self.negated(verb))

    def reversed_choice(self, verb: Any, lemma: str, dobj: Any | None) -> str | None:
        """The name a decision taken back had chosen: the plan or decision to use it, the plan named by it, the
        move to it ("scrapped the plan to use Kafka", "reversed the Terraform decision", "walked back the move to
        Kafka"); None for any other clause."""
        particles = {t.lower_ for t in verb.children if t.dep_ in {"prt", "advmod"}}  # "walked back/advmod"
        if dobj is None or self.lemma(dobj) not in DECISION_NOUNS | TRANSITION_NOUNS or not (
                lemma in REVERSING_VERBS or REVERSING_PARTICLES.get(lemma) in particles):
            return None
        chosen = [t for c in dobj.children if c.dep_ in {"acl", "relcl"} and c.pos_ == "VERB" for t in c.subtree]
        # "the move to Kafka", its "to" hung on the noun or on the verb ("undid the switch to/verb Kafka")
        chosen += [t for c in [*dobj.children, *verb.children] if c.dep_ == "prep" and c.lower_ in {"to", "on", "for"}
                   for t in c.subtree]
        chosen += [t for t in dobj.children if t.dep_ == "compound"]
        name = next((t for t in chosen if proper_name(t) and t.pos_ == "PROPN"), None)
        return self.name(name) if name is not None else None

    def talked_about(self, verb: Any, subject: Any | None) -> None:
        """A clause of ours about a thing that fills no slot ("we changed our minds on the mobile app",
        "we went back and forth about the queue") makes that thing what a later "it" is: "...: it'll be
        React Native" is the mobile app's."""
        if subject is None or self.lemma(subject) not in DECIDERS:
            return
        thing = next((t for c in verb.children if c.dep_ == "prep" and c.lower_ in {"on", "about"}
                      for t in c.children if t.dep_ == "pobj" and t.pos_ in {"NOUN", "PROPN"}
                      and t.ent_type_ not in {"PERSON", "DATE", "TIME"}), None)
        if thing is not None:
            self.focus["thing"] = self.name(thing)

    def _claims(self, verb: Any, subject: Any | None) -> list[Claim]:
        """The claims of one clause: what the first of these steps that reads it says (None: not this step's)."""
        clause = self.clause(verb, subject)
        for step in (
            self.let_go_of, self.inner_verb, self.taken_back, self.copula_said,
            self.subscribed, self.rented, self.possessed, self.new_one_named, self.became,
            self.took_over, self.replaced_as, self.passed_to, self.handed_to,
            self.rid_of, self.handed_off, self.done_with, self.lapsed_by_itself, self.let_lapse, self.ended_named,
            self.serving, self.verb_stated, self.inverse_stated, self.served_by, self.served_by_agent, self.seen_as,
            self.held_when, self.rescheduled, self.called,
            self.transition_noun, self.habit, self.sent_through, self.generic_verb,
        ):
            found = step(clause)
            if found is not None:
                return found
        return []

    def clause(self, verb: Any, subject: Any | None) -> Clause:
        """The clause's parts, its subject set right where the parser turned it round."""
        lemma, particle = self.phrasal(verb)
        ends = ending_verb(lemma) and particle in ENDING_PARTICLES.get(lemma, {particle})
        preps = self.preps(verb)
        dobj = direct_object(verb)
        if particle == "off" and lemma in SWITCH_VERBS and dobj is not None and "off" not in preps:
            preps["off"], dobj = dobj, None  # "we moved off/prt Heroku": what the particle's object was is left
        attr = next((t for t in verb.children if t.dep_ in {"attr", "oprd"}), None) or mistagged(verb)
        acomp = next((t for t in verb.children if t.dep_ == "acomp"), None)
        passive = any(t.dep_ in {"nsubjpass", "auxpass"} for t in verb.children)
        subject, attr = self.named_first(verb, lemma, subject, attr, acomp)
        who = self.doer(subject)
        negated = self.negated(verb) or (subject is not None and nobody(subject))  # "nobody uses Trello anymore"
        decider = subject is not None and (subject.lower_ in DECIDERS or self.lemma(subject) in DECIDERS or who == PROJECT)
        return Clause(verb, subject, lemma, particle, ends, preps, dobj, attr, acomp, passive, negated, who, decider)

    def phrasal(self, verb: Any) -> tuple[str, str]:
        """The verb's lemma and its particle ("" for none); a phrasal verb that ends a thing is "end"."""
        lemma = self.lemma(verb)
        particle = next((t.lower_ for t in verb.children if t.dep_ in {"prt"} or (t.dep_ == "advmod" and t.lower_ in {"down", "up", "over", "away", "off"})), "")
        if (lemma, particle) in PHRASAL_ENDINGS:  # "we turned off Sentry" ends it as "we shut Sentry" does
            return "end", ""
        if particle and lemma not in LISTED_VERBS and senses.ends(f"{lemma}_{particle}"):
            return "end", ""  # "we closed out the Box account", "Tom bowed out": WordNet's phrasal verb ends
        return lemma, particle

    def named_first(self, verb: Any, lemma: str, subject: Any | None, attr: Any | None,
                    acomp: Any | None) -> tuple[Any | None, Any | None]:
        """The subject and complement of a copula whose subject the parser took for a modifier."""
        named_first = next((t for t in verb.lefts if t.dep_ in {"advmod", "npadvmod", "dep"} and t.is_title
                            and not t.is_stop and t.i == verb.sent.start), None)
        if lemma == "be" and attr is None and acomp is None and subject is not None and subject.i > verb.i and named_first is not None:
            return named_first, subject  # "Raj/ADV is our product manager/nsubj": Raj is the subject
        return subject, attr

    def doer(self, subject: Any | None) -> str | None:
        """Who a clause is said of: its subject's name, with these exceptions."""
        if subject is None:
            return None
        if any(t.dep_ == "conj" and t.lower_ in FIRST_PERSON for t in subject.children):
            return SELF  # "my partner and I live in Leeds": what I say of us both, I say of me
        if nobody(subject):
            return PROJECT  # "nobody uses Trello anymore": we no longer use it
        if subject.lower_ == "everything":
            return PROJECT  # "everything runs on Azure now": all we run, as "we run everything on Azure" says
        return self.name(subject)

    def let_go_of(self, c: Clause) -> list[Claim] | None:
        let_go = self.let_go(c.verb, c.lemma)
        if let_go is not None and c.subject is not None and a_name(let_go):  # "I've let The Economist go"
            return [Claim(self.name(c.subject), HELD, None, self.name(let_go))]  # what held it ends, by no kind guessed
        return None

    def inner_verb(self, c: Clause) -> list[Claim] | None:
        """"stop using A", "decided to host A": the inner verb says what, the outer one whether."""
        inner = next((t for t in c.verb.children if t.dep_ == "xcomp" and t.pos_ in {"VERB", "AUX"}), None)
        arrived = (c.lemma, c.particle) in ARRIVALS
        ends = c.ends or self.used_to(c.verb, c.lemma, inner)
        if inner is None or not (ends or arrived or c.lemma in INTENT_VERBS | ASPECT_VERBS):
            return None
        found = self._claims(inner, c.subject)
        if ends:
            return self.stopped_doing(c.who, inner, found)
        return [Claim(claim.subject, claim.attribute, claim.value, claim.old,
                      decision=claim.decision or c.lemma in INTENT_VERBS or arrived) for claim in found]

    def used_to(self, verb: Any, lemma: str, inner: Any | None) -> bool:
        """"I used to work at Acme", "we used to be on Heroku": what was so then is so no longer, an ending
        of what the inner verb says as "stopped" is ("we used Zapier to glue forms" is a use, for a purpose)."""
        return (lemma == "use" and verb.tag_ == "VBD" and inner is not None and direct_object(verb) is None
                and any(t.dep_ == "aux" and t.lower_ == "to" for t in inner.children))

    def stopped_doing(self, who: str | None, inner: Any, found: list[Claim]) -> list[Claim]:
        """"stopped using Papertrail", "I've stopped going to PureGym": whatever held it (the first
        preposition's name only: "quit going to yoga with Dana" ends no Dana)."""
        ended = direct_object(inner)
        place = next(iter(self.preps(inner).values()), None) if ended is None else None
        ended = place if place is not None and a_name(place) else ended
        if not found and ended is not None and who:
            return [Claim(who, HELD, None, self.name(ended))]
        claims = [Claim(c.subject, c.attribute, None, c.value or c.old, decision=c.decision) for c in found]
        # A subscription stopped also ends whatever else held it ("stopped paying for Figma"), and
        # so does a name stopped ("we use Stripe for billing" ... "we stopped using Stripe").
        named = {normalise(self.phrase(t)) for t in inner.subtree if t.pos_ == "PROPN"}
        return claims + [Claim(c.subject, HELD, None, c.old) for c in claims
                         if c.old and (c.attribute.rpartition(" ")[2] in MEMBERSHIPS or normalise(c.old) in named)
                         and c.attribute != HELD]

    def taken_back(self, c: Clause) -> list[Claim] | None:
        reversed_choice = self.reversed_choice(c.verb, c.lemma, c.dobj)
        if reversed_choice is not None and c.who and c.decider:
            # "we scrapped the plan to use Kafka", "we reversed the Terraform decision", "we abandoned the move
            # to Kafka": the choice taken back ends whatever slot held it
            return [Claim(c.who, HELD, None, reversed_choice, decision=True)]
        return None

    def copula_said(self, c: Clause) -> list[Claim] | None:
        verb, subject, who, preps, negated = c.verb, c.subject, c.who, c.preps, c.negated
        # A name ending in "-ing" after "is" is read as a progressive ("my bank is Starling/VBG now"): the name
        # is what the subject is.
        if c.attr is None and c.acomp is None and name_read_as_verb(verb) and any(
                t.dep_ == "aux" and self.lemma(t) == "be" for t in verb.children):
            return self.copula(subject, who, verb, preps, negated)
        # A name typed in lower case after "are" that the tagger took for a passive ("my running shoes are
        # hokas/VBN now"): no verb WordNet knows, so the name is what the subject is.
        if c.passive and verb.tag_ == "VBN" and no_verb(verb) and c.dobj is None and not preps:
            return self.copula(subject, who, verb, preps, negated)
        # Copulas: "my manager is Priya", "James is our new CTO", "I'm vegetarian", "X is on PostgreSQL".
        if c.lemma in {"be", "become", "remain", "stay"} and (c.attr is not None or c.acomp is not None or preps):
            return self.copula(subject, who, c.attr or c.acomp, preps, negated)
        return None

    def subscribed(self, c: Clause) -> list[Claim] | None:
        """Subscriptions and memberships, one slot per thing subscribed to: "I have a Netflix subscription",
        "we pay for Zoom", "I'm subscribed to Substack"; negated, they end."""
        negated = c.negated or c.lemma == "unsubscribe"
        subscribed = self.subscription(c.target, plain=c.lemma in SUBSCRIBE_VERBS)
        if subscribed and c.who and (c.lemma in SUBSCRIBE_VERBS or c.lemma in {"have", "get", "buy", "start", "keep", "renew"}):
            attribute, name = subscribed
            if negated:  # also whatever else held it: "we use Figma for design" ... "we stopped paying for Figma"
                return [Claim(c.who, attribute, None, name), Claim(c.who, HELD, None, name)]
            return [Claim(c.who, attribute, name)]
        return None

    def rented(self, c: Clause) -> list[Claim] | None:
        if c.lemma in RENT_VERBS and c.dobj is not None and c.dobj.pos_ == "NOUN" and c.who and c.verb.tag_ != "VBD":
            # "I rent a parking space", "we're renting a storage unit": which "I gave up the parking space" ends
            thing = " ".join(self.words(c.dobj))
            return [Claim.said(c.who, f"{normalise(thing)} rental", thing, c.negated)]
        return None

    def possessed(self, c: Clause) -> list[Claim] | None:
        """"I'm paying for the Pro plan now", "I have a Pixel 9": a value of a known kind is what that
        attribute holds (only a listed kind for paying)."""
        # Only a name is guessed a kind by the embedder: "a cat" is no terminal ("kitty"), "a Pixel 9" is a phone.
        target = c.target
        named_target = target is not None and target.pos_ == "PROPN"
        possessed = self.kind(target, guess=c.lemma == "have" and named_target) if c.lemma in {"pay", "subscribe", "have"} else None
        if possessed and possessed not in RELATIONAL | {"schedule"} and c.who and not {"with", "in"} & set(c.preps):
            value = self.name(target)
            return [Claim.said(c.who, possessed, value, c.negated)]
        return None

    def new_one_named(self, c: Clause) -> list[Claim] | None:
        """"We have a new landlord, Mrs. Gomez", "I got a new manager: Ines"; any verb that names a role and
        the one in it: "I started seeing a new therapist, Dr. Lin"."""
        named, apposed = self.role_named(c)
        # "I took a job as a UX writer": the job named by what it is, by the same test as "I'm a nurse"
        # (and where, when it says: "a job at Globex as a nurse").
        job = self.job_as(c.subject, c.who, c.preps) if named and named[0] == "employer" and not c.negated else None
        if job is not None:
            return [job, *([Claim(c.who, "employer", self.name(apposed))] if apposed is not None else [])]
        if apposed is not None and c.who and named and not c.negated:
            # "the practice gave me a new GP, Dr. Lund": the one given to is who has it
            given = next((self.name(t) for t in c.verb.children if t.dep_ == "dative"), None)
            return [Claim(named[1] or given or c.who, named[0], self.name(apposed))]
        return None

    def role_named(self, c: Clause) -> tuple[tuple[str, str | None] | None, Any | None]:
        """(the role, its holder) the clause's object names, and the name of the one in it."""
        # "I've started going to a new dentist, Dr. Kim": the name after the comma hangs on the outer verb.
        role_noun = c.dobj if c.dobj is not None else c.preps.get("to")
        # (an ending verb said without its particle ends nothing: "the practice gave me a new GP, Dr. Lund")
        named = self.attribute_of(role_noun) if not c.ends and role_noun is not None else None
        apposed = next((t for t in role_noun.children if t.dep_ in {"appos", "npadvmod"} and t.pos_ in {"PROPN", "NUM"}),
                       None) if named else None
        apposed = apposed if apposed is not None or not named else named_after(role_noun)
        if named is None and apposed is None and c.lemma in FINDING_VERBS and a_new(role_noun):
            # "found a new hairdresser, marco", "got a new accountant: raj patel": what the name is new as is
            # the slot, as "my hairdresser is lena" says, where no attribute lists the noun (only with a verb
            # of finding one in place of another: "I made a new friend, Sam" is one friend more)
            apposed = next((t for t in role_noun.children if t.dep_ == "appos" and person_like(t)), None) or named_after(role_noun)
            named = (normalise(" ".join(self.words(role_noun))), None) if apposed is not None else None
        if apposed is None and named and named[0] == "employer":  # "I got a job at Microsoft"
            apposed = next((o for prep in role_noun.children if prep.dep_ == "prep" and prep.lower_ in {"at", "with"}
                            for o in prep.children if o.dep_ == "pobj" and o.pos_ == "PROPN"), c.preps.get("at"))
            apposed = apposed if apposed is not None and apposed.pos_ == "PROPN" else None
        return named, apposed

    def became(self, c: Clause) -> list[Claim] | None:
        # Becoming: "I went vegan", "she turned vegetarian" (the parser often calls the adjective an object).
        state = c.acomp if c.acomp is not None else c.attr if c.attr is not None else c.dobj
        if c.lemma in STATE_VERBS and state is not None and not any(t.dep_ == "det" for t in state.children):
            return self.copula(c.subject, c.who, state, {}, c.negated)
        return None

    def took_over(self, c: Clause) -> list[Claim] | None:
        """Taking a role: "Carol is taking over ownership of X from Alice", "Lena took over the platform team"."""
        subject, who, preps = c.subject, c.who, c.preps
        if not (c.lemma in TAKE_VERBS and (c.particle == "over" or c.lemma != "take") and who):
            return None
        target = c.dobj if c.dobj is not None else preps.get("over", preps.get("as"))
        held = self.attribute_of(target)
        if held and held[1]:
            return [Claim(held[1], held[0], who, self.text_of(preps.get("from")))]
        if target is not None and target is preps.get("as") and self.of_object(target) is None:
            # "Lucy took over as scrum master": a role of the team, as "Sam is our scrum master" says.
            role = held[0] if held else normalise(" ".join(self.words(target)))
            return [Claim(self.possessor(target) or PROJECT, role, who, self.text_of(preps.get("from")))]
        if target is not None:
            return [Claim(self.name(target), self.role_of(target), who, self.text_of(preps.get("from")))]
        listed = "from" in preps and (self.kind(subject, guess=False) or self.kind(preps["from"], guess=False))
        if listed and subject.ent_type_ != "PERSON":
            # "Buildkite has taken over from Jenkins": a thing of a listed kind that takes over replaces the
            # old one (a person taking over from another is the role's, above)
            rest = {p: t for p, t in preps.items() if p != "from"}
            return self.generic(c.verb, "replace", subject, who, preps["from"], rest, c.negated, c.decider)
        return []

    def replaced_as(self, c: Clause) -> list[Claim] | None:
        # "Priscilla replaced Kenji as product owner of the search service".
        if c.lemma == "replace" and "as" in c.preps and c.dobj is not None and c.who:
            held = self.attribute_of(c.preps["as"])
            if held and held[1]:
                return [Claim(held[1], held[0], c.who, self.phrase(c.dobj))]
        return None

    def passed_to(self, c: Clause) -> list[Claim] | None:
        # Handing over: "X was handed over to the finance team", "ownership of X moved to Grace".
        lemma, subject, preps = c.lemma, c.subject, c.preps
        if lemma in HAND_VERBS | {"go", "fall"} and "to" in preps and subject is not None and c.dobj is None:
            held = self.attribute_of(subject)
            if held and held[1] and (c.passive or lemma == "move" or held[0] in RELATIONAL):
                return [Claim(held[1], held[0], self.name(preps["to"]))]
            receiver = preps["to"]
            if c.passive and lemma in HAND_VERBS and (person_like(receiver) or self.lemma(receiver) in GROUP_NOUNS):
                return [Claim(c.who, self.role_of(subject), self.name(preps["to"]))]
        return None

    def handed_to(self, c: Clause) -> list[Claim] | None:
        # "Raj handed the infra team over to Mei".
        dobj, preps, who = c.dobj, c.preps, c.who
        if c.lemma in HAND_VERBS - {"give", "move"} and "to" in preps and dobj is not None and not c.passive and who:
            held = self.attribute_of(dobj)
            if held and held[1]:
                return [Claim(held[1], held[0], self.name(preps["to"]), who)]
            return [Claim(self.name(dobj), self.role_of(dobj), self.name(preps["to"]), who)]
        return None

    def rid_of(self, c: Clause) -> None:
        """"We got rid of New Relic": an ending of its object, which the steps after this read as "dropped"."""
        if c.lemma == "rid" and "of" in c.preps:
            c.lemma, c.dobj, c.ends = "drop", c.preps.pop("of"), True

    def handed_off(self, c: Clause) -> list[Claim] | None:
        if c.lemma == "hand" and c.particle in {"off", "over"} and "to" not in c.preps and c.dobj is not None and c.who:
            return [Claim(self.name(c.dobj), HELD_HERE, None, c.who)]  # "Ana handed off the billing service": to no one said
        return None

    def done_with(self, c: Clause) -> list[Claim] | None:
        done = c.preps.get("with") if c.lemma in {"do", "finish"} and c.verb.tag_ == "VBN" and c.passive else None
        if done is not None and c.who and a_name(done):
            return [Claim(c.who, HELD, None, self.name(done))]  # "we're done with Heroku": what held it ends
        return None

    def lapsed_by_itself(self, c: Clause) -> list[Claim] | None:
        """"my gym membership expired", "the subscription ran out", "I let the Datadog contract lapse"."""
        subject = c.subject
        if LAPSE_VERBS.get(c.lemma) == c.particle and c.dobj is None and subject is not None and not c.passive:
            letting = subject.head.head if subject.head.dep_ in {"ccomp", "xcomp"} else None
            letter = next((t for t in letting.children if t.dep_ == "nsubj"), None) if letting is not None else None
            holder = self.possessor(subject) or (self.name(letter) if letter is not None else PROJECT if (
                self.subscription(subject, plain=False) and named_in(subject)) else None)
            return self.lapsed(self.subscription(subject, plain=False), self.name(subject) if a_name(subject) else None, holder)
        return None

    def let_lapse(self, c: Clause) -> list[Claim] | None:
        dobj = c.dobj
        if c.lemma in {"let", "allow"} and dobj is not None and self.lemma(dobj) in LAPSE_VERBS:
            # "I let my Audible membership lapse/NOUN": the parser makes the verb a noun, the thing its compound
            words = [t.text for t in dobj.lefts if t.dep_ in {"compound", "amod"}]
            named = " ".join(words) if any(t.pos_ == "PROPN" for t in dobj.lefts) else None
            return self.lapsed(_membership(words), named, self.possessor(dobj) or c.who)
        return None

    def ended_named(self, c: Clause) -> list[Claim] | None:
        """Endings with the slot named: "stepped down as manager of the QA team", "gave up ownership of the wiki"."""
        lemma, preps, who, dobj = c.lemma, c.preps, c.who, c.dobj
        traded_for = lemma in TRADE_VERBS and "for" in preps and a_name(preps["for"])
        if not c.ends or traded_for:
            return None
        named = self.attribute_of(preps.get("as")) or self.attribute_of(dobj)
        if named and named[1]:
            return [Claim(named[1], named[0], None, who)]
        left = preps.get("from") if lemma == "step" else None
        if left is not None and who:  # "Ana stepped away from the billing service": her role in it ends
            return [Claim(self.name(left), HELD_HERE, None, who)]
        # What ended is the object, or what the verb ends from, of or with ("I broke up with Sam", "we
        # dropped out of the league", "Ana resigned from Acme").
        ended = dobj if dobj is not None else next((preps[p] for p in ("from", "of", "with") if p in preps), None)
        if ended is not None and lemma not in {"step"}:
            return self.ending(c.subject, who, ended, preps)
        return []

    def serving(self, c: Clause) -> list[Claim] | None:
        # "Airflow orchestrates the data pipeline", "CircleCI runs our builds": a name of a listed kind
        # serving a thing is that thing's value of that kind (listed: the tagger often calls it X or ADV).
        subject, dobj = c.subject, c.dobj
        serving = self.kind(subject, guess=False) if c.lemma in SERVE_VERBS and subject is not None and subject.pos_ != "PRON" else None
        if serving and serving not in RELATIONAL and dobj is not None and dobj.pos_ in {"NOUN", "PROPN"} and not c.passive \
                and normalise(self.phrase(dobj)) not in self.lex.values:
            thing = self.attribute_of(dobj)
            holder, kind = (thing[1] or PROJECT, thing[0]) if thing else (self.name(dobj), serving)
            return [Claim.said(holder, kind, c.who, c.negated)]
        return None

    def verb_stated(self, c: Clause) -> list[Claim] | None:
        """Verbs that state an attribute ("I live in Porto", "our builds run on CircleCI"), by the first
        preposition whose object is a value of it (the object where none)."""
        for prep, obj in list(c.preps.items()) + [("", None)]:
            said = [f"be {c.key} {prep}", f"be {c.verb.lower_} {prep}"] if c.passive or c.lemma != c.verb.lower_ else []
            phrase = next((p.strip() for p in [*said, f"{c.key} {prep}"] if p.strip() in self.lex.verbs), "")
            if phrase and (obj is not None or not prep):
                found = self.stated(c, self.lex.verbs[phrase], prep, obj if obj is not None else c.dobj)
                if found is not None:
                    return found
        return None

    def stated(self, c: Clause, attribute: str, prep: str, value_token: Any | None) -> list[Claim] | None:
        """The claim of a verb listed with `attribute`; None where `value_token` is no value of it."""
        subject, who, negated = c.subject, c.who, c.negated
        if value_token is None:
            return None
        if attribute == "location" and self.kind(value_token) != "location":
            # "moved into a flat in San Jose": the place is the home's
            value_token = self.place_in(value_token) or (None if c.lemma in {"move", "settle", "stay"} else value_token)
            if value_token is None:
                return None
        job = self.job_as(subject, who, c.preps) if attribute == "employer" and not negated else None
        if attribute == "employer" and c.lemma == "join" and value_token.ent_type_ not in {"ORG", "PRODUCT", "GPE", ""} \
                and job is None:  # one joins a person too; one joined as a designer is an employer
            return None
        if attribute != "schedule" and a_time(value_token) and subject is not None and who not in (SELF, PROJECT):
            return [Claim(self.event(subject), "schedule", None if negated else self.phrase(value_token))]  # "my shift starts at 7am"
        if attribute == "employer" and prep == "in" and self.kind(value_token, guess=False) not in RELATIONAL | {None}:
            attribute = self.kind(value_token, guess=False)  # "our team works in Python": the language
        if attribute == "schedule" and not a_time(value_token):
            return None  # "meetings happen on Google Meet": no time, so not when they are
        if attribute == "employer" and prep == "in" and self.kind(value_token, guess=False) == "location":
            attribute = "work location"  # "I work in Lisbon" is no employer, nor where I live
        kind = self.kind(value_token) if base_attributes().get(attribute, {}).get("values") else None
        if kind and kind not in RELATIONAL:
            attribute = kind  # "our builds run on CircleCI": CI, not hosting
        attribute, holder = self.stated_holder(c, attribute, value_token)
        value = self.name(value_token)
        return [Claim.said(holder, attribute, value, negated,
                           decision=c.decider and c.lemma in CHOICE_VERBS)] + ([job] if job and attribute == "employer" else [])

    def stated_holder(self, c: Clause, attribute: str, value_token: Any) -> tuple[str, str | None]:
        """The attribute a verb states and whose it is, where the object or the subject names a thing."""
        who, dobj, decider = c.who, c.dobj, c.decider
        # "we host the docs on GitBook": the docs'; "the iOS team tracks bugs in X": a team other
        # than ours says what it does itself, so the tracker is that team's.
        holder = self.name(dobj) if decider and who in (SELF, PROJECT) and dobj is not None \
            and value_token is not dobj and self.lemma(dobj) not in WHATEVER_WE_DO else who
        itself = self.attribute_of(dobj) if decider and dobj is not None and value_token is not dobj else None
        if itself and itself[1] in (None, PROJECT):  # "host (our) docs on GitBook": the docs are the attribute
            # ... of whoever said it: "the web team tracks tickets in Linear" is the web team's tracker
            attribute, holder = itself[0], itself[1] or who or PROJECT
        named = self.attribute_of(c.subject)
        if named and not decider:
            attribute, holder = named[0], named[1] or PROJECT
        return attribute, holder

    def inverse_stated(self, c: Clause) -> list[Claim] | None:
        """A verb whose object holds the slot, its subject the value ("Alice owns the orders service")."""
        preps, subject, who = c.preps, c.subject, c.who
        with_prep = self.lex.inverse_verbs.get(f"{c.key} {next(iter(preps), '')}".strip())
        inverse = self.lex.inverse_verbs.get(c.key) or with_prep
        if inverse:
            if c.passive and "by" in preps and subject is not None:  # "the checkout flow is maintained by Ravi"
                return [Claim(who, inverse, self.name(preps["by"]))]
            # A preposition's object only where the verb is listed with it ("look after X"): "the
            # rotation runs through PagerDuty" is not running PagerDuty.
            target = c.dobj if c.dobj is not None else next(iter(preps.values()), None) if with_prep else None
            if target is not None and who and not (c.lemma == "run" and self.lemma(target) not in GROUP_NOUNS and target.ent_type_ != "ORG"):
                return [Claim.said(self.name(target), inverse, who, c.negated)]
        return None

    def served_by(self, c: Clause) -> list[Claim] | None:
        # "Stripe processes our payments", "payments are processed by Braintree": the named one is the value.
        subject, dobj, who = c.subject, c.dobj, c.who
        served = self.attribute_of(dobj) if subject is not None and subject.pos_ in {"PROPN", "NOUN"} and who not in (SELF, PROJECT) else None
        if served is None and c.lemma in SERVE_VERBS | PROVIDE_VERBS and subject is not None and subject.pos_ == "PROPN" \
                and dobj is not None and dobj.pos_ == "NOUN" and self.possessor(dobj) in (SELF, PROJECT) \
                and senses.people(self.lemma(subject)) != "person" and normalise(self.phrase(dobj)) not in self.lex.values:
            # "Octopus supplies our electricity now": a name serving a thing of ours is what that thing is,
            # as "our electricity is Octopus" says, whatever word names it
            served = (normalise(" ".join(self.words(dobj))), self.possessor(dobj))
        if served and served[0] not in RELATIONAL and subject.ent_type_ != "PERSON" and (subject.pos_ == "PROPN" or subject.is_title):
            return [Claim.said(served[1] or PROJECT, served[0], who, c.negated)]
        return None

    def served_by_agent(self, c: Clause) -> list[Claim] | None:
        agent = c.preps.get("by") if c.passive else None
        served = self.attribute_of(c.subject) if agent is not None and agent.pos_ == "PROPN" else None
        if served and served[0] not in RELATIONAL and agent.ent_type_ != "PERSON":
            return [Claim(served[1] or PROJECT, served[0], None if c.negated else self.name(agent))]
        return None

    def seen_as(self, c: Clause) -> list[Claim] | None:
        # "I see Dr. Brooks as my dentist now".
        preps, dobj, lemma = c.preps, c.dobj, c.lemma
        role = self.attribute_of(preps.get("as")) if dobj is not None and lemma not in GENERIC_VERBS else None
        owner = self.possessor(preps["as"]) if role is None and "as" in preps and dobj is not None else None
        if owner in (SELF, PROJECT) and lemma not in GENERIC_VERBS:  # "we hired Max as our new designer"
            role = (normalise(" ".join(self.words(preps["as"]))), owner)
        if role and c.who and dobj.pos_ == "PROPN":
            return [Claim(role[1] or c.who, role[0], None if c.negated else self.name(dobj))]
        return None

    def held_when(self, c: Clause) -> list[Claim] | None:
        # "We do our retros on Fridays", "we hold standup at 9am": when the event is, is its schedule.
        when = next((c.preps[p] for p in ("on", "at") if p in c.preps and a_time(c.preps[p])), None)
        if c.lemma in {"do", "have", "hold", "run", "schedule"} and when is not None and c.dobj is not None and c.dobj.pos_ == "NOUN":
            return [Claim(self.event(c.dobj), "schedule", None if c.negated else self.phrase(when))]
        return None

    def rescheduled(self, c: Clause) -> list[Claim] | None:
        moved_to = next((c.preps[p] for p in ("to", "for") if p in c.preps and a_time(c.preps[p])), None)
        if c.lemma in RESCHEDULE_VERBS and moved_to is not None and c.dobj is not None and c.dobj.pos_ == "NOUN":
            return [Claim(self.event(c.dobj), "schedule", self.phrase(moved_to))]  # "we moved standup to 10:15"
        return None

    def called(self, c: Clause) -> list[Claim] | None:
        # "I now call Lyon home": what one calls an attribute's word is its value.
        if c.lemma == "call" and c.dobj is not None and c.who:
            called = self.attribute_of(c.dobj)
            name = next((t for t in c.dobj.children if t.dep_ == "compound" and t.pos_ == "PROPN"), None)
            if called and name is not None:  # the name is parsed as a compound of the word: no holder of it
                return [Claim(c.who, called[0], None if c.negated else self.name(name))]
        return None

    def transition_noun(self, c: Clause) -> list[Claim] | None:
        """"We finished the move from Oracle to PostgreSQL": the noun of a change moves as its verb does."""
        dobj = c.dobj
        if dobj is not None and self.lemma(dobj) in TRANSITION_NOUNS and c.lemma in ASPECT_VERBS | {"do", "make", "plan"}:
            return self.generic(dobj, "move", c.subject, c.who, None, self.preps(dobj), c.negated, c.decider)
        return None

    def habit(self, c: Clause) -> list[Claim] | None:
        # "I drink coffee every morning", "I play tennis on Sundays": a habit, one slot per thing, which
        # "I gave up coffee" and "I stopped playing tennis" end; "I drink tea" is another habit, not a change.
        dobj = c.dobj
        if (c.lemma in HABIT_VERBS and dobj is not None and dobj.pos_ == "NOUN" and (c.verb.tag_ in {"VBP", "VBZ"} or c.verb.dep_ == "xcomp")
                and c.who and self.kind(dobj, guess=False) is None and not any(t.dep_ == "det" for t in dobj.children)):
            thing = normalise(self.phrase(dobj))
            return [Claim.said(c.who, f"{thing} habit", thing, c.negated)]
        return None

    def sent_through(self, c: Clause) -> list[Claim] | None:
        """"We send email through Mailgun": the project's email is Mailgun."""
        via = next((c.preps[p] for p in SEND_PREPOSITIONS if p in c.preps), None)
        if c.lemma in SEND_VERBS and c.dobj is not None and via is not None and via.pos_ == "PROPN" and c.who in (SELF, PROJECT):
            attribute, holder = self.attribute_of(c.dobj) or self.routed(c.dobj)
            if attribute:
                return [Claim(holder or c.who, attribute, None if c.negated else self.name(via))]
        return None

    def generic_verb(self, c: Clause) -> list[Claim] | None:
        if c.lemma in GENERIC_VERBS:
            return self.generic(c.verb, c.lemma, c.subject, c.who, c.dobj, c.preps, c.negated, c.decider)
        return None

    def framed(self, verb: Any, subject: Any | None) -> list[Claim]:
        """A clause no rule slots, by the attribute frame the embedder puts it nearest (frames.classify):
        its named value masked; the holder is the subject, or the first person the clause names when
        the subject is the value ("Globex hired me", "Florence is where I live now")."""
        if subject is None or ending_verb(self.lemma(verb)):
            return []  # endings are the rules' (a value left is no value held)
        clause = own_clause(verb)
        speaker = next((SELF if t.lower_ in FIRST_PERSON else PROJECT for t in clause
                        if t.lower_ in FIRST_PERSON | FIRST_PLURAL and t.i != subject.i), None)
        if a_value(subject) and speaker is not None:
            value, holder = subject, speaker
        else:
            value = next((t for t in clause if t.i > verb.i and a_value(t)
                          and t.dep_ in {"dobj", "attr", "pobj", "oprd", "appos"}), None)
            holder = self.name(subject)
        if value is None or not holder or self.lex.noun(self.words(value)):
            return []  # "Home is where I live": the attribute's own word is no value of it
        span = {t.i for t in value.subtree}
        masked = [frames.MASK if t.i == value.left_edge.i else t.text for t in clause
                  if t.i not in span or t.i == value.left_edge.i]
        attribute = frames.classify(" ".join(masked))
        if not attribute or attribute in FRAMED_BY_RULES or (attribute in PERSONAL and holder == PROJECT):
            return []  # "the company is on Teams": a group has no employer, home or job by the embedder's guess
        named = self.name(value)
        if not named or normalise(named) == normalise(holder):
            return []
        negated = self.negated(verb)
        return [Claim.said(holder, attribute, named, negated)]

    def preps(self, verb: Any) -> dict[str, Any]:
        """Each preposition's object ("to" -> CockroachDB); "in favour of" is "to", "instead of" "from"."""
        found: dict[str, Any] = {}
        # "from A to B" and "swapped A for B" often hang the second preposition on the first or on A.
        obj = direct_object(verb)
        heads = [verb, *[t for t in verb.children if t.dep_ in {"prep", "dobj"} or (t.dep_ == "advmod" and t.pos_ == "ADV")]]
        heads += [obj] if obj is not None and obj not in heads else []
        children = [c for head in heads for c in head.children if head is verb or c.dep_ == "prep"]
        children += fragment(verb)
        # A name after "to" the small parser took for a verb ("to Netlify/VERB/advcl", "to Go/VERB/relcl").
        children += [c for c in (obj.children if obj is not None else ()) if c.dep_ == "relcl"]
        for child in children:
            named = child.pos_ in {"PROPN", "NOUN"} or (child.is_title and child.i > child.sent.start) or (
                child.lower_ in self.lex.values) or no_verb(child)  # "switched to keto/VERB", "to bologna/VERB"
            if child.dep_ in {"xcomp", "advcl", "relcl"} and named and any(
                t.lower_ == "to" and t.i == child.i - 1 for t in child.children):
                found.setdefault("to", child)  # "off Heroku to Render", parsed as "to Render" the clause
            if child.dep_ in {"prep", "agent", "dative"} or (child.dep_ == "ROOT" and child.pos_ == "ADP") or (
                    child.dep_ == "prt" and _stranded_object(child) is not None):  # "settled on/prt RabbitMQ/PUNCT"
                obj = next((t for t in child.children if t.dep_ == "pobj" or (t.dep_ == "pcomp" and name_read_as_verb(t))), None)
                obj = obj if obj is not None else _stranded_object(child)
                word = child.lower_
                if word == "in" and obj is not None and obj.lower_ in {"favour", "favor"}:
                    inner = self.of_object(obj)
                    word, obj = "to", inner
                elif word == "instead":
                    obj = next((t for g in child.children for t in g.children if t.dep_ == "pobj"), obj)
                    word = "from"
                elif word == "over" and obj is not None and obj.lower_ == "to":
                    continue
                if obj is not None:
                    found.setdefault(word, obj)
                elif word in {"to", "over", "out"} and any(t.dep_ == "prep" for t in child.children):
                    # "switched error tracking over to Sentry", "based out of Florence"
                    nested = next(t for t in child.children if t.dep_ == "prep")
                    obj = next((t for t in nested.children if t.dep_ == "pobj"), None)
                    if obj is not None:
                        found.setdefault("out of" if word == "out" else nested.lower_, obj)
            for obj in list(found.values()):
                # "off Netlify to Vercel", "Memcached for Redis": a second preposition parsed under the first.
                for nested in obj.children:
                    if nested.dep_ == "prep" and nested.lower_ in {"to", "with", "for", "from", "off", "as"}:
                        inner = next((t for t in nested.children if t.dep_ == "pobj"), None)
                        if inner is not None:
                            found.setdefault(nested.lower_, inner)
            if child.dep_ == "advcl" and child.pos_ == "NOUN" and any(t.dep_ == "mark" and t.lower_ == "as" for t in child.children):
                found.setdefault("as", child)  # "stepped down as infra/nsubj lead/advcl": "as" the noun's mark
            if child.dep_ == "advmod" and child.lower_ == "over":
                nested = next((t for t in child.children if t.dep_ == "prep"), None)
                obj = next((t for t in nested.children if t.dep_ == "pobj"), None) if nested is not None else None
                if obj is not None:
                    found.setdefault(nested.lower_, obj)
        return found

    def negated(self, verb: Any) -> bool:
        for child in verb.children:
            if child.dep_ == "neg":
                return True
            if child.lower_ in {"longer"} and any(t.lower_ in {"no", "any"} for t in child.children):
                return True
        return False

    def text_of(self, token: Any | None) -> str | None:
        return self.name(token) if token is not None else None

    def role_of(self, target: Any) -> str:
        """The role someone takes over a thing: a group is led, anything else owned."""
        return "lead" if self.lemma(target) in GROUP_NOUNS else "owner"

    def copula(self, subject: Any, who: str | None, complement: Any | None, preps: dict[str, Any], negated: bool) -> list[Claim]:
        found = self._copula(subject, who, complement, preps, negated)
        value = complement if complement is not None else next(
            (preps[p] for p in ("on", "in", "with") if p in preps), None)
        if found or subject is None or value is None or not self.the_thing(subject) or not proper_name(value):
            return found
        # "the helpdesk is Freshdesk now", "the crm is on pipedrive": where nothing else reads it, the thing
        # we have, as "our helpdesk is" says
        named = self.name(value)
        return [Claim.said(PROJECT, normalise(" ".join(self.words(subject))), named, negated)]

    def _copula(self, subject: Any, who: str | None, complement: Any | None, preps: dict[str, Any], negated: bool) -> list[Claim]:
        if subject is None:
            return []
        said = self.copula_parts(subject, who, complement, preps, negated)
        for step in (
            self.role_in_words, self.served_with, self.attribute_is, self.member_of, self.complement_role,
            self.value_missing, self.off_now, self.at_time, self.on_call,
        ):
            found = step(said)
            if found is not None:
                return found
        return self.value_kind(said)

    def copula_parts(self, subject: Any, who: str | None, complement: Any | None, preps: dict[str, Any],
                     negated: bool) -> Copula:
        # "Acme is my former employer", "Dana is our previous CTO": what it was, it is no longer
        negated = negated or (complement is not None and any(t.dep_ == "amod" and t.lower_ in FORMER_WORDS
                                                             for t in complement.children))
        held = self.attribute_of(subject)
        value = complement if complement is not None else next(
            (preps[p] for p in ("on", "in", "at", "with", "off", "from") if p in preps), None
        )
        if held and held[0] == "location" and value is not None and self.kind(value) != "location":
            value = self.place_in(value) or value  # "home is a little flat in Leeds": Leeds
        return Copula(subject, who, complement, preps, negated, held, value)

    def role_in_words(self, s: Copula) -> list[Claim] | None:
        role = self.role_said(s.complement, s.preps)
        if role is not None and s.who:  # "Tom is in charge of billing": the role's listed phrase, said with "be"
            return [Claim.said(self.name(role[1]), role[0], s.who, s.negated)]
        return None

    def served_with(self, s: Copula) -> list[Claim] | None:
        served = self.served_for(s.who, s.value, s.preps) if s.complement is None else None
        if served is not None:  # "I'm on Three for my phone plan": my phone plan is Three
            value = self.name(s.value)
            return [Claim.said(served[0], served[1], value, s.negated)]
        return None

    def attribute_is(self, s: Copula) -> list[Claim] | None:
        """The subject names the attribute, the complement its value: "my manager is Priya"."""
        subject, value_token, held = s.subject, s.value, s.held
        if held is None and value_token is not None and self.possessor(subject) and name_like(value_token) \
                and value_token.ent_type_ not in {"DATE", "TIME"}:
            # "our CTO is Maria", and as chat types it: "our crm is hubspot", "my insurance is with aviva"
            held = (normalise(" ".join(self.words(subject))), self.possessor(subject))
        if held and value_token is not None:
            owner = held[1] or (s.who if s.who in (SELF, PROJECT) else None) or PROJECT
            relational_adjective = value_token.pos_ == "ADJ" and held[0] in RELATIONAL  # "my manager is great"
            if not relational_adjective and (value_token.pos_ in {"NOUN", "PROPN", "ADJ", "NUM", "X"}
                                             or value_token.ent_type_ or value_token.pos_ == "PUNCT"
                                             or name_like(value_token)):
                value = self.name(value_token)
                return [Claim.said(owner, held[0], value, s.negated)]
        return None

    def member_of(self, s: Copula) -> list[Claim] | None:
        complement = s.complement
        club = self.of_object(complement) if complement is not None and self.lemma(complement) == "member" else None
        if club is not None and s.who:
            name = self.phrase(club)
            return [Claim.said(s.who, f"{normalise(name)} membership", name, s.negated)]
        return None

    def complement_role(self, s: Copula) -> list[Claim] | None:
        """The complement names a role the subject holds: "James Chen is our new CTO"."""
        subject, complement, who, negated = s.subject, s.complement, s.who, s.negated
        if complement is None or complement.dep_ not in {"attr", "nsubj"}:  # nsubj: see named_first's "Raj/ADV"
            return None
        role = self.attribute_of(complement)
        if role is None and self.possessor(complement) and (subject.pos_ == "PROPN" or subject.is_title):
            role = (normalise(" ".join(self.words(complement))), self.possessor(complement))
        if role is None and (bare_title(complement) or the_role(complement)) and named_person(subject):
            role = (normalise(" ".join(self.words(complement))), PROJECT)  # "Paul became CTO": our CTO
        if role and role[1] and who:  # "James Chen is our new CTO", "Pedro is the new head of marketing"
            return [Claim.said(role[1], role[0], who, negated)]
        if role and role[1] is None and who and self.value_of_role(subject, complement, role[0]):
            return [Claim(SELF if role[0] in PERSONAL | HOUSEHOLD else PROJECT, role[0], None if negated else who)]
        if role and who and subject.pos_ == "PROPN":
            return []
        return None

    def value_missing(self, s: Copula) -> list[Claim] | None:
        return [] if s.value is None or not s.who else None

    def off_now(self, s: Copula) -> list[Claim] | None:
        off = s.preps.get("off")
        if off is not None and s.complement is None and off.pos_ == "PROPN":
            return [Claim(s.who, HELD, None, self.name(off))]  # "we're off Heroku now": what held Heroku ends
        return None

    def at_time(self, s: Copula) -> list[Claim] | None:
        preps, value_token = s.preps, s.value
        # "standup is at 10 now": a bare hour the tagger calls a number is a time, as "at 10:15" is
        if "at" in preps and value_token is preps["at"] and a_time(value_token) or (
            value_token.ent_type_ in {"TIME"} and "at" in preps
        ):
            return [Claim(self.event(s.subject), "schedule", self.phrase(value_token))]
        return None

    def on_call(self, s: Copula) -> list[Claim] | None:
        preps, value_token = s.preps, s.value
        if "on" in preps and value_token is preps["on"] and "call" == value_token.lower_:
            target = self.of_object(value_token) or preps.get("for")  # none said: the project's ("Zoe is on call")
            return [Claim(self.name(target) if target is not None else PROJECT, "on-call", None if s.negated else s.who)]
        return None

    def value_kind(self, s: Copula) -> list[Claim]:
        """The value's kind is the attribute: "I'm vegetarian", "the API is on GCP", "I'm at KPMG now"."""
        subject, who, complement, preps, value_token = s.subject, s.who, s.complement, s.preps, s.value
        # "I'm a swiftie": what one is one of is no name of a value, so the embedder, which reads a word by
        # its letters ("swiftie" is near "Swift"), does not guess it; the lists and the job test still read it.
        kind = self.kind(value_token, guess=not (complement is value_token and one_of_a_class(value_token)))
        if kind is None and complement is value_token and self.occupation(subject, who, value_token):
            kind = "occupation"  # "I'm a paralegal now": a job no list names, by the embedder
        if "at" in preps and value_token is preps["at"] and self.employed(subject, who, value_token, kind):
            value = self.name(value_token)  # "I'm at KPMG now", "I'm still at Stripe": who I work for
            return [Claim.said(who, "employer", value, s.negated)]
        if kind == "location" and value_token is not complement:
            kind = self.doubted_place(subject, who, value_token, next(p for p, t in preps.items() if t is value_token))
        if kind == "schedule":  # "retros are on Thursdays": the retro's, as "our retro is on Fridays" says
            who = self.event(subject)
        if kind in {"employer", "owner", "lead", "manager", "maintainer", None}:
            return []
        if kind == "location" and not ({"in", "at"} & set(preps)):
            return []
        if self.lex.noun(self.words(value_token)) == (kind, []):
            return []  # "I'm at home": the attribute's own word names no value of it
        value = self.phrase(value_token)
        return [Claim.said(who, kind, value, s.negated)]

    def served_for(self, who: str | None, value: Any | None, preps: dict[str, Any]) -> tuple[str, str] | None:
        """(holder, attribute) where the speaker is on or with a name for a thing ("I'm on Three for my phone
        plan", "I'm with Aviva for car insurance"): the thing's value is that name, as "we use Zoom for
        video calls" says. Not a person one is with, nor a time one is on it for ("for now", "for a month")."""
        thing = preps.get("for")
        if who not in (SELF, PROJECT) or thing is None or value is None or thing.pos_ != "NOUN" or a_time(thing):
            return None
        if not any(preps.get(p) is value for p in ("on", "with")) or not proper_name(value) or person_like(value):
            return None
        held = self.attribute_of(thing)
        if held:
            return held[1] or who, held[0]
        return self.possessor(thing) or who, normalise(" ".join(self.words(thing)))

    def the_thing(self, token: Any, moved: bool = False) -> bool:
        """A thing said with "the", or bare as a team says what it does ("payroll", "heatmaps"), and nothing
        else to say whose it is ("the helpdesk", not "the design team's helpdesk", "the capital of France",
        "the winner" or "the team"): a subject, or (`moved`) what a switch moves."""
        determiners = [t.lower_ for t in token.children if t.dep_ in {"det", "poss"}]
        return ((token.pos_ == "NOUN" or token.text.isupper()) and token.dep_ in {"nsubj", "nsubjpass", *(("dobj",) if moved else ())}
                and (determiners == ["the"] or (not determiners and token.pos_ == "NOUN"))
                and self.of_object(token) is None and not any(t.dep_ in {"relcl", "acl"} for t in token.children)
                and senses.people(self.lemma(token)) is None and self.lemma(token) not in GROUP_NOUNS | TEAM_WORDS)

    def occupation(self, subject: Any, who: str | None, role: Any) -> bool:
        """Whether "<person> is a <noun>" says the person's job: a common noun with "a"/"an" that the
        embedder puts nearer "I am a <listed occupation>" than "I am a morning person" (frames.occupation).
        Where the embedder is not clear, WordNet decides: a kind of worker ("a welder", "a sous chef":
        senses.kind) is a job, a word it places elsewhere ("a foodie") is not; and a word it does not know
        ("a barista") is a job when the embedder leans clearly that way, however near."""
        person = who == SELF or person_like(subject)
        article = any(t.dep_ == "det" and t.lower_ in {"a", "an"} for t in role.children)
        if not (person and article and role.pos_ == "NOUN"):
            return False
        said = self.phrase(role)
        verdict = frames.occupation(said)
        if verdict is not None:
            return verdict
        if senses.known(said):
            return senses.kind(said, self.lex.kinds.items()) == "occupation"
        return frames.leaning_occupation(said)

    def doubted_place(self, subject: Any, who: str | None, token: Any, prep: str) -> str | None:
        """The reading of "<subject> is in <word>" where the tagger labelled a word typed in lower case a
        place: the small model labels such a word from its context alone ("the backend is in golang/GPE",
        "accounting is in xero/FAC"). WordNet decides a word it knows (a place or nothing). For a word it
        does not know, the embedder's clear leaning to another attribute stated with the same preposition
        ("written in" a language) wins; else it is a place where the subject is a thing that is somewhere
        (a person, a group, an artifact: "i'm in zwolle", "the office is in zwolle")."""
        text = self.phrase(token)
        if not (token.text.islower() and token.ent_type_ in self.lex.ner):
            return "location"
        if senses.known(text):
            return "location" if senses.kind(text, self.lex.kinds.items()) == "location" else None
        leaning = leaning_kind(text)
        same_preposition = {attribute for verb, attribute in self.lex.verbs.items() if verb.rpartition(" ")[2] == prep}
        if leaning in same_preposition - {"location"}:
            return leaning
        somewhere = who in (SELF, PROJECT) or person_like(subject) or senses.placeable(" ".join(self.words(subject)))
        return "location" if somewhere else None

    def job_as(self, subject: Any, who: str | None, preps: dict[str, Any]) -> Claim | None:
        """The job a clause of employment names with "as" ("I joined Acme as a designer", "I work for
        Globex as a nurse"): the person's occupation, by the same test as "I'm a designer"."""
        role = preps.get("as")
        if role is None or not who or not self.occupation(subject, who, role):
            return None
        return Claim(who, "occupation", self.phrase(role))

    def employed(self, subject: Any, who: str | None, place: Any, kind: str | None) -> bool:
        """Whether "<person> is at <place>" says whom the person works for: a named organisation, not a
        place, a time or a listed kind of thing other than a company."""
        person = who == SELF or subject.ent_type_ == "PERSON" or person_like(subject)
        return (person and place.pos_ == "PROPN" and place.ent_type_ not in {"GPE", "LOC", "FAC", "TIME", "DATE"}
                and kind not in {"location", "schedule", "gym", "bank"})

    def value_of_role(self, subject: Any, complement: Any, role: str) -> bool:
        """"Cork is home now", "Postgres is the database": a name (no person) said to be the one role of
        its kind; "Kafka is a message broker" (an article that says "one of") defines, and fills nothing."""
        definite = not any(t.dep_ == "det" and t.lower_ not in {"the", "our", "my"} for t in complement.children)
        named = subject.pos_ == "PROPN" or subject.is_title  # "Cork/NOUN": a name the tagger took for a noun
        return (definite and named and subject.ent_type_ != "PERSON" and not person_like(subject)
                and (role not in RELATIONAL or role == "location"))

    def event(self, subject: Any) -> str | None:
        """The event a schedule is of, one name for "retros" and "our retro"."""
        name = self.name(subject)
        # A plural, however tagged ("Retros/NNP" at the start of a sentence): events are rarely named in -s.
        plural = subject.lower_.endswith("s") and not subject.lower_.endswith("ss") and len(subject.lower_) > 3
        if name and plural and subject.ent_type_ != "PERSON" and name.lower().endswith(subject.lower_):
            return name[: len(name) - len(subject.text)] + singular(subject.lower_)
        return name

    def ending(self, subject: Any, who: str | None, dobj: Any, preps: dict[str, Any]) -> list[Claim]:
        """"quit keto", "sold my motorbike", "cancelled my FitLife membership", "left Google"."""
        if not who:
            return []
        held = self.attribute_of(dobj)
        if held:
            return [Claim(held[1] or who, held[0], None, None)]
        old = self.phrase(dobj)
        verb = dobj.head
        parted = self.lemma(verb) in {"sell", "lose", "scrap", "donate", "trade"} or (  # "sold my motorbike"
            self.lemma(verb) == "give" and any(t.lower_ == "away" for t in verb.children))
        claims = [Claim(old, "owner", None, who)] if parted and self.lemma(dobj) not in GROUP_NOUNS and dobj.pos_ in {"NOUN", "PROPN"} else []
        kind = self.kind(dobj)
        if dobj.ent_type_ == "ORG" and kind is None and self.lemma(dobj.head) in {"leave", "quit", "resign"}:
            kind = "employer"
        if kind and dobj.pos_ == "PROPN" and (kind not in RELATIONAL or kind == "location"):
            # A name ends whatever slot held it, whichever word named that slot ("we use PagerDuty for
            # alerts" ... "we've cancelled PagerDuty"); its kind need not be the word that was said.
            claims.append(Claim(who, HELD, None, self.name(dobj)))
        elif kind:
            claims.append(Claim(who, kind, None, old))
        subscribed = self.subscription(dobj, plain=False)
        if subscribed:
            claims += [Claim(who, subscribed[0], None, subscribed[1]), Claim(who, HELD, None, subscribed[1])]
        habit = self.lemma(dobj.head) in {"give", "stop", "kick"} and dobj.pos_ == "NOUN"  # "I gave up coffee"
        if not kind and not subscribed and (a_name(dobj) or habit or self.lemma(dobj.head) in {"leave", "quit"}):
            claims.append(Claim(who, HELD, None, self.name(dobj)))  # "we've cancelled PagerDuty", "I left the club"
        if not claims and dobj.pos_ == "NOUN" and any(t.dep_ in {"det", "poss"} and t.lower_ in {"the", "our", "my"}
                                                      for t in dobj.children):
            # "we shut down the status page": the thing of ours no attribute names, as "our status page is X" says
            claims.append(Claim(self.possessor(dobj) or who, normalise(" ".join(self.words(dobj))), None, None))
        if who not in (SELF, PROJECT) and person_like(subject) and not parted:
            # "Priya gave up the billing dashboard", "Omar left the search team": whatever role of the thing
            # the person held ends (the thing's slot that holds them: owner, lead, manager ...)
            claims.append(Claim(self.name(dobj), HELD_HERE, None, who))
        return claims

    @staticmethod
    def lapsed(subscribed: tuple[str, str] | None, name: str | None, holder: str | None) -> list[Claim]:
        """A subscription or membership that ran out ends, as one cancelled does, and so does whatever held a
        name that ran out ("I let Duolingo Plus expire"): its possessor's ("my gym membership expired"), the
        one's who let it ("I let the Datadog contract lapse"), ours for a contract with someone named ("the
        contract with Acme Cleaning ended"). Nothing else is read from such a clause: the time it ran out is
        no schedule ("the lease ran out in March")."""
        if not holder:
            return []
        if subscribed is not None:
            return [Claim(holder, subscribed[0], None, subscribed[1]), Claim(holder, HELD, None, subscribed[1])]
        return [Claim(holder, HELD, None, name)] if name else []

    def subscription(self, token: Any | None, plain: bool) -> tuple[str, str] | None:
        """("netflix subscription", "Netflix") for "a Netflix subscription" (or, where the verb says
        subscribing, for a plain name: "pay for Zoom")."""
        if token is None:
            return None
        words = self.phrase(token).split()
        place = next((o for c in token.children if c.dep_ == "prep" and c.lower_ in {"at", "with", "to"}
                      for o in c.children if o.dep_ == "pobj" and o.pos_ == "PROPN"), None)
        if words and words[-1].lower() in MEMBERSHIPS and place is not None:
            # "a gym membership at Equinox" is my gym membership (which "I cancelled my gym membership"
            # ends), held by Equinox; "a membership at Equinox" is the Equinox one.
            name = self.phrase(place)
            kind = " ".join(words[:-1]) if len(words) > 1 else name
            return f"{normalise(kind)} {words[-1].lower()}", name
        if (membership := _membership(words)) is not None:
            return membership
        if plain and token.pos_ == "PROPN":
            name = self.phrase(token)
            return f"{normalise(name)} subscription", name
        return None

    def generic(self, verb: Any, lemma: str, subject: Any, who: str | None, dobj: Any, preps: dict[str, Any],
                negated: bool, decider: bool) -> list[Claim]:
        """"We moved the web app off Heroku to Fly.io", "we replaced Jira with Linear", "the API runs on GCP"."""
        if not who or (lemma in TRADE_VERBS and subject is not None and subject.dep_ == "nsubjpass"):
            return []  # "Travis got replaced with X": the thing replaced is the subject, read in the active voice
        if lemma in {"replace", "supersede"} and not decider and dobj is not None:
            return self.replaced_by_subject(subject, who, dobj, preps)
        values = self.old_and_new(lemma, dobj, preps)
        if values is None:
            return []
        old, new, thing = values
        role, thing = self.role_for(preps, new, thing, self.attribute_of(subject) if not decider else None)
        if role is not None:
            attribute, holder = role
        else:
            attribute, holder, thing = self.slot_by_kind(lemma, subject, who, dobj, preps, old, new, thing)
        if attribute is None and old is None and new is not None and verb.dep_ == "conj" and self.ended and (
            self.ended[0] == verb.head.i
        ):  # "I cancelled Spotify and switched to Apple Music": the new value of what the first clause ended
            before = self.ended[1]
            return [Claim(before.subject, before.attribute, None if negated else self.name(new), before.old,
                          decision=decider and lemma in CHOICE_VERBS)]
        if attribute is None and (old is not None or negated) and (old if old is not None else new) is not None:
            # A change whose kind is not known: it changes whatever slot held the old value ("we
            # replaced Papertrail with Loki", "we no longer use Papertrail").
            attribute = HELD
        if attribute is None:
            return []
        if holder is None:
            holder = self.name(thing) if thing is not None else who
        if holder is None:
            return []
        return self.changed(holder, attribute, old, new, negated, decider and lemma in CHOICE_VERBS)

    def replaced_by_subject(self, subject: Any, who: str, dobj: Any, preps: dict[str, Any]) -> list[Claim]:
        """"CockroachDB replaces Postgres for the orders service": the subject is the new value."""
        thing = preps.get("for") or preps.get("in") or preps.get("at")
        attribute = self.kind(subject) or self.kind(dobj)
        holder = self.name(thing) if thing is not None else PROJECT
        return [Claim(holder, attribute, who, self.name(dobj))] if attribute and holder else []

    def old_and_new(self, lemma: str, dobj: Any, preps: dict[str, Any]) -> tuple[Any | None, Any | None, Any | None] | None:
        """(the old value, the new one, the thing whose value changes where it is not the subject); None where
        the clause names neither value, or trades one away for nothing."""
        new = preps.get("to") or preps.get("with") if lemma in {"replace", "swap"} else preps.get("to")
        # "from" is where a thing comes from after "get", "buy": no old value ("I get my groceries from Tesco").
        old = (preps.get("from") if lemma not in SOURCE_VERBS else None) or preps.get("off")
        traded = dobj if dobj is not None else preps.get("in") if lemma == "trade" else None  # "traded in the Focus"
        if lemma in TRADE_VERBS and traded is not None:
            old, new = traded, preps.get("with") or preps.get("for") or preps.get("to")
            if new is None and lemma != "drop":
                return None
        thing = None
        if new is None and dobj is not None and dobj is not old and lemma not in {"use", "pick", "choose", "adopt", "select", "prefer"}:
            valued = preps.get("with") or preps.get("in") or preps.get("on") or preps.get("onto") or preps.get("into")
            if valued is not None and self.attribute_of(valued) is None and valued.ent_type_ not in {"DATE", "TIME"}:
                thing, new = dobj, valued  # "rewrote the frontend with React"
        if new is None:
            if dobj is not None and not (old is not None and dobj is old):
                new = dobj
            else:
                new = preps.get("on") or preps.get("in") or preps.get("through") or preps.get("via") or preps.get("with")
        elif dobj is not None and dobj is not old:
            thing = dobj
        if new is None and old is None:
            return None
        if new is not None and new is dobj and lemma in {"move", "migrate", "switch", "port", "shift"} and (
            preps.get("on") or preps.get("in")
        ):
            thing, new = dobj, preps.get("on") or preps.get("in")
        return old, new, thing

    def role_for(self, preps: dict[str, Any], new: Any | None, thing: Any | None,
                 named: tuple[str, str | None] | None) -> tuple[tuple[str, str | None] | None, Any | None]:
        """(attribute, holder) where a change names its slot: "as"/"for" a role, the thing changed, else the
        subject (`named`, its attribute); and the thing changed, where it names no slot."""
        role = None
        for word in ("as", "for"):
            if word in preps and not a_time(preps[word]):  # "for a month" is how long, not what for
                named = self.attribute_of(preps[word])
                # A noun said bare names the slot, with words of its own kind before it too ("for screen
                # recordings"); a name before it makes it a thing of that name's ("for Acme accounts").
                bare = word == "for" and preps[word].pos_ == "NOUN" and not any(
                    t.dep_ in {"det", "poss"} or (t.dep_ == "compound" and t.pos_ != "NOUN") for t in preps[word].children)
                owned = self.possessor(preps[word]) if word == "as" else None
                if named:
                    role = named
                elif owned in (SELF, PROJECT) and preps[word] is not new:  # "as our API gateway"
                    role = (normalise(" ".join(self.words(preps[word]))), owned)
                elif bare and preps[word] is not new:
                    role = (normalise(" ".join(self.words(preps[word]))), None)  # "for music": the music slot
                elif word == "for" and thing is None and preps[word] is not new:
                    thing = preps[word]
        if thing is not None and role is None:
            named = self.attribute_of(thing)
            if named:
                role, thing = named, None
        if role is None and named is not None:
            role = (named[0], named[1] or PROJECT)  # "payments go through PayPal": the project's payments
        return role, thing

    def slot_by_kind(self, lemma: str, subject: Any, who: str | None, dobj: Any, preps: dict[str, Any], old: Any | None,
                     new: Any | None, thing: Any | None) -> tuple[str | None, str | None, Any | None]:
        """(attribute, holder, thing) of a change that names no slot: by the kind of its values, the verb, or
        the thing routed or switched."""
        # A transition fills the slot the old value held: kind(old) first.
        # People and places are said with their own verbs ("moved to Porto"), not with these: a
        # product the tagger took for a city ("go to Papertrail") is no location.
        kinds = [k for k in (self.kind(old), self.kind(new)) if k and k not in RELATIONAL]
        attribute, holder = (next(iter(kinds), None) or self.verb_attribute(lemma, preps)), None
        if lemma in ROUTE_VERBS and new is not None and (new.pos_ == "PROPN" or new.is_title) and self.routed(subject)[0]:
            attribute, holder = self.routed(subject)  # "deployments go through X" whatever X is
        elif attribute is None and lemma in SWITCH_VERBS and thing is None and dobj is None and new is not None \
                and new.pos_ == "PROPN" and self.routed(subject)[0] and self.possessor(subject) != SELF:
            # (not "my brother moved to Bergen/ORG": what is mine that moves is no service I use)
            attribute, holder = self.routed(subject)  # "payroll moved to Rippling", as "payroll goes through X"
        elif attribute is None and (lemma in SWITCH_VERBS or (lemma in KEEP_VERBS and new is preps.get("in"))) \
                and thing is not None and new is not None and (new.pos_ == "PROPN" or a_value(new) or name_like(new)):
            # "we switched feature flags to Unleash", and as chat types it: "i switched carriers to
            # giffgaff" (a name typed in lower case), "mail clients to Spark/NOUN": what I switch is mine,
            # and switching carriers is a new carrier; what we keep in a name is that thing of ours, as
            # "we use X for it" says ("shared secrets are kept in Doppler now", read in the active voice)
            attribute, holder = self.routed(thing, definite=True)  # "we moved the helpdesk to Freshdesk" too
            holder = SELF if attribute and who == SELF and holder == PROJECT else holder
            if attribute and thing.tag_ == "NNS" and holder == SELF:
                attribute = f"{attribute.rpartition(' ')[0]} {singular(attribute.rpartition(' ')[2])}".strip()
            thing = None if attribute else thing
        return attribute, holder, thing

    def changed(self, holder: str, attribute: str, old: Any | None, new: Any | None, negated: bool,
                decision: bool) -> list[Claim]:
        """The change of the holder's slot from the old value to the new one (none: an ending)."""
        value = None if negated or new is None else self.name(new)
        if value is None and not negated and new is not None:
            return []  # "circleci is still what we use for CI": a value said by "what" names none, and ends nothing
        previous = self.name(old) if old is not None else (self.name(new) if negated and new is not None else None)
        found = [Claim(holder, attribute, value, previous, decision=decision)]
        if attribute != HELD and old is not None and old.pos_ == "PROPN" and previous:
            # The old value named: it also changes whatever slot of the holder held it, whichever word named
            # that slot ("we chat on Slack" ... "we switched from Slack to Discord"); where both are one
            # slot the store keeps one statement.
            found.append(Claim(holder, HELD, value, previous, decision=decision))
        return found

    def routed(self, subject: Any, definite: bool = False) -> tuple[str | None, str | None]:
        """"Logs go to Papertrail", "our backups live on S3": the thing routed is the attribute, of the
        project (or of its owner); a person or a phrase with an article is not (`definite`: "the" is, as in
        "we switched the helpdesk to Freshdesk", where the thing is ours as "our" says, unless a word of it
        names an attribute: "the docs build" is left to the frames, which read it as the docs)."""
        articles = [t.lower_ for t in subject.children if t.dep_ == "det"]
        the = definite and articles == ["the"] and self.the_thing(subject, True) \
            and not any(self.lex.noun([word]) for word in self.words(subject))
        if subject.pos_ != "NOUN" or (articles and not the) or subject.ent_type_:
            return None, None
        owner = self.possessor(subject)
        if owner not in (None, SELF, PROJECT):
            return None, None
        return normalise(" ".join(self.words(subject))), owner or PROJECT

    def verb_attribute(self, lemma: str, preps: dict[str, Any]) -> str | None:
        for prep in preps:
            found = self.lex.verbs.get(f"{lemma} {prep}")
            if found and found not in {"location", "employer"}:
                return found
        return None


def ending_verb(lemma: str) -> bool:
    """Whether a verb ends what it is said of: a listed ending, or a verb no rule reads by name whose
    WordNet senses end a thing held ("we axed Hulu", "I junked the old printer", "Tom relinquished the chair").
    What it ends is only a value the user holds (facts._resolved), so an unlisted verb read too widely
    ends nothing the user never said."""
    return lemma in ENDING_VERBS or (lemma not in LISTED_VERBS and senses.ends(lemma))


def _stranded_object(prep: Any) -> Any | None:
    """The name right after a preposition with no object, which the tagger called punctuation and hung on the
    verb ("settled on RabbitMQ/PUNCT", "decided on RabbitMQ/X", "on RabbitMQ/ADV/punct"): the preposition's object.
    Only after a verb of choosing, where a choice is what follows ("test builds on CircleCI/punct" is a noun phrase)."""
    if lemma(prep.head) not in CHOICE_VERBS | INTENT_VERBS:
        return None
    following = prep.nbor(1) if prep.i + 1 < len(prep.doc) else None
    if following is None or following.head.i != prep.head.i or not any(ch.isalpha() for ch in following.text):
        return None
    return following if following.dep_ == "punct" or (following.dep_ == "dep" and following.pos_ in {"PUNCT", "X"}) else None


def _membership(words: list[str]) -> tuple[str, str] | None:
    """("netflix subscription", "Netflix") for the words "Netflix subscription": a thing held by its name."""
    if len(words) > 1 and words[-1].lower() in MEMBERSHIPS:
        name = " ".join(words[:-1])
        return f"{normalise(name)} {words[-1].lower()}", name
    return None


def _household(claim: Claim) -> Claim:
    """"We moved to Denver", "our landlord": what a household shares is the user's own."""
    if claim.subject == PROJECT and claim.attribute in HOUSEHOLD:
        return Claim(SELF, claim.attribute, claim.value, claim.old, claim.decision)
    return claim


def rationale(verb: Any) -> str | None:
    """Why: "because/since/as ..." clauses, "due to/because of ..." phrases, and "A, so B" (A is why)."""
    # A name parsed as a verb ("to Render because of pricing") carries the clause's reason.
    named = [t for t in verb.children if t.dep_ == "xcomp" and t.is_title and any(c.lower_ == "to" for c in t.children)]
    for child in [*verb.children, *(c for t in named for c in t.children)]:
        if child.dep_ == "advcl" and any(t.dep_ == "mark" and t.lower_ in RATIONALE_MARKERS for t in child.children):
            words = [t for t in child.subtree if not (t.dep_ == "mark" and t.head.i == child.i)]
            return _span_text(words)
        if child.dep_ == "prep" and child.lower_ in {"due", "because"}:
            words = [t for t in child.subtree if t.i != child.i and not (t.dep_ in {"pcomp", "prep"} and t.lower_ in {"to", "of"})]
            return _span_text(words)
    # "we've decided to move login to Clerk because ...": the reason of what was decided is the decision's.
    planned = next((t for t in verb.children if t.dep_ == "xcomp" and t.pos_ == "VERB"), None)
    if planned is not None and lemma(verb) in INTENT_VERBS:
        reason = rationale(planned)
        if reason:
            return reason
    if any(t.dep_ == "mark" and t.lower_ == "so" for t in verb.children):
        reason = next((t for t in verb.children if t.dep_ in {"ccomp", "advcl"} and t.i < verb.i), None)
        if reason is not None:
            words = [t for t in reason.subtree if t.dep_ != "dep" or t.head.i != reason.i]
            text = _span_text([t for t in words if not (t.i < reason.i and any(w.text == ":" for w in words if w.i > t.i))])
            return text
    return None


def _span_text(words: list[Any]) -> str | None:
    """The words as the text said them (its own spacing), one line."""
    if not words:
        return None
    ordered = sorted(words, key=lambda t: t.i)
    text = "".join(t.text_with_ws for t in ordered)
    return " ".join(text.split()).strip(" ,.:;") or None


def fact_of(claim: Claim, text: str, about: list[str], reason: str | None, triple: dict[str, Any]) -> ExtractedFact:
    """The claim as a statement in slot "<subject>/<attribute>", holding its value ("" for an ending)."""
    names = [n for n in (claim.subject, claim.value, claim.old) if n]
    seen = {normalise(n) for n in names}
    return ExtractedFact(
        text=text,
        kind="decision" if claim.decision or reason else "fact",
        slot=f"{normalise(claim.subject)}/{claim.attribute}" + (normalise(claim.old or "") if claim.attribute in (HELD, HELD_HERE) else ""),
        about=list(dict.fromkeys(names + [name for name in about if normalise(name) not in seen])),
        rationale=reason,
        value=claim.value or "",
        kept=claim.kept,
        **triple,
    )


def placed(fact: ExtractedFact, project: str | None) -> ExtractedFact:
    """The statement with PROJECT replaced by the session's project (project_holder)."""
    return _swapped(fact, PROJECT, project_holder(project)) if _mentions(fact, PROJECT) else fact


def project_holder(project: str | None) -> str:
    """Who "we" are in a session: its project, or "our team" in a session of no project."""
    return project or "our team"


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
                  and normalise(t) not in {normalise(p) for p in people}]
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
        "slot": normalise(name) + fact.slot[len(marker):] if fact.slot.startswith(marker + "/") else fact.slot,
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
    subject, attribute = normalise(subject), normalise(attribute)
    if not subject or not attribute or junk_name(subject):
        return ""
    subject = SELF if subject in SELF_WORDS else PROJECT if subject in PROJECT_WORDS else subject
    spaced = normalise(attribute.replace("_", " ").replace("-", " "))
    return f"{subject}/{lex.nouns.get(attribute) or lex.nouns.get(spaced) or attribute}"


def normalised(fact: ExtractedFact, lex: Lexicon) -> ExtractedFact | None:
    """Another backend's statement with this backend's subjects, attributes and quality gate, or None
    when nothing of it passes (its text is empty, or all it is about is junk)."""
    text = " ".join(fact.text.split())
    if not text:
        return None

    def who(name: str) -> str:
        low = normalise(name)
        return SELF if low in SELF_WORDS else PROJECT if low in PROJECT_WORDS else name.strip()

    about = [who(name) for name in fact.about if not junk_name(name) or normalise(name) in SELF_WORDS | PROJECT_WORDS]
    slot = slot_of(fact.slot, lex) if fact.slot else ""
    if slot and slot.split("/")[0] not in {normalise(name) for name in about}:
        about.insert(0, slot.rsplit("/", 1)[0])
    return fact.model_copy(update={
        "text": text, "slot": slot, "about": list(dict.fromkeys(about)),
        "rationale": " ".join(fact.rationale.split()) if fact.rationale else fact.rationale,
    })
