"""recall(user, question): the evidence one user's own past sessions hold about a question.

The lanes (recall/lanes.py, recall/text_lane.py) each read only that user's history; the two
message lanes and the turns the nearest facts came from are fused into one ranking
(recall/fusion.py); memory notes, the ranked turns and the facts then make one ranked list of
rows, kept in rank order while they fit the token budget (recall/results.py).
"""

from __future__ import annotations

from datetime import datetime
from itertools import zip_longest

from sessions_graph_core import validation
from sessions_graph_core.clock import to_iso
from sessions_graph_core.embeddings.models import DEFAULT_EMBEDDING_MODEL
from sessions_graph_core.embeddings.passages import best_passage, split_passages
from sessions_graph_core.recall import fusion
from sessions_graph_core.recall.config import RecallConfig
from sessions_graph_core.recall.lanes import (
    PLACE_COLUMNS,
    Search,
    StoreTurns,
    fact_lanes,
    load_turns,
    memories_lane,
    vector_lane,
)
from sessions_graph_core.recall.periods import mentioned_periods
from sessions_graph_core.recall.results import (
    MemoryNote,
    Recalled,
    RecalledFact,
    RecalledTurn,
    fact_order,
    named_slots_first,
    ranked_rows,
    within_budget,
)
from sessions_graph_core.recall.text_lane import text_lane
from sessions_graph_core.store.base import GraphStore, Row
from sessions_graph_core.text import search_terms, stems

WEIGHTS = fusion.Weights()


def message_candidates(search: Search, fact_scores: dict[str, float]) -> tuple[fusion.Candidates, dict[str, Row], dict[str, list[int]]]:
    """The message lanes' raw scores, the candidates' rows, and each candidate's matching passages, best first.

    `fact_scores` holds, for the turns the nearest facts came from, the similarity of their fact.
    """
    config = search.config
    text, text_scores, rows = text_lane(search) if config.runs("text", config.text_k) else (None, {}, {})
    # The words each text candidate holds, read while every row of `rows` still has its text.
    words = text.words() if text is not None else {}
    vector_scores, near = vector_lane(search)
    passages = matching_passages(text.best_passages(text_scores) if text is not None else {}, near)
    rows.update(load_turns(search, [tid for tid in (*vector_scores, *fact_scores) if tid not in rows], PLACE_COLUMNS))
    found = fusion.Candidates(
        text=text_scores,
        vector={tid: value for tid, value in vector_scores.items() if tid in rows},
        fact={tid: value for tid, value in fact_scores.items() if tid in rows},
        words=words,
        idf=text.idf() if text is not None else {},
    )
    return found, rows, passages


def matching_passages(*lanes: dict[str, list[int]]) -> dict[str, list[int]]:
    """Each turn's passages that the lanes matched, best first: the lanes' best taken in turn, then
    their second best, and so on, so a row that shows one passage shows the best of the first lane."""
    merged: dict[str, list[int]] = {}
    for tid in dict.fromkeys(tid for lane in lanes for tid in lane):
        ranked = [lane.get(tid, []) for lane in lanes]
        merged[tid] = list(dict.fromkeys(hit for place in zip_longest(*ranked) for hit in place if hit is not None))
    return merged


def _turns(search: Search, ranked: list[tuple[str, float]], rows: dict[str, Row], passages: dict[str, list[int]],
           facts: list[RecalledFact]) -> list[RecalledTurn]:
    """The ranked turns, best first, then the turns of the facts found (at most fact_turns_k) not among them."""
    scores = dict(ranked)
    fact_turns = [fact.turn for fact in facts if fact.turn][: search.config.fact_turns_k]
    turn_ids = list(dict.fromkeys([*scores, *fact_turns]))
    rows.update(load_turns(search, [tid for tid in turn_ids if "text" not in rows.get(tid, {})]))
    hints = {fact.turn: fact.text for fact in facts if fact.turn}
    asked = frozenset(stems(search.question))
    turns = []
    for tid in turn_ids:
        row = rows.get(tid, {})
        if "text" not in row:  # a turn deleted since it was ranked has no text to show
            continue
        pieces = split_passages(row["text"])
        hits = passages.get(tid, []) + [best_passage(pieces, hint) for hint in (hints.get(tid), search.question) if hint]
        turns.append(RecalledTurn(turn_id=tid, session_id=row["session_id"], timestamp=row["timestamp"] or "",
                                  speaker=row.get("speaker") or row["role"], text=row["text"], passages=list(dict.fromkeys(hits)),
                                  score=round(scores.get(tid, 0.0), 4), asked=asked))
    return turns


def expand(store: GraphStore, user_id: str, turn_id: str) -> RecalledTurn:
    """The whole of one of the user's turns, as a recall row names it (`turn ID of N chars`).

    A turn of another user gets the same answer as a turn that does not exist: neither says whose it is.
    """
    uid = validation.user_id(user_id)
    tid = validation.turn_id(turn_id)
    rows = store.run(
        "MATCH (t:Turn {turn_id: $turn_id}) WHERE t.user_id = $user_id AND t.text <> '' "
        "RETURN t.turn_id AS turn_id, t.session_id AS session_id, t.timestamp AS timestamp, "
        "t.speaker AS speaker, t.role AS role, t.text AS text",
        {"turn_id": tid, "user_id": uid},
    )
    if not rows:
        raise validation.ValidationError(
            f"No turn {tid!r} in the history of user {uid!r}: pass a turn id a recall row names (`turn ID of N chars`)"
        )
    row = rows[0]
    return RecalledTurn(turn_id=row["turn_id"], session_id=row["session_id"], timestamp=row["timestamp"] or "",
                        speaker=row["speaker"] or row["role"], text=row["text"])


def recall(
    store: GraphStore,
    user_id: str,
    question: str,
    *,
    config: RecallConfig | None = None,
    as_of: datetime | str | None = None,
    model: str = DEFAULT_EMBEDDING_MODEL,
    budget_tokens: int | None = None,
    candidates: bool = False,
) -> Recalled:
    """What the user's own past sessions hold about `question`; `as_of` answers from what held then.

    `budget_tokens` bounds the rows' size (default: the config's `budget_tokens`; 0: no bound). `candidates`
    shows the facts the reader held back as candidates too.
    """
    uid = validation.user_id(user_id)
    question = validation.question(question)
    config = config or RecallConfig()
    budget = config.budget_tokens if budget_tokens is None else budget_tokens
    if not isinstance(budget, int) or budget < 0:
        raise validation.ValidationError(f"The recall budget must be a whole number of tokens >= 0 (0: none), got {budget!r}")
    search = Search(store, uid, question, config, model, to_iso(as_of) if as_of is not None else None,
                    search_terms(question), mentioned_periods(question))
    off = search.embed_question()
    memories = memories_lane(search)
    found_facts, fact_turn_scores = fact_lanes(search)
    # A candidate's turn still counts (its statement was said there), the candidate itself is no row unless asked.
    facts = [fact for fact in found_facts if candidates or not fact.candidate]
    found, rows, passages = message_candidates(search, fact_turn_scores)
    ranked = fusion.rank(found, rows, StoreTurns(search), question=search.question, periods=search.periods,
                         width=config.message_width(), weights=WEIGHTS)
    if off is None and search.vector is not None and not search.vectors_found:
        off = search.no_vectors_reason()
    turns = _turns(search, ranked, rows, passages, found_facts)
    rows = named_slots_first(ranked_rows(memories, turns, facts, config.turn_chars), search.question)
    kept, left_out = within_budget(rows, budget, config.turn_chars)
    for position, row in enumerate(kept, start=1):
        row.rank = position
    turns = sorted((row for row in kept if isinstance(row, RecalledTurn)), key=lambda turn: (turn.timestamp, turn.turn_id))
    facts = fact_order([row for row in kept if isinstance(row, RecalledFact)])
    notes = [row for row in kept if isinstance(row, MemoryNote)]
    return Recalled(search.question, turns, facts, notes, off, config.turn_chars, left_out, budget)
