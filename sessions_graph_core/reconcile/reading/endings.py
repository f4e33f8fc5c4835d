"""Endings: a clause that leaves a slot with no value, which supersedes what it held ("stopped using A",
"cancelled my gym membership", "we got rid of New Relic", "my membership expired", "stepped down as lead
of X", "I don't watch Netflix anymore"), and a decision taken back ("we scrapped the plan to use Kafka")."""

from __future__ import annotations

from typing import Any

from sessions_graph_core.reconcile import senses
from sessions_graph_core.reconcile.lexicon import RELATIONAL
from sessions_graph_core.reconcile.reading.clause import Clause
from sessions_graph_core.reconcile.reading.values import membership_of
from sessions_graph_core.reconcile.reading.words import (
    DECISION_NOUNS,
    ENDING_VERBS,
    GROUP_NOUNS,
    LAPSE_VERBS,
    LISTED_VERBS,
    MEMBERSHIPS,
    REVERSING_PARTICLES,
    REVERSING_VERBS,
    TRADE_VERBS,
    TRANSITION_NOUNS,
)
from sessions_graph_core.reconcile.statements import HELD, HELD_HERE, PROJECT, SELF, Claim
from sessions_graph_core.reconcile.tokens import a_name, direct_object, named_in, own_clause, person_like, proper_name
from sessions_graph_core.text import comparable


class Endings:
    """The steps that read an ending (methods of the Reader, reader.py)."""

    def let_go_of(self, c: Clause) -> list[Claim] | None:
        let_go = self.let_go(c.verb, c.lemma)
        if let_go is not None and c.subject is not None and a_name(let_go):  # "I've let The Economist go"
            return [Claim(self.name(c.subject), HELD, None, self.name(let_go))]  # what held it ends, by no kind guessed
        return None

    def let_go(self, verb: Any, lemma: str) -> Any | None:
        """The thing a verb and its bare-infinitive complement end together, as WordNet's phrasal verb says
        ("let The Economist go": let_go); None for any other clause."""
        done = next((t for t in verb.children if t.dep_ in {"ccomp", "xcomp"} and t.pos_ == "VERB"), None)
        if done is None or lemma in LISTED_VERBS or direct_object(done) is not None or not senses.ends(f"{lemma}_{self.lemma(done)}"):
            return None
        return next((t for t in [*done.children, *verb.children] if t.dep_ in {"nsubj", "dobj"}), None)

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
        named = {comparable(self.phrase(t)) for t in inner.subtree if t.pos_ == "PROPN"}
        return claims + [Claim(c.subject, HELD, None, c.old) for c in claims
                         if c.old and (c.attribute.rpartition(" ")[2] in MEMBERSHIPS or comparable(c.old) in named)
                         and c.attribute != HELD]

    def taken_back(self, c: Clause) -> list[Claim] | None:
        reversed_choice = self.reversed_choice(c.verb, c.lemma, c.dobj)
        if reversed_choice is not None and c.who and c.decider:
            # "we scrapped the plan to use Kafka", "we reversed the Terraform decision", "we abandoned the move
            # to Kafka": the choice taken back ends whatever slot held it
            return [Claim(c.who, HELD, None, reversed_choice, decision=True)]
        return None

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

    def rid_of(self, c: Clause) -> None:
        """"We got rid of New Relic": an ending of its object, which the steps after this read as "dropped"."""
        if c.lemma == "rid" and "of" in c.preps:
            c.lemma, c.dobj, c.ends = "drop", c.preps.pop("of"), True

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
            return self.lapsed(membership_of(words), named, self.possessor(dobj) or c.who)
        return None

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

    def ending(self, subject: Any, who: str | None, dobj: Any, preps: dict[str, Any]) -> list[Claim]:
        """"quit keto", "sold my motorbike", "cancelled my FitLife membership", "left Google"."""
        if not who:
            return []
        held = self.attribute_of(dobj)
        if held:
            return [Claim(held[1] or who, held[0], None, None)]
        old = self.phrase(dobj)
        verb = dobj.head
        parted = self.lemma(verb) in {"sell", "scrap", "donate", "trade"} or (  # "sold my motorbike"
            self.lemma(verb) == "give" and any(t.lower_ == "away" for t in verb.children))
        # "I lost my phone" parts with a thing one had; "a build error is silently lost" (read as "we lose ...")
        # or "the response is lost" is no one's.
        parted = parted or (self.lemma(verb) == "lose" and self.possessor(dobj) is not None)
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
            claims.append(Claim(self.possessor(dobj) or who, comparable(" ".join(self.words(dobj))), None, None))
        if who not in (SELF, PROJECT) and person_like(subject) and not parted:
            # "Priya gave up the billing dashboard", "Omar left the search team": whatever role of the thing
            # the person held ends (the thing's slot that holds them: owner, lead, manager ...)
            claims.append(Claim(self.name(dobj), HELD_HERE, None, who))
        return claims

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


def ending_verb(lemma: str) -> bool:
    """Whether a verb ends what it is said of: a listed ending, or a verb no rule reads by name whose
    WordNet senses end a thing held ("we axed Hulu", "I junked the old printer", "Tom relinquished the chair").
    What it ends is only a value the user holds (facts._resolved), so an unlisted verb read too widely
    ends nothing the user never said."""
    return lemma in ENDING_VERBS or (lemma not in LISTED_VERBS and senses.ends(lemma))
