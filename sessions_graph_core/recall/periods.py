"""Time in recall questions and turns: the calendar periods a question names ("on 19 August, 2023",
"in May 2023", "2023-08", "in May and in August 2023", "before March 2023 or after June"), whether it asks
when or about a change, and whether a turn says when.

Recall favours what was said during any period the question names, or talks about it. Only explicit dates
name one in a question, narrowed by the part of a month named before them ("early May 2023", "the last week
of October 2023"): a relative date ("last week") needs to know when the question is asked about, which
recall cannot tell; a month named alone ("in June") takes the year of a date the same question names, and
names nothing without one. A turn mostly places things in time in relative words ("yesterday", "last
month", "two years ago"), which the day it was said grounds (`talked_about`).
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


# A part of the month or day named just after it: "early May", "mid-June", "the end of March", "the first
# half of September", "the last week of October", "the first weekend of July", "the weekend of 14 October".
_NTH = r"(?:first|second|third|fourth|last|final)"
_PART_OF = (
    r"(?:(?P<part>early|mid|late)[- ]?|(?:the )?(?P<edge>beginning|start|middle|end|first half|second half) of "
    rf"|(?:the )?(?P<nth>{_NTH}) (?P<unit>week|weekend) (?:of|in) |(?:the )?(?P<weekend_of>weekend) of (?:the )?)"
)
# Days of the month each part spans, the last one's end counted from the month's end (0: its last day).
_MONTH_PARTS = {"early": (1, 11), "beginning": (1, 11), "start": (1, 11), "mid": (11, 21), "middle": (11, 21),
                "late": (21, 0), "end": (21, 0), "first half": (1, 16), "second half": (16, 0)}
_ORDINALS = {"first": 0, "second": 1, "third": 2, "fourth": 3}
_SATURDAY = 5


@cache
def _yearless_patterns() -> tuple[re.Pattern[str], ...]:
    # A day or month named without a year, which takes the year of a date the same question names ("on
    # May 5 and June 9, 2023", "in May and in August 2023"). A month alone counts only after a word that
    # makes it the month and not the verb "may" ("in May", "after June", "during early March", "mid-June").
    return tuple(
        re.compile(pattern, re.IGNORECASE)
        for pattern in (
            rf"\b(?P<when>{_DAY}(?: of)? {_MONTH})(?!,? ?\d)",  # 5 May
            rf"\b(?P<when>{_MONTH} {_DAY})\b(?!,? ?\d)",  # May 5
            rf"\b(?:in|during|before|after|since|until|till|through) (?:the )?{_PART_OF}?(?P<when>{_MONTH})\b(?! ?\d)",  # in May
            rf"\b{_PART_OF}(?P<when>{_MONTH})\b(?! ?\d)",  # mid-June, the last week of July
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

    def days(self) -> int:
        return (self.end - self.start).days

    def shared_days(self, other: Period) -> int:
        """How many days the two periods share."""
        return max(0, (min(self.end, other.end) - max(self.start, other.start)).days)


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
    periods = (_stretched(*_narrowed(period, text[:start])) for start, (_, period) in sorted(named.items()))
    return tuple(dict.fromkeys(periods))


@cache
def _part_before() -> re.Pattern[str]:
    return re.compile(rf"\b{_PART_OF}$", re.IGNORECASE)


def _narrowed(period: Period, before: str) -> tuple[Period, str]:
    """`period` narrowed to the part of it that the words just `before` it name ("early May 2023", "the last
    week of October 2023", "the weekend of 14 October 2023"), and the words before those; a part of a
    month narrows only a whole month, the weekend of a day only a day."""
    found = _part_before().search(before)
    if found is None:
        return period, before
    whole_month = period.start.day == 1 and period.end == _next_month(period.start)
    one_day = period.end - period.start == timedelta(days=1)
    if found["weekend_of"] and one_day:
        narrowed = _weekend_of(period.start)
    elif whole_month and (found["part"] or found["edge"]):
        first, last = _MONTH_PARTS[(found["part"] or found["edge"]).lower()]
        narrowed = Period(period.start.replace(day=first), period.start.replace(day=last) if last else period.end)
    elif whole_month and found["nth"]:
        narrowed = _nth_of_month(period, found["nth"].lower(), found["unit"].lower())
    else:
        return period, before
    return narrowed, before[:found.start()]


def _nth_of_month(month: Period, nth: str, unit: str) -> Period:
    """The first to fourth, or the last, week (seven days) or weekend (a Saturday and Sunday) of `month`."""
    if unit == "week":
        if nth in _ORDINALS:
            start = month.start + timedelta(days=7 * _ORDINALS[nth])
            return Period(start, start + timedelta(days=7))
        return Period(month.end - timedelta(days=7), month.end)
    first_saturday = month.start + timedelta(days=(_SATURDAY - month.start.weekday()) % 7)
    if nth in _ORDINALS:
        saturday = first_saturday + timedelta(days=7 * _ORDINALS[nth])
    else:
        saturday = first_saturday + timedelta(days=7 * (((month.end - first_saturday).days - 1) // 7))
    return Period(saturday, saturday + timedelta(days=2))


def _weekend_of(day: date) -> Period:
    """The weekend a day belongs to (a weekday's: the one after it), with the day itself."""
    saturday = day - timedelta(days=1) if day.weekday() == 6 else day + timedelta(days=_SATURDAY - day.weekday())
    return Period(min(day, saturday), saturday + timedelta(days=2))


def _next_month(day: date) -> date:
    return (day.replace(day=1) + timedelta(days=31)).replace(day=1)


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
        return Period(start, _next_month(start))
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


# -- the time a turn talks about: relative dates, grounded by the day the turn was said ----------------
_SEASONS = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}  # the month each begins (north)
_FUZZY_COUNTS = {"a": (1, 1), "an": (1, 1), "one": (1, 1), "a couple of": (2, 2), "a couple": (2, 2),
                 "a few": (2, 4), "few": (2, 4), "several": (3, 6)}
_COUNT_WORDS = "|".join(sorted((*_FUZZY_COUNTS, *_COUNTS), key=len, reverse=True))
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# Words without one of which no relative date is read: a text that has none (most) is passed over by a
# substring test, many times faster than the pattern, for recall reads a whole pool of texts per question.
_RELATIVE_WORDS = ("yesterday", "today", "tonight", "tomorrow", " ago", "last ", "this ", "next ", "past ",
                   "other day")


# One alternation over the lowered text, so that a long turn is read once (the pattern is twice as fast
# without IGNORECASE); the longest phrases first ("the day before yesterday" before "yesterday"). "Last"
# and "next" count only before a unit of the calendar: "last time", "the last one" and "next step" name no time.
@cache
def _relative_pattern() -> re.Pattern[str]:
    return re.compile(
        r"\b(?:(?P<before_yesterday>the day before yesterday)|(?P<yesterday>yesterday|last night)"
        r"|(?P<today>today|tonight|this (?:morning|afternoon|evening))|(?P<tomorrow>tomorrow)"
        r"|(?P<other_day>the other day)"
        rf"|(?P<ago_count>\d+|{_COUNT_WORDS}) (?P<ago_unit>day|week|month|year)s? ago"
        r"|(?P<which>last|this past|past|this|next|earlier this)"
        rf" (?P<unit>weekend|week|month|year|{'|'.join(_WEEKDAYS)}|{'|'.join(_SEASONS)})"
        r")\b"
    )


def talked_about(text: str, said_on: date) -> tuple[Period, ...]:
    """The periods a turn said on `said_on` talks about in relative words ("yesterday", "last weekend",
    "last Saturday", "two weeks ago", "last month", "earlier this week", "next year"), each once, in the
    order said; none when it says none. Vague words ("recently", "a while ago") name none."""
    lowered = text.lower()
    if not any(word in lowered for word in _RELATIVE_WORDS):
        return ()
    periods = (_relative(match, said_on) for match in _relative_pattern().finditer(lowered))
    return tuple(dict.fromkeys(period for period in periods if period is not None))


def _relative(match: re.Match[str], day: date) -> Period | None:
    try:
        return _grounded(match, day)
    except (ValueError, OverflowError):  # past the calendar's ends: "last year" in year 1, "99999 years ago"
        return None


def _grounded(match: re.Match[str], day: date) -> Period:
    if match["before_yesterday"]:
        return _days(day, -2)
    if match["yesterday"]:
        return _days(day, -1)
    if match["today"]:
        return _days(day, 0)
    if match["tomorrow"]:
        return _days(day, 1)
    if match["other_day"]:
        return Period(day - timedelta(days=7), day)
    if match["ago_count"]:
        return _ago(match["ago_count"], match["ago_unit"], day)
    which, unit = match["which"], match["unit"]
    step = {"last": -1, "this past": -1, "past": -1, "next": 1}.get(which, 0)  # "this", "earlier this": 0
    if unit in _SEASONS:
        return _season(unit, step, day)
    if unit in _WEEKDAYS:
        return _weekday(_WEEKDAYS.index(unit), step, day)
    if unit == "weekend":
        return _weekend(step, day)
    if which == "past":  # "the past week/month/year": the span up to the day
        return Period(_shifted(day, unit, -1), day + timedelta(days=1))
    return _calendar(unit, step, day)


def _days(day: date, offset: int) -> Period:
    start = day + timedelta(days=offset)
    return Period(start, start + timedelta(days=1))


def _ago(count: str, unit: str, day: date) -> Period:
    """"Two weeks ago": around the day that many units back; "a few days ago": the days it may mean."""
    low, high = (int(count), int(count)) if count.isdigit() else _FUZZY_COUNTS.get(count, (_COUNTS.get(count, 1),) * 2)
    if unit == "day":
        return Period(day - timedelta(days=high), day - timedelta(days=low - 1))
    if unit == "week":  # a week ago is not said to the day: three days either side
        return Period(day - timedelta(days=7 * high + 3), day - timedelta(days=7 * low - 4))
    return Period(_calendar(unit, -high, day).start, _calendar(unit, -low, day).end)


def _calendar(unit: str, step: int, day: date) -> Period:
    """The calendar week (from Monday), month or year `step` away from the one `day` is in."""
    if unit == "week":
        monday = day - timedelta(days=day.weekday()) + timedelta(days=7 * step)
        return Period(monday, monday + timedelta(days=7))
    if unit == "month":
        months = day.year * 12 + day.month - 1 + step
        start = date(months // 12, months % 12 + 1, 1)
        return Period(start, _next_month(start))
    return Period(date(day.year + step, 1, 1), date(day.year + step + 1, 1, 1))


def _shifted(day: date, unit: str, step: int) -> date:
    """`day` moved `step` weeks, months (to the same day, or the month's last) or years."""
    if unit == "week":
        return day + timedelta(days=7 * step)
    month = _calendar("month", step if unit == "month" else 12 * step, day).start
    return month.replace(day=min(day.day, (_next_month(month) - timedelta(days=1)).day))


def _weekday(weekday: int, step: int, day: date) -> Period:
    """"Last Saturday": the latest Saturday before `day`; "next Saturday": the first after it; "this
    Saturday": the one of `day`'s week."""
    if step < 0:
        return _days(day, -((day.weekday() - weekday - 1) % 7 + 1))
    if step > 0:
        return _days(day, (weekday - day.weekday() - 1) % 7 + 1)
    return _days(day, weekday - day.weekday())


def _weekend(step: int, day: date) -> Period:
    """"Last weekend": the last Saturday and Sunday over before `day`; "this weekend": the one `day` is in or
    the next; "next weekend": the next and the one after it (people mean either)."""
    if step < 0:
        saturday = day - timedelta(days=(day.weekday() - _SATURDAY) % 7)  # the latest Saturday up to `day`
        if saturday + timedelta(days=2) > day:  # said during a weekend: that weekend is not over
            saturday -= timedelta(days=7)
        return Period(saturday, saturday + timedelta(days=2))
    upcoming = _weekend_of(day)
    upcoming = Period(upcoming.end - timedelta(days=2), upcoming.end)
    if step == 0:
        return upcoming
    return Period(upcoming.start, upcoming.end + timedelta(days=7))


def _season(name: str, step: int, day: date) -> Period:
    """"Last summer": the latest summer over before `day`; "this summer": the one in `day`'s year (winter:
    the one that began in December of the year before, until December); "next summer": the first to come."""
    first = _SEASONS[name]
    year = day.year - (1 if first == 12 and day.month < 12 else 0)
    start = date(year, first, 1)
    end = _calendar("month", 3, start).start
    if step < 0:
        while end > day:
            start, end = start.replace(year=start.year - 1), end.replace(year=end.year - 1)
    elif step > 0:
        while start <= day:
            start, end = start.replace(year=start.year + 1), end.replace(year=end.year + 1)
    return Period(start, end)
