"""The embedder's vectors of a fixed English vocabulary, built once per model and kept on disk.

Recall's query expansion (recall/expansion.py) looks up the words nearest each question word here. The
vocabulary is the whole words of the vendored tokenizer (about 21,000 lowercase English words and
names), the same on every host and for every user: one table serves every user and store, so no
ingest writes a word or its vector, and recall reads a user's history only for the words it picks.
A word of a user's turns that the tokenizer splits into pieces is never an expansion.

The table is built the first time it is asked for (`sessions-graph embed` asks first, with a progress
bar; about 20 s on one core) and saved under the user's cache directory, named by the model and the
vocabulary, as float16 (16 MB) with each word's stem; later processes load it in a few tens of milliseconds.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from hashlib import sha256
from pathlib import Path

import numpy as np

from sessions_graph_core.embeddings.models import TOKENIZER_FILE, Embedder
from sessions_graph_core.text import STOPWORDS, stem

BUILD_BATCH = 1024  # words embedded between two progress reports
_TABLES: dict[tuple[str, Path], WordTable] = {}
_LOCK = threading.Lock()


def vocabulary() -> list[str]:
    """The tokenizer's whole words: ASCII letters only, three or more, no stopword."""
    entries = json.loads(TOKENIZER_FILE.read_text(encoding="utf-8"))["model"]["vocab"]
    return sorted(word for word in entries if word.isascii() and word.isalpha() and len(word) > 2 and word not in STOPWORDS)


def cache_dir() -> Path:
    import platformdirs  # only for those who recall or embed

    return Path(os.environ.get("SESSIONS_GRAPH_CACHE_DIR") or platformdirs.user_cache_dir("sessions-graph")) / "word-vectors"


def table_path(model: str, words: Sequence[str], directory: Path) -> Path:
    """Where the table of `model` over `words` is kept: a new vocabulary or model gets a new file."""
    digest = sha256("\n".join(words).encode()).hexdigest()[:12]
    return directory / f"{re.sub(r'[^A-Za-z0-9.-]+', '_', model)}-{digest}.npz"


@dataclass(frozen=True)
class WordTable:
    """Words and their unit vectors (float32 in memory), row for row."""

    words: list[str]
    stems: list[str]  # each word's, kept in the file: stemming them all costs a process 0.3 s
    vectors: np.ndarray
    path: Path

    @cached_property
    def rows(self) -> dict[str, int]:
        """Each word's row, and each stem's first word's row: a form the tokenizer splits into pieces
        ("hobbies") is looked up as a word of its stem ("hobby")."""
        found = {stemmed: n for n, stemmed in reversed(list(enumerate(self.stems)))}
        found.update((word, n) for n, word in enumerate(self.words))
        return found

    def nearest(self, words: Sequence[str], k: int, minimum: float) -> list[list[tuple[str, float]]]:
        """For each of `words`, its `k` nearest words with cosine >= `minimum`, nearest first (the word's
        own row among them); none for a word the table knows neither as a word nor by its stem."""
        known = [self.rows.get(word, self.rows.get(stem(word))) for word in words]
        asked = [row for row in known if row is not None]
        if k <= 0 or not asked:
            return [[] for _ in words]
        similarities = self.vectors[asked] @ self.vectors.T
        top = np.argpartition(-similarities, min(k, similarities.shape[1] - 1), axis=1)[:, :k]
        found = iter(
            [(self.words[column], float(row[column])) for column in sorted(columns, key=lambda column: -row[column])
             if row[column] >= minimum]
            for row, columns in zip(similarities, top, strict=True)
        )
        return [next(found) if row is not None else [] for row in known]


def _build(embedder: Embedder, words: list[str], path: Path,
           progress: Callable[[int, int], None] | None) -> tuple[np.ndarray, list[str]]:
    vectors = np.zeros((len(words), embedder.dimension), dtype=np.float16)
    for start in range(0, len(words), BUILD_BATCH):
        vectors[start : start + BUILD_BATCH] = embedder.embed(words[start : start + BUILD_BATCH])
        if progress is not None:
            progress(min(start + BUILD_BATCH, len(words)), len(words))
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written beside and renamed, so a process that stops halfway leaves no half table to load.
    stems = [stem(word) for word in words]
    partial = path.with_suffix(f".{os.getpid()}.partial.npz")
    np.savez(partial, vectors=vectors, stems=np.array(stems))
    partial.replace(path)
    return vectors, stems


def _load(path: Path, words: int, dimension: int) -> tuple[np.ndarray, list[str]] | None:
    """The table kept at `path` (vectors, stems); None when there is none or it is not whole (it is then built again)."""
    try:
        with np.load(path) as stored:
            vectors, stems = stored["vectors"], stored["stems"].tolist()
    except (OSError, ValueError, KeyError):
        return None
    return (vectors, stems) if vectors.shape == (words, dimension) and len(stems) == words else None


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
            vectors, stems = _load(path, len(words), embedder.dimension) or _build(embedder, words, path, progress)
            _TABLES[key] = WordTable(words, stems, vectors.astype(np.float32), path)
        return _TABLES[key]
