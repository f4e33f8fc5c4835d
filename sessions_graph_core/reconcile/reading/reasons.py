"""Why a clause says what it does: its "because", "since", "due to" phrase, or "A, so B" (rationale)."""

from __future__ import annotations

from typing import Any

from sessions_graph_core.reconcile.nlp import lemma
from sessions_graph_core.reconcile.reading.words import INTENT_VERBS, RATIONALE_MARKERS


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
    return None


def _span_text(words: list[Any]) -> str | None:
    """The words as the text said them (its own spacing), one line."""
    if not words:
        return None
    ordered = sorted(words, key=lambda t: t.i)
    text = "".join(t.text_with_ws for t in ordered)
    return " ".join(text.split()).strip(" ,.:;") or None
