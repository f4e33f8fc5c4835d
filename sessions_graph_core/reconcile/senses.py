"""Which attribute a value is a value of, by what its words mean in WordNet, where no list names it and
the embedder does not place it ("a welder", "a sous chef", "utrecht" typed in lower case).

attributes.toml declares an attribute's kinds as WordNet senses, "word.n.NN" (the NN-th noun sense of the
word, most frequent first, as WordNet numbers them): `occupation` is `worker.n.01` or `professional.n.01`,
`location` is `city.n.01`, `town.n.01` ... A value is of the kind one of its senses climbs to through its
hypernyms. Only the value's most frequent sense is read: "Bordeaux" is the city before it is the wine,
and a word whose usual sense is something else ("rust", "spark") is of no kind here. A phrase WordNet does
not list as a whole is read by its head, the last word: "sous chef" is a chef, "dental hygienist" a
hygienist.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache

from sessions_graph_core import wordnet
from sessions_graph_core.text import WORDS_CACHED

# How far up the hypernyms a value's sense may climb to reach a declared kind ("hygienist" reaches
# professional in five steps; every path to the top of WordNet's nouns is shorter than twenty).
KIND_DEPTH = 12
# WordNet's lexicographer files of the things that are somewhere ("the office is in Leeds").
PLACEABLE = {"noun.person", "noun.group", "noun.artifact", "noun.location", "noun.object"}


@cache
def declared(name: str) -> tuple[int, str] | None:
    """The synset "word.n.NN" (or "word.v.NN") names, the NN-th of the word's senses as that part of speech,
    as (offset, part of speech); None when WordNet has no such sense."""
    word, pos, rest = name.rsplit(".", 2) if name.count(".") >= 2 else ("", "", "")
    if pos not in {"n", "v"}:
        return None
    senses = [s for s in wordnet.synsets(word, pos) if word.replace(" ", "_").lower() in s.lemmas]
    number = int(rest) if rest.isdigit() else 0
    if not word or not 1 <= number <= len(senses):
        return None
    return senses[number - 1].offset, pos


def kind(phrase: str, kinds: Iterable[tuple[str, str]]) -> str | None:
    """The attribute of the first declared kind (`kinds`: (synset name, attribute)) that the most frequent
    sense of `phrase`, or of its head word when WordNet does not list the phrase, is or climbs to."""
    by_synset = {found: attribute for name, attribute in kinds if (found := declared(name))}
    return _kind(tuple(phrase.lower().split()), tuple(by_synset.items()))


def known(phrase: str) -> bool:
    """Whether WordNet lists the phrase, or its head word, as a noun."""
    return bool(_noun_senses(tuple(phrase.lower().split())))


def no_noun(word: str) -> bool:
    """Whether WordNet knows the word, or a base form of it, only as another part of speech than a noun ("cheap",
    "invalidated", "preemptive"); False for a noun and for a word it does not know ("pnpm")."""
    return not wordnet.synsets(word, "n") and any(wordnet.synsets(word, pos) for pos in "avr")


def placeable(phrase: str) -> bool:
    """Whether the most frequent sense of the phrase (or of its head word) is a thing that is somewhere: a
    person, a group, an artifact or a place ("the office", "the team"), not an activity or a record
    ("accounting", "the design")."""
    senses = _noun_senses(tuple(phrase.lower().split()))
    return bool(senses) and senses[0].lexname in PLACEABLE


def people(word: str) -> str | None:
    """"person" or "group" where the most frequent noun sense of the word is a person ("sister", "boss") or a
    group ("team", "meeting"); None otherwise, or where WordNet does not know the word."""
    senses = wordnet.synsets(word, "n")
    lexname = senses[0].lexname if senses else ""
    return lexname.removeprefix("noun.") if lexname in {"noun.person", "noun.group"} else None


def sense_file(phrase: str) -> str | None:
    """WordNet's lexicographer file of the most frequent noun sense of the phrase (or of its head word):
    "noun.time" for "morning", "noun.group" for "team"; None where WordNet does not know it."""
    senses = _noun_senses(tuple(phrase.lower().split()))
    return senses[0].lexname if senses else None


@lru_cache(maxsize=WORDS_CACHED)
def verb(word: str) -> bool:
    """Whether WordNet lists the word, or a base form of it, as a verb ("relocated" is, "bologna" is not)."""
    return bool(wordnet.synsets(word, "v"))


@lru_cache(maxsize=WORDS_CACHED)
def _kind(words: tuple[str, ...], by_synset: tuple[tuple[tuple[int, str], str], ...]) -> str | None:
    senses = _noun_senses(words)
    if not senses:
        return None
    wanted = dict(by_synset)
    for synset in [senses[0], *wordnet.hypernym_closure(senses[0], KIND_DEPTH)]:
        if (synset.offset, synset.pos) in wanted:
            return wanted[(synset.offset, synset.pos)]
    return None


def _noun_senses(words: tuple[str, ...]) -> list[wordnet.Synset]:
    """The noun senses of the phrase, or of its head word (the last) when WordNet does not list the phrase."""
    if not words:
        return []
    return wordnet.synsets("_".join(words), "n") or wordnet.synsets(words[-1], "n")


def same_sense(one: str, other: str) -> bool:
    """Whether two words are synonyms: the most frequent sense of one is a sense of the other ("bike" and
    "bicycle", "flat" and "apartment", "lawyer" and "attorney"). A sense under the other's is not the same
    ("staging" is a theatrical production, "a wife" a spouse, which a partner is too)."""
    first, second = wordnet.synsets(one, "n"), wordnet.synsets(other, "n")
    return bool(first and second) and (first[0] in second or second[0] in first)


# The verb senses that say a thing held stopped being held: ended, stopped, cancelled, given up, got rid
# of, sold, resigned. A verb no list names ends what it is said of when one of its first senses is one of
# these or climbs to one ("axe" is terminate, "junk" discard, "fold" close up, "relinquish" waive).
ENDING_SENSES = ("end.v.01", "end.v.02", "end.v.03", "discontinue.v.01", "cancel.v.01", "abandon.v.02", "abandon.v.04",
                 "abandon.v.05", "give_up.v.01", "give_up.v.03", "get_rid_of.v.01", "discard.v.01", "sell.v.01",
                 "renounce.v.01", "renounce.v.02", "renounce.v.03", "quit.v.02", "relinquish.v.01", "relinquish.v.02",
                 "let_go_of.v.01", "close.v.03")
# Senses that stop for a while and climb to end through an interruption: "paused", "froze", "suspended"
# a membership keeps it.
PAUSING_SENSES = ("interrupt.v.01", "interrupt.v.04")
# How many of a verb's senses, most frequent first, are read: "fold" closes up only in its third.
ENDING_SENSES_READ = 3
# How far up a verb sense may climb to reach an ending (verb hierarchies are shallow: "junk" is discard in one step).
ENDING_DEPTH = 4


@lru_cache(maxsize=WORDS_CACHED)
def ends(word: str) -> bool:
    """Whether one of the verb's first senses ends something held, by WordNet ("axe", "junk", "fold",
    "relinquish"), not through a pause ("pause", "suspend")."""
    ending, pausing = _verb_senses(ENDING_SENSES), _verb_senses(PAUSING_SENSES)
    for sense in wordnet.synsets(word, "v")[:ENDING_SENSES_READ]:
        for above in [sense, *wordnet.hypernym_closure(sense, ENDING_DEPTH)]:
            if above.offset in pausing:
                break
            if above.offset in ending:
                return True
    return False


@lru_cache(maxsize=WORDS_CACHED)
def moves(word: str) -> bool:
    """Whether the verb's most frequent sense is a motion ("leave", "depart"): one who does it goes away."""
    senses = wordnet.synsets(word, "v")
    return bool(senses) and senses[0].lexname == "verb.motion"


@cache
def _verb_senses(names: tuple[str, ...]) -> frozenset[int]:
    """The offsets of the verb senses named "word.v.NN" (declared)."""
    return frozenset(found[0] for name in names if (found := declared(name)))


# Verbs whose senses are those of staying as one was: "stay, remain, rest", "stay on, continue, remain",
# "continue, go on, proceed".
CONTINUING_VERBS = ("remain", "continue")


@lru_cache(maxsize=WORDS_CACHED)
def continuing(verb_word: str) -> bool:
    """Whether the most frequent sense of the verb is a sense of remaining or continuing ("stay", "remain",
    "continue"); not "keep" or "hold", whose most frequent sense is holding a thing ("Sam maintains X")."""
    found = wordnet.synsets(verb_word, "v")
    return bool(found) and any(found[0] in wordnet.synsets(word, "v") for word in CONTINUING_VERBS)
