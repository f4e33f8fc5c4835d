"""What the hand-written long-session sets' generators share (make_long_sessions_heldout6.py and later): turns,
sessions, and the questions written out in LongMemEval's format, each haystack its supporting sessions and
`others` more, the least used so far first, in date order.
"""

from __future__ import annotations

import json
import random
from datetime import datetime
from pathlib import Path

# A question: (id suffix, LongMemEval's question type, question, answer, {supporting session: phrases marking its
# answering turns}).
Question = tuple[str, str, str, str, dict[str, list[str]]]


def U(content: str) -> dict[str, str]:
    return {"role": "user", "content": content.strip("\n")}


def A(content: str) -> dict[str, str]:
    return {"role": "assistant", "content": content.strip("\n")}


class Sessions(dict[str, tuple[str, list[dict[str, str]]]]):
    """Session id -> (its date, "YYYY-MM-DD HH:MM", its turns), in the order written."""

    def add(self, session_id: str, when: str, *turns: dict[str, str]) -> None:
        self[session_id] = (when, list(turns))


def lme_date(when: str) -> str:
    return datetime.strptime(when, "%Y-%m-%d %H:%M").strftime("%Y/%m/%d (%a) %H:%M")


def marked(sessions: Sessions, session_id: str, phrases: list[str]) -> list[dict]:
    """The session's turns, those holding one of `phrases` marked has_answer (each phrase must be found)."""
    turns = [dict(turn) for turn in sessions[session_id][1]]
    for phrase in phrases:
        hits = [turn for turn in turns if phrase in turn["content"]]
        if not hits:
            raise ValueError(f"{session_id}: no turn holds {phrase!r}")
        hits[0]["has_answer"] = True
    return turns


def haystack(sessions: Sessions, support: dict[str, list[str]], uses: dict[str, int], rng: random.Random,
             others: int) -> list[str]:
    """The supporting sessions and `others` more, the least used so far first, in date order."""
    rest = sorted((sid for sid in sessions if sid not in support), key=lambda sid: (uses[sid], rng.random()))
    chosen = [*support, *rest[:others]]
    for sid in chosen:
        uses[sid] += 1
    return sorted(chosen, key=lambda sid: sessions[sid][0])


def questions(sessions: Sessions, asked: list[Question], *, name: str, seed: int, question_date: str,
              others: int) -> list[dict]:
    """The questions in LongMemEval's format; every session must stand in some haystack."""
    rng = random.Random(seed)
    uses = dict.fromkeys(sessions, 0)
    out = []
    for suffix, kind, question, answer, support in asked:
        ids = haystack(sessions, support, uses, rng, others)
        out.append({
            "question_id": f"{name}-{suffix}",
            "question_type": kind,
            "question": question,
            "answer": answer,
            "question_date": lme_date(question_date),
            "haystack_session_ids": ids,
            "haystack_dates": [lme_date(sessions[sid][0]) for sid in ids],
            "haystack_sessions": [marked(sessions, sid, support.get(sid, [])) for sid in ids],
            "answer_session_ids": [sid for sid in ids if sid in support],
        })
    unused = [sid for sid, count in uses.items() if not count]
    if unused:
        raise ValueError(f"sessions in no haystack: {unused}")
    return out


def write(out: Path, sessions: Sessions, written: list[dict]) -> None:
    out.write_text(json.dumps(written, indent=1, ensure_ascii=False) + "\n")
    turns = sum(len(turns) for _, turns in sessions.values())
    print(f"{out.name}: {len(sessions)} sessions, {turns} turns, {len(written)} questions")
