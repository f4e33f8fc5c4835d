"""Timestamps as ISO-8601 UTC strings, the one form every backend compares correctly."""

from __future__ import annotations

from datetime import UTC, datetime

from sessions_graph_core.validation import ValidationError


def format_utc(moment: datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def now_iso() -> str:
    return format_utc(datetime.now(UTC))


def to_iso(value: datetime | str | None) -> str:
    """Normalise a caller's timestamp; a naive one is taken as UTC, None means now."""
    if value is None:
        return now_iso()
    if isinstance(value, datetime):
        return format_utc(value)
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except (AttributeError, ValueError):
        raise ValidationError(f"Invalid timestamp {value!r}: use ISO-8601, e.g. 2026-03-02T09:00:00Z") from None
    return format_utc(parsed)
