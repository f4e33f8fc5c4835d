"""The full-text lane: the user's messages that hold the question's words, scored by BM25.

The full-text index finds the candidates and their words' document frequencies; BM25 is scored
here (recall/bm25.py), on each turn's passages (embeddings/passages.py): a turn scores as its best
passage, so a long answer or tool output counts for the part that matches, not for its length. A word held by very many turns is not read from the index: a sample of the
history estimates its frequency (see COMMON_POSTINGS). A word held by more than TERM_POOL turns gives
the shortest of them (see POSTING_ORDER). The words of the user's turns nearest the question's join the
query at a lower weight (recall/expansion.py), so a turn that answers in other words is a candidate too.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from sessions_graph_core.embeddings.passages import PASSAGE_CHARS, split_passages
from sessions_graph_core.recall import bm25, expansion, spelling
from sessions_graph_core.recall.lanes import POOL, TURN_COLUMNS, Search, is_message
from sessions_graph_core.store.base import Row
from sessions_graph_core.store.schema import TURN_TEXT_INDEX
from sessions_graph_core.text import stem as stem_of
from sessions_graph_core.text import stems

TERM_POOL = 100  # best postings read per query term


def _posting_order(length: str) -> str:
    return f"CASE WHEN {length} < {PASSAGE_CHARS} THEN {length} ELSE {PASSAGE_CHARS} END"


# Which TERM_POOL postings of a word held by more turns: the shortest texts first, a text longer than a
# passage counting as one passage, then the lowest node id (the first created). BM25 ranks so the turns
# that say the word once, as most do. Read from the length stored at ingest (`chars`, recall/evidence.py),
# so a posting costs a number, not its text; and the same history gives the same candidates after a
# restart, which the index's own score did not.
POSTING_ORDER = _posting_order("node.chars")
# A history whose sample holds a turn recorded before `chars` was stored: the length is read from the text
# where it is missing, the same length at twice the query's cost until `sessions-graph embed --pending` (or
# Dagster's embedded_session) stores it. (FalkorDB reads the text here even for a turn that has `chars`.)
POSTING_ORDER_FROM_TEXT = _posting_order("coalesce(node.chars, size(node.text))")


def _history_size(search: Search) -> int:
    rows = search.store.run(
        "MATCH (s:Session {user_id: $user_id}) RETURN sum(coalesce(s.turn_count, 0)) AS n",
        {"user_id": search.user_id},
    )
    return int(rows[0]["n"] or 0)


@dataclass(frozen=True)
class _Sample:
    """Turns drawn from one user's history: their average length, in how many of them each word occurs,
    and whether any was recorded before its length was stored."""

    size: int  # of the whole history when drawn
    turns: int
    average_length: float  # of a passage
    occurrences: Mapping[str, int]
    unfilled: bool

    def frequency(self, stem: str, size: int) -> int:
        """The number of turns of a history of `size` turns estimated to hold `stem`."""
        return round(self.occurrences.get(stem, 0) * size / max(self.turns, 1))


# (graph, user) -> a sample of that user's history, kept until the history has grown by a tenth.
_SAMPLES: OrderedDict[tuple[str, str], _Sample] = OrderedDict()
MAX_SAMPLES = 1000
SAMPLE_SESSIONS = 50
SAMPLE_TURNS = 2000
REGROWTH = 1.1
# Reading a word's postings costs time linear in how many turns hold it, and a common word adds
# little to BM25 and no candidate that a rarer word or the vector lane would miss: the postings of
# a word the sample shows in this many turns are not read, and no more than this many of any word's.
COMMON_POSTINGS = 1000


def _spread_sessions(search: Search) -> list[str]:
    """SAMPLE_SESSIONS of the user's sessions, evenly spaced in time: whole sessions cost a few lookups each,
    spacing spreads them over the history, and the same history gives the same sample (and ranking) in
    every process, which a random draw did not."""
    sessions = [row["sid"] for row in search.store.run(
        "MATCH (s:Session {user_id: $user_id}) RETURN s.session_id AS sid ORDER BY s.started_at, sid",
        {"user_id": search.user_id},
    )]
    step = max(len(sessions) / SAMPLE_SESSIONS, 1.0)
    return [sessions[int(place * step)] for place in range(min(SAMPLE_SESSIONS, len(sessions)))]


def _sample(search: Search, size: int) -> _Sample:
    key = (search.store.name, search.user_id)
    known = _SAMPLES.get(key)
    if known is not None and size <= known.size * REGROWTH:
        _SAMPLES.move_to_end(key)
        return known
    rows = search.store.run(
        "UNWIND range(0, size($sids) - 1) AS place WITH place, $sids[place] AS sid "
        "MATCH (t:Turn {session_id: sid}) WHERE t.user_id = $user_id AND t.text IS NOT NULL "
        "RETURN t.text AS text, t.chars IS NULL AS unfilled ORDER BY place, t.seq LIMIT $turns",
        {"user_id": search.user_id, "sids": _spread_sessions(search), "turns": SAMPLE_TURNS},
    )
    occurrences: Counter[str] = Counter()
    if size >= COMMON_POSTINGS:  # a smaller history has no word that common
        for row in rows:
            occurrences.update(set(stems(row["text"])))
    lengths = [len(passage) for row in rows for passage in split_passages(row["text"])]
    average = sum(lengths) / len(lengths) if lengths else 1.0
    _SAMPLES[key] = _Sample(size, len(rows), average, occurrences, any(row["unfilled"] for row in rows))
    while len(_SAMPLES) > MAX_SAMPLES:
        _SAMPLES.popitem(last=False)
    return _SAMPLES[key]


@dataclass
class TextCandidates:
    """What the index returned for a question: its stems, the collection's statistics, the rows, and the
    expansion words' stems with their weights (they score, but are not question words: `words` and `idf`
    leave them out)."""

    query: list[str]
    collection: bm25.Collection
    rows: dict[str, Row]
    expansion: dict[str, float] = field(default_factory=dict)  # the expansion words' stems -> their BM25 weight
    scored: dict[tuple[float, float], dict[str, list[float]]] = field(default_factory=dict)

    @cached_property
    def stemmed(self) -> dict[str, list[tuple[int, list[str]]]]:
        """Each candidate's passages as (length, stems), found once: BM25 and the words each holds both read them."""
        return {tid: [(len(passage), stems(passage)) for passage in split_passages(row["text"])]
                for tid, row in self.rows.items()}

    def words(self) -> dict[str, frozenset[str]]:
        """The question's stems each candidate holds."""
        query = set(self.query)
        return {tid: frozenset(query.intersection(stem for _, held in passages for stem in held))
                for tid, passages in self.stemmed.items()}

    def idf(self) -> dict[str, float]:
        return {stem: bm25.idf(self.collection, stem) for stem in self.query}

    def passage_scores(self, k1: float = bm25.K1, b: float = bm25.B) -> dict[str, list[float]]:
        """Each candidate's BM25 score of each of its passages, found once per (k1, b)."""
        if (k1, b) not in self.scored:
            query = [*self.query, *self.expansion]
            self.scored[(k1, b)] = {
                tid: [bm25.score_stems(self.collection, query, held, length, k1, b, self.expansion) for length, held in passages]
                for tid, passages in self.stemmed.items()
            }
        return self.scored[(k1, b)]

    def scores(self, k1: float = bm25.K1, b: float = bm25.B) -> dict[str, float]:
        """The best POOL candidates' BM25 scores (those above 0): each its best passage's."""
        scores = {tid: max(found) for tid, found in self.passage_scores(k1, b).items()}
        best = sorted(scores, key=scores.__getitem__, reverse=True)[:POOL]
        return {tid: scores[tid] for tid in best if scores[tid] > 0}

    def best_passages(self, turn_ids: Iterable[str], k1: float = bm25.K1, b: float = bm25.B) -> dict[str, list[int]]:
        """For each of `turn_ids` among the candidates, its passages that hold any of the question's words, best first."""
        scored = self.passage_scores(k1, b)
        return {tid: sorted((i for i, value in enumerate(scored[tid]) if value > 0), key=lambda i: -scored[tid][i])
                for tid in turn_ids if tid in scored}


def _postings(search: Search, word: str, sample: _Sample) -> tuple[int, list[Row]]:
    """How many of the user's turns hold `word` (up to COMMON_POSTINGS), and the first TERM_POOL of them."""
    count, rows = search.store.fulltext_postings(
        TURN_TEXT_INDEX, search.user_id, word, limit=TERM_POOL, most=COMMON_POSTINGS,
        columns=TURN_COLUMNS.replace("t.", "node."),
        order=POSTING_ORDER_FROM_TEXT if sample.unfilled else POSTING_ORDER,
    )
    return count, [row for row in rows if is_message(row, search)]


def _respelt(search: Search, word: str, size: int, sample: _Sample) -> str | None:
    """The word a question word no turn holds was meant to be (recall/spelling.py): of the dictionary's words
    one edit away that the user's turns hold, one the likeliest edit makes, and of those the one most turns
    hold (the first in alphabetical order of equals); None when no turn holds any."""
    offered = spelling.respellings(word)
    if not offered:
        return None
    # A word the sample shows is common enough to be chosen without counting its postings; the others are
    # counted in one statement.
    held = {meant: sample.frequency(stem_of(meant), size) for meant in offered}
    held.update(search.store.fulltext_counts(TURN_TEXT_INDEX, search.user_id, [meant for meant in offered if not held[meant]]))
    found = [meant for meant in offered if held.get(meant)]
    return min(found, key=lambda meant: (spelling.likelihood(word, meant), -held[meant])) if found else None


def _expanded(search: Search, question: Mapping[str, str], size: int, sample: _Sample,
              frequencies: dict[str, int], candidates: dict[str, Row]) -> dict[str, float]:
    """The expansion words the user's turns hold (recall/expansion.py), as stem -> weight: for each question
    word, its nearest that some turn holds and at most MAX_SHARE of them do, config.expansion_words at most.
    Their frequencies and turns join `frequencies` and `candidates`."""
    most = min(expansion.MAX_SHARE * size, COMMON_POSTINGS - 1)  # a word that common adds little, as above
    # A word the sample shows as common is not counted: the share rules it out, and counting it costs.
    offered = [[(word, stemmed, weight) for word, stemmed, weight in nearest
                if sample.frequency(stemmed, size) <= most]
               for nearest in expansion.offered(search, question)]
    # Most offered words are in no turn of the user's: one statement counts them all.
    counts = search.store.fulltext_counts(TURN_TEXT_INDEX, search.user_id,
                                          list(dict.fromkeys(word for nearest in offered for word, _, _ in nearest)))
    weights: dict[str, float] = {}
    for nearest in offered:
        kept = 0
        for word, stemmed, weight in nearest:
            if kept >= search.config.expansion_words:
                break
            if stemmed in weights or not 0 < counts.get(word, 0) <= most:
                continue
            kept += 1
            frequencies[stemmed], rows = _postings(search, word, sample)
            weights[stemmed] = weight
            candidates.update((row["turn_id"], row) for row in rows)
    return weights


def text_candidates(search: Search) -> TextCandidates | None:
    """The user's messages that hold any of the question's words or their expansions, with what BM25 needs; None if none."""
    words: dict[str, str] = {}
    for word in search.terms:
        stemmed = stems(word)
        words.setdefault(stemmed[0] if stemmed else word, word)
    if not words:
        return None
    size = _history_size(search)
    sample = _sample(search, size)
    estimates = {stem: sample.frequency(stem, size) for stem in words}
    common = {stem for stem, estimate in estimates.items() if estimate >= COMMON_POSTINGS}
    if len(common) == len(words):  # every word is common: the rarest still finds candidates
        common.remove(min(common, key=estimates.__getitem__))
    frequencies = {stem: estimates[stem] for stem in common}
    candidates: dict[str, Row] = {}
    for stem, word in list(words.items()):
        if stem in common:
            continue
        count, rows = _postings(search, word, sample)
        if not count and (meant := _respelt(search, word, size, sample)) is not None:
            del words[stem]
            stem, word = stem_of(meant), meant
            if stem in words:  # the word meant is the question's already
                continue
            words[stem] = word
            count, rows = _postings(search, word, sample)
            estimates[stem] = sample.frequency(stem, size)
        frequencies[stem] = count if count < COMMON_POSTINGS else max(count, estimates[stem])
        candidates.update((row["turn_id"], row) for row in rows)
    weights = _expanded(search, words, size, sample, frequencies, candidates)
    if not candidates:
        return None
    return TextCandidates(list(words), bm25.Collection(size, sample.average_length, frequencies), candidates, weights)


def text_lane(search: Search) -> tuple[TextCandidates | None, dict[str, float], dict[str, Row]]:
    """The index's candidates, their BM25 scores, and their rows."""
    found = text_candidates(search)
    return (found, found.scores(), found.rows) if found is not None else (None, {}, {})
