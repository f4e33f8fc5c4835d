"""Misspelt question words: a word no turn of the user holds and no dictionary knows is read as the
dictionary's word one edit away that the user's turns hold.

Questions are typed in a hurry ("Which torunament did Nate win?", "the homeless shelter funraiser"); a
misspelt word matches no turn, so the full-text lane loses the question's rarest, most telling word. The
dictionary is the embedder's vocabulary (embeddings/words.py: 21,258 English words and common names).
A word it knows is never respelt, nor a word some turn of the user holds (a name, a product, a word of the
user's own), so only a word that would have found nothing is touched.
"""

from __future__ import annotations

from functools import cache
from string import ascii_lowercase

from sessions_graph_core.embeddings.words import vocabulary

# A shorter word has too many dictionary words one edit away to tell which was meant.
SHORTEST = 5


@cache
def known_words() -> frozenset[str]:
    return frozenset(vocabulary())


def one_edit(word: str) -> set[str]:
    """Every string one edit from `word`: a letter left out, two neighbours swapped, a letter changed or added."""
    found = set()
    for cut in range(len(word) + 1):
        head, tail = word[:cut], word[cut:]
        found.update(head + letter + tail for letter in ascii_lowercase)
        if tail:
            found.add(head + tail[1:])
            found.update(head + letter + tail[1:] for letter in ascii_lowercase)
        if len(tail) > 1:
            found.add(head + tail[1] + tail[0] + tail[2:])
    found.discard(word)
    return found


def respellings(word: str) -> list[str]:
    """The dictionary's words one edit from `word`, in alphabetical order; none for a word the dictionary
    knows, a short one, or one that is not all letters."""
    if len(word) < SHORTEST or not word.isalpha() or word in known_words():
        return []
    return sorted(one_edit(word) & known_words())
