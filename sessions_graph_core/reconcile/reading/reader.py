"""The clause reader: one spaCy clause read into Claims (subject, attribute, value, old value) in slots.

A clause fills a slot when
- a noun names the attribute: "my manager is Priya" (copula.py), "we use Postgres as the orders service
  database" (values.attribute_of);
- a verb states it: "I live in Porto", "Alice owns the orders service" (inverse: the slot is on the object)
  (verbs.py); a role is taken, handed over or filled: "Lena took over the platform team" (roles.py);
- a generic verb ("use", "switch to", "move to", "replace A with B") takes a value whose kind is an
  attribute's: listed, or nearest by the embedder to an attribute's examples (CockroachDB ~ Postgres).
Transitions name the old value ("from A to B", "off A", "replaced A with B", "took over from A":
transitions.py); endings ("stopped using A", "no longer runs on A", "stepped down as lead of X", "sold A":
endings.py) fill the slot with no value, which supersedes what held it. Multi-valued statements (likes,
visits) never get a slot here. Who a clause is about is subjects.py's; what kind a value is, values.py's.

The Reader is one class, a mixin per concern. Mixins rather than functions that take the reader: the
concerns call each other both ways (a subject's name asks whether its noun names an attribute, which asks
whose the noun is), so as modules of functions they would import each other in circles; as mixins only
this module imports them, and each method's `self` is the one Reader, with its lexicon and the entity in
focus. _claims runs the steps in order; the first that reads a clause says its claims.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from sessions_graph_core.reconcile import senses
from sessions_graph_core.reconcile.lexicon import (
    HOUSEHOLD,
    JOBS,
    PERSONAL,
    Lexicon,
    common_words,
    holds,
    holds_names,
    listed,
    no_noun_word,
)
from sessions_graph_core.reconcile.nlp import lemma
from sessions_graph_core.reconcile.reading.clause import Clause
from sessions_graph_core.reconcile.reading.copula import Copulas
from sessions_graph_core.reconcile.reading.endings import Endings, ending_verb
from sessions_graph_core.reconcile.reading.roles import Roles
from sessions_graph_core.reconcile.reading.subjects import Subjects
from sessions_graph_core.reconcile.reading.transitions import Transitions
from sessions_graph_core.reconcile.reading.values import Values
from sessions_graph_core.reconcile.reading.verbs import Verbs
from sessions_graph_core.reconcile.reading.words import (
    ADDING_ADVERBS,
    CHOICE_VERBS,
    DECIDERS,
    DECISION_NOUNS,
    ENDING_PARTICLES,
    ENDING_VERBS,
    FINDING_VERBS,
    GROUP_NOUNS,
    INTENT_VERBS,
    LISTED_VERBS,
    PHRASAL_ENDINGS,
    REFERRING_WORDS,
    SWITCH_VERBS,
    TEAM_WORDS,
    TRADE_VERBS,
)
from sessions_graph_core.reconcile.statements import (
    DEMONSTRATIVES,
    HELD,
    HELD_HERE,
    PROJECT,
    SELF,
    Claim,
    code_name,
    counted,
    junk_name,
    names_nothing,
    things_hold,
)
from sessions_graph_core.reconcile.tokens import (
    FIRST_PLURAL,
    as_well,
    continuity_cue,
    direct_object,
    everyone,
    fragment,
    mistagged,
    name_read_as_verb,
    no_verb,
    nobody,
    own_clause,
)
from sessions_graph_core.text import comparable


@dataclass
class Reader(Subjects, Values, Copulas, Endings, Roles, Transitions, Verbs):
    """Reads one text's clauses; keeps the entity in focus for the pronouns that follow."""

    lex: Lexicon
    lemma: Callable[[Any], str]
    focus: dict[str, str] = field(default_factory=dict)
    # The last clause's ending, for a clause coordinated with it ("cancelled Spotify and switched to X").
    ended: tuple[int, Claim] | None = None
    # Whether the last clause read named slots that all held no value of their kind ("CI is slow (9 min)"):
    # its statement goes on in no slot.
    refused: bool = False

    def claims(self, verb: Any, subject: Any | None) -> list[Claim]:
        """The slotted claims of one clause (a verb and its subject, inherited when coordinated)."""
        self.refused = False
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
        if subject is not None and not self.a_person(subject):
            # A job and an employer are a person's: "people can join a waitlist", "the query joins `cook_log`",
            # "each job starts on a clean machine" hold neither.
            said = [claim for claim in said if claim.attribute not in JOBS
                    or claim.subject not in (self.name(subject), PROJECT)]
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
        if not found:
            return found  # most clauses claim nothing: no need to read which of their nouns name nothing
        pointed, unnamed = self.pointed_at(verb), self.no_names(verb)
        named = [c for c in found if c.subject and not junk_name(c.subject) and not counted(c.subject)
                 and not names_nothing(c.attribute, c.value)
                 and (c.value is None or not junk_name(c.value)) and not self.refers_back(verb, c)]
        kept = [c for c in named if _fits(c, pointed, unnamed) and not self.described_as_ours(c, verb, subject)]
        self.refused = bool(named) and not kept
        return kept

    def described_as_ours(self, claim: Claim, verb: Any, subject: Any | None) -> bool:
        """Whether the claim makes what the clause describes ("The distribution is informative.", "Usually day 1
        is overconfident.", "The feeling was unreal.") an attribute of ours: its subject's own words as an
        attribute no list names, no name as its value, and no "we", "our" or "team" in the sentence. That the
        thing is the team's is the reader's guess from "the", which a name of a tool or service bears out ("the
        crm is on pipedrive now") and a description does not."""
        if claim.subject != PROJECT or subject is None or claim.attribute in self.lex.nouns.values():
            return False
        own_words = set(self.words(subject))
        return (set(claim.attribute.split()) <= own_words and _no_thing_named(claim.value)
                and not any(t.lower_ in FIRST_PLURAL or self.lemma(t) in TEAM_WORDS for t in verb.sent))

    def no_names(self, verb: Any) -> set[str]:
        """The clause's common nouns said with an article or a possessive, in lower case and with no figure
        ("the thing", "no shell", "my list"; not "a framework 13"): no name of a product, tool or provider,
        which is said bare ("notion", "railway")."""
        return {name for t in own_clause(verb) if t.pos_ == "NOUN" and any(d.dep_ in {"det", "poss"} for d in t.children)
                and (name := self.name(t)) and common_words(name)}

    def pointed_at(self, verb: Any) -> set[str]:
        """The holders the clause names only by pointing ("that box", "these files"): which box, only the
        conversation says, so no slot of theirs is filled ("Nobody on the team owns that box")."""
        return {name for t in own_clause(verb) if t.pos_ in {"NOUN", "PROPN"} and any(
            d.dep_ == "det" and d.lower_ in DEMONSTRATIVES for d in t.children) and (name := self.name(t))
            and name not in (SELF, PROJECT)}

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
        head = comparable(claim.value).split()[-1]
        return any(t.lower_ in REFERRING_WORDS and t.dep_ == "amod" and t.head.lower_ == head for t in verb.subtree)

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
                    found.setdefault(word, self.of_a_count(obj))
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

    def of_a_count(self, token: Any) -> Any:
        """What "a couple of", "a bunch of", "a handful of" counts ("on a couple of Hetzner boxes": the boxes):
        a count or a group said with "a" and "of" is no value; what it is of, is."""
        of = next((t for c in token.children if c.dep_ == "prep" and c.lower_ == "of"
                   for t in c.children if t.dep_ == "pobj"), None)
        a_count = token.pos_ == "NOUN" and any(t.dep_ == "det" and t.lower_ in {"a", "an"} for t in token.children)
        if of is None or not a_count or senses.sense_file(token.lower_) not in {"noun.group", "noun.quantity"}:
            return token
        return of

    def negated(self, verb: Any) -> bool:
        for child in verb.children:
            if child.dep_ == "neg":
                return True
            if child.lower_ in {"longer"} and any(t.lower_ in {"no", "any"} for t in child.children):
                return True
        return False


def _stranded_object(prep: Any) -> Any | None:
    """The name right after a preposition with no object, which the tagger called punctuation and hung on the
    verb ("settled on RabbitMQ/PUNCT", "decided on RabbitMQ/X", "on RabbitMQ/ADV/punct"): the preposition's object.
    Only after a verb of choosing or switching, where a choice is what follows ("test builds on CircleCI/punct" is
    a noun phrase)."""
    if lemma(prep.head) not in CHOICE_VERBS | INTENT_VERBS | SWITCH_VERBS:
        return None
    following = prep.nbor(1) if prep.i + 1 < len(prep.doc) else None
    # hung on the verb, or on the verb that takes it ("decided to move X to CockroachDB/punct")
    if following is None or following.head.i not in {prep.head.i, prep.head.head.i} or not any(ch.isalpha() for ch in following.text):
        return None
    return following if following.dep_ == "punct" or (following.dep_ == "dep" and following.pos_ in {"PUNCT", "X"}) else None


def _fits(claim: Claim, pointed: set[str], unnamed: set[str]) -> bool:
    """Whether a claim's holder is one the clause names and its value is of the slot's kind: no holder said only
    by pointing (`pointed`), no code name holding what a thing cannot, no code name as the attribute, and no
    value of another kind (lexicon.holds), nor a common noun said with an article (`unnamed`) where the slot
    holds names."""
    if claim.subject in pointed or code_name(claim.attribute) or not holds(claim.attribute, claim.value):
        return False
    if code_name(claim.subject) and not things_hold(claim.attribute):
        return False
    return not (claim.value in unnamed and holds_names(claim.attribute) and not listed(claim.value))


def _no_thing_named(value: str | None) -> bool:
    """No value, common words ("scarcest thing"), or a word the dictionary knows but not as a noun ("informative",
    "unreal"): what describes, not a tool's name ("pipedrive") nor a figure ("16.6 ms")."""
    return not value or common_words(value) or no_noun_word(value)


def _household(claim: Claim) -> Claim:
    """"We moved to Denver", "our landlord": what a household shares is the user's own."""
    if claim.subject == PROJECT and claim.attribute in HOUSEHOLD:
        return Claim(SELF, claim.attribute, claim.value, claim.old, claim.decision)
    return claim
