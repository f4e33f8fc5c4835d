"""Who a clause is about: what a token names (SELF, PROJECT, the entity in focus, or its phrase), whom a
pronoun refers to, whose a phrase is, and whose a thing routed or switched is.

First person is the user's own entity (SELF); "we", "our", "the team" are the session's project
(PROJECT); "it", "he", "she", "they" the entity in focus.
"""

from __future__ import annotations

from typing import Any

from sessions_graph_core.reconcile import senses
from sessions_graph_core.reconcile.lexicon import singular
from sessions_graph_core.reconcile.reading.words import GROUP_NOUNS, TEAM_WORDS, USING_VERBS
from sessions_graph_core.reconcile.statements import (
    FOCUS_PRONOUNS,
    OTHER_PRONOUNS,
    PERSON_PRONOUNS,
    PERSON_REF,
    PROJECT,
    SELF,
    THING_REF,
)
from sessions_graph_core.reconcile.tokens import (
    FIRST_PERSON,
    FIRST_PLURAL,
    as_said,
    everyone,
    modifies,
    named_person,
    no_word_of_the_name,
    nobody,
    person_like,
    person_name,
)
from sessions_graph_core.text import comparable


class Subjects:
    """Who a clause is about (methods of the Reader, reader.py)."""

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
        return as_said(tokens).strip(" ,.'") or token.text

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

    def a_person(self, subject: Any) -> bool:
        """Whether a subject is someone: the speaker or us, a pronoun for a person, a name (not an organisation's
        or a product's), or a word for a person ("my brother", "the new hire")."""
        if subject.lower_ in FIRST_PERSON | FIRST_PLURAL | PERSON_PRONOUNS or subject.lower_ in {"they", "them"}:
            return True
        named = subject.pos_ == "PROPN" and subject.ent_type_ not in {"ORG", "PRODUCT"}  # "Marta/GPE left the company"
        return named or named_person(subject) or senses.people(self.lemma(subject)) == "person"

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

    def the_thing(self, token: Any, moved: bool = False) -> bool:
        """A thing said with "the", or bare as a team says what it does ("payroll", "heatmaps"), and nothing
        else to say whose it is ("the helpdesk", not "the design team's helpdesk", "the capital of France",
        "the winner" or "the team"): a subject, or (`moved`) what a switch moves."""
        determiners = [t.lower_ for t in token.children if t.dep_ in {"det", "poss"}]
        return ((token.pos_ == "NOUN" or token.text.isupper()) and token.dep_ in {"nsubj", "nsubjpass", *(("dobj",) if moved else ())}
                and (determiners == ["the"] or (not determiners and token.pos_ == "NOUN"))
                and self.of_object(token) is None and not any(t.dep_ in {"relcl", "acl"} for t in token.children)
                and senses.people(self.lemma(token)) is None and self.lemma(token) not in GROUP_NOUNS | TEAM_WORDS)

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
        return comparable(" ".join(self.words(subject))), owner or PROJECT

    def event(self, subject: Any) -> str | None:
        """The event a schedule is of, one name for "retros" and "our retro"."""
        name = self.name(subject)
        # A plural, however tagged ("Retros/NNP" at the start of a sentence): events are rarely named in -s.
        plural = subject.lower_.endswith("s") and not subject.lower_.endswith("ss") and len(subject.lower_) > 3
        if name and plural and subject.ent_type_ != "PERSON" and name.lower().endswith(subject.lower_):
            return name[: len(name) - len(subject.text)] + singular(subject.lower_)
        return name

    def text_of(self, token: Any | None) -> str | None:
        return self.name(token) if token is not None else None
