"""The GLiNER backend's loading and extraction path, on a tiny GLiNER model this test builds.

The model has random weights (no GLiNER weights can be downloaded here): it proves the wiring
(local-only loading, labels from the ontology, one extraction per text, facts from spaCy), not
the quality of what GLiNER finds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from seed002 import USER, record_session

from sessions_graph_core import SessionsGraph
from sessions_graph_core.config.model import CONFIG_ENV
from sessions_graph_core.ontology.model import DEFAULT_MODEL
from sessions_graph_core.reconcile.extraction.gliner import (
    ALLOW_DOWNLOAD_ENV,
    MODEL_DIR_ENV,
    GlinerBackend,
    entities_from,
)
from sessions_graph_core.reconcile.extraction.registry import get_backend
from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend

WORDS = "alice bob carol owns the orders service billing team uses postgres kafka is on call for . , a an and".split()


def build_tiny_gliner(root: Path) -> Path:
    """A one-layer BERT encoder with a small word-piece vocabulary, wrapped as a span GLiNER and saved."""
    from gliner import GLiNERConfig
    from gliner.model import UniEncoderSpanGLiNER
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers
    from transformers import BertConfig, BertModel, PreTrainedTokenizerFast

    encoder = root / "encoder"
    # GLiNER's own markers are in the vocabulary from the start, so saving and loading agree on its size.
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "<<ENT>>", "<<SEP>>", *WORDS]
    vocab += list("abcdefghijklmnopqrstuvwxyz") + ["##" + c for c in "abcdefghijklmnopqrstuvwxyz"]
    core = Tokenizer(models.WordPiece({word: i for i, word in enumerate(vocab)}, unk_token="[UNK]"))
    core.normalizer = normalizers.BertNormalizer(lowercase=True)
    core.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    PreTrainedTokenizerFast(
        tokenizer_object=core, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]"
    ).save_pretrained(encoder)
    BertModel(BertConfig(vocab_size=len(vocab), hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                         intermediate_size=64, max_position_embeddings=512)).save_pretrained(encoder)
    model_dir = root / "gliner"
    UniEncoderSpanGLiNER(GLiNERConfig(model_name=str(encoder), hidden_size=32, max_width=4, max_len=384)).save_pretrained(model_dir)
    return model_dir


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_gliner(tmp_path_factory.mktemp("gliner"))


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> pytest.MonkeyPatch:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "config.toml"))
    monkeypatch.delenv(ALLOW_DOWNLOAD_ENV, raising=False)
    return monkeypatch


def test_gliner_is_chosen_when_its_weights_are_local_and_reconciles(graph: SessionsGraph, tiny_model: Path, offline) -> None:  # type: ignore[no-untyped-def]
    offline.setenv(MODEL_DIR_ENV, str(tiny_model))
    backend = get_backend()
    assert isinstance(backend, GlinerBackend)
    texts = ["Alice owns the orders service.", "Bob is on call for the billing service."]
    extractions = backend.extract(texts, DEFAULT_MODEL)
    assert len(extractions) == 2
    # Statements come from spaCy's parse, whatever the random model found.
    assert extractions[0].facts == SpacyBackend().extract(texts[:1], DEFAULT_MODEL)[0].facts
    assert all(entity.type in DEFAULT_MODEL.labels() for extraction in extractions for entity in extraction.entities)

    sid = record_session(graph, 0)
    summary = graph.reconcile_session(sid)
    assert summary.status == "completed", summary.error
    row = graph.store.run("MATCH (s:Session {session_id: $sid}) RETURN s.extraction_backend AS b", {"sid": sid})
    assert row == [{"b": "gliner"}]
    assert "Alice owns the orders service." in {x.text for x in graph.current_facts(USER, "orders service")}


def test_without_local_weights_the_default_is_spacy_and_gliner_says_why(offline, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    offline.setenv(MODEL_DIR_ENV, str(tmp_path / "missing"))
    assert isinstance(get_backend(), SpacyBackend)
    with pytest.raises(ValueError, match="not on this machine and downloading is off"):
        get_backend("gliner")
    offline.delenv(MODEL_DIR_ENV)
    with pytest.raises(ValueError, match="GLiNER needs weights"):
        GlinerBackend()
    with pytest.raises(ValueError, match="Unknown extraction backend 'magic'"):
        get_backend("magic")


def test_spans_become_entities_first_label_wins() -> None:
    spans = [
        {"start": 0, "end": 5, "text": "Alice", "label": "Person", "score": 0.9},
        {"start": 15, "end": 29, "text": "orders  service", "label": "Artifact", "score": 0.8},
        {"start": 40, "end": 45, "text": "alice", "label": "Location", "score": 0.6},
    ]
    assert [(e.name, e.type) for e in entities_from(spans)] == [("Alice", "Person"), ("orders service", "Artifact")]
