""""X is Y", read a step at a time (Copulas._copula): a role said in words ("is in charge of"), a thing
one is on or with, an attribute the subject names, a membership, a role the complement names, a time,
being on call, and else a value of the attribute its kind is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sessions_graph_core.reconcile import senses
from sessions_graph_core.reconcile.lexicon import HOUSEHOLD, PERSONAL, RELATIONAL, leaning_kind
from sessions_graph_core.reconcile.reading.clause import Clause
from sessions_graph_core.reconcile.reading.words import FORMER_WORDS, STATE_VERBS
from sessions_graph_core.reconcile.statements import HELD, PERSON_PRONOUNS, PROJECT, SELF, Claim
from sessions_graph_core.reconcile.tokens import (
    a_duration,
    a_time,
    bare_title,
    describing,
    name_like,
    name_read_as_verb,
    named_person,
    no_verb,
    one_of_a_class,
    person_like,
    proper_name,
    the_role,
)
from sessions_graph_core.text import comparable


@dataclass
class Copula:
    """What a copula's steps read (Copulas._copula): "<subject> is <value>", the value the complement or the
    first preposition's object."""

    subject: Any
    who: str | None
    complement: Any | None
    preps: dict[str, Any]
    negated: bool
    held: tuple[str, str | None] | None  # the attribute the subject names, and whose
    value: Any | None


class Copulas:
    """The copula's steps (methods of the Reader, reader.py)."""

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

    def became(self, c: Clause) -> list[Claim] | None:
        # Becoming: "I went vegan", "she turned vegetarian" (the parser often calls the adjective an object).
        state = c.acomp if c.acomp is not None else c.attr if c.attr is not None else c.dobj
        if c.lemma in STATE_VERBS and state is not None and not any(t.dep_ == "det" for t in state.children):
            return self.copula(c.subject, c.who, state, {}, c.negated)
        return None

    def copula(self, subject: Any, who: str | None, complement: Any | None, preps: dict[str, Any], negated: bool) -> list[Claim]:
        found = self._copula(subject, who, complement, preps, negated)
        value = complement if complement is not None else next(
            (preps[p] for p in ("on", "in", "with") if p in preps), None)
        if found or subject is None or value is None or not self.the_thing(subject) or not proper_name(value) \
                or describing(value):
            return found
        # "the helpdesk is Freshdesk now", "the crm is on pipedrive": where nothing else reads it, the thing
        # we have, as "our helpdesk is" says
        named = self.name(value)
        return [Claim.said(PROJECT, comparable(" ".join(self.words(subject))), named, negated)]

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
            held = (comparable(" ".join(self.words(subject))), self.possessor(subject))
        if held and held[0] == "name" and any(t.dep_ == "poss" and t.lower_ in PERSON_PRONOUNS for t in subject.children):
            # "Her name is Helena" names someone not named before: "her" is no one named already (not the
            # company or the partner named in the sentence before, whose name would then be two names).
            return []
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
            return [Claim.said(s.who, f"{comparable(name)} membership", name, s.negated)]
        return None

    def complement_role(self, s: Copula) -> list[Claim] | None:
        """The complement names a role the subject holds: "James Chen is our new CTO"."""
        subject, complement, who, negated = s.subject, s.complement, s.who, s.negated
        if complement is None or complement.dep_ not in {"attr", "nsubj"}:  # nsubj: see named_first's "Raj/ADV"
            return None
        role = self.attribute_of(complement)
        if role is None and self.possessor(complement) and (subject.pos_ == "PROPN" or subject.is_title):
            role = (comparable(" ".join(self.words(complement))), self.possessor(complement))
        if role is None and (bare_title(complement) or the_role(complement)) and named_person(subject):
            role = (comparable(" ".join(self.words(complement))), PROJECT)  # "Paul became CTO": our CTO
        if role and role[1] and who:  # "James Chen is our new CTO", "Pedro is the new head of marketing"
            return [Claim.said(role[1], role[0], who, negated)]
        if role and role[1] is None and who and self.value_of_role(subject, complement, role[0]):
            return [Claim(SELF if role[0] in PERSONAL | HOUSEHOLD else PROJECT, role[0], None if negated else who)]
        if role and who and subject.pos_ == "PROPN":
            return []
        return None

    def value_missing(self, s: Copula) -> list[Claim] | None:
        """The steps after this read a value said of someone: a copula with neither says nothing more."""
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
        if kind == "schedule" and (a_duration(value_token) or who in (SELF, PROJECT)):
            # "the switch is maybe twenty minutes": how long it takes, not when it is; "until I'm back in
            # December": when one is somewhere is no event's time
            return []
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
        return self.possessor(thing) or who, comparable(" ".join(self.words(thing)))

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
