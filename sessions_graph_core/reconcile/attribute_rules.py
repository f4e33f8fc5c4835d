"""The model's part-of-speech and morphology rules (spaCy's attribute_ruler), looked up instead of matched.

en_core_web_sm sets each token's coarse part of speech, morphology and some lemmas from its fine tag, its
word or its dependency by 179 patterns that spaCy's Matcher tries at every token: about a tenth of the
parse's CPU on LoCoMo. Here each pattern is indexed by a value its first token must have (its tag, its word,
its dependency), so a token tries only the patterns it can match; the attributes are then set as the ruler
sets them, by the same function, in the ruler's order (the later pattern wins). A model whose patterns test
anything not indexed here (an operator, a quantifier, another attribute) keeps spaCy's ruler.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from spacy.attrs import DEP, IS_SPACE, LOWER, TAG
from spacy.language import Language
from spacy.tokens._retokenize import set_token_attrs

# What a pattern's token may test, in the order of the doc's columns read for it.
TESTED = ("TAG", "LOWER", "DEP", "IS_SPACE")
COLUMNS = [TAG, LOWER, DEP, IS_SPACE]
FACTORY = "sessions_graph_attribute_rules"

# A test on one token's row of COLUMNS.
Check = Callable[[list[int]], bool]
# A pattern: its number in the ruler, the tests of its first token, of each token after it, and which token it sets.
Entry = tuple[int, list[Check], list[list[Check]], int]


class Unindexed(ValueError):
    """A pattern tests what this does not index: spaCy's ruler is kept."""


class IndexedRules:
    """The attribute ruler's patterns, indexed by a value their first token must have."""

    def __init__(self, ruler: Any) -> None:
        self.strings = ruler.vocab.strings
        self.attrs = ruler.attrs  # each pattern's attributes as the ruler sets them
        self.by_value: list[dict[int, list[Entry]]] = [{} for _ in TESTED]
        self.anywhere: list[Entry] = []  # patterns whose first token has no single value to look up
        for number, pattern in enumerate(ruler.patterns):
            for tokens in pattern["patterns"]:
                self._add(number, tokens, pattern["index"])

    def _add(self, number: int, tokens: list[dict[str, Any]], index: int) -> None:
        if not tokens or not -len(tokens) <= index < len(tokens):
            raise Unindexed(f"pattern {number} sets token {index} of {len(tokens)}")
        checks = [[self._check(key, value) for key, value in token.items()] for token in tokens]
        entry = (number, checks[0], checks[1:], index % len(tokens))
        first = tokens[0]
        key = next((key for key in TESTED if key in first and (not isinstance(first[key], dict) or set(first[key]) == {"IN"})), None)
        if key is None:
            self.anywhere.append(entry)
            return
        values = first[key]["IN"] if isinstance(first[key], dict) else [first[key]]
        for value in values:
            self.by_value[TESTED.index(key)].setdefault(self._hash(value), []).append(entry)

    def _hash(self, value: Any) -> int:
        if isinstance(value, bool):
            return int(value)
        if not isinstance(value, str):
            raise Unindexed(f"a pattern tests the value {value!r}")
        return self.strings.add(value)

    def _check(self, key: str, value: Any) -> Check:
        if key not in TESTED:
            raise Unindexed(f"a pattern tests {key}")
        column = TESTED.index(key)
        if not isinstance(value, dict):
            wanted = self._hash(value)
            return lambda row: row[column] == wanted
        if len(value) != 1:
            raise Unindexed(f"a pattern tests {key} by {sorted(value)}")
        ((operator, argument),) = value.items()
        if operator in {"IN", "NOT_IN"}:
            among = frozenset(self._hash(one) for one in argument)
            return (lambda row: row[column] in among) if operator == "IN" else (lambda row: row[column] not in among)
        if operator == "REGEX" and key != "IS_SPACE":
            return self._regex(column, re.compile(argument))
        raise Unindexed(f"a pattern tests {key} by {operator}")

    def _regex(self, column: int, pattern: re.Pattern[str]) -> Check:
        found: dict[int, bool] = {}  # by the value's hash: a word is searched once

        def check(row: list[int]) -> bool:
            value = row[column]
            if value not in found:
                found[value] = pattern.search(self.strings[value]) is not None
            return found[value]

        return check

    def __call__(self, doc: Any) -> Any:
        # Every pattern is matched against the doc as the parser left it, before any is applied, as the ruler does.
        rows = doc.to_array(COLUMNS).tolist()
        hits: list[tuple[int, int]] = []
        for at, row in enumerate(rows):
            for column, value in enumerate(row):
                for entry in self.by_value[column].get(value, ()):
                    _match(entry, rows, at, hits)
            for entry in self.anywhere:
                _match(entry, rows, at, hits)
        # In the ruler's order, so a later pattern's attribute wins; each token is set once, with the result.
        merged: dict[int, dict] = {}
        for number, at in sorted(hits):
            merged.setdefault(at, {}).update(self.attrs[number])
        for at, attrs in merged.items():
            set_token_attrs(doc[at], attrs)
        return doc


def _match(entry: Entry, rows: list[list[int]], at: int, hits: list[tuple[int, int]]) -> None:
    number, first, rest, index = entry
    if at + len(rest) >= len(rows) or not all(check(rows[at]) for check in first):
        return
    if all(check(rows[at + 1 + n]) for n, checks in enumerate(rest) for check in checks):
        hits.append((number, at + index))


@Language.factory(FACTORY)
def _indexed_rules(nlp: Language, name: str) -> IndexedRules:
    return IndexedRules(nlp.get_pipe("attribute_ruler"))


def index_rules(nlp: Language) -> bool:
    """Run the model's attribute rules indexed, in the ruler's place, where every pattern can be; whether they are."""
    if "attribute_ruler" not in nlp.pipe_names:
        return False
    try:
        nlp.add_pipe(FACTORY, after="attribute_ruler")
    except Unindexed:
        return False
    nlp.disable_pipe("attribute_ruler")
    return True
