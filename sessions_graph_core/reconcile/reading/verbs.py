"""Verbs that state an attribute: those attributes.toml lists ("I live in Porto"; inverse: "Alice owns the
orders service"), serving and providing ("Stripe processes our payments"), having, paying for and renting,
schedules, habits, sending through a service; an inner verb ("decided to host A"); and a clause no rule
reads, by the frame the embedder puts it nearest (framed)."""

from __future__ import annotations

from typing import Any

from sessions_graph_core.reconcile import frames, senses
from sessions_graph_core.reconcile.lexicon import PERSONAL, RELATIONAL, base_attributes, nearest_kind
from sessions_graph_core.reconcile.reading.clause import Clause
from sessions_graph_core.reconcile.reading.endings import ending_verb
from sessions_graph_core.reconcile.reading.words import (
    ARRIVALS,
    ASPECT_VERBS,
    CHOICE_VERBS,
    FRAMED_BY_RULES,
    GROUP_NOUNS,
    HABIT_VERBS,
    INTENT_VERBS,
    PROVIDE_VERBS,
    RENT_VERBS,
    RESCHEDULE_VERBS,
    SEND_PREPOSITIONS,
    SEND_VERBS,
    SERVE_VERBS,
    SUBSCRIBE_VERBS,
    WHATEVER_WE_DO,
)
from sessions_graph_core.reconcile.statements import HELD, PROJECT, SELF, Claim
from sessions_graph_core.reconcile.tokens import FIRST_PERSON, FIRST_PLURAL, a_name, a_time, a_value, own_clause
from sessions_graph_core.text import comparable


class Verbs:
    """The steps that read what a verb states (methods of the Reader, reader.py)."""

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
            return [Claim.said(c.who, f"{comparable(thing)} rental", thing, c.negated)]
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

    def serving(self, c: Clause) -> list[Claim] | None:
        # "Airflow orchestrates the data pipeline", "CircleCI runs our builds": a name of a listed kind
        # serving a thing is that thing's value of that kind (listed: the tagger often calls it X or ADV).
        subject, dobj = c.subject, c.dobj
        serving = self.kind(subject, guess=False) if c.lemma in SERVE_VERBS and subject is not None and subject.pos_ != "PRON" else None
        if serving and serving not in RELATIONAL and dobj is not None and dobj.pos_ in {"NOUN", "PROPN"} and not c.passive \
                and comparable(self.phrase(dobj)) not in self.lex.values:
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
        if attribute == "location" and self.kind(value_token) != "location" and not self.place_tagged_a_person(value_token):
            # "moved into a flat in San Jose": the place is the home's
            value_token = self.place_in(value_token) or (None if c.lemma in {"move", "settle", "stay"} else value_token)
            if value_token is None:
                return None
        job = self.job_as(subject, who, c.preps) if attribute == "employer" and not negated else None
        if attribute == "employer" and c.lemma == "join" and job is None and (
                value_token.ent_type_ not in {"ORG", "PRODUCT", "GPE", ""} or not a_name(value_token)):
            return None  # one joins a person, "a waitlist" or "the trip" too; one joined as a designer is an employer
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

    def place_tagged_a_person(self, token: Any) -> bool:
        """Whether a name that a verb of living or moving places someone in, which the tagger calls a person, is a
        place by the embedder ("we moved to York on Saturday" tags York a PERSON): a person's name is never
        guessed a kind (Values.kind), but no one lives in or moves to a person ("Graphite" stays no place)."""
        return token.pos_ == "PROPN" and token.ent_type_ == "PERSON" and nearest_kind(self.phrase(token)) == "location"

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
                and senses.people(self.lemma(subject)) != "person" and comparable(self.phrase(dobj)) not in self.lex.values:
            # "Octopus supplies our electricity now": a name serving a thing of ours is what that thing is,
            # as "our electricity is Octopus" says, whatever word names it
            served = (comparable(" ".join(self.words(dobj))), self.possessor(dobj))
        if served and served[0] not in RELATIONAL and subject.ent_type_ != "PERSON" and (subject.pos_ == "PROPN" or subject.is_title):
            return [Claim.said(served[1] or PROJECT, served[0], who, c.negated)]
        return None

    def served_by_agent(self, c: Clause) -> list[Claim] | None:
        agent = c.preps.get("by") if c.passive else None
        served = self.attribute_of(c.subject) if agent is not None and agent.pos_ == "PROPN" else None
        if served and served[0] not in RELATIONAL and agent.ent_type_ != "PERSON":
            return [Claim(served[1] or PROJECT, served[0], None if c.negated else self.name(agent))]
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

    def habit(self, c: Clause) -> list[Claim] | None:
        # "I drink coffee every morning", "I play tennis on Sundays": a habit, one slot per thing, which
        # "I gave up coffee" and "I stopped playing tennis" end; "I drink tea" is another habit, not a change.
        dobj = c.dobj
        if (c.lemma in HABIT_VERBS and dobj is not None and dobj.pos_ == "NOUN" and (c.verb.tag_ in {"VBP", "VBZ"} or c.verb.dep_ == "xcomp")
                and c.who and self.kind(dobj, guess=False) is None and not any(t.dep_ == "det" for t in dobj.children)):
            thing = comparable(self.phrase(dobj))
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
            # The value of this verb, not of a verb inside its clause ("I agreed, keep Riverpod": keeping is
            # not agreeing, and "I agreed, keep something" is no frame of anything).
            value = next((t for t in clause if t.i > verb.i and a_value(t) and _hangs_on(t, verb)
                          and t.dep_ in {"dobj", "attr", "pobj", "oprd", "appos"}), None)
            holder = self.name(subject)
        if value is None or not holder or self.lex.noun(self.words(value)):
            return []  # "Home is where I live": the attribute's own word is no value of it
        if self.of_a_group(value, verb):
            # "I'm on the billing team at Kestrel Freight": the value is the team's, and the words before
            # "team" say which team it is, not what the holder's payments (or any slot of theirs) hold.
            return []
        span = {t.i for t in value.subtree}
        masked = [frames.MASK if t.i == value.left_edge.i else t.text for t in clause
                  if t.i not in span or t.i == value.left_edge.i]
        attribute = frames.classify(" ".join(masked))
        if not attribute or attribute in FRAMED_BY_RULES or (attribute in PERSONAL and holder == PROJECT):
            return []  # "the company is on Teams": a group has no employer, home or job by the embedder's guess
        if attribute == "location" and not self.said_by_its_verbs(attribute, clause):
            # "I agreed to keep Riverpod" is near "I stay in something", but keeping is no staying. A home is
            # said by a verb of living or moving; a job in many idioms the list lacks ("Acme took me on").
            return []
        named = self.name(value)
        if not named or comparable(named) == comparable(holder):
            return []
        negated = self.negated(verb)
        return [Claim.said(holder, attribute, named, negated)]

    def of_a_group(self, value: Any, verb: Any) -> bool:
        """Whether the value hangs on the verb through a group noun ("on the billing team at X")."""
        token = value.head
        while token.i != verb.i and token.head.i != token.i:
            if token.pos_ in {"NOUN", "PROPN"} and self.lemma(token) in GROUP_NOUNS:
                return True
            token = token.head
        return False

    def said_by_its_verbs(self, attribute: str, clause: list[Any]) -> bool:
        """Whether a verb of the clause is one the attribute lists ("live", "move", "be based" for a home):
        what one is said to do, not what the embedder finds near it."""
        listed = {phrase.removeprefix("be ").split()[0] for phrase, named in self.lex.verbs.items() if named == attribute}
        return any(t.pos_ in {"VERB", "AUX"} and {self.lemma(t), t.lower_} & listed for t in clause)


def _hangs_on(value: Any, verb: Any) -> bool:
    """Whether a value is the verb's own: no other verb between them ("I agreed, keep Riverpod": the value is
    keeping's, a step said inside the clause), except a clause the verb takes with a subject of its own ("I
    get my teeth checked by Dr. Chen") or the verb's own subject ("I'm gonna stay in Galway": "to"/"na")."""
    token = value.head
    while token.i != verb.i and token.head.i != token.i:
        taken = token.dep_ in {"ccomp", "xcomp"} and any(
            t.dep_ in {"nsubj", "nsubjpass"} or (t.dep_ == "aux" and t.tag_ == "TO") for t in token.children)
        if token.pos_ in {"VERB", "AUX"} and not taken:
            return False
        token = token.head
    return token.i == verb.i
