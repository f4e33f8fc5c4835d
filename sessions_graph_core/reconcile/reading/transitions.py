"""Transitions: a change of value by a generic verb ("use", "switch to", "move to", "replace A with B"),
naming the old value where it says it ("from A to B", "off A"); its slot is the one the clause names ("as",
"for", the thing moved), else the one the kind of its values fills, else the thing routed or switched."""

from __future__ import annotations

from typing import Any

from sessions_graph_core.reconcile.lexicon import RELATIONAL, singular
from sessions_graph_core.reconcile.reading.clause import Clause
from sessions_graph_core.reconcile.reading.words import (
    ASPECT_VERBS,
    CHOICE_VERBS,
    GENERIC_VERBS,
    KEEP_VERBS,
    ROUTE_VERBS,
    SOURCE_VERBS,
    SWITCH_VERBS,
    TRADE_VERBS,
    TRANSITION_NOUNS,
)
from sessions_graph_core.reconcile.statements import HELD, PROJECT, SELF, Claim
from sessions_graph_core.reconcile.tokens import a_time, a_value, name_like
from sessions_graph_core.text import comparable


class Transitions:
    """The steps that read a change of value (methods of the Reader, reader.py)."""

    def transition_noun(self, c: Clause) -> list[Claim] | None:
        """"We finished the move from Oracle to PostgreSQL": the noun of a change moves as its verb does."""
        dobj = c.dobj
        if dobj is not None and self.lemma(dobj) in TRANSITION_NOUNS and c.lemma in ASPECT_VERBS | {"do", "make", "plan"}:
            return self.generic(dobj, "move", c.subject, c.who, None, self.preps(dobj), c.negated, c.decider)
        return None

    def generic_verb(self, c: Clause) -> list[Claim] | None:
        if c.lemma in GENERIC_VERBS:
            return self.generic(c.verb, c.lemma, c.subject, c.who, c.dobj, c.preps, c.negated, c.decider)
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
                said = self.attribute_of(preps[word])
                # A noun said bare names the slot, with words of its own kind before it too ("for screen
                # recordings"); a name before it makes it a thing of that name's ("for Acme accounts").
                bare = word == "for" and preps[word].pos_ == "NOUN" and not any(
                    t.dep_ in {"det", "poss"} or (t.dep_ == "compound" and t.pos_ != "NOUN") for t in preps[word].children)
                owned = self.possessor(preps[word]) if word == "as" else None
                if said:
                    role = said
                elif owned in (SELF, PROJECT) and preps[word] is not new:  # "as our API gateway"
                    role = (comparable(" ".join(self.words(preps[word]))), owned)
                elif bare and named is None and preps[word] is not new:
                    # "we use Loom for screen recordings": the screen recordings slot; where the subject
                    # names the slot ("our CI switched to Buildkite for cost") the bare noun says why
                    role = (comparable(" ".join(self.words(preps[word]))), None)
                elif word == "for" and thing is None and preps[word] is not new:
                    thing = preps[word]
        if thing is not None and role is None:
            said = self.attribute_of(thing)
            if said:
                role, thing = said, None
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

    def verb_attribute(self, lemma: str, preps: dict[str, Any]) -> str | None:
        for prep in preps:
            found = self.lex.verbs.get(f"{lemma} {prep}")
            if found and found not in {"location", "employer"}:
                return found
        return None
