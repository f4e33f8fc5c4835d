"""Time in recall questions and turns: the calendar periods a question names ("on 19 August, 2023",
"in May 2023", "2023-08", "in May and in August 2023", "before March 2023 or after June"), whether it asks
when or about a change, and whether a turn says when.

Recall favours what was said during any period the question names. Only explicit dates name one: a
relative date ("last week") needs to know when the question is asked about, which recall cannot tell; a
month named alone ("in June") takes the year of a date the same question names, and names nothing
without one. A turn that answers "when" mostly says it in words ("yesterday", "last month", "two years
ago", "on Friday").
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from functools import cache

from sessions_graph_core.values import Value

_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
           "october", "november", "december")
_MONTH_NAME = rf"(?:{'|'.join(_MONTHS)}|sept|{'|'.join(m[:3] for m in _MONTHS)})"
_DAY_NUMBER = r"\d{1,2}"
_ORDINAL = r"(?:st|nd|rd|th)?"
_YEAR_NUMBER = r"(?:19|20)\d\d"
_MONTH = rf"(?P<month>{_MONTH_NAME})\.?"
_DAY = rf"(?P<day>{_DAY_NUMBER}){_ORDINAL}"
_YEAR = rf"(?P<year>{_YEAR_NUMBER})"


# A range's first day or month, which may leave out what its last one says ("between August 11 and
# August 15, 2023", "from 11 to 15 August 2023", "between May and July 2023").
_TO = r" (?:and|to|until|till|through|-|–) (?:the )?"
_FROM = (
    rf"\b(?:between|from)(?: the)?(?: (?P<start_month_before>{_MONTH_NAME})\.?)?"
    rf"(?: (?P<start_day>{_DAY_NUMBER}){_ORDINAL})?(?:(?: of)? (?P<start_month_after>{_MONTH_NAME})\.?)?"
    rf"(?:,? (?P<start_year>{_YEAR_NUMBER}))?{_TO}"
)


@cache
def _patterns() -> tuple[re.Pattern[str], ...]:
    # Compiled on first use: only a question reads dates, and a hook that imports this module for
    # says_when must not compile them at every harness event. A range comes first: its last date alone
    # would name only its last day.
    return tuple(
        re.compile(pattern, re.IGNORECASE)
        for pattern in (
            rf"{_FROM}{_DAY}(?: of)? {_MONTH},? {_YEAR}\b",  # between 11 and 15 August 2023
            rf"{_FROM}{_MONTH} {_DAY},? {_YEAR}\b",  # from August 11 to August 15, 2023
            rf"{_FROM}{_MONTH},? {_YEAR}\b",  # between May and July 2023
            rf"\b(?:between|from) (?P<start_iso>{_YEAR_NUMBER}-\d{{1,2}}-{_DAY_NUMBER}){_TO}"
            rf"{_YEAR}-(?P<month_number>\d{{1,2}})-{_DAY}\b",  # from 2023-08-01 to 2023-08-09
            rf"\b{_MONTH} (?P<start_day>{_DAY_NUMBER}){_ORDINAL} ?[-–] ?{_DAY},? {_YEAR}\b",  # August 11-15, 2023
            rf"\b{_YEAR}-(?P<month_number>\d{{1,2}})-{_DAY}\b",  # 2023-08-19
            rf"\b{_DAY}(?: of)? {_MONTH},? {_YEAR}\b",  # 19 August, 2023
            rf"\b{_MONTH} {_DAY},? {_YEAR}\b",  # August 19, 2023
            rf"\b{_YEAR}-(?P<month_number>\d{{1,2}})\b(?!-)",  # 2023-08
            rf"\b{_MONTH},?(?: of)? {_YEAR}\b",  # August 2023, August of 2023
        )
    )


@cache
def _yearless_patterns() -> tuple[re.Pattern[str], ...]:
    # A day or month named without a year, which takes the year of a date the same question names ("on
    # May 5 and June 9, 2023", "in May and in August 2023"). A month alone counts only after a word that
    # makes it the month and not the verb "may" ("in May", "after June", "during early March").
    return tuple(
        re.compile(pattern, re.IGNORECASE)
        for pattern in (
            rf"\b(?P<when>{_DAY}(?: of)? {_MONTH})(?!,? ?\d)",  # 5 May
            rf"\b(?P<when>{_MONTH} {_DAY})\b(?!,? ?\d)",  # May 5
            rf"\b(?:in|during|before|after|since|until|till|through)(?: (?:early|mid|late)-?)? (?P<when>{_MONTH})"
            r"\b(?! ?\d)",  # in May
        )
    )


# What stretches a period named just after it: "before", "after", "since", "until", counted or not ("the
# week before", "two weeks before", "the Saturday after", "over the weekend before").
_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_STRETCH = re.compile(
    rf"\b(?:(?P<count>\w+) )?(?P<span>days?|weeks?|weekends?|months?|years?|{_WEEKDAY})?\s*"
    r"(?P<side>before|after|since|until|till|prior to)\s+(?:the\s+)?(?:(?:early|mid|late)-?\s*)?$",
    re.IGNORECASE,
)
_SPAN_DAYS = {"day": 1, "week": 7, "weekend": 7, "month": 31, "year": 366}  # a weekday: within the week
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


_ASKS_WHEN = re.compile(r"^\W*(?:when|how long|what (?:year|month|day|date|time))\b", re.IGNORECASE)
_SPAN = r"(?:week|weekend|month|year|night|summer|winter|spring|fall|autumn|" + _WEEKDAY + ")"
_SAYS_WHEN = re.compile(
    rf"\b(?:yesterday|today|tonight|tomorrow|ago|since|(?:last|next|this) {_SPAN}|{_WEEKDAY}s?"
    # May is left out: as a word it is far more often the verb.
    r"|january|february|march|april|june|july|august|september|october|november|december"
    r"|(?:19|20)\d\d|for \w+ (?:years|months|weeks|days))\b",
    re.IGNORECASE,
)


# A question about the present state of something that changes ("where do I live now", "what is my
# current job", "do I still ...", "the latest ..."): the newest statement answers it.
_ASKS_CHANGE = re.compile(
    r"\b(?:now|currently|current|still|anymore|any more|latest|most recent(?:ly)?|these days|nowadays"
    r"|changed?|switched|moved|new)\b",
    re.IGNORECASE,
)


def asks_change(question: str) -> bool:
    """Whether a question asks about the present state of something that may have changed."""
    return _ASKS_CHANGE.search(question) is not None


def asks_when(question: str) -> bool:
    """Whether a question asks when something happened, or for how long."""
    return _ASKS_WHEN.search(question) is not None


def says_when(text: str) -> bool:
    """Whether a text places something in time."""
    return _SAYS_WHEN.search(text) is not None


class Period(Value):
    """Days from `start` up to, not including, `end`; open to the past from `date.min`, to the future up to `date.max`."""

    __slots__ = ("start", "end")

    start: date
    end: date

    def __init__(self, start: date, end: date) -> None:
        self._fill(start, end)


def mentioned_periods(text: str) -> tuple[Period, ...]:
    """Every explicit range, day or month named in `text`, in the order named, each stretched by a "before"
    or "after" just ahead of it; none when it names none. A day or month named without a year takes the
    year of the date named nearest it, and names nothing where the question names no year."""
    named: dict[int, tuple[int, Period]] = {}  # where each was named -> (where it ends, the period)
    for pattern in _patterns():  # a range first: the dates inside it are not periods of their own
        for match in pattern.finditer(text):
            if not _overlaps(named, match.start(), match.end()) and (period := _period(match.groupdict())) is not None:
                named[match.start()] = (match.end(), _from_start(match.groupdict(), period))
    dated = dict(named)
    for pattern in _yearless_patterns() if dated else ():
        for match in pattern.finditer(text):
            start, end = match.span("when")
            year = str(_nearest(dated, start).start.year)
            if not _overlaps(named, start, end) and (period := _period({**match.groupdict(), "year": year})) is not None:
                named[start] = (end, period)
    periods = (_stretched(period, text[:start]) for start, (_, period) in sorted(named.items()))
    return tuple(dict.fromkeys(periods))


def _overlaps(named: dict[int, tuple[int, Period]], start: int, end: int) -> bool:
    return any(other < end and start < other_end for other, (other_end, _) in named.items())


def _nearest(dated: dict[int, tuple[int, Period]], at: int) -> Period:
    """The dated period named nearest `at` ("in May and in August 2023": 2023 is May's year)."""
    return dated[min(dated, key=lambda start: abs(start - at))][1]


def _stretched(period: Period, before: str) -> Period:
    """`period` as the words just `before` it stretch it: "before" reaches back (a counted span, or to
    the beginning), "after" and "since" forward, "until" back. The day counted from stays in: a question
    counted from a day is most often about what was told that day ("the week before 3 August" is what was
    said on 3 August of the week before)."""
    found = _STRETCH.search(before)
    if found is None:
        return period
    side = found["side"].lower()
    span = (found["span"] or "").lower().removesuffix("s")
    days = _SPAN_DAYS.get(span, 7 if span.endswith("day") else 0) * _count(found["count"] or "")
    if side in ("after", "since"):
        return Period(period.start, period.end + timedelta(days=days) if days else date.max)
    return Period(period.start - timedelta(days=days) if days else date.min, period.end)


def _count(word: str) -> int:
    """How many spans a word before one counts ("two weeks", "3 days"); one for any other word ("the week")."""
    return int(word) if word.isdigit() else _COUNTS.get(word.lower(), 1)


def _from_start(parts: dict[str, str | None], last: Period) -> Period:
    """The range from its first day or month (which takes what it leaves out from the last) through `last`;
    `last` alone where the text names no first day or month, or one that is not before it."""
    first = _first(parts, last)
    if first is None or first.start > last.start:
        return last
    return Period(first.start, last.end)


def _first(parts: dict[str, str | None], last: Period) -> Period | None:
    if parts.get("start_iso"):
        year, month, day = parts["start_iso"].split("-")
        return _period({"year": year, "month_number": month, "day": day})
    month = parts.get("start_month_before") or parts.get("start_month_after")
    if not (month or parts.get("start_day")):
        return None
    year = int(parts.get("start_year") or last.start.year)
    first = _period({"month": month or _MONTHS[last.start.month - 1], "day": parts.get("start_day"), "year": str(year)})
    if first is not None and first.start.month > last.start.month and not parts.get("start_year"):
        # "from December 28 to January 3, 2024": the first day is in the year before
        first = _period({"month": month, "day": parts.get("start_day"), "year": str(year - 1)})
    return first


def _period(parts: dict[str, str | None]) -> Period | None:
    month = _month_number(parts)
    if month is None or not 1 <= month <= 12:
        return None
    year = int(parts["year"] or 0)
    if parts.get("day") is None:
        start = date(year, month, 1)
        return Period(start, (start + timedelta(days=31)).replace(day=1))
    try:
        day = date(year, month, int(parts["day"]))
    except ValueError:  # 31 February names no day
        return None
    return Period(day, day + timedelta(days=1))


def _month_number(parts: dict[str, str | None]) -> int | None:
    if parts.get("month_number"):
        return int(parts["month_number"])
    name = (parts.get("month") or "").lower()[:3]
    return next((number for number, month in enumerate(_MONTHS, start=1) if month.startswith(name)), None) if name else None
