"""Roles taken over, handed over, or filled by someone new and named ("Lena took over the platform team",
"Raj handed the infra team over to Mei", "we have a new landlord, Mrs. Gomez", "I see Dr. Brooks as my
dentist")."""

from __future__ import annotations

from typing import Any

from sessions_graph_core.reconcile.lexicon import RELATIONAL
from sessions_graph_core.reconcile.reading.clause import Clause
from sessions_graph_core.reconcile.reading.words import (
    FINDING_VERBS,
    GENERIC_VERBS,
    GROUP_NOUNS,
    HAND_VERBS,
    TAKE_VERBS,
)
from sessions_graph_core.reconcile.statements import HELD_HERE, PROJECT, SELF, Claim
from sessions_graph_core.reconcile.tokens import a_new, named_after, person_like
from sessions_graph_core.text import comparable


class Roles:
    """The steps that read a role (methods of the Reader, reader.py)."""

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
            named = (comparable(" ".join(self.words(role_noun))), None) if apposed is not None else None
        if apposed is None and named and named[0] == "employer":  # "I got a job at Microsoft"
            apposed = next((o for prep in role_noun.children if prep.dep_ == "prep" and prep.lower_ in {"at", "with"}
                            for o in prep.children if o.dep_ == "pobj" and o.pos_ == "PROPN"), c.preps.get("at"))
            apposed = apposed if apposed is not None and apposed.pos_ == "PROPN" else None
        return named, apposed

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
            role = held[0] if held else comparable(" ".join(self.words(target)))
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

    def handed_off(self, c: Clause) -> list[Claim] | None:
        if c.lemma == "hand" and c.particle in {"off", "over"} and "to" not in c.preps and c.dobj is not None and c.who:
            return [Claim(self.name(c.dobj), HELD_HERE, None, c.who)]  # "Ana handed off the billing service": to no one said
        return None

    def seen_as(self, c: Clause) -> list[Claim] | None:
        # "I see Dr. Brooks as my dentist now".
        preps, dobj, lemma = c.preps, c.dobj, c.lemma
        role = self.attribute_of(preps.get("as")) if dobj is not None and lemma not in GENERIC_VERBS else None
        owner = self.possessor(preps["as"]) if role is None and "as" in preps and dobj is not None else None
        if owner in (SELF, PROJECT) and lemma not in GENERIC_VERBS:  # "we hired Max as our new designer"
            role = (comparable(" ".join(self.words(preps["as"]))), owner)
        if role and c.who and dobj.pos_ == "PROPN":
            return [Claim(role[1] or c.who, role[0], None if c.negated else self.name(dobj))]
        return None

    def role_of(self, target: Any) -> str:
        """The role someone takes over a thing: a group is led, anything else owned."""
        return "lead" if self.lemma(target) in GROUP_NOUNS else "owner"
