"""Metadata a person reads at a glance: small markdown tables."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import dagster as dg

MAX_ROWS = 25


def _cell(value: Any) -> str:
    text = "" if value is None else str(value)
    return text.replace("|", "\\|").replace("\n", " ")[:160]


def table(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> dg.MetadataValue:
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(_cell(value) for value in row) + " |" for row in rows[:MAX_ROWS]]
    if len(rows) > MAX_ROWS:
        lines.append(f"\n… and {len(rows) - MAX_ROWS} more")
    return dg.MetadataValue.md("\n".join(lines))


def error_kind(error: str | None) -> str:
    """An error as its exception's name alone: its message may quote the text it failed on, and Dagster's
    records carry ids and counts, never text (the graph keeps the whole error, which a forget removes)."""
    return (error or "").split(":", 1)[0]


BAR_WIDTH = 30


def bar_chart(columns: tuple[str, str], rows: Sequence[tuple[str, int | float]]) -> dg.MetadataValue:
    """A markdown table with a bar per row, scaled to the largest value, which the UI renders as it is."""
    largest = max((value for _, value in rows), default=0) or 1
    lines = [f"| {columns[0]} | {columns[1]} | |", "|---|---:|---|"]
    for label, value in rows[-MAX_ROWS:]:
        bar = "█" * round(BAR_WIDTH * value / largest) if value else "·"
        lines.append(f"| {_cell(label)} | {value} | {bar} |")
    return dg.MetadataValue.md("\n".join(lines))
