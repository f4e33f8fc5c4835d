"""The word table: the embedder's vectors of the tokenizer's whole words, built once, saved, and reused."""

from __future__ import annotations

import numpy as np
import pytest

from sessions_graph_core.embeddings import words as word_vectors
from sessions_graph_core.embeddings.models import load_embedder

FEW = ["apple", "banana", "children", "kids", "harbour", "port", "violin", "guitar"]


@pytest.fixture
def few_words(monkeypatch):
    """A vocabulary of eight words, so the table builds in a moment; the model is the real one."""
    monkeypatch.setattr(word_vectors, "vocabulary", lambda: FEW)
    monkeypatch.setattr(word_vectors, "_TABLES", {})


def test_the_shipped_vocabulary_is_the_tokenizers_whole_words():
    vocabulary = word_vectors.vocabulary()
    assert len(vocabulary) > 20_000
    assert {"children", "city", "violin"} <= set(vocabulary)
    assert not [word for word in vocabulary if word.startswith("#") or not word.isalpha() or word == "the"]


def test_the_table_is_built_once_then_read_from_disk(few_words, tmp_path):
    embedder = load_embedder()
    told = []
    built = word_vectors.word_table(embedder, directory=tmp_path, progress=lambda done, total: told.append((done, total)))
    assert told[-1] == (2 * len(FEW), 2 * len(FEW))  # embedded, then compared
    assert built.path.exists() and built.path.parent == tmp_path
    assert built.neighbours.shape == built.cosines.shape == (len(FEW), len(FEW))
    written = built.path.stat().st_mtime_ns
    word_vectors._TABLES.clear()  # a new process
    told.clear()
    again = word_vectors.word_table(embedder, directory=tmp_path, progress=lambda done, total: told.append((done, total)))
    assert not told and again.path.stat().st_mtime_ns == written
    np.testing.assert_array_equal(again.neighbours, built.neighbours)
    assert again.stems == built.stems
    near = again.nearest(["kids", "guitars", "fiddle"], 0.5)
    assert [word for word, _ in near[0][:2]] == ["kids", "children"]
    assert near[1][0][0] == "guitar"  # a form the table lacks, known by its stem
    assert all(cosine >= 0.5 for words in near for _, cosine in words)
    assert near[2] == []  # a word it knows by neither: nothing is embedded at recall


def test_a_table_that_is_not_whole_is_built_again(few_words, tmp_path):
    embedder = load_embedder()
    path = word_vectors.table_path(embedder.model, FEW, tmp_path)
    path.write_bytes(b"not a table")
    table = word_vectors.word_table(embedder, directory=tmp_path)
    assert table.neighbours.shape == (len(FEW), len(FEW))
    with np.load(path) as stored:
        assert stored["neighbours"].shape == table.neighbours.shape


def test_nearest_keeps_only_words_above_the_cosine(few_words, tmp_path):
    embedder = load_embedder()
    table = word_vectors.word_table(embedder, directory=tmp_path)
    assert table.nearest(["violin"], 0.99) == [[("violin", pytest.approx(1.0, abs=1e-2))]]
