"""Query expansion from the embedder: words near the question's join its full-text query.

A turn that answers in other words ("I was in Chicago" for "Which cities has John been to?") shares no
word with the question, so BM25 never finds it. Each question word's nearest words in the embedder's
vocabulary (embeddings/words.py) are offered here; the full-text lane (recall/text_lane.py) keeps those
the user's own turns hold, and scores them at a fraction of a question word's weight. The constants were
chosen on LoCoMo's tuning half and the long-session set (docs/recall-long-turns.md, "Query expansion").
"""

from __future__ import annotations

from collections.abc import Collection

from sessions_graph_core.embeddings.models import EmbeddingUnavailableError, load_embedder
from sessions_graph_core.embeddings.words import word_table
from sessions_graph_core.recall.lanes import Search
from sessions_graph_core.text import stem

MIN_COSINE = 0.7  # the fifth round's; 0.65 and 0.75 measured lower (docs/recall-long-turns.md)
WEIGHT = 0.3  # an expansion word's BM25 weight is this times its cosine (a question word's is 1); 0.2-0.5 measured
MAX_SHARE = 0.2  # a word in more than this share of the user's turns adds no evidence


def offered(search: Search, question_stems: Collection[str]) -> list[list[tuple[str, str, float]]]:
    """For each question word, the table's words nearest it as (word, stem, weight), nearest first:
    another stem than any question word's, cosine >= MIN_COSINE; none for a word the table does not know
    (a name or a misspelling: nothing is embedded here). Empty when expansion is off or the embedder
    cannot run (the vector lanes then say why)."""
    asked = [word for word in search.terms if word.isalpha()]
    if not asked or search.vector is None or search.config.expansion_words <= 0:
        return []
    try:
        embedder = load_embedder(search.model, store=search.store)
        near = word_table(embedder).nearest(asked, MIN_COSINE)
    except EmbeddingUnavailableError:
        return []
    return [[(word, stem(word), WEIGHT * cosine) for word, cosine in words if stem(word) not in question_stems]
            for words in near]
