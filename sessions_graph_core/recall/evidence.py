"""What recall reads of a turn's text to weigh it as evidence, written on the turn when it is recorded.

Three properties of a Turn, written in the same statement as its text (sessions/records.py):
- `concept_words`: the words that may name a concept (`concepts.named` with no speaker's name left
  out), each once, in order, joined by spaces. The speakers' names are left out at question time,
  when the speakers are known;
- `says_when`: whether the text places something in time (`periods.says_when`);
- `chars`: the text's length in characters, by which the full-text lane picks a common word's
  candidates (recall/text_lane.py) without reading their texts.

With them recall neither reads nor tokenizes the pool's texts for a question that asks when or
names a concept. A turn recorded before these properties existed has none: recall reads its text
instead (the same evidence, computed from it), and `fill_turn_evidence` writes them for such turns
(`sessions-graph embed --pending` runs it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from sessions_graph_core.recall.concepts import named
from sessions_graph_core.recall.periods import says_when
from sessions_graph_core.store.base import GraphStore

WORDS = "concept_words"
WHEN = "says_when"
CHARS = "chars"
SESSIONS_PER_WRITE = 50  # sessions whose turns are read and written by one pair of statements


def turn_evidence(text: str | None) -> dict[str, Any]:
    """The properties written beside a turn's text."""
    text = text or ""
    return {WORDS: " ".join(_words_in(text)), WHEN: _says_when_in(text), CHARS: len(text)}


@lru_cache(maxsize=16384)
def _words_in(text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(named(text, frozenset())))


@lru_cache(maxsize=16384)
def _says_when_in(text: str) -> bool:
    return says_when(text)


# A turn row's evidence: from its stored properties, or, for a turn recorded before they existed, from its
# text (a row with neither has none). Each is read only for a question that wants it.
def concept_words(row: Mapping[str, Any]) -> Sequence[str]:
    """The turn's words that may name a concept, speakers' names included, each once."""
    words = row.get(WORDS)
    return words.split() if words is not None else _words_in(row.get("text") or "")


def said_when(row: Mapping[str, Any]) -> bool:
    """Whether the turn's text places something in time."""
    when = row.get(WHEN)
    return bool(when) if when is not None else _says_when_in(row.get("text") or "")


def has_evidence(row: Mapping[str, Any]) -> bool:
    """Whether the row's evidence can be told without reading its text again."""
    return (row.get(WORDS) is not None and row.get(WHEN) is not None) or "text" in row


def fill_turn_evidence(store: GraphStore, user_id: str) -> int:
    """Write the evidence properties on the user's turns that lack them (recorded before they existed);
    returns how many turns were written."""
    params = {"uid": user_id}
    sessions = [row["sid"] for row in store.run(
        "MATCH (t:Turn) WHERE t.user_id = $uid AND (t.concept_words IS NULL OR t.says_when IS NULL OR t.chars IS NULL) "
        "RETURN DISTINCT t.session_id AS sid ORDER BY sid", params)]
    written = 0
    for start in range(0, len(sessions), SESSIONS_PER_WRITE):
        rows = store.run(
            "UNWIND $sids AS sid MATCH (t:Turn {session_id: sid}) "
            "WHERE t.user_id = $uid AND (t.concept_words IS NULL OR t.says_when IS NULL OR t.chars IS NULL) "
            "RETURN t.turn_id AS turn_id, t.text AS text",
            {**params, "sids": sessions[start:start + SESSIONS_PER_WRITE]},
        )
        if rows:
            store.run(
                "UNWIND $turns AS turn MATCH (t:Turn {turn_id: turn.turn_id}) WHERE t.user_id = $uid "
                "SET t.concept_words = turn.concept_words, t.says_when = turn.says_when, t.chars = turn.chars",
                {**params, "turns": [{"turn_id": row["turn_id"], **turn_evidence(row["text"])} for row in rows]},
            )
        written += len(rows)
    return written
