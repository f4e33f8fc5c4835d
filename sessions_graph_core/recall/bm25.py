"""Okapi BM25 for one user's turns, scored here from what the full-text index returns.

The store's full-text scores are TF-IDF-like and ignore document length, and they rank LoCoMo's
evidence far below BM25 (R@10 0.12 against 0.57). So the index only finds candidates and
document frequencies; the score is computed here, with the same Snowball English stemmer the
index uses (text.stems), so a term counts in a text exactly when the index matched it there.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from sessions_graph_core.text import stems

# Tuned on LoCoMo (benchmarks/bench_recall_quality.py): short chat turns want a weak length penalty.
K1 = 0.9
B = 0.4


@dataclass(frozen=True)
class Collection:
    """What BM25 needs to know about the whole set of documents being ranked."""

    documents: int
    average_length: float
    frequencies: Mapping[str, int]  # stem -> documents holding it


def idf(collection: Collection, stem: str) -> float:
    df = collection.frequencies.get(stem, 0)
    return math.log(1 + (collection.documents - df + 0.5) / (df + 0.5))


def score(collection: Collection, query: Sequence[str], text: str, k1: float = K1, b: float = B) -> float:
    """BM25 of one text for the query stems; lengths are in characters, as the average is."""
    return score_stems(collection, query, stems(text), len(text), k1, b)


def score_stems(
    collection: Collection, query: Sequence[str], text_stems: Iterable[str], length: int, k1: float = K1, b: float = B,
    weights: Mapping[str, float] | None = None,
) -> float:
    """BM25 of a text of `length` characters whose stems are `text_stems` (see `score`); a query stem
    counts `weights[stem]` times its term (1 when not given)."""
    counts: dict[str, int] = {}
    for stem in text_stems:
        counts[stem] = counts.get(stem, 0) + 1
    norm = 1 - b + b * length / max(collection.average_length, 1.0)
    weights = weights or {}
    total = 0.0
    for stem in query:
        tf = counts.get(stem, 0)
        if tf:
            total += weights.get(stem, 1.0) * idf(collection, stem) * tf * (k1 + 1) / (tf + k1 * norm)
    return total
