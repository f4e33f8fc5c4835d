"""The attribute lexicon: which single-valued attributes there are, the words that name each, and the kind of a value.

The attributes come from attributes.toml (nouns, verbs and example values per attribute) extended by the
user's ontology (relation types marked `single_valued`). A value's kind is the attribute it is a value
of: listed, another model of a listed one ("Galaxy S21" as "Galaxy S23"), a hyponym of a WordNet sense
the attribute names (senses.py), or nearest by the embedder to an attribute's examples (CockroachDB ~ Postgres).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from sessions_graph_core import validation
from sessions_graph_core.reconcile import senses
from sessions_graph_core.reconcile.tokens import DURATION_UNITS
from sessions_graph_core.text import WORDS_CACHED, comparable

ATTRIBUTES_FILE = Path(__file__).with_name("attributes.toml")
# A value said with a generic verb takes the attribute of its nearest example at this cosine or above.
KIND_SIMILARITY = 0.62
# How much nearer one attribute's examples must be than any other's for the embedder to lean to it.
KIND_MARGIN = 0.08
# Attributes that relate people and places; a value's kind never overrides them.
RELATIONAL = {"location", "employer", "occupation", "manager", "owner", "lead", "maintainer", "doctor", "dentist",
              "therapist", "vet", "landlord"}
# Attributes that "we" share as a household, not as a project: the user's own.
HOUSEHOLD = {"location", "landlord", "internet provider", "doctor", "dentist", "vet", "car", "bank", "gym"}
# Attributes only a person has: who fills them is someone "he" or "she" may refer to next.
PERSONAL = {"location", "employer", "occupation", "manager", "diet", "phone number", "email", "doctor", "dentist",
            "therapist", "car", "phone", "name"}
# Attributes only a person holds, never a thing or a team: what one works as and for.
JOBS = {"employer", "occupation"}
# Attributes whose values are common words: a job ("a nurse"), a diet ("vegan"), a home ("the suburbs"), a car
# ("a jeep"). Every other attribute with listed values holds names of things (a product, a provider, a tool).
COMMON_WORD_VALUES = {"occupation", "diet", "location", "car"}
# WordNet's files of things one can point at: no time, so no schedule ("my train", "the office").
THING_FILES = {"noun.artifact", "noun.object", "noun.person", "noun.group", "noun.food", "noun.animal", "noun.plant",
               "noun.substance", "noun.body"}
# WordNet's files of words that say when, who or which group, never which product: "since this morning", "the
# platform team", "my manager".
NO_NAME_FILES = {"noun.time", "noun.group", "noun.person"}
# Head words that add nothing to the attribute the word before them names: "caching layer", "CI setup", "bank account".
GENERIC_HEADS = {"layer", "system", "tool", "tooling", "setup", "solution", "provider", "software", "stack", "account"}


@dataclass
class Lexicon:
    nouns: dict[str, str] = field(default_factory=dict)
    verbs: dict[str, str] = field(default_factory=dict)
    inverse_verbs: dict[str, str] = field(default_factory=dict)
    values: dict[str, str] = field(default_factory=dict)
    ner: dict[str, str] = field(default_factory=dict)
    # Values with their model number cut off ("galaxy" of "Galaxy S23"): another model is the same kind.
    models: dict[str, str] = field(default_factory=dict)
    # WordNet senses ("city.n.01") whose hyponyms are values of the attribute (see senses.py).
    kinds: dict[str, str] = field(default_factory=dict)

    def add(self, name: str, spec: dict[str, Any]) -> None:
        for noun in [name, *spec.get("nouns", [])]:
            self.nouns.setdefault(comparable(noun), name)
        for verb in spec.get("verbs", []):
            self.verbs.setdefault(comparable(verb), name)
        for verb in spec.get("inverse_verbs", []):
            self.inverse_verbs.setdefault(comparable(verb), name)
        for value in spec.get("values", []):
            self.values.setdefault(comparable(value), name)
            model = _without_model_number(value)
            if model and model != comparable(value):
                self.models.setdefault(model, name)
        for label in spec.get("ner", []):
            self.ner.setdefault(label, name)
        for sense in spec.get("kinds", []):
            self.kinds.setdefault(sense, name)

    def model(self, value: str) -> str | None:
        """The attribute of a value that is another model of a listed one: "Samsung Galaxy S21" is a
        phone as "Galaxy S23" is, "iPhone 15 Pro" as "iPhone 12" (the brand before it may differ)."""
        cut = _without_model_number(value)
        if not cut or cut == comparable(value):
            return None
        words = cut.split()
        return next((self.models[" ".join(words[i:])] for i in range(len(words)) if " ".join(words[i:]) in self.models), None)

    def noun(self, words: Sequence[str]) -> tuple[str, list[str]] | None:
        """The attribute the longest suffix of `words` names, and the words before it."""
        found = self._noun(words)
        if found is None and len(words) > 1 and words[-1] in GENERIC_HEADS:  # "our caching layer" is our caching
            return self.noun(words[:-1])
        return found

    def _noun(self, words: Sequence[str]) -> tuple[str, list[str]] | None:
        for start in range(len(words)):
            said = " ".join(words[start:])
            # "switched gyms", "our repositories": a plural names the attribute as the singular does.
            plural = said.endswith("s") and self.nouns.get(singular(said))
            # ... but "for jobs" is no employer: a person's one role is not said in the plural.
            found = self.nouns.get(said) or (plural if plural not in RELATIONAL else None)
            if found:
                return found, list(words[:start])
        return None


def _without_model_number(value: str) -> str:
    """The value up to its first word with a digit ("iphone" of "iPhone 15 Pro"); "" when it starts with one."""
    words = comparable(value).split()
    first = next((i for i, w in enumerate(words) if any(ch.isdigit() for ch in w)), len(words))
    return " ".join(words[:first])


def singular(word: str) -> str:
    """A plural word less its ending ("gyms" -> "gym", "repositories" -> "repository"); for a word ending in "s"."""
    if word.endswith("ies"):
        return word[:-3] + "y"
    return word[:-1]


# A WordNet noun sense as attributes.toml names one: the word, "n", its sense number ("city.n.01").
_SENSE_NAME = re.compile(r"[a-z0-9_'-]+\.n\.[0-9]{2}")


class AttributeFileError(ValueError):
    """attributes.toml (or an extension of it) does not parse into attributes."""


def parse_attributes(text: str, where: str) -> dict[str, dict[str, Any]]:
    """Attribute specs from TOML text; refuses anything that is not the documented shape."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise AttributeFileError(f"{where} is not valid TOML: {exc}") from exc
    for name, spec in data.items():
        if not isinstance(spec, dict):
            raise AttributeFileError(f"{where}: attribute {name!r} must be a table of word lists")
        for key, value in spec.items():
            if key == "name":
                continue
            if key not in {"nouns", "verbs", "inverse_verbs", "values", "ner", "kinds"}:
                raise AttributeFileError(f"{where}: attribute {name!r} has unknown key {key!r}")
            if not isinstance(value, list) or not all(isinstance(item, str) and item.strip() for item in value):
                raise AttributeFileError(f"{where}: {name}.{key} must be a list of non-empty strings")
            odd = next((item for item in value if key == "kinds" and not validation.whole(_SENSE_NAME, item)), None)
            if odd is not None:
                raise AttributeFileError(f"{where}: {name}.kinds: {odd!r} is no WordNet sense, as 'city.n.01'")
    return {spec.get("name", name): spec for name, spec in data.items()}


@cache
def base_attributes() -> dict[str, dict[str, Any]]:
    return parse_attributes(ATTRIBUTES_FILE.read_text(), str(ATTRIBUTES_FILE))


def naming_phrases(attribute: str) -> tuple[str, ...]:
    """The words that name a base attribute in attributes.toml: its nouns and the verbs that state it."""
    spec = base_attributes().get(attribute, {})
    return (*spec.get("nouns", ()), *spec.get("verbs", ()), *spec.get("inverse_verbs", ()))


def lexicon(extra: Iterable[str] = ()) -> Lexicon:
    """The base attributes plus one per name in `extra` (the ontology's single-valued relations)."""
    return _lexicon(tuple(sorted(set(extra))))


@cache
def _lexicon(extra: tuple[str, ...]) -> Lexicon:
    found = Lexicon()
    for name, spec in base_attributes().items():
        found.add(name, spec)
    for relation in extra:
        # "WORKS_FOR" is said "work for"; "MENTOR" is a noun as well as a verb.
        first, *rest = comparable(relation.replace("_", " ")).split()
        verb = " ".join([first[:-1] if first.endswith("s") and len(first) > 3 else first, *rest])
        found.add(" ".join([first, *rest]), {"nouns": [" ".join([first, *rest])], "verbs": [verb]})
    return found


@cache
def _examples() -> tuple[list[str], np.ndarray]:
    """Every attribute's example values and their vectors (the default embedder, loaded once)."""
    from sessions_graph_core.embeddings.models import load_embedder

    names, texts = [], []
    for name, spec in base_attributes().items():
        for value in spec.get("values", []):
            names.append(name)
            texts.append(value)
    return names, load_embedder().embed(texts)


@lru_cache(maxsize=WORDS_CACHED)
def _nearest_examples(value: str) -> list[tuple[str, float]]:
    """Each attribute with the similarity of its example nearest `value`, nearest first; none without an embedder."""
    try:
        names, vectors = _examples()
        from sessions_graph_core.embeddings.models import load_embedder

        vector = load_embedder().embed([value])[0]
    except Exception:  # noqa: BLE001 - no embedder on this host: listed values still work
        return []
    return ranked_by_name(names, (vectors @ vector).tolist())


def ranked_by_name(names: list[str], scores: list[float]) -> list[tuple[str, float]]:
    """Each name with the best score of its examples (`names[i]` is example i's), best first."""
    best: dict[str, float] = {}
    for name, score in zip(names, scores, strict=True):
        best[name] = max(best.get(name, -1.0), score)
    return sorted(best.items(), key=lambda item: -item[1])


def nearest_kind(value: str) -> str | None:
    """The attribute whose example is nearest `value`, if near enough; None without an embedder."""
    ranked = _nearest_examples(value)
    return ranked[0][0] if ranked and ranked[0][1] >= KIND_SIMILARITY else None


def leaning_kind(value: str) -> str | None:
    """The attribute whose examples are clearly nearer `value` than any other's, however near ("golang" is
    nearer "Go" than anything else); only to choose between readings something else already narrowed."""
    ranked = _nearest_examples(value)
    clear = len(ranked) > 1 and ranked[0][1] - ranked[1][1] >= KIND_MARGIN
    return ranked[0][0] if clear else None


def holds(attribute: str, value: str | None) -> bool:
    """Whether a value is of the kind the attribute holds. A schedule holds a time ("Fridays", "9am",
    "mornings", "weekly"), not a thing ("my train"); an attribute whose listed values are names (a database, a
    provider, a plan) holds a name, listed or not, not a common noun phrase ("the versions", "my list", "the
    platform team", "tests", "since this morning"). An ending (no value) and any other attribute hold what they
    are given."""
    if not value:
        return True
    if attribute == "schedule":
        return not how_long(value) and (not common_words(value) or senses.sense_file(value) not in THING_FILES)
    return not holds_names(attribute) or listed(value) or not (_common_phrase(value) or _no_name(value))


# How long, not when: a count of a unit of time as the whole value ("2-4 seconds", "about 3 years", "twenty
# minutes", "the last 4 weeks"); "every 2 weeks", "4 days a week" and "10:30" say when.
_HOW_LONG = re.compile(
    r"(?:about|around|roughly|nearly|almost|over|under|up to|just|only|the last|last|the first|first|~)?\s*"
    r"(?:\d[\d.,\-\u2013]*|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|"
    r"forty|fifty|sixty|ninety|a few|a couple of|several)\s*(?:" + "|".join(sorted(DURATION_UNITS | {"sec", "min", "hr"})) + ")s?",
    re.IGNORECASE,
)
# A quantity: a number first, then at most a unit ("9 min", "30-36 KB", "2,000 minutes", "9.8GB"); "1Password" is a name.
_QUANTITY = re.compile(r"(?:about |around |roughly |~)?\d[\d.,\-\u2013]*(?:[a-z\u00b5%]{1,3})?(?:\s+\S+)?", re.IGNORECASE)


def how_long(value: str) -> bool:
    """Whether the value says how long something takes or lasts, not when."""
    return _HOW_LONG.fullmatch(value.strip()) is not None


def _no_name(value: str) -> bool:
    """A quantity ("9 min", "30-36 KB"), or one lower-case word the dictionary knows but not as a noun ("cheap",
    "invalidated", "preemptive"): no product's name."""
    word = value.strip()
    return _QUANTITY.fullmatch(word) is not None or no_noun_word(word)


def no_noun_word(word: str) -> bool:
    """One lower-case word the dictionary knows but not as a noun ("cheap", "informative"): it describes."""
    return word.islower() and " " not in word and senses.no_noun(word)


def listed(value: str) -> bool:
    """Whether the value is a listed value of any attribute, or another model of one ("iPhone 15")."""
    lex = lexicon()
    return bool(lex.values.get(comparable(value)) or lex.model(value))


def holds_names(attribute: str) -> bool:
    """Whether the attribute's values are names of things (a database, a provider, a plan), as its listed
    values are; not a job, a diet, a home or a car, which common words name."""
    return attribute in _named_kinds()


@cache
def _named_kinds() -> frozenset[str]:
    return frozenset(lexicon().values.values()) - COMMON_WORD_VALUES


def common_words(value: str) -> bool:
    """Lower case words whose last WordNet knows as a noun: as said, no name ("versions", "my train"). A
    figure is no common word ("10", "framework 13"): a time of day or a model."""
    words = value.split()
    return bool(words) and not any(ch.isupper() or ch.isdigit() for ch in value) and senses.known(words[-1])


def _common_phrase(value: str) -> bool:
    """Common words that name no product: more than one ("java service", "my list"), a plural ("versions",
    "tests"), or a word of a time, a person or a group ("morning"). One lower-case word in its usual sense may
    still be a name said in lower case ("clarity", "notion")."""
    if not common_words(value):
        return False
    head = value.split()[-1].lower()
    plural = head.endswith("s") and not head.endswith("ss") and senses.known(singular(head))
    return len(value.split()) > 1 or plural or senses.sense_file(head) in NO_NAME_FILES


def value_kind(value: str, lex: Lexicon) -> str | None:
    """The attribute a value said on its own is a listed value of (or another model of one, or of a kind
    WordNet places it under); never a relational one or a schedule. No embedder's guess: it costs a model
    call per value, and a store-side merge of two slots wants the surer reading."""
    kind = lex.values.get(comparable(value)) or lex.model(value) or senses.kind(value, lex.kinds.items())
    return kind if kind not in RELATIONAL | {"schedule"} else None

