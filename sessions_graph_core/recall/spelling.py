"""Misspelt question words: a word no turn of the user holds and no dictionary knows is read as the
dictionary's word one edit away that a slip of the hand or of spelling most likely made, of those the
user's turns hold.

Questions are typed in a hurry ("Which torunament did Nate win?", "the homeless shelter funraiser"); a
misspelt word matches no turn, so the full-text lane loses the question's rarest, most telling word. The
dictionary is the embedder's vocabulary (embeddings/words.py: 21,258 English words and common names).
A word it knows is never respelt, nor a word some turn of the user holds (a name, a product, a word of the
user's own), so only a word that would have found nothing is touched.

Edits are not equally likely. Two neighbouring letters swapped ("recieved"), a letter left out, a key
struck beside the one meant, a doubled or neighbouring key struck twice and a vowel written for another
("tournamant") are the slips people make; a letter changed for one far away on the keyboard is far rarer.
"recieved" is one substitution from "relieved" and one swap from "received": the swap is what was meant,
however many turns say "relieved". So the likely edits are tried first, and the user's turns only choose
among words equally likely (`LIKELY` before `UNLIKELY`, then the most turns).
"""

from __future__ import annotations

from functools import cache
from string import ascii_lowercase

from sessions_graph_core.embeddings.words import vocabulary
from sessions_graph_core.text import STOPWORDS

# A shorter word has too many dictionary words one edit away to tell which was meant.
SHORTEST = 5
LIKELY, UNLIKELY = 0, 1  # how likely an edit is, as a rank: lower is likelier
_KEYBOARD = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_ROW_SHIFT = (0.0, 0.25, 0.75)  # how far right each row of keys starts, in keys
_VOWELS = frozenset("aeiouy")


@cache
def known_words() -> frozenset[str]:
    # The vocabulary leaves stopwords out; a misspelt stopword must still be read as one (see respellings).
    return frozenset(vocabulary()) | STOPWORDS


@cache
def _key_places() -> dict[str, tuple[int, float]]:
    return {key: (row, column + _ROW_SHIFT[row]) for row, keys in enumerate(_KEYBOARD) for column, key in enumerate(keys)}


def beside(one: str, other: str) -> bool:
    """Whether two letters' keys touch on a QWERTY keyboard (a key touches itself)."""
    places = _key_places()
    if one not in places or other not in places:
        return False
    (row, column), (other_row, other_column) = places[one], places[other]
    return abs(row - other_row) <= 1 and abs(column - other_column) <= 1


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


def likelihood(typed: str, meant: str) -> int:
    """How likely typing `meant` gave `typed`, one edit away: LIKELY for two neighbours swapped, a letter left
    out, a key beside the one meant, a vowel for a vowel, or a letter added beside its own key; UNLIKELY otherwise."""
    at = next((i for i, (a, b) in enumerate(zip(typed, meant, strict=False)) if a != b), min(len(typed), len(meant)))
    if len(typed) < len(meant):  # a letter left out
        return LIKELY
    if len(typed) > len(meant):  # a letter added: likely beside a letter it touches (or repeats)
        added, around = typed[at], typed[max(at - 1, 0):at] + typed[at + 1:at + 2]
        return LIKELY if any(beside(added, letter) for letter in around) else UNLIKELY
    if typed[at + 1:at + 2] == meant[at] and typed[at] == meant[at + 1:at + 2]:  # two neighbours swapped
        return LIKELY
    struck, wanted = typed[at], meant[at]
    return LIKELY if beside(struck, wanted) or {struck, wanted} <= _VOWELS else UNLIKELY


def respellings(word: str) -> list[str]:
    """The dictionary's words one edit from `word`, the likeliest edits first, then in alphabetical order; none
    for a word the dictionary knows, a short one, one that is not all letters, or a stopword misspelt."""
    if len(word) < SHORTEST or not word.isalpha() or word in known_words():
        return []
    offered = sorted(one_edit(word) & known_words(), key=lambda meant: (likelihood(word, meant), meant))
    likeliest = [meant for meant in offered if likelihood(word, meant) == likelihood(word, offered[0])]
    if not STOPWORDS.isdisjoint(likeliest):
        # "abuot" is "about" misspelt, which no search looks for (text.search_terms), not the rarer "abbot".
        return []
    return [meant for meant in offered if meant not in STOPWORDS]
