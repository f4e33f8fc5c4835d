"""What a value is: the attribute a noun phrase names (attribute_of), the attribute a value is a value of
(kind: listed, by its entity label, by WordNet or the embedder), a job, a subscription held by its name."""

from __future__ import annotations

from typing import Any

from sessions_graph_core.reconcile import frames, senses
from sessions_graph_core.reconcile.lexicon import HOUSEHOLD, RELATIONAL, nearest_kind
from sessions_graph_core.reconcile.reading.words import INDEFINITE, MEMBERSHIPS, TEAM_WORDS
from sessions_graph_core.reconcile.statements import PROJECT, SELF, Claim
from sessions_graph_core.reconcile.tokens import no_verb, person_like
from sessions_graph_core.text import comparable


class Values:
    """What a value is (methods of the Reader, reader.py)."""

    def kind(self, token: Any | None, guess: bool = True) -> str | None:
        """The attribute a value is a value of: listed, by its entity label, or (`guess`) nearest by the embedder."""
        if token is None:
            return None
        text = self.phrase(token)
        listed = self.lex.values.get(comparable(text)) or self.lex.values.get(token.lower_) or self.lex.model(text)
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
            # a job is said of a person, and only as "is a <job>" (see occupation): the embedder puts
            # "pleased", "patient" or "pending" nearest a job, which no one is by being so.
            # An adjective is a value only where listed ("vegan"): "quick" is near a CDN's name by its letters.
            meant = senses.kind(text, self.lex.kinds.items())
            near = meant if meant and meant != "occupation" else nearest_kind(text) if token.pos_ != "ADJ" else None
            return near if near != "occupation" else None
        return None

    def attribute_of(self, token: Any) -> tuple[str, str | None] | None:
        """(attribute, slot subject) when the noun phrase names an attribute: "the orders service database",
        "my manager", "ownership of the orders service", "our CI"; the subject may be None (not said)."""
        nominal = token is not None and (token.pos_ in {"NOUN", "PROPN"} or token.dep_ in {"pobj", "dobj", "nsubj", "nsubjpass"})
        if not nominal:
            return None
        found = self.lex.noun(self.words(token))
        if not found or (token.pos_ == "PROPN" and comparable(self.phrase(token)) in self.lex.values):
            return None  # "Google Analytics" is a value of analytics, not the analytics of Google
        if self.our_group(token):
            return None  # "the (whole) company is on Teams": the company is us, not whom we work for
        attribute, rest = found
        holder = self.of_object(token)
        if rest and holder is not None and attribute in RELATIONAL:
            return " ".join(self.words(token)), self.name(holder)  # the whole role: "product manager" of X
        if rest and attribute in RELATIONAL and self.lex.values.get(comparable(" ".join(self.words(token)))) == "occupation":
            # "our product manager" is a role of ours (a job title), not the manager of a product
            return " ".join(self.words(token)), self.possessor(token)
        if rest and self.possessor(token) == SELF and not any(t.pos_ == "PROPN" for t in token.lefts):
            # "my work laptop": a laptop of mine, not of "work"; "my home city" is my home
            same = (self.lex.noun(rest) or ("", []))[0] == attribute
            return (attribute if same else f"{' '.join(rest)} {attribute}"), SELF
        if rest and set(rest) <= TEAM_WORDS and self.possessor(token) in (PROJECT, None) and attribute not in HOUSEHOLD:
            # "our team wiki", "the team wiki": ours, as "the team" is ("our company bank" is no household's)
            return attribute, PROJECT
        if rest and not self.describes(token, rest):
            return attribute, " ".join(rest)
        if holder is not None:
            return attribute, self.name(holder)
        return attribute, self.possessor(token)

    def describes(self, token: Any, words: list[str]) -> bool:
        """Whether the words before an attribute's noun only say what was done to it ("the shared database",
        "a supported platform"): no holder of it. An adjective may name one ("the mobile lead" is the mobile
        team's); a count or rank stays, to be refused as a holder ("the other machine": statements.counted)."""
        said = {t.lower_: t for t in token.lefts}
        return all(w in said and said[w].pos_ in {"ADJ", "VERB"} and (said[w].tag_ == "VBN" or w.endswith("ed"))
                   for w in words)

    def of_object(self, token: Any) -> Any | None:
        for child in token.children:
            if child.dep_ == "prep" and child.lower_ in {"of", "for"}:
                return next((t for t in child.children if t.dep_ == "pobj"), None)
        return None

    def place_in(self, token: Any) -> Any | None:
        """The place a thing said to be somewhere is in ("a flat in San Jose", "a little flat in Leeds")."""
        return next((o for c in token.children if c.dep_ == "prep" and c.lower_ in {"in", "at"}
                     for o in c.children if o.dep_ == "pobj" and self.kind(o) == "location"), None)

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

    def job_as(self, subject: Any, who: str | None, preps: dict[str, Any]) -> Claim | None:
        """The job a clause of employment names with "as" ("I joined Acme as a designer", "I work for
        Globex as a nurse"): the person's occupation, by the same test as "I'm a designer"."""
        role = preps.get("as")
        if role is None or not who or not self.occupation(subject, who, role):
            return None
        return Claim(who, "occupation", self.phrase(role))

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
            return f"{comparable(kind)} {words[-1].lower()}", name
        if (membership := membership_of(words)) is not None:
            return membership
        if plain and token.pos_ == "PROPN":
            name = self.phrase(token)
            return f"{comparable(name)} subscription", name
        return None


def membership_of(words: list[str]) -> tuple[str, str] | None:
    """("netflix subscription", "Netflix") for the words "Netflix subscription": a thing held by its name."""
    if len(words) > 1 and words[-1].lower() in MEMBERSHIPS:
        name = " ".join(words[:-1])
        return f"{comparable(name)} {words[-1].lower()}", name
    return None
