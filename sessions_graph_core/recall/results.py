"""What recall hands back: its rows, the rules for reading them, the token budget, and the two
renderings (text for a model to read, JSON for a program).

Rows are ranked (memory notes first: they were kept on purpose; then turns best first, each
followed by the facts extracted from it; then the other facts; last the facts that only restate
their turn's row). A token budget keeps rows in that order while they fit; the kept rows are then
shown in time order, each with its rank, except that every slot's current value comes before the
facts in no slot.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, Field, PrivateAttr

from sessions_graph_core.embeddings.passages import excerpt, passage_spans, shown_passages
from sessions_graph_core.prose import fold_output
from sessions_graph_core.recall.fusion import asks_about_asker, asks_about_us
from sessions_graph_core.reconcile.lexicon import naming_phrases
from sessions_graph_core.reconcile.statements import OUR_TEAM, SELF
from sessions_graph_core.text import content_words, stems

READING_RULES = """These rows come from this user's own past conversations; each one carries the date it was written.
- Read a relative date inside a row ("yesterday", "next week") against that row's date, not today's.
- For counts, totals and intervals, first list the matching items with their dates, count repeats once, then compute.
- When rows disagree, the most recent one holds.
- For a recommendation, start from the preferences the rows show and add general knowledge.
- If the rows do not cover the question, or contradict what it assumes, say that it is not in memory."""
MEMORY_RULE = "MEMORY rows are notes kept on purpose: trust them over a TURN, unless the TURN is newer."
FACT_RULE = ("A FACT (current) row holds now (FACT (as of DATE): held on that date); what it replaced "
             "(was: ..., replaces: ...) no longer held by then; a value of (none) means it had ended.")
NOTHING = "(nothing in memory matched)"
# English text runs about four characters to a token in the tokenisers of the models that read
# these rows; a budget is a bound on what the reader is handed, so it errs on the generous side.
CHARS_PER_TOKEN = 4


def tokens(text: str) -> int:
    """An estimate of how many tokens `text` takes (one more per line for the newline)."""
    return math.ceil(len(text) / CHARS_PER_TOKEN) + 1


class RecalledTurn(BaseModel):
    turn_id: str
    session_id: str
    timestamp: str
    speaker: str
    text: str
    passages: list[int] = []
    rank: int = 0  # 1 is the best row; rows are shown in time order
    score: float = 0.0  # the fused score the turn was ranked by
    # The question's word stems: pasted output that holds none of them is folded in the row. Not part of the
    # row's JSON.
    asked: frozenset[str] = Field(default=frozenset(), exclude=True)
    _excerpts: dict[int, str] = PrivateAttr(default_factory=dict)

    def line(self, chars: int) -> str:
        """The row: the whole turn when it fits in `chars`; else its matching passages with … for what is
        left out; output holding no word of the question folded to "[N lines of output]"; and, where anything
        is left out, the turn's id and full size, so the reader can ask for the whole turn (recall --expand)."""
        where = f"session {self.session_id}, {self.timestamp[:16]}, {self.speaker}"
        body = self.excerpt(chars)
        if len(self.text) > chars or body != self.text:
            where += f", turn {self.turn_id} of {len(self.text):,} chars"
        return f"TURN [{where}]: " + body

    def excerpt(self, chars: int) -> str:
        """What the row shows of the turn's text (line); kept, since ranking and the budget read it too."""
        if chars not in self._excerpts:
            self._excerpts[chars] = excerpt(self.text, self.passages, chars, shown=self._folded)
        return self._excerpts[chars]

    def _folded(self, text: str) -> str:
        if not self.asked or "\n" not in text:  # output is folded in runs of lines beside prose
            return text
        return fold_output(text, lambda run: not self.asked.isdisjoint(stems(run)))

    def whole(self) -> str:
        """The whole turn, for a reader that asked for it by its id."""
        return (f"TURN [session {self.session_id}, {self.timestamp[:16]}, {self.speaker}, turn {self.turn_id} "
                f"of {len(self.text):,} chars]:\n{self.text}")

    def whole_json(self) -> dict[str, Any]:
        """The whole turn as JSON, with its size."""
        return {**self.model_dump(exclude={"passages", "rank", "score"}), "chars": len(self.text)}

    def shown(self, chars: int) -> dict[str, Any]:
        """The row as JSON: the turn's fields, its full size, what the row shows of its text (all of it, or
        the excerpt with its …), and each passage shown with its offsets in the whole text."""
        every = passage_spans(self.text)
        shown = shown_passages(self.text, self.passages, chars)
        body = self.excerpt(chars)
        spans = [(every[index][0], min(every[index][1], every[index][0] + chars)) for index in shown]
        return {**self.model_dump(exclude={"passages", "text"}), "chars": len(self.text), "whole": body == self.text,
                "text": body,
                "passages": [{"index": index, "start": start, "end": end, "text": self.text[start:end]}
                             for index, (start, end) in zip(shown, spans, strict=True)]}


class MemoryNote(BaseModel):
    memory_id: str
    path: str
    updated_at: str
    text: str
    passages: list[int] = []
    rank: int = 0
    score: float | None = None  # notes are ranked by lane order, not by a score

    def line(self, chars: int) -> str:
        return f"MEMORY [{self.path}, updated {self.updated_at[:10]}]: " + excerpt(self.text, self.passages, chars)


class RecalledFact(BaseModel):
    fact_id: str
    kind: str
    subject: str
    predicate: str
    object: str
    text: str
    rationale: str | None = None
    valid_at: str | None = None
    turn: str | None = None
    slot: str = ""  # what it is the value of ("orders service/owner"); "" for a statement in no slot
    held: str = "current"  # when the slot held it: "current", or "as of <date>" for a recall as of a moment
    replaced: list[str] = []  # texts of the statements this one superseded, newest first
    was: list[str] = []  # the values the slot held before, newest first ("(none)" where one ended it)
    rank: int = 0
    score: float | None = None  # the fact's similarity to the question, when the fact lane found it
    # Held back by the reader (reconcile/facts.Statement.candidate): a row only when recall is asked for
    # candidates, its turn counted either way; not part of the row's JSON.
    candidate: bool = Field(default=False, exclude=True)

    def line(self) -> str:
        when = f" @ {self.valid_at[:10]}" if self.valid_at else ""
        # A slot's value says so, and what it was before, so no reader takes a replaced one as current.
        label = f"FACT ({self.held})" if self.slot else "FACT"
        if self.subject and self.predicate and self.object:
            row = f"{label}: {self.subject} -[{self.predicate}{when}]-> {self.object}"
            if self.was:
                row += " (was: " + ", ".join(self.was) + ")"
            if self.text:
                row += f' -- "{self.text}"'
        else:  # a statement extraction could not split into a triple is shown as said
            row = f'{label} [{self.kind}{when}]: "{self.text}"'
        if self.kind == "decision" and self.rationale:
            row += f" (because: {self.rationale})"
        if self.replaced:
            row += " (replaces: " + "; ".join(f'"{old}"' for old in self.replaced) + ")"
        return row


def fact_order(facts: list[RecalledFact]) -> list[RecalledFact]:
    """Facts as shown: every slot's value first (what holds, with what it replaced), then the
    statements in no slot; each part in time order."""
    return sorted(facts, key=lambda fact: (not fact.slot, fact.valid_at or "", fact.fact_id))


Row = MemoryNote | RecalledTurn | RecalledFact


def restates(fact: RecalledFact, turn_line: str) -> bool:
    """Whether a fact row only repeats what its turn's row shows: a plain fact (no decision, no
    slot's value, nothing it replaced) whose every word the turn's line holds."""
    if fact.kind != "fact" or fact.slot or fact.replaced or fact.was:
        return False
    shown = set(content_words(turn_line))
    return all(word in shown for word in content_words(f"{fact.text} {fact.subject} {fact.object}"))


def ranked_rows(memories: list[MemoryNote], turns: list[RecalledTurn], facts: list[RecalledFact],
                turn_chars: int) -> list[Row]:
    """Every row in rank order: notes, then turns best first each with the facts extracted from it,
    then the other facts, then the facts that only restate their turn's row. Those add no evidence,
    and beside their turns they would push out, under a small budget, turns that do."""
    by_turn: dict[str, list[RecalledFact]] = {}
    for fact in facts:
        by_turn.setdefault(fact.turn or "", []).append(fact)
    rows: list[Row] = list(memories)
    restated: list[RecalledFact] = []
    shown = {turn.turn_id for turn in turns}
    for turn in turns:
        rows.append(turn)
        line = turn.line(turn_chars)
        for fact in by_turn.pop(turn.turn_id, []):
            (restated if restates(fact, line) else rows).append(fact)
    rows += [fact for fact in facts if (fact.turn or "") not in shown]
    return rows + restated


def names_slot(question: str, slot: str) -> bool:
    """Whether the question names the slot: it holds every word of the slot's attribute or of a word
    attributes.toml names it by ("Where do I live?" names "me/location" by "live in"), and the slot's
    subject: one of its words ("Which databases does the orders service use now?" names "orders
    service/database"), or, for the user's own slot, words of the person asking ("I", "my"), for their
    team's, "we", "our" or "us". Words are compared stemmed."""
    subject, _, attribute = slot.rpartition("/")
    asked = set(stems(question))
    if not any(wanted <= asked for wanted in _attribute_words(attribute.replace("_", " "))):
        return False
    if subject == SELF:
        return asks_about_asker(question)
    named = set(stems(subject.replace("_", " ")))
    return not named or not named.isdisjoint(asked) or (subject == OUR_TEAM and asks_about_us(question))


@lru_cache(maxsize=1024)
def _attribute_words(attribute: str) -> tuple[frozenset[str], ...]:
    """The stemmed words of each way of naming the attribute: itself, and its nouns and verbs in attributes.toml."""
    return tuple(found for phrase in (attribute, *naming_phrases(attribute)) if (found := frozenset(stems(phrase))))


def named_slots_first(rows: list[Row], question: str) -> list[Row]:
    """The rows with the facts whose slot the question names first: what holds for what was asked is
    never left out of a small budget for a row ranked below it."""
    named = [row for row in rows if isinstance(row, RecalledFact) and row.slot and names_slot(question, row.slot)]
    chosen = {id(row) for row in named}
    return named + [row for row in rows if id(row) not in chosen]


def _line(row: Row, turn_chars: int) -> str:
    return row.line() if isinstance(row, RecalledFact) else row.line(turn_chars)


def within_budget(rows: list[Row], budget: int, turn_chars: int) -> tuple[list[Row], int]:
    """The rows, in rank order, kept while their lines fit in `budget` tokens (0: no budget), and
    how many were left out. A row that does not fit is skipped, a shorter one after it may fit."""
    if budget <= 0:
        return rows, 0
    kept: list[Row] = []
    used = 0
    for row in rows:
        cost = tokens(_line(row, turn_chars))
        if used + cost <= budget:
            kept.append(row)
            used += cost
    return kept, len(rows) - len(kept)


@dataclass
class Recalled:
    question: str
    turns: list[RecalledTurn] = field(default_factory=list)
    facts: list[RecalledFact] = field(default_factory=list)
    memories: list[MemoryNote] = field(default_factory=list)
    vector_lanes_off: str | None = None
    turn_chars: int = 500
    left_out: int = 0  # rows ranked but left out to keep within the budget
    budget_tokens: int = 0

    def ranked_turns(self) -> list[RecalledTurn]:
        return sorted(self.turns, key=lambda turn: turn.rank)

    def lines(self) -> list[str]:
        return (
            [memory.line(self.turn_chars) for memory in self.memories]
            + [turn.line(self.turn_chars) for turn in self.turns]
            + [fact.line() for fact in self.facts]
        )

    def render(self, today: str | None = None) -> str:
        header = [f"Memory recall for: {self.question}"]
        if today:
            header.append(f"Today is {today}.")
        header.append(READING_RULES)
        if self.memories:
            header.append(MEMORY_RULE)
        if any(fact.slot for fact in self.facts):
            header.append(FACT_RULE)
        if self.vector_lanes_off:
            header.append(f"Vector search is off ({self.vector_lanes_off}); these rows come from text search only.")
        rows = self.lines()
        text = "\n".join(header) + "\n\nRows:\n" + ("\n".join(rows) if rows else NOTHING)
        if self.left_out:
            text += f"\n({self.left_out} more rows left out to keep within {self.budget_tokens} tokens)"
        return text

    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "turns": [turn.shown(self.turn_chars) for turn in self.turns],
            "facts": [fact.model_dump() for fact in self.facts],
            "memories": [memory.model_dump() for memory in self.memories],
            "vector_lanes_off": self.vector_lanes_off,
            "left_out": self.left_out,
            "budget_tokens": self.budget_tokens,
        }
