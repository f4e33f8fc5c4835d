"""LongMemEval's JSON as one user's sessions (`sessions-graph session import --format longmemeval`).

A LongMemEval file is a list of questions (or one question object); each carries the haystack
of chat sessions it is asked over:

    {"question_id": "q1", "question": "...", "answer": "...", "question_date": "2023/05/30 (Tue) 23:40",
     "haystack_session_ids": ["s1", "s2"],
     "haystack_dates": ["2023/05/20 (Sat) 02:21", "2023/05/25 (Thu) 10:02"],
     "haystack_sessions": [[{"role": "user", "content": "...", "has_answer": true}, ...], [...]]}

Every haystack session becomes one session, started at its date, its messages a minute apart
(the format gives one time per session). A session that several questions share is read once.
The whole file is checked before anything is returned, so a bad file imports nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, field_validator, model_validator
from pydantic import ValidationError as PydanticError

from sessions_graph_core import validation
from sessions_graph_core.inputs import parse_json, read_bytes
from sessions_graph_core.sessions.records import TurnIn
from sessions_graph_core.validation import ValidationError, describe

DATE_FORMAT = "%Y/%m/%d (%a) %H:%M"
TURN_GAP = timedelta(minutes=1)
MAX_FILE_BYTES = 4 * 1024**3  # the benchmark's largest file, longmemeval_m, is about 2.7 GB


class Message(BaseModel):
    model_config = ConfigDict(extra="ignore")  # has_answer and other labels are the benchmark's, not history

    role: Literal["user", "assistant"]
    content: str


class Question(BaseModel):
    model_config = ConfigDict(extra="ignore")

    question_id: str | None = None
    haystack_session_ids: list[str]
    haystack_dates: list[datetime]
    haystack_sessions: list[list[Message]]

    @field_validator("haystack_dates", mode="before")
    @classmethod
    def _dates(cls, values: object) -> object:
        if not isinstance(values, list):
            return values
        return [parse_date(value) if isinstance(value, str) else value for value in values]

    @model_validator(mode="after")
    def _same_length(self) -> Question:
        sizes = {len(self.haystack_session_ids), len(self.haystack_dates), len(self.haystack_sessions)}
        if len(sizes) != 1:
            raise ValueError("haystack_session_ids, haystack_dates and haystack_sessions must have the same length")
        return self


def parse_date(value: str) -> datetime:
    """A LongMemEval date such as `2023/05/20 (Sat) 02:21`, as UTC (the format names no zone)."""
    try:
        return datetime.strptime(value.strip(), DATE_FORMAT).replace(tzinfo=UTC)
    except ValueError:
        raise ValueError(f"date {value!r} is not like '2023/05/20 (Sat) 02:21'") from None


@dataclass(frozen=True)
class HaystackSession:
    session_id: str
    started_at: datetime
    turns: list[TurnIn]


def read_longmemeval(path: Path) -> list[HaystackSession]:
    """Every distinct haystack session of the file, oldest first."""
    data = parse_json(read_bytes(path, what="LongMemEval file", max_bytes=MAX_FILE_BYTES), what=f"LongMemEval file {path}")
    items = data if isinstance(data, list) else [data]
    sessions: dict[str, HaystackSession] = {}
    for number, item in enumerate(items):
        try:
            question = Question.model_validate(item)
        except PydanticError as exc:
            raise ValidationError(f"{path}: question {number}: {describe(exc)}") from None
        for session_id, start, messages in zip(
            question.haystack_session_ids, question.haystack_dates, question.haystack_sessions, strict=True
        ):
            try:
                session_id = validation.session_id(session_id)
                if session_id in sessions:
                    continue
                turns = [TurnIn(role=message.role, text=message.content, timestamp=start + position * TURN_GAP)
                         for position, message in enumerate(messages)]
            except ValueError as exc:
                raise ValidationError(f"{path}: question {number}, session {session_id!r}: {describe(exc)}") from None
            sessions[session_id] = HaystackSession(session_id, start, turns)
    return sorted(sessions.values(), key=lambda session: (session.started_at, session.session_id))
