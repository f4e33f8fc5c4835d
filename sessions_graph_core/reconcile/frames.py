"""Which attribute a clause states, by the embedder, when no rule of the reader names one.

The prototypes are statements made from attributes.toml itself: per attribute, "my <noun> is
something" for each noun and "I <verb> something" for each verb, with the value masked as
"something" (a clause to classify is masked the same way), so the frame decides, not the name in it:
"something hired me" is nearest "I am hired by something" (employer), "something is where I live
now" nearest "I live in something" (location). Multi-valued frames ("I visited something", "I like
something") are a class of their own that fills no slot. A clause takes the nearest attribute only
when it is near enough and clearly nearer than any other class.

The same test says whether "I am a <noun>" names a job no list names: "I am a paralegal" against
"I am a <listed occupation>" and "I am a morning person" and the like.
"""

from __future__ import annotations

from functools import cache, lru_cache

import numpy as np

from sessions_graph_core.reconcile.lexicon import HOUSEHOLD, PERSONAL, base_attributes, ranked_by_name
from sessions_graph_core.text import WORDS_CACHED

MASK = "something"
# Nearest prototype at this cosine or above, and this much nearer than the best of any other class.
FRAME_SIMILARITY = 0.6
FRAME_MARGIN = 0.08
NO_SLOT = ""
# Frames of multi-valued statements and of one-off events: nearest one of these, a clause fills no slot
# ("I called Dana" is no name, "we deployed Grafana yesterday" no hosting).
MULTI_VALUED = (
    "I like {v}", "I love {v}", "I enjoy {v}", "I visited {v}", "I have been to {v}", "I went to {v} last week",
    "I met {v}", "I know {v}", "I talked to {v}", "I speak {v}", "I am learning {v}", "I am reading {v}",
    "I watched {v}", "I bought {v}", "I tried {v}", "we also use {v}", "we talked to {v}", "I am a fan of {v}",
    "I called {v}", "I emailed {v}", "I asked {v}", "I saw {v}", "I had lunch with {v}", "I helped {v}",
    "I invited {v}", "we deployed {v} yesterday", "we released {v}", "we shipped {v}", "we fixed {v}",
    "I reviewed {v}", "we demoed {v}", "I am seeing {v} on Friday", "I recommended {v}",
)


# What one says one is that is no job: "I'm a morning person" fills no occupation.
NOT_JOBS = (
    "a fan of football", "a morning person", "a cat person", "a big reader", "a parent", "an introvert", "a runner",
    "a night owl", "a homeowner", "a beginner", "a vegetarian", "a regular there", "a member of the club",
    "a good cook", "a Capricorn",
)


def prototypes() -> list[tuple[str, str]]:
    """(attribute, masked statement) for every noun and verb of every attribute, and the multi-valued frames."""
    found = []
    for name, spec in base_attributes().items():
        person = name in PERSONAL | HOUSEHOLD
        for noun in spec.get("nouns", [name]):
            found.append((name, f"{'my' if person else 'our'} {noun} is {MASK}"))
        for verb in spec.get("verbs", []):
            said = "am " + verb[3:] if verb.startswith("be ") else verb
            found.append((name, f"{'I' if person else 'we'} {said} {MASK}"))
    found += [(NO_SLOT, frame.format(v=MASK)) for frame in MULTI_VALUED]
    return found


def occupation_prototypes() -> list[tuple[str, str]]:
    """"I am a <listed occupation>" against "I am a morning person" and the like."""
    return ([("occupation", f"I am a {value}") for value in base_attributes()["occupation"]["values"]]
            + [(NO_SLOT, f"I am {said}") for said in NOT_JOBS])


@cache
def _vectors(kind: str) -> tuple[list[str], np.ndarray]:
    from sessions_graph_core.embeddings.models import load_embedder

    pairs = prototypes() if kind == "frames" else occupation_prototypes()
    return [name for name, _ in pairs], load_embedder().embed([text for _, text in pairs])


@lru_cache(maxsize=WORDS_CACHED)
def classify(masked: str) -> str | None:
    """The attribute a masked clause states, NO_SLOT for a multi-valued one, None when no class is
    clearly nearest (or there is no embedder on this host: the rules still work)."""
    return _nearest("frames", masked)


@lru_cache(maxsize=WORDS_CACHED)
def occupation(role: str) -> bool | None:
    """Whether "I am a <role>" is a job: clearly nearer the listed occupations (True) or clearly nearer what
    else one is (False); None when neither is clear or there is no embedder."""
    nearest = _nearest("occupations", f"I am a {role}")
    return None if nearest is None else nearest == "occupation"


@lru_cache(maxsize=WORDS_CACHED)
def leaning_occupation(role: str) -> bool:
    """Whether "I am a <role>" is clearly nearer the listed occupations than what else one is, however near
    either is: the reading for a word WordNet does not know ("barista"), where the embedder is all there is."""
    return _nearest("occupations", f"I am a {role}", similarity=-1.0) == "occupation"


def _nearest(kind: str, text: str, similarity: float = FRAME_SIMILARITY) -> str | None:
    try:
        names, vectors = _vectors(kind)
        from sessions_graph_core.embeddings.models import load_embedder

        scores = vectors @ load_embedder().embed([text])[0]
    except Exception:  # noqa: BLE001 - no embedder here: no fallback, as nearest_kind
        return None
    ranked = ranked_by_name(names, scores.tolist())
    (top, score), runner_up = ranked[0], ranked[1][1]
    return top if score >= similarity and score - runner_up >= FRAME_MARGIN else None
