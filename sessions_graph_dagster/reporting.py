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
