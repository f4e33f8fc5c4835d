"""How a clause is said, as the parse shows it: as something that is so, as advice, only as the time or
condition of another clause, or as a question (issue 38, thirteenth to fifteenth rounds).

A clause's statement is written with its words; where those words tell the listener what to do ("Keep it to
one page; the detail can live in linked docs."), only say when or on what condition another clause holds
("When she was 12.", "After the bucket is deleted"), are one of two alternatives ("Either the wheel expects
libomp ..."), or ask without a question mark ("can we have one build that ..."), the statement is not one of
what is true. statements.worth_stating decides what each mood costs, by speaker.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sessions_graph_core.reconcile import senses
from sessions_graph_core.reconcile.extraction.base import Mood
from sessions_graph_core.reconcile.nlp import lemma

# Words that open a clause of time: said in the past, what it tells happened ("when Lena left the company").
_TIME_OPENERS = {"when", "after", "since", "once", "as"}
# Where an imperative verb stands in the parse: a clause of its own, or one the parser hung on the next
# ("Keep/advcl it to one page; the detail can live ...", "For the report, take/ccomp ...; lithium cells hold ...").
_CLAUSE_DEPS = {"ROOT", "advcl", "ccomp", "parataxis", "conj"}
# What may stand before an imperative in its clause: an adverb ("Also write down ..."), a phrase ("For the
# report, take ..."), a clause of purpose or condition ("If drift remains, log ..."), "please", a conjunction,
# punctuation, and "do" of a negative ("Don't push ...").
_BEFORE_IMPERATIVE = {"advmod", "advcl", "prep", "punct", "intj", "npadvmod", "cc", "neg"}
# What an imperative has none of: a subject or a passive's auxiliary (nor any other auxiliary but "do").
_NOT_IMPERATIVE = {"nsubj", "nsubjpass", "csubj", "expl", "auxpass"}
# Openers of a sentence that is only the clause of another, which does not say that its words are so.
_CUT_FROM_A_SENTENCE = {"that", "if", "unless", "whether", "when", "while", "until", "till", "before", "after", "once",
                        "where", "how", "why"}
_NOUN_TAGS = {"NN", "NNS", "NNP", "NNPS"}
# An auxiliary (or "be") that opens a question when put before its subject, and what may stand before it there.
_ASKING_AUXILIARIES = {"can", "could", "should", "would", "will", "shall", "do", "does", "did", "is", "are", "am",
                       "was", "were"}
_BEFORE_ASKING = {"and", "but", "also", "ok", "okay", "btw"}
# Tags the tagger gives a base form it took for a tense ("In invoicer, write/VBP `0.00` ...", "set/VBN
# `cancel-in-progress: false` on the apply workflow"); with no subject such a verb is the base form.
_TENSE_TAGS = {"VBP", "VBD", "VBN"}


def mood(verb: Any, words: Sequence[Any]) -> Mood:
    """The mood of the clause that `verb` heads, written as `words`: "hanging" where it is only a clause of
    time or condition of another or one of two alternatives (one_of_two), "asked" where it is a question
    whose mark was left off (asked), "advised" where its words hold an
    imperative or it is what an imperative asks to make sure of (of_advice), else "stated"."""
    if hanging(verb) or one_of_two(verb, words):
        return "hanging"
    if asked(verb):
        return "asked"
    advised = of_advice(verb, words) or verb_read_as_a_name(verb, words) or any(imperative(token) for token in words)
    return "advised" if advised else "stated"


def hanging(verb: Any) -> bool:
    """Whether the clause is an adverbial one opened by its own conjunction or wh-adverb ("when she is 12",
    "after the bucket is deleted", "until the kernel kills the process"): it says when or on what condition
    the clause it hangs on holds, not something of its own. One that tells when something happened says
    that it did ("when Lena left the company"): it is read without its opener (told_past)."""
    return opener(verb) is not None and not told_past(verb)


def one_of_two(verb: Any, words: Sequence[Any]) -> bool:
    """Whether the clause is one of two alternatives ("either the wheel expects libomp in the Intel location,
    or you restored a venv ..."): the first, "either" before its verb and no "or" in its words (the second
    cut off), or the one joined to it by "or". Neither alternative is said to be so."""
    first = verb.head if verb.dep_ == "conj" and _joined_by_or(verb.head) else verb
    either = any(token.lower_ == "either" and token.tag_ == "CC" and token.i < first.i for token in first.subtree)
    return either and (first is not verb or not any(token.lower_ in {"or", "nor"} for token in words))


def asked(verb: Any) -> bool:
    """Whether the clause asks, though no question mark ends it: its auxiliary, or its own "be", put before its
    subject, with nothing before them in the sentence but a heading, a mark or a word that joins it on ("The
    demo build, can we read the app id at runtime.", "The backup slide: should I put the CI time there too.",
    "Can ADR move the nodes down from SF9."). "So do we" and "Never have I" say, not ask."""
    subjects = [child.i for child in verb.children if child.dep_ in {"nsubj", "nsubjpass"}]
    auxiliaries = [child for child in verb.children if child.dep_ in {"aux", "auxpass"}] + [verb]
    first = next((t for t in auxiliaries if t.lower_ in _ASKING_AUXILIARIES and any(t.i < i for i in subjects)), None)
    if first is None:
        return False
    before = first.doc[first.i - 1] if first.i > first.sent.start else None
    return before is None or before.is_punct or before.lower_ in _BEFORE_ASKING


def verb_read_as_a_name(verb: Any, words: Sequence[Any]) -> bool:
    """Whether the clause opens its sentence on a verb the tagger took for a name or a noun, capitalised as the
    sentence's first word, a word WordNet knows as a verb and never as a noun, and made a verb of the word after
    it, which WordNet knows no verb for ("Enforce/NNP IMDSv2/VBZ with a hop limit of 1 everywhere"). It tells
    the listener what to do, as an imperative the tagger saw does; "Install takes 4 minutes" does not."""
    first = words[0] if words else None
    return (first is not None and first.i == first.sent.start and first.is_title and first.tag_ in _NOUN_TAGS
            and senses.verb(first.lower_) and senses.no_noun(first.lower_) and not senses.verb(verb.lower_))


def of_advice(verb: Any, words: Sequence[Any]) -> bool:
    """Whether the clause is written from its own "that" under an imperative ("Make sure that the image no
    longer has a shell."): what the listener is told to make sure of, not what is so. Under a verb that tells
    ("Ana told me that she lives in Lima now") it is what was told, and stays a statement."""
    return (bool(words) and words[0].lower_ == "that" and words[0].dep_ == "mark" and words[0].head.i == verb.i
            and any(imperative(above) for above in verb.ancestors))


def _joined_by_or(verb: Any) -> bool:
    return any(child.dep_ == "cc" and child.lower_ in {"or", "nor"} for child in verb.children)


def opener(verb: Any) -> Any | None:
    """The conjunction or wh-adverb that opens an adverbial clause ("when", "after", "(only) until", "if"), if any;
    or a sentence's own, where the sentence is only a clause of time, condition or report cut from the one it
    belonged to ("That the studio hired a technical director.", "When she was 12."). A sentence opened by a
    reason or a concession still says it ("Though I still live in York.")."""
    if verb.dep_ not in {"advcl", "ROOT"}:
        return None
    found = next((child for child in verb.lefts if child.dep_ == "mark" or (child.dep_ == "advmod" and child.tag_ == "WRB")),
                 None)
    if verb.dep_ == "ROOT" and found is not None and found.lower_ not in _CUT_FROM_A_SENTENCE:
        return None
    return found


def told_past(verb: Any) -> bool:
    """Whether an adverbial clause tells when something happened, which says it did: opened by a word of time
    and said in the past ("when Lena left the company", "after the office had moved to Ghent"). A state is
    not something that happened ("when she was 12")."""
    said = opener(verb)
    return said is not None and said.lower_ in _TIME_OPENERS and verb.lemma_ not in {"be", "have"} and (
        verb.tag_ == "VBD" or any(child.dep_ in {"aux", "auxpass"} and child.tag_ == "VBD" for child in verb.children))


def imperative(token: Any) -> bool:
    """Whether the token is a verb that tells the listener to do something: its base form heading a clause,
    with no subject nor auxiliary but the "do" of a negative, nothing before it in its clause but adverbs, a
    phrase and punctuation; a verb coordinated with one ("Start from X and use Y") is one too. "Let" proposes
    what we do ("Let's use Kafka"), which the reader reads as a decision, not advice; a verb whose object is a
    "that" clause says that clause ("Note that the LED is wired to the wifi chip")."""
    if not _base_form(token) or token.dep_ not in _CLAUSE_DEPS or token.lemma_ == "let" or _says_that(token):
        return False
    heading = _heading_before(token)
    if any((child.dep_ in _NOT_IMPERATIVE and child.i not in heading) or (child.dep_ == "aux" and child.lower_ != "do")
           for child in token.children):
        return False
    if token.dep_ == "conj":
        return imperative(token.head) or (_of_a_tense(token.head) and (token.tag_ == "VB" or token.head.tag_ == "VBZ"))
    return all(child.dep_ in _BEFORE_IMPERATIVE or (child.dep_ == "aux" and child.lower_ == "do") or child.i in heading
               for child in token.lefts)


def _base_form(verb: Any) -> bool:
    """Whether the verb is its base form: tagged so, or tagged as a tense where the word is its own lemma
    (_TENSE_TAGS); a subject, which would make it a tense, is looked for by the caller."""
    return verb.tag_ == "VB" or (verb.tag_ in _TENSE_TAGS and verb.lower_ == lemma(verb))


def _heading_before(verb: Any) -> set[int]:
    """The words before a colon that stands right before the verb: a heading the advice is under ("Now the
    DNS: change the A record ...", "The serial port: use the stable path", "DPIA: reuse the Harrogate one"),
    not the verb's subject, wherever the parser hung the colon."""
    before = verb.doc[verb.i - 1] if verb.i > verb.sent.start else None
    if before is None or before.text != ":":
        return set()
    return {t.i for child in verb.lefts if child.i < before.i for t in child.subtree}


def _of_a_tense(verb: Any) -> bool:
    """Whether the verb says its own tense and person, with no auxiliary a base form coordinated with it would
    share: then that base form has no subject of its own ("That's a big improvement; for the drift test, log
    the board temperature"). After a plural present ("Some devices move and just work") it may be the same
    form, so only the third person and the past count."""
    return verb.tag_ in {"VBZ", "VBD"} and not any(child.dep_ in {"aux", "auxpass"} for child in verb.children)


def _says_that(verb: Any) -> bool:
    """Whether the verb's object is a clause opened by "that" ("Note that ...", "Keep in mind that ...")."""
    return any(child.dep_ == "ccomp" and any(m.dep_ == "mark" and m.lower_ == "that" for m in child.children)
               for child in verb.children)
