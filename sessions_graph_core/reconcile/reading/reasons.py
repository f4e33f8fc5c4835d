"""Why a clause says what it does: its "because", "since", "due to" phrase, "A, so B", its purpose ("to cut
costs"), what follows a dash ("we dropped Sentry — too noisy"), or the next sentence when it says
it gives the reason ("The reason: ...", "That's because ...") (rationale)."""

from __future__ import annotations

import re
from typing import Any

from sessions_graph_core.reconcile.nlp import lemma
from sessions_graph_core.reconcile.reading.words import INTENT_VERBS, RATIONALE_MARKERS
from sessions_graph_core.reconcile.tokens import as_said


def rationale(verb: Any) -> str | None:
    """Why: "because/since/as ..." clauses, "due to/because of ..." phrases, and "A, so B" (A is why)."""
    # A name parsed as a verb ("to Render because of pricing") carries the clause's reason.
    named = [t for t in verb.children if t.dep_ == "xcomp" and t.is_title and any(c.lower_ == "to" for c in t.children)]
    for child in [*verb.children, *(c for t in named for c in t.children)]:
        if child.dep_ == "advcl" and any(t.dep_ == "mark" and t.lower_ in RATIONALE_MARKERS for t in child.children):
            words = [t for t in child.subtree if not (t.dep_ == "mark" and t.head.i == child.i)]
            return _span_text(words)
        if child.dep_ == "prep" and child.lower_ in {"due", "because"}:
            words = [t for t in child.subtree if t.i != child.i and not (t.dep_ in {"pcomp", "prep"} and t.lower_ in {"to", "of"})]
            return _span_text(words)
    # "we've decided to move login to Clerk because ...": the reason of what was decided is the decision's.
    planned = next((t for t in verb.children if t.dep_ == "xcomp" and t.pos_ == "VERB"), None)
    if planned is not None and lemma(verb) in INTENT_VERBS:
        reason = rationale(planned)
        if reason:
            return reason
    if any(t.dep_ == "mark" and t.lower_ == "so" for t in verb.children):
        reason = next((t for t in verb.children if t.dep_ in {"ccomp", "advcl"} and t.i < verb.i), None)
        if reason is not None:
            words = [t for t in reason.subtree if t.dep_ != "dep" or t.head.i != reason.i]
            text = _span_text([t for t in words if not (t.i < reason.i and any(w.text == ":" for w in words if w.i > t.i))])
            return text
    return _purpose(verb) or _after_a_break(verb) or _next_sentence_reason(verb)


# Dashes after which a clause goes on to say why: "we dropped Sentry — too noisy". Not a colon: after one a
# new statement as often follows ("I moved to Lisbon: Priya is my manager now").
BREAKS = {"—", "–", "--"}
# How a following sentence says it is the reason: "The reason: ...", "That's because ...".
REASON_LEADS = re.compile(r"^\s*(?:the (?:main )?reason(?: is| was)?(?: that)?\s*:?|reason\s*:|that'?s because|this is because|"
                          r"it'?s because)\s*", re.IGNORECASE)


def _purpose(verb: Any) -> str | None:
    """"We moved to GitLab to cut costs": an infinitive clause of purpose hung on the verb."""
    for child in verb.children:
        if child.dep_ == "advcl" and child.pos_ == "VERB" and any(t.dep_ == "aux" and t.lower_ == "to" for t in child.children):
            return _span_text(list(child.subtree))
    return None


def _after_a_break(verb: Any) -> str | None:
    """What a clause says after a dash that follows its object: "we dropped Sentry — too noisy"."""
    sentence = verb.sent
    objects = [t.i for t in verb.children if t.dep_ in {"dobj", "prep", "attr"}]
    brk = next((t for t in sentence if t.text in BREAKS and t.i > verb.i and objects and t.i > max(objects)), None)
    if brk is None:
        return None
    rest = [t for t in sentence if t.i > brk.i]
    # The root itself, or the clause the parser hung on the reason after the dash ("picked/ccomp — knows/ROOT").
    said_first = verb.dep_ == "ROOT" or (verb.dep_ == "ccomp" and verb.head.i > brk.i)
    return _span_text(rest) if said_first and len([t for t in rest if not t.is_punct]) >= 2 else None


def _next_sentence_reason(verb: Any) -> str | None:
    """The sentence after the verb's, where it says that it gives the reason: "We went with Buildkite. The reason: ..."."""
    if verb.dep_ != "ROOT" or verb.sent.end >= len(verb.doc):
        return None
    following = verb.doc[verb.sent.end].sent
    lead = REASON_LEADS.match(following.text)
    if lead is None:
        return None
    return " ".join(following.text[lead.end():].split()).strip(" ,.:;") or None


def _span_text(words: list[Any]) -> str | None:
    """The words as the text said them (its own spacing), one line."""
    if not words:
        return None
    return as_said(words).strip(" ,.:;") or None
