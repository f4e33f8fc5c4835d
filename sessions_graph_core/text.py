"""Words: the one tokeniser, stopword list, stemmer, whitespace normaliser and the form names compare in.

Full-text queries, BM25, the sample of a history's word counts and the choice of a long text's
best passage all read words the same way, so a word counts in one exactly when it counts in the
others. Only letters and digits make words (no '_', no punctuation), so no query syntax of any
search engine can come through `search_terms`.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import Any

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
STOPWORDS = frozenset(  # noqa: SIM905 - a list literal of 127 quoted words is harder to read
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can did do does doing down during each few for from further had has
    have having he her here hers herself him himself his how i if in into is it its itself just me
    more most my myself no nor not now of off on once only or other our ours ourselves out over own
    same she should so some such than that the their theirs them themselves then there these they
    this those through to too under until up very was we were what when where which while who whom
    why will with you your yours yourself yourselves""".split()
)
MAX_QUERY_TERMS = 32
# How many words (or short phrases) a per-word cache keeps in a long-running process (the Dagster daemon, the
# MCP server): far more than the holders, nouns and verbs of one user's slots, and 4,096 vectors of 384
# float32 are 6 MB; an unbounded cache grows with every word the process ever reads.
WORDS_CACHED = 4096


def normalise(text: str) -> str:
    """The text with every run of whitespace made one space, and no space at either end."""
    return " ".join(text.split())


def comparable(text: str) -> str:
    """The form names and statements are compared in: lower case, single spaces, no closing punctuation
    ("Carol." and "carol" are one name)."""
    return " ".join(text.lower().split()).strip(" .!?;:")


def words(text: str) -> list[str]:
    """The text's words, lowercased, in order, stopwords included."""
    return _WORD.findall(text.lower())


def content_words(text: str) -> list[str]:
    """The text's words, lowercased, in order, without stopwords."""
    return [word for word in words(text) if word not in STOPWORDS]


def search_terms(text: str) -> list[str]:
    """The words of a user's query, lowercased and deduplicated, without stopwords (at most 32)."""
    return list(dict.fromkeys(content_words(text)))[:MAX_QUERY_TERMS]


@cache
def _stemmer() -> Any:
    # The Snowball English stemmer is the one the full-text index uses, so a stem counts in a
    # text exactly when the index matched it there. Imported on first use: hooks never stem.
    import snowballstemmer

    return snowballstemmer.stemmer("english")


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    # The stemmer is pure Python and slow; words repeat, so each is stemmed once.
    return _stemmer().stemWord(word)


def stems(text: str) -> list[str]:
    """The text's words, lowercased, without stopwords, stemmed."""
    return [stem(word) for word in content_words(text)]
