"""Recall's settings: which lanes run, how wide each is, and how many tokens the rows may take.

This one model is both the `[recall]` section of the config file (config/model.py holds it as
such) and what `recall()` takes. A profile names a whole set of widths: `default` is the one
measured on LoCoMo's tuning half (benchmarks/bench_recall_quality.py); `upstream` keeps the
widths of the upstream project's benchmarked setup, with no token budget. A width set beside a
profile wins over the profile's.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic import ValidationError as PydanticError

from sessions_graph_core.validation import ValidationError

LANES = ("memories", "turns", "text", "entities", "facts", "user_facts")
VECTOR_LANES = ("memories", "turns", "entities", "facts", "user_facts")

_WIDTH = {"ge": 0, "le": 1000, "description": "an integer from 0 to 1000"}

# Every width of a profile; the `default` values are the fields' own defaults below.
PROFILES: dict[str, dict[str, int]] = {
    "default": {},
    "upstream": {
        "memories_k": 5, "turns_k": 8, "text_k": 8, "entities_k": 15, "edges_per_entity": 6, "facts_k": 15,
        "fact_turns_k": 8, "user_fact_types": 2, "user_facts_k": 30, "turn_chars": 1500, "budget_tokens": 0,
        "expansion_words": 0,
    },
}


class RecallConfig(BaseModel):
    """Which lanes run, how wide each one is, and the token budget of the rows."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    embedding_model: str | None = Field(
        None, description="a locally available embedding model, or mage:<model> to embed inside Memgraph with MAGE"
    )
    profile: Literal["default", "upstream"] = Field("default", description="default or upstream")
    lanes: list[str] = Field(list(LANES), description=f"a comma-separated subset of {', '.join(LANES)}")
    budget_tokens: int = Field(
        2000, ge=0, le=1_000_000, description="an integer from 0 (no budget) to 1000000"
    )
    memories_k: int = Field(5, **_WIDTH)
    turns_k: int = Field(20, **_WIDTH)
    text_k: int = Field(20, **_WIDTH)
    entities_k: int = Field(15, **_WIDTH)
    edges_per_entity: int = Field(6, **_WIDTH)
    facts_k: int = Field(15, **_WIDTH)
    fact_turns_k: int = Field(20, **_WIDTH)
    user_fact_types: int = Field(2, **_WIDTH)
    user_facts_k: int = Field(30, **_WIDTH)
    # Query expansion (recall/expansion.py): each question word's nearest words that the user's turns hold
    # join the full-text query, this many at most (0: none). Chosen on LoCoMo's tuning half.
    expansion_words: int = Field(6, **_WIDTH)
    # One passage (embeddings/passages.py): a long turn's row shows its best matching passage, so a budget
    # holds rows from many sessions. Chosen on the long-session set (docs/recall-long-turns.md); LoCoMo's
    # turns are all shorter, so it changes nothing there.
    turn_chars: int = Field(500, ge=1, le=100_000, description="an integer from 1 to 100000")

    def model_post_init(self, context: Any) -> None:
        # The profile's widths under those set beside it; they stay unset, so a config file that
        # names a profile is written back with the profile alone.
        for key, value in PROFILES[self.profile].items():
            if key not in self.model_fields_set:
                object.__setattr__(self, key, value)

    @field_validator("lanes", mode="before")
    @classmethod
    def _lanes(cls, value: Any) -> list[str]:
        items = [part.strip() for part in value.split(",")] if isinstance(value, str) else list(value)
        items = [item for item in items if item]
        unknown = [item for item in items if item not in LANES]
        if unknown:
            raise ValueError(f"unknown recall lanes {unknown}; choose from {', '.join(LANES)}")
        return list(dict.fromkeys(items))

    @classmethod
    def named(cls, profile: str, **widths: Any) -> RecallConfig:
        """The config of a named profile, with `widths` laid over it; a clear error for a bad one."""
        try:
            return cls(profile=profile, **widths)
        except PydanticError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "recall"
            raise ValidationError(f"recall {where}: {first['msg'].removeprefix('Value error, ')}") from None

    def model(self) -> str:
        """The embedding model: the one set here, else the one that ships with the package."""
        from sessions_graph_core.embeddings.models import (
            DEFAULT_EMBEDDING_MODEL,  # numpy comes with it: only for those who embed
        )

        return self.embedding_model or DEFAULT_EMBEDDING_MODEL

    def runs(self, lane: str, width: int | None = None) -> bool:
        """Whether `lane` is on and, given its width, asked for anything."""
        return lane in self.lanes and (width is None or width > 0)

    def message_width(self) -> int:
        """How many turns the two message lanes rank together."""
        return (self.turns_k if "turns" in self.lanes else 0) + (self.text_k if "text" in self.lanes else 0)
