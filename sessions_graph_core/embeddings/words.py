"""The embedder's vectors of a fixed English vocabulary, built once per model and kept on disk.

Recall's query expansion (recall/expansion.py) looks up the words nearest each question word here. The
vocabulary is the whole words of the vendored tokenizer (about 21,000 lowercase English words and
names), the same on every host and for every user: one table serves every user and store, so no
ingest writes a word or its vector, and recall reads a user's history only for the words it picks.
A word of a user's turns that the tokenizer splits into pieces is never an expansion.

The table is built the first time it is asked for (`sessions-graph embed` asks first, with a progress
bar; under a minute on one core): every word is embedded and compared with every other once, and what is
kept is each word's stem and its nearest words with their cosines (2 MB), under the user's cache directory,
named by the model and the vocabulary. Recall then reads a word's neighbours instead of searching vectors.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from hashlib import sha256
from pathlib import Path

import numpy as np

from sessions_graph_core.embeddings.models import TOKENIZER_FILE, Embedder
from sessions_graph_core.text import STOPWORDS, stem

BUILD_BATCH = 1024  # words embedded (or compared with the table) between two progress reports
# Nearest words kept per word, the word itself among them: recall offers the rest (recall/expansion.py)
# and keeps the first few the user's turns hold.
NEIGHBOURS = 13
_TABLES: dict[tuple[str, Path], WordTable] = {}
_LOCK = threading.Lock()


@cache
def vocabulary() -> tuple[str, ...]:
    """The tokenizer's whole words: ASCII letters only, three or more, no stopword. Read once per process: the
    word table and the spelling dictionary (recall/spelling.py) both ask, and the file takes 20 ms to parse."""
    entries = json.loads(TOKENIZER_FILE.read_text(encoding="utf-8"))["model"]["vocab"]
    return tuple(sorted(word for word in entries if word.isascii() and word.isalpha() and len(word) > 2 and word not in STOPWORDS))


def cache_dir() -> Path:
    import platformdirs  # only for those who recall or embed

    return Path(os.environ.get("SESSIONS_GRAPH_CACHE_DIR") or platformdirs.user_cache_dir("sessions-graph")) / "word-vectors"


def table_path(model: str, words: Sequence[str], directory: Path) -> Path:
    """Where the table of `model` over `words` is kept: a new vocabulary or model gets a new file."""
    digest = sha256("\n".join(words).encode()).hexdigest()[:12]
    return directory / f"{re.sub(r'[^A-Za-z0-9.-]+', '_', model)}-{digest}.npz"


@dataclass(frozen=True)
class WordTable:
    """Words, their stems, and each word's NEIGHBOURS nearest words (rows) and cosines, nearest first."""

    words: Sequence[str]
    stems: list[str]  # each word's, kept in the file: stemming them all costs a process 0.3 s
    neighbours: np.ndarray  # int32, one row per word
    cosines: np.ndarray  # float32, as `neighbours`
    path: Path

    @cached_property
    def rows(self) -> dict[str, int]:
        """Each word's row, and each stem's first word's row: a form the tokenizer splits into pieces
        ("hobbies") is looked up as a word of its stem ("hobby")."""
        found = {stemmed: n for n, stemmed in reversed(list(enumerate(self.stems)))}
        found.update((word, n) for n, word in enumerate(self.words))
        return found

    def nearest(self, words: Sequence[str], minimum: float) -> list[list[tuple[str, float]]]:
        """For each of `words`, its nearest words (at most NEIGHBOURS, the word's own row among them) with
        cosine >= `minimum`, nearest first; none for a word the table knows neither as a word nor by its stem."""
        found = []
        for word in words:
            row = self.rows.get(word, self.rows.get(stem(word)))
            near = [] if row is None else zip(self.neighbours[row].tolist(), self.cosines[row].tolist(), strict=True)
            found.append([(self.words[column], cosine) for column, cosine in near if cosine >= minimum])
        return found


def _kept(words: int) -> int:
    return min(NEIGHBOURS, words)  # a vocabulary smaller than that (a test's) keeps every word


def _nearest_rows(vectors: np.ndarray, progress: Callable[[int], None]) -> tuple[np.ndarray, np.ndarray]:
    """Each row's NEIGHBOURS nearest rows and their cosines, nearest first: computed once at build, so a
    recall reads them instead of comparing a word with the whole table (about 15 ms here)."""
    keep = _kept(len(vectors))
    neighbours = np.zeros((len(vectors), keep), dtype=np.int32)
    cosines = np.zeros((len(vectors), keep), dtype=np.float32)
    for start in range(0, len(vectors), BUILD_BATCH):
        similarities = vectors[start : start + BUILD_BATCH] @ vectors.T
        top = np.argpartition(-similarities, keep - 1, axis=1)[:, :keep]
        near = np.take_along_axis(similarities, top, axis=1)
        order = np.argsort(-near, axis=1)
        neighbours[start : start + BUILD_BATCH] = np.take_along_axis(top, order, axis=1)
        cosines[start : start + BUILD_BATCH] = np.take_along_axis(near, order, axis=1)
        progress(min(start + BUILD_BATCH, len(vectors)))
    return neighbours, cosines


def _build(embedder: Embedder, words: Sequence[str], path: Path,
           progress: Callable[[int, int], None] | None) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Embed the words, find each one's neighbours, and save the table; `progress` counts both passes."""
    told = progress or (lambda done, total: None)
    vectors = np.zeros((len(words), embedder.dimension), dtype=np.float32)
    for start in range(0, len(words), BUILD_BATCH):
        vectors[start : start + BUILD_BATCH] = embedder.embed(words[start : start + BUILD_BATCH])
        told(min(start + BUILD_BATCH, len(words)), 2 * len(words))
    neighbours, cosines = _nearest_rows(vectors, lambda done: told(len(words) + done, 2 * len(words)))
    stems = [stem(word) for word in words]
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written beside and renamed, so a process that stops halfway leaves no half table to load.
    partial = path.with_suffix(f".{os.getpid()}.partial.npz")
    np.savez(partial, stems=np.array(stems), neighbours=neighbours, cosines=cosines.astype(np.float16))
    partial.replace(path)
    return stems, neighbours, cosines


def _load(path: Path, words: int) -> tuple[list[str], np.ndarray, np.ndarray] | None:
    """The table kept at `path` (stems, neighbours, cosines); None when there is none or it is not whole
    (it is then built again)."""
    try:
        with np.load(path) as stored:
            stems, neighbours, cosines = stored["stems"].tolist(), stored["neighbours"], stored["cosines"]
    except (OSError, ValueError, KeyError):
        return None
    whole = len(stems) == words and neighbours.shape == cosines.shape == (words, _kept(words))
    return (stems, neighbours, cosines.astype(np.float32)) if whole else None


def word_table(embedder: Embedder, *, directory: Path | None = None,
               progress: Callable[[int, int], None] | None = None) -> WordTable:
    """The table of `embedder`'s model: kept in this process, else read from disk, else built and saved.

    `progress(done, total)` is told how far a build has got; a table read from disk tells it nothing.
    """
    directory = directory or cache_dir()
    key = (embedder.model, directory)
    with _LOCK:  # two threads' first recalls build the table once
        if key not in _TABLES:
            words = vocabulary()
            path = table_path(embedder.model, words, directory)
            stems, neighbours, cosines = _load(path, len(words)) or _build(embedder, words, path, progress)
            _TABLES[key] = WordTable(words, stems, neighbours, cosines, path)
        return _TABLES[key]


def prepare(model: str, progress: Callable[[int, int], None] | None = None) -> bool:
    """Build `model`'s table now if it has none (what `embed` and the Dagster embed step do first), so no
    recall waits for it; False where there is nothing to build here: a model Memgraph runs (its words are
    embedded at the first recall's need) or one that cannot load (the embedding itself then says why)."""
    from sessions_graph_core.embeddings.models import MAGE_PREFIX, EmbeddingUnavailableError, load_embedder

    if model.startswith(MAGE_PREFIX):
        return False
    try:
        embedder = load_embedder(model)
    except EmbeddingUnavailableError:
        return False
    word_table(embedder, progress=progress)
    return True

