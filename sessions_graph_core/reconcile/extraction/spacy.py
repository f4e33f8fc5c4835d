"""The default extraction backend, offline: spaCy's NER and noun chunks for entities, its dependency parse
read by the clause reader (reading/reader.py) for facts and decisions, and the sentences read again where
the small parser misreads chat ("Started at Hooli", "bank: Monzo", "No more CircleCI for us").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial
from typing import Any

from sessions_graph_core.ontology.model import OntologyModel
from sessions_graph_core.reconcile import senses, statements
from sessions_graph_core.reconcile.extraction.base import ExtractedEntity, ExtractedFact, Extraction
from sessions_graph_core.reconcile.lexicon import lexicon
from sessions_graph_core.reconcile.nlp import lemma, spacy_pipeline
from sessions_graph_core.reconcile.reading.endings import ending_verb
from sessions_graph_core.reconcile.reading.mood import mood, opener, told_past
from sessions_graph_core.reconcile.reading.reader import Reader
from sessions_graph_core.reconcile.reading.reasons import rationale
from sessions_graph_core.reconcile.reading.words import (
    DECIDERS,
    DECISION_NOUNS,
    GROUP_NOUNS,
    LAPSE_VERBS,
    RATIONALE_MARKERS,
    SERVE_VERBS,
    TEAM_WORDS,
)
from sessions_graph_core.reconcile.tokens import FIRST_PERSON, WE_FORMS, a_name, as_said, direct_object, name_like
from sessions_graph_core.text import comparable

NER_TYPES = {
    "PERSON": "Person",
    "ORG": "Organization",
    "GPE": "Location",
    "LOC": "Location",
    "FAC": "Location",
    "DATE": "Date",
    "TIME": "TimeWindow",
    "MONEY": "Money",
    "QUANTITY": "Quantity",
    "PERCENT": "Quantity",
    "EVENT": "Event",
    "PRODUCT": "Artifact",
    "WORK_OF_ART": "Artifact",
    "LAW": "Artifact",
    "LANGUAGE": "Topic",
    "NORP": "Topic",
}
# Numbers on their own ("two", "1st") name nothing worth a node.
SKIPPED_NER = {"CARDINAL", "ORDINAL"}

# Verbs by which a speaker commits the team to a choice, and where the role being filled sits:
# "use A as B", "switch B to A", "go with A for B" all fill B.
DECISION_VERBS = {"use", "switch", "adopt", "choose", "pick", "migrate", "move", "standardize", "standardise", "go"}


class SpacyBackend:
    """NER and noun chunks for entities; the dependency parse for facts and decisions."""

    name = "spacy"
    reads_known_slots = False

    def __init__(self, batch_size: int = 64) -> None:
        self.batch_size = batch_size

    def extract_entities(self, texts: Sequence[str], ontology: OntologyModel) -> list[Extraction]:
        """The entities `extract` finds in each text, without reading its statements: for a tool's arguments
        and output, whose statements reconciliation never writes. One parse, no reading again."""
        labels = {label.lower(): label for label in ontology.labels()}
        docs = spacy_pipeline().pipe([without_lead_ins(text) for text in texts], batch_size=self.batch_size)
        return [Extraction(entities=_entities(doc, labels)[0]) for doc in docs]

    def extract(self, texts: Sequence[str], ontology: OntologyModel, known_slots: Sequence[str] = ()) -> list[Extraction]:
        nlp = spacy_pipeline()

        labels = {label.lower(): label for label in ontology.labels()}
        lex = lexicon(ontology.single_valued())
        docs = list(nlp.pipe([without_lead_ins(text) for text in texts], batch_size=self.batch_size))
        unread: list[list[tuple[Any, int]]] = [[] for _ in docs]
        found = [_read_doc(doc, labels, lex, unread[n]) for n, doc in enumerate(docs)]
        # Chat style drops the speaker ("Started at Hooli on Monday", "moved to Bilbao last week"): such
        # a sentence is read again with "I" said, and what it puts in slots is added (one parse for all).
        # The small parser also reads "search runs on Typesense" as one noun ("search runs/NNS"): such a
        # sentence is read again with the verb said plainly ("search does run on ..."), keeping its words.
        # It also reads a contracted "is" as a possessive ("Manchester's where I live", "energy's with
        # Octopus"): such a sentence is read again with "is" said in full, keeping its words. A note in chat
        # style names the thing and its value with a colon ("bank: Monzo"): read as "bank is Monzo".
        # A decision said as what the decision is ("the plan is to use React for the admin panel", "the decision
        # on CI is Buildkite") is read as the choice it says ("we will use React ...", "we chose Buildkite for CI").
        # A name said to be done with by a particle or "no more" rather than a verb ("No more CircleCI for us",
        # "I'm off Spotify now", which the small parser reads as a verb) is read as "we don't use X anymore".
        rereadings = (partial(_with_verb, lexicon=lex), _with_is, partial(_with_colon, lexicon=lex), _with_choice,
                      _with_no_more)
        spoken = [(n, said, None) for n, doc in enumerate(docs) for said in _with_speaker(doc)]
        spoken += [(n, said, text) for n, doc in enumerate(docs) for reread in rereadings for text, said in reread(doc)]
        for (n, _, text), doc in zip(spoken, nlp.pipe([said for _, said, _ in spoken], batch_size=self.batch_size),
                                     strict=True):
            known = {(fact.slot, fact.value) for fact in found[n].facts}
            found[n].facts += [fact.model_copy(update={"text": text}) if text else fact
                               for fact in _read_doc(doc, labels, lex).facts
                               if fact.slot and (fact.slot, fact.value) not in known]
        # A clause that puts the thing changed first (passive, the thing's own motion, "X is gone") and that
        # no rule read is read again in the active voice; what it puts in a slot the text left empty is
        # added, with the clause as said.
        # added, with the clause as said, where the clause is in the text ("the Civic is gone, I drive a Mazda
        # now": the ending before the new value).
        # An ending whose doer and speaker are both unsaid ("Netflix got cancelled") is read by "I" as well:
        # what it ended waits for a slot of mine as well as of ours (only its waiting statements are added).
        active = [(n, at, said, _as_said(verb), False) for n, verbs in enumerate(unread) for verb, at in reversed(verbs)
                  if (said := _in_active(verb))]
        active += [(n, at, said, _as_said(verb), True) for n, verbs in enumerate(unread) for verb, at in reversed(verbs)
                   if (said := _ended_by_me(verb))]
        parsed = nlp.pipe([said for _, _, said, _, _ in active], batch_size=self.batch_size)
        for (n, at, _, as_said_here, waiting), doc in zip(active, parsed, strict=True):
            filled = {fact.slot for fact in found[n].facts if fact.slot}
            found[n].facts[at:at] = [fact.model_copy(update=as_said_here) for fact in _read_doc(doc, labels, lex).facts
                                     if fact.slot and fact.slot not in filled and (not waiting or statements.waits(fact.slot))]
        return found


# A label or quote marker before what is said, at the start of a line or a sentence: "Personal note: I
# relocated ...", "FYI - ...", "> we use ...". The parser makes "Personal note: I relocated to Amsterdam" a
# note that the relocation describes, and "Update - Priya is our lead" a lead named "Update - Priya".
# "FYI", "BTW" and "FWIW" are lead-ins with no mark after them too ("FYI the booking backend ... runs on
# Heroku" made "FYI" the backend's holder); the other words are lead-ins only with a mark ("update" is a noun).
_LEAD_IN = re.compile(
    r"(?:^|(?<=[.!?]\s))[ \t]*(?:>+|(?:personal note|side note|quick note|note to self|fyi|update|quick update|"
    r"heads[- ]up|btw|by the way|ps|p\.s\.|reminder)[ \t]*[:,\-\u2013\u2014]|(?:fyi|btw|fwiw)\b(?![:,\-\u2013\u2014]))"
    r"[ \t]*(?=\S)",
    re.IGNORECASE | re.MULTILINE,
)


def without_lead_ins(text: str) -> str:
    """The text as read: without the lead-ins that would hide the statement after them."""
    return _LEAD_IN.sub("", text)


def _entity_type(span: Any, labels: dict[str, str]) -> str:
    """The ontology type whose name is the span's head noun ("service" -> Service), else a fallback."""
    head = lemma(span.root)
    if head in labels:
        return labels[head]
    if span.label_ and span.label_ in NER_TYPES:
        return _in_model(NER_TYPES[span.label_], labels)
    return _in_model("Artifact" if span.root.pos_ == "PROPN" else "Topic", labels)


def _in_model(label: str, labels: dict[str, str]) -> str:
    return labels.get(label.lower(), label)


def _with_speaker(doc: Any) -> list[str]:
    """Each sentence of the doc that starts with a past-tense verb and has no subject, with "I" before it; a
    word that only frames the sentence may come first ("Finally moved to Lisbon", "Anyway, started at Globex")."""
    found = []
    for sentence in doc.sents:
        first = next((t for t in sentence if not (t.is_punct or t.is_space or _framing(t))), None)
        if (first is not None and (first.dep_ == "ROOT" or _clause_before(first)) and first.pos_ == "VERB"
                and first.tag_ in {"VBD", "VBN"}
                and not any(t.dep_ in {"nsubj", "nsubjpass", "expl", "csubj"} for t in first.children)):
            rest = doc.text[first.idx + len(first.text): sentence.end_char]
            found.append(f"I {first.text.lower()}{rest}")
    return found


def _clause_before(verb: Any) -> bool:
    """Whether a verb that starts its sentence is a clause the parser hung on a later verb while it has an
    object of its own: chat drops the speaker of the first of two clauses too ("Sold the corolla last
    weekend, I bike now": "Sold" read as "having sold"), which a participle with no object is not
    ("Born in Spain, I ...")."""
    return verb.dep_ == "advcl" and verb.head.i > verb.i and any(t.dep_ == "dobj" for t in verb.children)


def _with_verb(doc: Any, lexicon: Any) -> list[tuple[str, str]]:
    """(the sentence, the sentence with its verb said plainly) for each sentence the small parser read as
    one noun phrase: no verb, its root a plural noun that is a verb by which a thing is served ("runs",
    "powers", "hosts": words.SERVE_VERBS) and no attribute's noun, or a verb an attribute lists with
    the preposition after it ("chats on": "chat on"), between a noun and a preposition ("search runs/NNS
    on Typesense" as "search does run on Typesense", "our team chats/NNS on Slack"; not "error logs in
    Datadog")."""
    found = []
    for sentence in doc.sents:
        root = sentence.root
        if any(t.pos_ in {"VERB", "AUX"} for t in sentence) or root.tag_ != "NNS" or not root.is_lower:
            continue
        before = any(t.dep_ in {"compound", "nsubj"} and t.pos_ == "NOUN" for t in root.lefts)
        after = next((t for t in root.rights if t.dep_ == "prep"), None)
        if before and after is not None and _verb_read_as_noun(root, after, lexicon):
            found.append((sentence.text, _said_instead(sentence, root, f"does {lemma(root)}")))
    return found


def _verb_read_as_noun(root: Any, prep: Any, lexicon: Any) -> bool:
    """Whether a plural noun before a preposition is the verb of the sentence: a verb of serving that no
    attribute names as a noun ("runs", not "builds"), or a verb an attribute lists with that preposition
    ("chats on"), since then the noun and the verb say the same."""

    if f"{lemma(root)} {prep.lower_}" in lexicon.verbs:
        return True
    return lemma(root) in SERVE_VERBS and not lexicon.noun([root.lower_])


def _said_instead(sentence: Any, token: Any, words: str) -> str:
    """The sentence's text with `words` in place of one of its tokens."""
    text = sentence.doc.text
    return text[sentence.start_char:token.idx] + words + text[token.idx + len(token.text):sentence.end_char]


def _with_choice(doc: Any) -> list[tuple[str, str]]:
    """(the sentence, the choice it says) for each sentence that says what a decision is: "the plan is to use
    React for the admin panel" as "we will use React for the admin panel", "the decision on CI is now Buildkite,
    since ..." as "we chose Buildkite for CI, since ...", "our pick for payments is Adyen" likewise; "my plan" is
    the speaker's ("I will ...")."""

    found = []
    for sentence in doc.sents:
        noted = _noted_choice(sentence)
        if noted:
            found.append((sentence.text, noted))
            continue
        root = sentence.root
        subject = next((t for t in root.children if t.dep_ == "nsubj"), None)
        if lemma(root) != "be" or subject is None or lemma(subject) not in DECISION_NOUNS:
            continue
        speaker = "I" if any(t.lower_ == "my" for t in subject.children) else "we"
        plan = next((t for t in root.children if t.dep_ == "xcomp" and t.pos_ == "VERB"), None)
        # The choice, also where the tagger took a name for an adjective's place ("is now CircleCI/NUM/acomp").
        value = next((t for t in root.children if t.dep_ == "attr" or (t.dep_ == "acomp" and t.pos_ not in {"ADJ", "ADV"})), None)
        about = next((t for c in subject.children if c.dep_ == "prep" and c.lower_ in {"on", "for", "about"}
                      for t in c.children if t.dep_ == "pobj"), None)
        if plan is not None:
            found.append((sentence.text, f"{speaker} will {doc.text[plan.idx:sentence.end_char]}"))
        elif value is not None:
            rest = doc.text[value.right_edge.idx + len(value.right_edge.text):sentence.end_char]
            purpose = f" for {as_said(list(about.subtree))}" if about is not None else ""
            found.append((sentence.text, f"{speaker} chose {as_said(list(value.subtree))}{purpose}{rest}"))
    return found


def _noted_choice(sentence: Any) -> str | None:
    """A decision noted with a colon, as the choice it says: "Decision: Kafka for the event bus" as "we chose
    Kafka for the event bus", "plan: use Redis for caching" as "we will use Redis for caching"; not where what
    follows says who chose ("final decision: we go with Okta", read as it is)."""

    words = [t for t in sentence if not t.is_space]
    at = next((n for n, t in enumerate(words[:3]) if lemma(t) in DECISION_NOUNS), None)
    if at is None or at + 2 >= len(words) or words[at + 1].tag_ != ":" or any(t.pos_ in {"DET", "PRON"} for t in words[:at]):
        return None
    rest = words[at + 2:]
    if any(t.dep_ in {"nsubj", "nsubjpass"} for t in rest):
        return None
    said = sentence.doc.text[rest[0].idx:sentence.end_char]
    return f"we will {said}" if rest[0].tag_ == "VB" else f"we chose {said}"


# Tags of the word after a possessive "'s" that no possessed noun starts with, so the "'s" is a contracted
# "is": a preposition ("'s with"), "where"/"what", a possessive or an article ("'s our host", "'s the
# lead"), a past participle ("'s written in"), an adverb ("'s still").
NOT_POSSESSED = {"IN", "WRB", "WP", "PRP$", "DT", "VBN", "RB"}
CONTRACTED_IS = {"'s", "’s"}


def _with_is(doc: Any) -> list[tuple[str, str]]:
    """(the sentence, the sentence with "is" for its "'s") for each sentence with no verb of its own whose
    "'s" the small parser read as a possessive while no noun follows it ("Manchester's where I live",
    "the backend's written in ruby", "Vercel's our host"; not "Tom's car is red", which has its verb)."""
    found = []
    for sentence in doc.sents:
        if sentence.root.pos_ in {"VERB", "AUX"}:
            continue
        # (tagged a possessive, or "is" hung on the noun before it as its case: "Frontend/ROOT 's/case on Vercel")
        contracted = [t for t in sentence if t.lower_ in CONTRACTED_IS and (t.tag_ == "POS" or t.dep_ == "case")
                      and t.i + 1 < sentence.end and doc[t.i + 1].tag_ in NOT_POSSESSED]
        if len(contracted) == 1:
            found.append((sentence.text, _said_instead(sentence, contracted[0], " is")))
    return found


def _with_no_more(doc: Any) -> list[tuple[str, str]]:
    """(the sentence, "<speaker> don't use <name> anymore") for each sentence that says a name is done with by
    "no more", or by "off" after "be" where the parser missed the name's preposition ("No more CircleCI for
    us", "I'm off Spotify/VERB now"). The speaker is "I" where the sentence says "I"/"my", else "we"."""
    found = []
    for sentence in doc.sents:
        words = list(sentence)
        for before, after, name in zip(words, words[1:], words[2:], strict=False):
            no_more = before.lower_ == "no" and after.lower_ == "more"
            # "off" first: a lemma for every word of every sentence was most of this function's time.
            off = after.lower_ == "off" and name.dep_ != "pobj" and lemma(before) == "be"  # the parser's "off/prep X" reads
            if (no_more or off) and (a_name(name) or name.text[:1].isupper()):  # "CircleCI/VERB"
                named = [name, *[t for t in words[name.i - sentence.start + 1:] if name_like(t) and t.pos_ != "VERB"]]
                run = [t for n, t in enumerate(named) if t.i == name.i + n]
                speaker = "I" if {t.lower_ for t in sentence} & FIRST_PERSON else "we"
                found.append((sentence.text, f"{speaker} don't use {' '.join(t.text for t in run)} anymore."))
                break
    return found


def _with_colon(doc: Any, lexicon: Any) -> list[tuple[str, str]]:
    """(the note, the note with "is" for its colon) for each note that is a noun an attribute names, a colon
    and a value with no verb ("bank: Monzo", "our ci: jenkins"; not "Note: Monzo", whose noun names no
    attribute). The value may stand as a sentence of its own: the small parser splits "bank: Nationwide/RB"."""
    found = []
    for sentence in doc.sents:
        root = sentence.root
        colon = doc[root.i + 1] if root.i + 1 < len(doc) else None
        if colon is None or colon.text != ":" or root.pos_ not in {"NOUN", "PROPN"} or colon.i + 1 == len(doc):
            continue
        note = doc[sentence.start:doc[colon.i + 1].sent.end]
        if (any(t.pos_ in {"VERB", "AUX"} for t in note)
                or not lexicon.noun([t.lower_ for t in root.lefts if t.dep_ == "compound"] + [root.lower_])):
            continue
        found.append((note.text, doc.text[note.start_char:colon.idx].rstrip() + " is" + doc.text[colon.idx + 1:note.end_char]))
    return found


# Verbs whose subject, with no object after them, is the thing someone moved: "standup moved to 10am",
# "the office moved to Canary Wharf" (as "we moved the office to ...").
MOTION_VERBS = {"move", "switch", "migrate", "shift", "port", "transition", "change", "push", "reschedule"}
# What a thing that ended is said to be: "Heroku is gone", "the Civic is history".
GONE_WORDS = {"gone", "history"}


def _framing(token: Any) -> bool:
    """A word before a sentence's verb that only frames it: an adverb of the verb, an interjection, "so"/"and"."""
    return token.head.i != token.i and token.head.i > token.i and (
        (token.pos_ == "ADV" and token.dep_ == "advmod") or token.pos_ == "INTJ" or token.dep_ in {"intj", "cc", "discourse"})


def _in_active(verb: Any) -> str | None:
    """The clause said in the active voice, where the thing changed is its subject: "Jenkins was replaced by
    GitHub Actions" as "GitHub Actions has replaced Jenkins", "standup got moved to 10am" as "we have moved
    standup to 10am", "the office moved to Canary Wharf" as "we moved the office to Canary Wharf", "Heroku
    is gone" as "we have dropped Heroku". None for any other clause, and where the subject is a pronoun, a
    person, a group or an organisation (who moves by themselves: "my sister moved to Denver", "the team
    moved to Linear")."""

    subject = next((t for t in verb.children if t.dep_ in {"nsubj", "nsubjpass"}), None)
    if subject is None or subject.pos_ == "PRON":
        return None
    # Who does what the clause leaves unsaid is the speaker: "I" where the text says "I"/"my", else "we" (which
    # the reader takes as the household where the attribute is one: the home, the landlord, the bank ...).
    speaker = "I" if {t.lower_ for t in verb.sent} & FIRST_PERSON else "we"
    agent = next((t for t in verb.children if t.dep_ == "agent"), None)
    negation = " ".join(t.text for t in verb.children if t.dep_ == "neg")
    thing = as_said(list(subject.subtree))
    # "Heroku is gone" (the small model often makes "gone" a passive verb), "the Civic is history".
    # "Jenkins is out" too ("out" an adverb: "Jenkins is out, GitHub Actions is in").
    gone = verb.lower_ in GONE_WORDS or (lemma(verb) == "be" and any(
        (t.dep_ in {"acomp", "attr"} and t.lower_ in GONE_WORDS) or (t.dep_ == "advmod" and t.lower_ == "out")
        for t in verb.children))
    person = subject.ent_type_ == "PERSON" or senses.people(lemma(subject)) == "person"
    # A thing that ended by itself, by a verb WordNet says ends ("the Saturday league folded", "the Box
    # account closed"): its holder dropped it, whenever it was. Not one that stopped doing something ("Slack
    # stopped working"), nor a new one ("the new iPhone is out" is no iPhone of ours gone).
    particle = next((t.lower_ for t in verb.children if t.dep_ == "prt"), "")
    ended = (subject.dep_ == "nsubj" and lemma(verb) not in LAPSE_VERBS and direct_object(verb) is None
             and (ending_verb(lemma(verb)) if not particle else senses.ends(f"{lemma(verb)}_{particle}"))
             and not any(t.dep_ in {"xcomp", "ccomp"} for t in verb.children))
    fresh = any(t.dep_ == "amod" and t.lower_ in {"new", "latest"} for t in subject.children)
    # One who goes away is no thing ended ("Maria left": she did); a company that folds is.
    someone = subject.ent_type_ in {"PERSON", "NORP", "GPE"} or (
        subject.pos_ == "PROPN" and not subject.ent_type_ and senses.moves(lemma(verb)))
    if ended and not (negation or person or someone or fresh or agent is not None):
        return f"{speaker} have dropped {thing}"
    if gone:  # not a person away for a while ("Priya is gone this week")
        timed = any(t.ent_type_ in {"DATE", "TIME"} for t in verb.subtree)
        return f"{speaker} have dropped {thing}" if not (negation or person or timed or fresh or agent is not None) else None
    passive = subject.dep_ == "nsubjpass" and verb.tag_ == "VBN"
    # Who moves by themselves is no thing moved: a person, a group of people, an organisation, a place, or
    # a name the small model left untyped ("my sister moved to Denver", "the team moved to Linear", "Tom
    # moved to the platform team").
    group = lemma(subject) in GROUP_NOUNS | TEAM_WORDS and senses.people(lemma(subject)) == "group"
    mover = person or group or subject.ent_type_ in {"ORG", "NORP", "GPE"} or (
        subject.pos_ == "PROPN" and not subject.ent_type_)
    moved = (subject.dep_ == "nsubj" and not mover and lemma(verb) in MOTION_VERBS and direct_object(verb) is None
             and any(t.dep_ == "prep" and t.lower_ in {"to", "from", "off", "onto", "into", "over"} for t in verb.children))
    if not (passive or moved):
        return None
    doer = next((t for t in agent.children if t.dep_ == "pobj"), None) if agent is not None else None
    left = {t.i for t in subject.subtree} | {t.i for t in agent.subtree} if agent is not None else {t.i for t in subject.subtree}
    left |= {t.i for t in verb.children if t.dep_ in {"aux", "auxpass", "neg", "cc"} for t in (t,)}
    left |= {t.i for c in verb.children if c.dep_ in {"conj", "advcl", "ccomp", "parataxis"} for t in c.subtree}
    rest = as_said([t for t in verb.subtree if t.i not in left and t.i != verb.i and not _stop_punct(t)])
    who = as_said(list(doer.subtree)) if doer is not None else speaker
    have = ("has" if doer is not None else "have") if passive else ""
    return " ".join(part for part in (who, have, negation, verb.text, thing, rest) if part)


def _ended_by_me(verb: Any) -> str | None:
    """The active reading of an ending with "I" for the "we" it guessed, where the sentence names no speaker
    ("Netflix got cancelled last week", "Heroku is gone"); None for any other clause."""

    said = _in_active(verb)
    spoken = {t.lower_ for t in verb.sent} & (FIRST_PERSON | WE_FORMS | {"ours"})
    gone = verb.lower_ in GONE_WORDS or any(t.lower_ in GONE_WORDS for t in verb.children)
    if not said or not said.startswith("we ") or spoken or not (gone or ending_verb(lemma(verb))):
        return None
    return "I" + said[len("we"):]


def _stop_punct(token: Any) -> bool:
    return token.is_punct and token.text in {",", ";", ":", ".", "!", "?", "(", ")"}


def _trimmed(span: Any) -> Any:
    """The span without leading determiners, possessives and pronouns ("the orders service" -> "orders service")."""
    start = span.start
    while start < span.end and span.doc[start].pos_ in {"DET", "PRON"} or (
        start < span.end and span.doc[start].dep_ == "poss"
    ):
        start += 1
    return span.doc[start : span.end]


def _read_doc(doc: Any, labels: dict[str, str], lexicon: Any, unread: list[tuple[Any, int]] | None = None) -> Extraction:
    entities, spans = _entities(doc, labels)
    reader = Reader(lexicon, lemma)
    facts: list[ExtractedFact] = []
    for sentence in doc.sents:
        facts += _sentence_facts(sentence, spans, reader, unread, len(facts))
    return Extraction(entities=entities, facts=facts)


def _entities(doc: Any, labels: dict[str, str]) -> tuple[list[ExtractedEntity], list[tuple[int, int, str]]]:
    """The doc's named entities and noun phrases, each name once, and every span that names one."""
    entities: dict[str, ExtractedEntity] = {}
    spans: list[tuple[int, int, str]] = []

    def add(span: Any, kind: str) -> None:
        name = span.text.strip()
        if name and comparable(name) not in entities:
            entities[comparable(name)] = ExtractedEntity(name=name, type=kind)
        if name:
            spans.append((span.start, span.end, name))

    for ent in doc.ents:
        if ent.label_ not in SKIPPED_NER:
            add(_trimmed(ent) or ent, _entity_type(ent, labels))
    taken = {index for ent in doc.ents for index in range(ent.start, ent.end)}
    for chunk in doc.noun_chunks:
        core = _trimmed(chunk)
        if len(core) and core.root.pos_ in {"NOUN", "PROPN"} and not any(t.i in taken for t in core):
            add(core, _entity_type(core, labels))
    return list(entities.values()), spans


def _phrase(token: Any) -> Any:
    """The noun phrase a token heads, without determiners, clauses or prepositional tails."""
    left = token
    for child in token.lefts:
        if child.dep_ in {"compound", "amod", "nmod", "nummod", "poss"}:
            left = child if child.i < left.i else left
    return _trimmed(token.doc[left.left_edge.i if left is not token else token.i : token.i + 1])


def _about(span_ranges: list[tuple[int, int]], spans: list[tuple[int, int, str]]) -> list[str]:
    names: dict[str, None] = {}
    for start, end in span_ranges:
        for s_start, s_end, name in spans:
            if s_start < end and start < s_end:
                names.setdefault(name, None)
    return list(names)


def _object_of(verb: Any) -> tuple[Any | None, str]:
    """The verb's object and the preposition that introduces it ("" for a direct object)."""
    for child in verb.children:
        if child.dep_ in {"dobj", "attr", "oprd"}:
            return child, ""
    for child in verb.children:
        if child.dep_ in {"prep", "agent", "dative"}:
            for grandchild in child.children:
                if grandchild.dep_ == "pobj":
                    return grandchild, child.lower_
    return None, ""


def _without_reasons(verb: Any) -> list[Any]:
    """The verb's clause minus its subordinate clauses, so a rationale's nouns are not what it is about."""
    reasons = {t.i for child in verb.children if child.dep_ == "advcl" for t in child.subtree}
    return [t for t in verb.subtree if t.i not in reasons]


def _as_said(verb: Any, subject: Any | None = None) -> dict[str, str]:
    """The clause's text (_clause) and its mood (reading/mood.py), both read from its words (_clause_words)."""
    words = _clause_words(verb)
    return {"text": _clause(verb, words, subject), "mood": mood(verb, words)}


def _clause(verb: Any, words: list[Any], subject: Any | None = None) -> str:
    """The verb's own clause as said (its `words`, _clause_words), with `subject` where the clause borrows it from the verb
    it is coordinated with (_borrows: "Zephyr threads each have their own stack and are preemptive": "Zephyr
    threads are preemptive.", not "Are preemptive.").
    A clause that tells when something happened is said without its opener ("when Lena left the company":
    "Lena left the company.", mood.told_past)."""
    if told_past(verb):
        words = [t for t in words if t.i != opener(verb).i]
    if words and subject is not None and _borrows(verb, subject):
        words = [t for t in subject.subtree if t.i <= subject.i] + words
    text = as_said(words) if words else verb.text
    text = text.strip(" ,;:.!?")
    return text[:1].upper() + text[1:] + "."


def _borrows(verb: Any, subject: Any) -> bool:
    """Whether a coordinated clause's subject is the one of the verb before it, the clause saying its own
    tense in agreement with it: "are" after "Zephyr threads", "sees" after "OpenTofu". A clause with a subject
    of its own ("and there's a reorg coming") or out of agreement ("All 14 modules encrypted ... and is a good
    result", where the parse joined two sentences) does not, nor a base form or participle, which shares the
    other verb's auxiliary too ("we should read A and write B": "We write B" would not say it)."""
    if verb.dep_ != "conj" or subject.dep_ not in {"nsubj", "nsubjpass"} or subject.i in {t.i for t in verb.subtree}:
        return False
    if verb.tag_ not in {"VBZ", "VBD", "VBP"} or any(child.dep_ in {"expl", "csubj"} for child in verb.children):
        return False
    several = (subject.tag_ in {"NNS", "NNPS"} or subject.lower_ in {"i", "you", "we", "they"}
               or any(child.dep_ == "conj" for child in subject.children))
    return verb.tag_ == "VBD" or (verb.tag_ == "VBP") == several


def _clause_words(verb: Any) -> list[Any]:
    """The verb's own clause: its subtree without the verbs coordinated with it ("A does X, and B does Y")."""
    cut = {t.i for child in verb.children if child.dep_ == "conj" and child.pos_ in {"VERB", "AUX"} for t in child.subtree}
    cut |= {child.i for child in verb.children if child.dep_ == "cc"}
    if any(t.dep_ == "mark" and t.lower_ == "so" for t in verb.children):
        # "A, so B": A is B's reason (kept as the rationale), not part of what B says.
        cut |= {t.i for child in verb.children if child.dep_ in {"ccomp", "advcl", "mark"} and child.i < verb.i
                for t in child.subtree}
    words = [t for t in verb.subtree if t.i not in cut]
    if verb.dep_ in {"ccomp", "xcomp"} and verb.head.lower_ == "let" and words and verb.head.i == words[0].i - 1:
        words.insert(0, verb.head)  # "Let's use Postgres": the parser hangs the choice on "let", which says it is one
    while words and words[0].is_punct:
        words.pop(0)
    return words


def _subject(verb: Any) -> Any | None:
    """The verb's subject, or the subject of the verb it is coordinated with ("Leo left X and joined Y"); none
    for a request's "me" ("Help me write the email to Anna", "Let me check the schema": what is asked is no
    statement of the speaker)."""
    while True:
        found = next((t for t in verb.children if t.dep_ in {"nsubj", "nsubjpass"}), None)
        found = found if found is not None else _misparsed_subject(verb)
        if found is not None and _asked_of_me(found):
            return None
        if found is not None or verb.dep_ != "conj" or verb.head is verb:
            return found
        verb = verb.head


def _asked_of_me(subject: Any) -> bool:
    """"me" made the subject of the verb after a request ("help me write", "let me check", "make me leave"): the
    object of the request, not one who says. "Me and Tom moved to Leeds" keeps its subject."""
    return subject.lower_ == "me" and not any(t.dep_ == "conj" for t in subject.children)


def _misparsed_subject(verb: Any) -> Any | None:
    """The subject the small parser put elsewhere: a name it tagged as an adverb ("Raj/ADV handed the
    team over"), or the noun it made the root with "is" under it ("my team lead/ROOT is/ccomp Oscar")."""
    if verb.dep_ == "ccomp" and verb.head.pos_ in {"NOUN", "PROPN"} and verb.head.i < verb.i and lemma(verb) == "be":
        return verb.head
    first = verb.sent[0]
    if first.i < verb.i and first.head.i == verb.i and first.dep_ in {"punct", "dep", "cc", "intj"} and _listed(first):
        return first  # "CockroachDB/CCONJ/punct replaced Postgres": a listed value the tagger lost
    if verb.dep_ == "conj":  # "Tom left and Priya/conj is now tech lead": the name before the verb is its subject
        named = next((t for t in verb.head.children if t.dep_ == "conj" and t.pos_ == "PROPN" and t.i < verb.i
                      and all(w.pos_ in {"ADV", "AUX"} for w in verb.doc[t.i + 1 : verb.i])), None)
        if named is not None:
            return named
    for child in verb.lefts:
        if child.dep_ == "compound" and child.pos_ in {"NOUN", "PROPN"} and verb.pos_ == "VERB":
            return child  # "all our documentation/compound lives/ROOT in Confluence"
        if (child.dep_ in {"advmod", "npadvmod", "dep", "nmod"} and child.is_title and not child.is_stop
                and not child.lower_.endswith("ly") and child.pos_ in {"ADV", "PROPN", "NOUN", "X"}
                and child.ent_type_ not in {"DATE", "TIME"}):
            return child
    return None


def _listed(token: Any) -> bool:

    return comparable(token.text) in lexicon().values


def _finite(verb: Any) -> bool:
    """Whether the clause says something is so: not a gerund without an auxiliary ("the retry loop firing 22
    times", what a log showed; "Been doing some promotion" is chat that leaves out "I've"); an infinitive with
    "to" heads no clause at all (_heads_a_clause). A bare participle is taken as said: lower-case chat gets a
    past tense tagged as one ("the saturday league folded over the winter")."""
    if verb.tag_ != "VBG":
        return True
    return any(t.dep_ in {"aux", "auxpass"} for t in verb.children) or _verb_taken_for_a_noun(verb)


def _heads_a_clause(verb: Any) -> bool:
    """Whether the parse's verb heads a clause that says something: not a noun the tagger took for a verb
    after a subject, a word WordNet knows no verb for ("The Vellum solver/VB for sway", "The GitHub Actions
    workflow/VB from pip to uv", "Tidebreak, a co-op roguelite/VBP for up to 4 players"; "A13s cancel/VB
    discharges" is a verb mistagged), nor an infinitive with a subject of its own ("[if you want] the splash to
    also leave a ripple", what is wanted, not what is)."""
    auxiliaries = [t for t in verb.children if t.dep_ in {"aux", "auxpass"}]
    if any(t.lower_ == "to" for t in auxiliaries):
        return False
    subject = next((t for t in verb.children if t.dep_ == "nsubj"), None)
    if subject is None or subject.pos_ not in {"NOUN", "PROPN"} or verb.tag_ not in {"VB", "VBP"} or auxiliaries:
        return True
    return senses.verb(verb.lower_)


def _verb_taken_for_a_noun(gerund: Any) -> bool:
    """The small parser's misreading of "My dogs love meeting new people": the finite verb ("love") taken for a
    noun set beside the subject, the gerund after it made the head. The statement is said all the same."""
    before = gerund.doc[gerund.i - 1] if gerund.i > gerund.sent.start else None
    return (before is not None and before.dep_ == "appos" and before.head.dep_ == "nsubj"
            and before.head.head.i == gerund.i)


def _heading(verb: Any, subject: Any) -> bool:
    """A label that starts a message ("Decision noted: Postgres ...", "Update posted: ..."): a bare
    noun and a verb, then a colon; what follows is the statement, not that noun's doing."""
    after = verb.doc[verb.i + 1] if verb.i + 1 < len(verb.doc) else None
    bare = subject.pos_ == "NOUN" and not any(t.dep_ in {"det", "poss", "compound", "amod"} for t in subject.children)
    return after is not None and after.text == ":" and bare and subject.i == verb.sent.start


def _clauses(sentence: Any) -> list[Any]:
    """The verbs that head a statement: main and coordinated clauses, not the reasons given for them."""

    if statements.asked(sentence.text):
        return []
    found = []
    for verb in sentence:
        if verb.pos_ not in {"VERB", "AUX"} or verb.dep_ not in {"ROOT", "conj", "ccomp", "parataxis", "advcl"}:
            continue
        if verb.dep_ == "advcl" and any(t.dep_ == "mark" and t.lower_ in RATIONALE_MARKERS for t in verb.children):
            continue
        if verb.dep_ == "ccomp" and any(t.dep_ == "mark" and t.lower_ == "so" for t in verb.head.children):
            continue  # "A, so B": A is B's reason
        if _open_question(verb):
            continue
        found.append(verb)
    return found


# What makes a clause a question or a condition rather than a statement: "whether it would be considered
# malware", "if we get permission errors", "how art can show emotions".
OPEN_MARKS = {"whether", "if", "unless"}
OPEN_ADVERBS = {"how", "why"}


def _open_question(verb: Any) -> bool:
    """Whether the clause asks or supposes instead of saying: marked by whether/if/unless, or led by how/why."""
    first = next(iter(verb.subtree))
    return any(t.dep_ == "mark" and t.lower_ in OPEN_MARKS for t in verb.children) or (
        first.lower_ in OPEN_ADVERBS and first.head.i == verb.i
    )


def _sentence_facts(sentence: Any, spans: list[tuple[int, int, str]], reader: Any,
                    unread: list[Any] | None = None, before: int = 0) -> list[ExtractedFact]:
    """The sentence's statements; each clause that put nothing in a slot goes in `unread` with the number of
    statements of the text before it."""

    facts: list[ExtractedFact] = []
    for verb in _clauses(sentence):
        subject = _subject(verb)
        if subject is None or not _heads_a_clause(verb):
            continue
        about = _about([(t.i, t.i + 1) for t in _without_reasons(verb)], spans)
        obj, preposition = _object_of(verb)
        verb_lemma = lemma(verb)
        predicate = " ".join(part for part in (verb_lemma, *[t.lower_ for t in verb.children if t.dep_ == "prt"], preposition) if part)
        if subject.lower_ in statements.FOCUS_PRONOUNS:
            said = reader.name(subject)
        else:
            said = subject.text if subject.pos_ == "PRON" else _phrase(subject).text
        # The clause as said (who -[verb]-> what) and how it is said (reading/mood.py), whatever slot it fills.
        said_here = _as_said(verb, subject)
        triple = {"subject": said, "predicate": predicate, "object": _phrase(obj).text if obj is not None else None,
                  "mood": said_here["mood"]}
        text = said_here["text"]
        claims = reader.claims(verb, subject)
        if not claims and unread is not None:
            unread.append((verb, before + len(facts)))  # read again in the active voice where its shape hides the doer (_in_active)
        if claims:
            reason = rationale(verb) or (rationale(verb.head) if verb.dep_ == "conj" else None)
            facts += [statements.fact_of(claim, text, about, reason, triple) for claim in claims]
            continue
        if reader.refused:  # it named slots, none of a kind its value is ("CI is slow (9 min)"): a statement in none
            facts.append(ExtractedFact(text=text, about=about, rationale=rationale(verb), **triple))
            continue
        subject_word = subject.lower_
        if verb_lemma in DECISION_VERBS and (subject_word in DECIDERS or lemma(subject) in DECIDERS):
            # A choice whose role the reader could not name: a decision without a slot.
            facts.append(
                ExtractedFact(text=text, kind="decision", about=about, rationale=rationale(verb), **triple)
            )
            continue
        if obj is None or not said or statements.junk_name(said) or statements.junk_name(triple["object"]):
            continue
        if obj.pos_ in {"VERB", "AUX"} or _heading(verb, subject) or not _finite(verb):
            continue  # "billing/VERB consumes/NOUN them": a verb is no object; "Decision noted: ..." is a label
        names = _about([(t.i, t.i + 1) for t in (subject, obj)], spans)
        facts.append(ExtractedFact(text=text, about=names or about, **triple))
    return facts
