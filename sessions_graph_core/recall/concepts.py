"""Concept evidence: a turn that names a kind of what the question asks about.

"What activities does Melanie partake in?" shares no word with "I'm off to go swimming with the kids",
yet in WordNet swimming is a water sport, a sport, a diversion, an activity. A question word matches a
turn when one of its senses is among the senses of the turn's words or the hypernyms above them, a few
steps up. The turns that hold the word itself are left to the full-text lane. Each matched word weighs
by how few turns of the pool it matches (a broad concept such as "act" or "person" matches half the
pool and tells little), and the speakers' names are no concepts.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from sessions_graph_core.text import content_words, stem

PARTS_OF_SPEECH = ("n", "v")  # adjectives and adverbs have no hypernyms to climb
# Chosen on LoCoMo's tuning half (conversations 0-4) by leaving one conversation out (docs/history/recall-quality.md, ninth round).
SENSES = 2  # a turn's word's most frequent senses read; rarer ones mostly match by accident
QUESTION_SENSES = 3  # a question's word's senses, each weighing by how many turns it matches
DEPTH = 6  # hypernym steps climbed above a turn's word: swimming -> ... -> activity is four


@lru_cache(maxsize=65536)
def senses(word: str, count: int) -> tuple[tuple[int, str], ...]:
    """The word's `count` most frequent senses of each part of speech, as (offset, part of speech)."""
    # WordNet is imported where it is read: a hook records a turn's concept words (`named`) and never reads it.
    from sessions_graph_core import wordnet

    return tuple((s.offset, s.pos) for pos in PARTS_OF_SPEECH for s in wordnet.synsets(word, pos)[:count])


@lru_cache(maxsize=65536)
def kinds(word: str) -> frozenset[tuple[int, str]]:
    """The word's senses and every synset up to DEPTH steps above them."""
    from sessions_graph_core import wordnet

    found = set(senses(word, SENSES))
    for pos in PARTS_OF_SPEECH:
        for synset in wordnet.synsets(word, pos)[:SENSES]:
            found.update((above.offset, above.pos) for above in wordnet.hypernym_closure(synset, DEPTH))
    return frozenset(found)


def named(text: str, names: frozenset[str]) -> list[str]:
    """The text's words that may name a concept: no speaker's name, no number, no letter alone ("Caroline's")."""
    return [word for word in content_words(text) if word not in names and len(word) > 2 and not word.isdigit()]


def asked_senses(question: str, names: frozenset[str]) -> dict[str, tuple[tuple[int, str], ...]]:
    """The question's words that may name a concept, each with its senses (words WordNet lacks left out)."""
    found = {word: senses(word, QUESTION_SENSES) for word in dict.fromkeys(named(question, names))}
    return {word: own for word, own in found.items() if own}


def asks_about_kinds(question: str) -> bool:
    """Whether any of the question's words has a sense a turn's word could be a kind of. Without one
    no turn has concept evidence, whoever the speakers are, and the pool's words need not be read."""
    return bool(asked_senses(question, frozenset()))


def concept_scores(question: str, words: Mapping[str, Sequence[str]], speakers: Iterable[str]) -> dict[str, float]:
    """Each turn's concept evidence, scaled to the best turn's: for each of the question's words it
    names a kind of without holding the word, the weight of the most specific sense matched, a sense
    matched in `matched` of the pool's turns weighing log(1 + turns / matched).

    `words` holds each turn's words that may name a concept, speakers' names included (recall/evidence.py
    writes them at ingest); the names of `speakers` are left out here."""
    names = frozenset(word for speaker in speakers for word in content_words(speaker))
    asked = asked_senses(question, names)
    if not asked or not words:
        return {}
    # Each distinct word of the pool is looked up once, against the question's senses only. The words
    # that matter are those that reach one of them and those that share a stem with a question's word
    # (a turn holding one is left to the full-text lane); most turns hold neither.
    vocabulary = set().union(*words.values()).difference(names)
    wanted = frozenset(sense for own in asked.values() for sense in own)
    reaching = {word: found for word in vocabulary if (found := kinds(word) & wanted)}
    asked_stems = {stem(word) for word in asked}
    holding = {word: stem(word) for word in vocabulary if stem(word) in asked_stems}
    matter = frozenset(reaching).union(holding)
    matches: dict[str, list[tuple[str, tuple[int, str]]]] = {}
    counts: dict[tuple[int, str], int] = {}
    for tid, own in words.items():
        hits = matter.intersection(own)
        if not hits:
            continue
        concepts = frozenset().union(*(reaching[word] for word in hits if word in reaching))
        held = {holding[word] for word in hits if word in holding}
        found = [
            (word, sense) for word, senses_of in asked.items() if stem(word) not in held
            for sense in senses_of if sense in concepts
        ]
        matches[tid] = found
        for _, sense in found:
            counts[sense] = counts.get(sense, 0) + 1
    scores = {}
    for tid, found in matches.items():
        best: dict[str, float] = {}
        for word, sense in found:
            best[word] = max(best.get(word, 0.0), math.log(1 + len(words) / counts[sense]))
        if best:
            scores[tid] = sum(best.values())
    top = max(scores.values(), default=0.0)
    return {tid: value / top for tid, value in scores.items()} if top > 0 else {}
