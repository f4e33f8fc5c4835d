"""The default embedder, passages, and embedding sessions and memory files on the real store."""

from __future__ import annotations

import numpy as np
import pytest

from sessions_graph_core.embeddings.models import (
    CALL_TOKENS,
    DEFAULT_EMBEDDING_MODEL,
    MAX_BATCH_ROWS,
    MAX_BATCH_TOKENS,
    EmbeddingUnavailableError,
    OnnxMiniLM,
    load_embedder,
    token_batches,
)
from sessions_graph_core.embeddings.passages import PASSAGE_CHARS, best_passage, excerpt, split_passages
from sessions_graph_core.validation import ValidationError
from tests.conftest import snapshot


def start(graph, session_id="s-1", user="alice", turns=None):
    graph.record_session_start(session_id, user_id=user, started_at="2026-03-02T09:00:00Z")
    graph.record_turns(
        session_id,
        turns
        or [
            {"role": "user", "text": "Which database should the cache use?", "timestamp": "2026-03-02T09:00:00Z"},
            {"role": "assistant", "text": "Redis, because it keeps hot keys in memory.", "timestamp": "2026-03-02T09:01:00Z"},
            {"type": "tool_call", "tool_name": "bash", "tool_input": {"cmd": "ls"}, "timestamp": "2026-03-02T09:02:00Z"},
        ],
        user_id=user,
    )


def passages(store, **where):
    rows = store.run(
        "MATCH (p:Passage) RETURN p.kind AS kind, p.source_id AS source_id, p.position AS position, "
        "p.user_id AS user_id, p.embedding_model AS model ORDER BY p.passage_id"
    )
    return [row for row in rows if all(row[key] == value for key, value in where.items())]


def test_default_embedder_gives_unit_vectors_that_rank_meaning():
    embedder = load_embedder()
    vectors = embedder.embed(["The cat sleeps on the sofa.", "A kitten naps on the couch.", "Quarterly tax filing deadline"])
    assert vectors.shape == (3, 384) and embedder.dimension == 384
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.2
    # Batching and order must not change a text's vector.
    again = embedder.embed(["Quarterly tax filing deadline", "The cat sleeps on the sofa."])
    assert np.allclose(again[1], vectors[0], atol=1e-5)


def test_unknown_model_is_unavailable_with_a_reason():
    with pytest.raises(EmbeddingUnavailableError, match="no-such-model"):
        load_embedder("/nonexistent/no-such-model")


def test_passages_split_on_sentences_and_join_back():
    text = " ".join(f"Sentence number {i} talks about topic {i % 7}." for i in range(60))
    parts = split_passages(text)
    assert "".join(parts) == text
    assert len(parts) > 1 and all(len(part) <= PASSAGE_CHARS for part in parts)
    assert all(part.rstrip().endswith(".") for part in parts[:-1])
    assert split_passages("") == [""]
    assert split_passages("x" * (PASSAGE_CHARS * 2 + 5)) == ["x" * PASSAGE_CHARS] * 2 + ["x" * 5]


def test_a_text_is_embedded_once_and_its_vector_does_not_depend_on_its_batch(monkeypatch):
    embedder = OnnxMiniLM()  # its own kept short texts, not those of the process's other tests
    alone = embedder._embed_batch
    asked: list[list[int]] = []
    monkeypatch.setattr(embedder, "_embed_batch", lambda rows: asked.extend(rows) or alone(rows))
    texts = ["Redis", "Carol says the orders service should use Redis for its cache.", "Redis", "Carol",
             "Carol says the orders service should use Redis for its cache.", "a much longer text " * 20]
    together = embedder.embed(texts)
    assert len(asked) == len(set(texts)) == len({tuple(row) for row in asked})
    # Bit for bit what each text gives alone: padding in a batch is masked, so a shared vector is exact.
    rows = {text: embedder._tokenizer.encode(text).ids for text in texts}
    assert np.array_equal(together, np.concatenate([alone([rows[text]]) for text in texts]))
    # The same when the texts are padded to the longest in one call, as token_batches lets short ones be.
    assert len({len(row) for row in rows.values()}) == 4
    assert np.array_equal(alone(list(rows.values())), np.concatenate([alone([row]) for row in rows.values()]))
    # A short text asked for again is not embedded again; a long one is, since long texts seldom come back.
    asked.clear()
    again = embedder.embed(["Carol", "Redis", "a much longer text " * 20, "Bob"])
    assert sorted(asked) == sorted([rows["a much longer text " * 20], embedder._tokenizer.encode("Bob").ids])
    assert np.array_equal(again[:3], together[[3, 0, 5]])


def test_the_kept_short_texts_are_bounded():
    embedder = OnnxMiniLM()
    embedder._short_texts.size = 3
    embedder.embed([f"word {n}" for n in range(10)])
    assert len(embedder._short_texts) == 3
    assert all(vector.base is None for vector in embedder._short_texts.get(["word 9"], list).values())
    # Keeping none (what a benchmark embedding the same texts again asks for): each call runs the model.
    keeping_none = OnnxMiniLM(short_texts_kept=0)
    asked: list[list[int]] = []
    alone = keeping_none._embed_batch
    keeping_none._embed_batch = lambda rows: asked.extend(rows) or alone(rows)
    first, second = keeping_none.embed(["Redis"]), keeping_none.embed(["Redis"])
    assert len(asked) == 2 and np.array_equal(first, second)


def test_token_batches_group_texts_of_like_length_and_cap_each_call():
    lengths = [3, 40, 3, 4, 128, 5, 39, 3, 120] + [6] * 300 + [100] * 50
    batches = token_batches(lengths)
    assert sorted(i for batch in batches for i in batch) == list(range(len(lengths)))
    for batch in batches:
        sizes = [lengths[i] for i in batch]
        assert sizes == sorted(sizes) and len(batch) <= MAX_BATCH_ROWS and len(batch) * sizes[-1] <= MAX_BATCH_TOKENS
        # Padding a batch costs no more than a call of its own would for each text that joined it.
        assert sum(sizes[-1] - size for size in sizes) <= CALL_TOKENS * len(batch)
    assert [lengths[i] for i in batches[0]][:7] == [3, 3, 3, 4, 5, 6, 6]
    assert [len(batch) for batch in batches] == [MAX_BATCH_ROWS, MAX_BATCH_ROWS, 49, 2, 40, 10, 2]
    assert [[lengths[i] for i in batch] for batch in batches[-3:]] == [[100] * 40, [100] * 10, [120, 128]]
    assert token_batches([]) == []


def test_best_passage_and_excerpt_show_the_relevant_part():
    text = "Intro about nothing in particular. " * 30 + "The deploy key lives in vault under ops/deploy. " + "Filler text again here. " * 30
    parts = split_passages(text)
    hit = best_passage(parts, "where is the deploy key")
    assert "deploy key" in parts[hit]
    shown = excerpt(text, [hit], 600)
    assert "deploy key" in shown and shown.startswith("…") and shown.endswith("…")
    assert len(shown) < len(text)
    assert excerpt("short text", [3], 600) == "short text"


def test_embed_session_embeds_messages_once_and_records_the_outcome(graph, store):
    start(graph)
    result = graph.embed_session("s-1")
    assert (result.turns, result.passages, result.model) == (2, 2, DEFAULT_EMBEDDING_MODEL)
    rows = passages(store)
    assert {row["kind"] for row in rows} == {"turn"} and {row["user_id"] for row in rows} == {"alice"}
    assert {row["model"] for row in rows} == {DEFAULT_EMBEDDING_MODEL}
    status = store.run(
        "MATCH (s:Session {session_id: 's-1'}) RETURN s.embedding_status AS status, s.embedding_model AS model, "
        "s.embedding_error AS error"
    )[0]
    assert status == {"status": "completed", "model": DEFAULT_EMBEDDING_MODEL, "error": None}
    assert graph.get_pending_embedding_sessions() == []
    before = snapshot(store)
    again = graph.embed_session("s-1")
    assert (again.turns, again.passages) == (0, 0)
    assert [row for row in snapshot(store) if "embedded_at" not in str(row)] == [
        row for row in before if "embedded_at" not in str(row)
    ]


def test_long_turns_get_one_vector_per_passage(graph, store):
    long_text = "We compared caching strategies in depth. " * 40
    start(graph, turns=[{"role": "user", "text": long_text, "timestamp": "2026-03-02T09:00:00Z"}])
    graph.embed_session("s-1")
    rows = passages(store)
    assert len(rows) == len(split_passages(long_text)) > 1
    assert [row["position"] for row in rows if row["kind"] == "turn"] == sorted(range(len(rows)), key=str)


def test_pending_lists_new_and_other_model_sessions_and_new_turns_embed_on_the_next_run(graph, store):
    start(graph, "s-new")
    start(graph, "s-done")
    graph.embed_session("s-done")
    assert graph.get_pending_embedding_sessions() == ["s-new"]
    graph.record_turns("s-done", [{"role": "user", "text": "One more thing about Redis."}], user_id="alice", first_position=3)
    assert graph.embed_session("s-done").turns == 1
    assert graph.get_pending_embedding_sessions(limit=5) == ["s-new"]
    assert graph.get_pending_embedding_sessions(model="other-model") == ["s-done", "s-new"]
    with pytest.raises(ValidationError, match="limit"):
        graph.get_pending_embedding_sessions(limit=0)


def test_failure_is_recorded_and_the_session_stays_pending(graph, store):
    start(graph)
    with pytest.raises(EmbeddingUnavailableError, match="no-such-model"):
        graph.embed_session("s-1", model="/nonexistent/no-such-model")
    status = store.run("MATCH (s:Session) RETURN s.embedding_status AS status, s.embedding_error AS error")[0]
    assert status["status"] == "failed" and "no-such-model" in status["error"]
    assert passages(store) == []
    assert graph.get_pending_embedding_sessions() == ["s-1"]


def test_vectors_of_another_model_are_replaced_not_mixed(graph, store):
    start(graph)
    graph.embed_session("s-1")
    # Vectors written by an earlier model: the same passages, recorded under another name.
    store.run("MATCH (p:Passage) SET p.embedding_model = 'old-model'")
    store.run("MATCH (t:Turn) WHERE t.embedding_model IS NOT NULL SET t.embedding_model = 'old-model'")
    store.run("MATCH (s:Session) SET s.embedding_model = 'old-model'")
    assert graph.get_pending_embedding_sessions() == ["s-1"]
    result = graph.embed_session("s-1")
    assert result.turns == 2
    assert {row["model"] for row in passages(store)} == {DEFAULT_EMBEDDING_MODEL}
    assert len(passages(store)) == 2


def test_edited_turn_text_is_embedded_again(graph, store):
    start(graph)
    graph.embed_session("s-1")
    store.run("MATCH (t:Turn {seq: 0}) SET t.text = 'Which queue should the workers use?'")
    assert graph.embed_session("s-1").turns == 1
    assert len(passages(store)) == 2


def test_memory_files_are_embedded_with_the_session_and_again_after_an_edit(graph, store):
    start(graph)
    memory = graph.save_memory("alice", "Deploys go out on Tuesdays only.", path="/memories/notes/deploys.md")
    assert graph.embed_session("s-1").memories == 1
    assert passages(store, kind="memory")[0]["source_id"] == memory.memory_id
    graph.update_memory(memory.memory_id, "Deploys go out on Tuesdays and Thursdays.")
    assert graph.embed_session("s-1").memories == 1
    assert len(passages(store, kind="memory")) == 1


def test_embedding_an_unknown_session_is_an_error_that_changes_nothing(graph, store):
    before = snapshot(store)
    with pytest.raises(ValidationError, match="does not exist"):
        graph.embed_session("s-missing")
    with pytest.raises(ValidationError):
        graph.embed_session("")
    assert snapshot(store) == before


# -- several sessions at once (what a batched Dagster run does) --------------------------------

SHARED_TURNS = [  # every session names Redis and Carol: entities the sessions share
    [{"role": "user", "text": f"Carol says the {service} service should use Redis for its cache.",
      "timestamp": f"2026-03-0{day}T09:00:00Z"},
     {"role": "assistant", "text": f"Noted: Redis caches the {service} service, as Carol suggested.",
      "timestamp": f"2026-03-0{day}T09:01:00Z"}]
    for day, service in ((2, "orders"), (3, "billing"), (4, "search"))
]


def reconciled_sessions(graph) -> list[str]:
    """Three sessions of alice (sharing entities) and one of bob, reconciled; alice has a memory file."""
    from sessions_graph_core.reconcile.extraction.spacy import SpacyBackend

    ids = []
    for index, (user, turns) in enumerate([("alice", SHARED_TURNS[0]), ("alice", SHARED_TURNS[1]),
                                           ("bob", SHARED_TURNS[0]), ("alice", SHARED_TURNS[2])]):
        start(graph, f"s-{index}", user=user, turns=turns)
        assert graph.reconcile_session(f"s-{index}", backend=SpacyBackend()).status == "completed"
        ids.append(f"s-{index}")
    graph.save_memory("alice", "Deploys go out on Tuesdays only.", path="/memories/notes/deploys.md")
    return ids


VOLATILE = ("embedded_at", "reconciled_at", "created_at", "updated_at", "write_id")


def comparable(store) -> list[str]:
    """The graph without what differs between two runs of the same work (times, write and memory ids) and
    without vectors (see vectors())."""
    memory_ids = [row["id"] for row in store.run("MATCH (m:Memory) RETURN m.memory_id AS id")]
    rows = []
    for row in snapshot(store):
        row = {key: {k: v for k, v in value.items() if k not in VOLATILE} if isinstance(value, dict) else value
               for key, value in row.items()}
        row.get("props", {}).pop("embedding", None)
        text = repr(row)
        for memory_id in memory_ids:
            text = text.replace(memory_id, "<memory>")
        rows.append(text)
    return sorted(rows)


def vectors(store) -> tuple[list[str], np.ndarray]:
    rows = store.run("MATCH (p:Passage) RETURN p.kind AS kind, p.source_id AS source, p.position AS position, "
                     "p.embedding AS embedding")
    memory = {row["source"] for row in rows if row["kind"] == "memory"}
    rows.sort(key=lambda row: (row["kind"], "<memory>" if row["source"] in memory else row["source"], row["position"]))
    return [f"{row['kind']}:{row['source'] if row['kind'] != 'memory' else ''}:{row['position']}" for row in rows], np.array(
        [row["embedding"] for row in rows])


# The defaults, and groups and writes small enough that a model call spans users and a user's writes
# span model calls.
@pytest.mark.parametrize("write_batch, embed_group", [(None, None), (2, 5)])
def test_sessions_embedded_together_end_as_one_at_a_time(graph, store, server, monkeypatch, write_batch, embed_group):
    from sessions_graph_core import SessionsGraph
    from sessions_graph_core.embeddings import vectors as module
    from sessions_graph_core.embeddings.vectors import embed_sessions
    from sessions_graph_core.store.falkordb.store import FalkorDBStore

    if write_batch:
        monkeypatch.setattr(module, "WRITE_BATCH", write_batch)
        monkeypatch.setattr(module, "EMBED_GROUP", embed_group)
    ids = reconciled_sessions(graph)
    together = embed_sessions(store, ids)
    alone_store = FalkorDBStore(server, graph=f"test_alone_{store.name[-12:]}")
    try:
        alone = SessionsGraph(alone_store)
        alone.setup()
        assert reconciled_sessions(alone) == ids
        one_at_a_time = {sid: alone.embed_session(sid) for sid in ids}
        # The same counts per session: a shared entity counts for the first session that holds it.
        assert together == one_at_a_time
        assert together["s-1"].entities < one_at_a_time["s-0"].entities  # s-1 shares what s-0 wrote
        assert sum(result.memories for result in together.values()) == 1
        assert comparable(store) == comparable(alone_store)
        (names, joint), (alone_names, single) = vectors(store), vectors(alone_store)
        assert names == alone_names and len(names) > 20
        assert np.allclose(joint, single, atol=1e-5)  # batching changes no vector beyond float noise
    finally:
        alone_store.delete_all()
        alone_store.close()
    assert graph.get_pending_embedding_sessions() == []


def test_sessions_embedded_together_keep_each_failure_their_own(graph, store):
    from sessions_graph_core.embeddings.vectors import embed_sessions

    start(graph, "s-1")
    start(graph, "s-2")
    outcomes = embed_sessions(store, ["s-1", "s-missing", "s-2"])
    assert isinstance(outcomes["s-missing"], ValidationError) and "does not exist" in str(outcomes["s-missing"])
    assert (outcomes["s-1"].turns, outcomes["s-2"].turns) == (2, 2)
    # A model that cannot load fails every session, each recorded as its own failure, and changes no vector.
    before = passages(store)
    store.run("MATCH (t:Turn) SET t.text = t.text + ' (edited)'")
    failed = embed_sessions(store, ["s-1", "s-2"], model="/nonexistent/no-such-model")
    assert all(isinstance(error, EmbeddingUnavailableError) for error in failed.values())
    rows = store.run("MATCH (s:Session) RETURN s.session_id AS sid, s.embedding_status AS status, "
                     "s.embedding_failures AS failures ORDER BY sid")
    assert [(row["sid"], row["status"], row["failures"]) for row in rows] == [("s-1", "failed", 1), ("s-2", "failed", 1)]
    assert passages(store) == before


def test_sessions_embedded_together_read_and_record_in_statements_that_do_not_grow_with_them(graph, store, monkeypatch):
    """Each kind's stale sources of all the sessions come from one statement, and their outcomes go in one:
    embedding six sessions of a user asks the store no more than embedding two."""
    from sessions_graph_core.embeddings.vectors import embed_sessions

    for index in range(8):
        start(graph, f"s-{index}")
    statements: list[str] = []
    run = store.run

    def counted(query, params=None):
        statements.append(query)
        return run(query, params)

    monkeypatch.setattr(store, "run", counted)
    embed_sessions(store, ["s-0", "s-1"])
    two = len(statements)
    statements.clear()
    outcomes = embed_sessions(store, [f"s-{index}" for index in range(2, 8)])
    assert [outcome.turns for outcome in outcomes.values()] == [2] * 6
    assert len(statements) == two
    rows = store.run("MATCH (s:Session {embedding_status: 'completed'}) RETURN count(s) AS n")
    assert rows[0]["n"] == 8
