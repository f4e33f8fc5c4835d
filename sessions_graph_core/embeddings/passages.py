"""Splitting long texts into passages, and showing the relevant parts of a long text.

A passage is what one vector stands for. The default model reads at most 128 word pieces, about
500 characters of English, so longer turns and memory files are split on sentence and line ends
and every part gets its own vector.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from sessions_graph_core.text import content_words, normalise

PASSAGE_CHARS = 500
PASSAGE_SCHEME = f"passages-{PASSAGE_CHARS}"
ELLIPSIS = "…"

# A unit ends after a blank line, a newline, or a sentence end followed by whitespace.
_UNIT_END = re.compile(r"\n\s*\n|\n|(?<=[.!?])\s+")


def _units(text: str, limit: int) -> list[str]:
    units: list[str] = []
    start = 0
    for match in _UNIT_END.finditer(text):
        units.append(text[start : match.end()])
        start = match.end()
    units.append(text[start:])
    pieces: list[str] = []
    for unit in units:
        # A unit longer than a passage (a long line of code, a URL) is cut where it must be.
        pieces += [unit[i : i + limit] for i in range(0, len(unit), limit)] or [unit]
    return [piece for piece in pieces if piece]


def split_passages(text: str, limit: int = PASSAGE_CHARS) -> list[str]:
    """Greedy packing of units into passages of at most `limit` characters.

    The passages concatenate back to exactly `text`; an empty text is one empty passage. This is
    the one place that decides where a passage ends: the vectors of turns and memory files, BM25
    over a turn's passages and the rows recall shows all read these passages.
    """
    if len(text) <= limit:
        return [text]
    passages: list[str] = []
    current = ""
    for unit in _units(text, limit):
        if current and len(current) + len(unit) > limit:
            passages.append(current)
            current = ""
        current += unit
    if current:
        passages.append(current)
    return passages


def passage_spans(text: str, limit: int = PASSAGE_CHARS) -> list[tuple[int, int]]:
    """The (start, end) character offsets of each passage of `text` (see `split_passages`)."""
    spans = []
    start = 0
    for passage in split_passages(text, limit):
        spans.append((start, start + len(passage)))
        start += len(passage)
    return spans


def best_passage(passages: Sequence[str], hint: str) -> int:
    """The index of the passage that best matches `hint`.

    A passage holding the hint verbatim wins; otherwise the one sharing most words with it, and the
    first one on a tie or when nothing overlaps. Stopwords do not count as shared words.
    """
    collapsed = normalise(hint)
    if collapsed:
        for index, passage in enumerate(passages):
            if collapsed in normalise(passage):
                return index
    wanted = set(content_words(hint))
    overlaps = [len(wanted.intersection(content_words(passage))) for passage in passages]
    return max(range(len(passages)), key=lambda i: (overlaps[i], -i)) if passages else 0


def shown_passages(text: str, hits: Sequence[int], chars: int, limit: int = PASSAGE_CHARS) -> list[int]:
    """The passages of `text` a row of `chars` characters shows, in text order: all of them when the
    text fits; else the `hits` (passage indexes, most relevant first) taken while they fit, the
    first always (cut to `chars` if it is longer), or the first passage when no hit is valid."""
    passages = split_passages(text, limit)
    if len(text) <= chars:
        return list(range(len(passages)))
    chosen: list[int] = []
    used = 0
    for index in dict.fromkeys(hit for hit in hits if 0 <= hit < len(passages)):
        size = min(len(passages[index]), chars)
        if chosen and used + size > chars:
            continue
        chosen.append(index)
        used += size
    return sorted(chosen or [0])


def excerpt(text: str, hits: Sequence[int], chars: int, limit: int = PASSAGE_CHARS,
            shown: Callable[[str], str] = str) -> str:
    """`text` whole when it fits in `chars`; else its `shown_passages`, in text order, with … for gaps.
    `shown` gives what a row shows of the whole text or of each passage (recall folds unasked output)."""
    if len(text) <= chars:
        return shown(text)
    passages = split_passages(text, limit)
    parts: list[str] = []
    previous = -1
    for index in shown_passages(text, hits, chars, limit):
        if index != previous + 1:
            parts.append(ELLIPSIS)
        parts.append(shown(passages[index][:chars].strip()))
        previous = index
    if previous != len(passages) - 1:
        parts.append(ELLIPSIS)
    return " ".join(parts)
