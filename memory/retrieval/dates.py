"""Dates named in a query, as a range of days: "last week", "in May", "on 3 May", "2026-05-03".

Pure functions over text and a reference day (no database, no clock unless asked): recall uses
the range to boost rows written in it (memory.retrieval.structure), never to filter them out, so a
wrong guess costs ranking, not the answer.

`date_range(text, today)` finds every date expression in the text and returns the smallest
range covering them all (start inclusive, end exclusive), or None. Understood, any case:

  today, yesterday, N days / weeks / months / years ago (a few days around that point)
  this / last / next week, month, year, weekend; last <weekday>
  month names alone ("in May": the latest May not after today), with a day ("3 May", "May 3rd")
  and/or a year ("May 2026", "3 May 2026", "May 3, 2026"), a bare year ("in 2025")
  ISO dates (2026-05-03) and year-months (2026-05)

"May" alone is a modal verb far more often than a month, so it counts only after "in", "of",
"since", "during", "until", "before", "after", "early", "late", "mid", or next to a day or year.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
MAY_CUES = frozenset("in of since during until till before after early late mid by".split())

_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_DAY = r"(?P<{0}>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<{0}>(?:19|20)\d\d)"
_PATTERNS = (
    ("iso_day", re.compile(r"\b(?P<y>(?:19|20)\d\d)-(?P<m>[01]\d)-(?P<d>[0-3]\d)\b")),
    ("iso_month", re.compile(r"\b(?P<y>(?:19|20)\d\d)-(?P<m>[01]\d)\b(?!-)")),
    (
        "day_month",
        re.compile(
            rf"\b{_DAY.format('d')}(?:\s+of)?\s+(?P<mon>{_MONTH})\b\.?(?:,?\s+{_YEAR.format('y')}\b)?"
        ),
    ),
    (
        "month_day",
        # "December 1, 2023" and the same typed without the space after the comma
        re.compile(
            rf"\b(?P<mon>{_MONTH})\.?\s+{_DAY.format('d')}\b(?!\d)(?:(?:,\s*|\s+){_YEAR.format('y')}\b)?"
        ),
    ),
    ("month_year", re.compile(rf"\b(?P<mon>{_MONTH})\.?,?\s+{_YEAR.format('y')}\b")),
    ("month", re.compile(rf"(?:\b(?P<cue>\w+)\s+)?\b(?P<mon>{_MONTH})\b")),
    (
        "ago",
        re.compile(
            r"\b(?P<n>\d+|a|an|one|two|three|four|five|six)\s+(?P<unit>day|week|month|year)s?\s+ago\b"
        ),
    ),
    (
        "relative",
        re.compile(r"\b(?P<which>this|last|past|previous|next)\s+(?P<unit>week|weekend|month|year)\b"),
    ),
    ("last_weekday", re.compile(rf"\b(?:last|on|past)\s+(?P<wd>{'|'.join(WEEKDAYS)})\b")),
    ("named_day", re.compile(r"\b(?P<word>today|yesterday|tonight)\b")),
    ("year", re.compile(r"\b(?:in|during|since|of)\s+(?P<y>(?:19|20)\d\d)\b")),
)
_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


@dataclass(frozen=True)
class DateRange:
    """Days from `start` (inclusive) to `end` (exclusive)."""

    start: date
    end: date

    def __contains__(self, day: object) -> bool:
        return isinstance(day, date) and self.start <= day < self.end

    def cover(self, other: DateRange) -> DateRange:
        return DateRange(min(self.start, other.start), max(self.end, other.end))


def _month_range(year: int, month: int) -> DateRange:
    start = date(year, month, 1)
    end = date(year + 1, 1, 1) if month == 12 else date(year, month + 1, 1)
    return DateRange(start, end)


def _day(year: int, month: int, day: int) -> DateRange | None:
    try:
        start = date(year, month, day)
    except ValueError:
        return None
    return DateRange(start, start + timedelta(days=1))


def _latest_year(month: int, day: int, today: date) -> int:
    """The year of the latest (month, day) not after today."""
    return today.year if (month, day) <= (today.month, today.day) else today.year - 1


def _week_of(day: date) -> DateRange:
    monday = day - timedelta(days=day.weekday())
    return DateRange(monday, monday + timedelta(days=7))


def _relative(which: str, unit: str, today: date) -> DateRange:
    step = {"this": 0, "next": 1}.get(which, -1)
    if unit in ("week", "weekend"):
        week = _week_of(today + timedelta(days=7 * step))
        if unit == "weekend":
            return DateRange(week.start + timedelta(days=5), week.end)
        return week
    if unit == "month":
        month_index = today.year * 12 + today.month - 1 + step
        return _month_range(month_index // 12, month_index % 12 + 1)
    return DateRange(date(today.year + step, 1, 1), date(today.year + step + 1, 1, 1))


def _ago(count: int, unit: str, today: date) -> DateRange:
    """Around the point `count` units back: +-1 day for days, +-half a unit beyond that."""
    days = count * UNIT_DAYS[unit]
    slack = 1 if unit == "day" else UNIT_DAYS[unit] // 2
    point = today - timedelta(days=days)
    return DateRange(
        point - timedelta(days=slack), min(point + timedelta(days=slack + 1), today + timedelta(days=1))
    )


def _match_range(kind: str, m: re.Match[str], today: date) -> DateRange | None:
    g = m.groupdict()
    if kind in ("iso_day", "iso_month"):
        month = int(g["m"])
        if not 1 <= month <= 12:
            return None
        return (
            _day(int(g["y"]), month, int(g["d"])) if kind == "iso_day" else _month_range(int(g["y"]), month)
        )
    if kind in ("day_month", "month_day"):
        month, day = MONTHS[g["mon"]], int(g["d"])
        year = int(g["y"]) if g.get("y") else _latest_year(month, day, today)
        return _day(year, month, day)
    if kind == "month_year":
        return _month_range(int(g["y"]), MONTHS[g["mon"]])
    if kind == "month":
        if g["mon"] == "may" and (g.get("cue") or "") not in MAY_CUES:
            return None
        month = MONTHS[g["mon"]]
        return _month_range(_latest_year(month, 1, today), month)
    if kind == "ago":
        count = _NUMBER_WORDS.get(g["n"]) or int(g["n"])
        return _ago(count, g["unit"], today)
    if kind == "relative":
        return _relative(g["which"], g["unit"], today)
    if kind == "last_weekday":
        back = (today.weekday() - WEEKDAYS.index(g["wd"])) % 7 or 7
        start = today - timedelta(days=back)
        return DateRange(start, start + timedelta(days=1))
    if kind == "named_day":
        start = today - timedelta(days=1 if g["word"] == "yesterday" else 0)
        return DateRange(start, start + timedelta(days=1))
    year = int(g["y"])
    return DateRange(date(year, 1, 1), date(year + 1, 1, 1))


RELATIVE_KINDS = frozenset({"ago", "relative", "last_weekday", "named_day"})


def _scan(
    lowered: str, today: date, kinds: set[str] | None = None
) -> tuple[DateRange | None, DateRange | None]:
    """(the range covering every expression, the range covering those that name a year); the
    kinds of expression read are added to `kinds` if given."""
    taken: list[tuple[int, int]] = []
    found: DateRange | None = None
    absolute: DateRange | None = None
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(lowered):
            span = m.span("mon") if kind == "month" else m.span()
            if any(span[0] < end and start < span[1] for start, end in taken):
                continue  # already read as part of a longer form ("3 May 2026" is not also "May")
            found_here = _match_range(kind, m, today)
            if found_here is None:
                continue
            taken.append(span)
            if kinds is not None:
                kinds.add(kind)
            found = found_here if found is None else found.cover(found_here)
            if m.groupdict().get("y"):
                absolute = found_here if absolute is None else absolute.cover(found_here)
    return found, absolute


_ANY_DAY = date(2000, 1, 1)  # names_year: which day only moves ranges, not whether one names a year


def names_year(text: str) -> bool:
    """Whether a date expression in `text` names its year ("May 2023", "2023-05-03", "in 2023"):
    the only kind whose range does not depend on the reader's "now"."""
    return _scan((text or "").lower(), _ANY_DAY)[1] is not None


def says_relative(text: str) -> bool:
    """Whether `text` counts days back from "now" ("last week", "two days ago", "yesterday")."""
    kinds: set[str] = set()
    _scan((text or "").lower(), _ANY_DAY, kinds)
    return bool(kinds & RELATIVE_KINDS)


def date_range(text: str, today: date) -> DateRange | None:
    """The smallest range covering every date expression in `text` (see module doc), or None.

    Beside a date that names its year, relative words count from that date, not from today:
    "last weekend before April 10, 2023" is the weekend before it (the row telling of it was
    written then), where counting from today stretched the range over three years."""
    lowered = (text or "").lower()
    found, absolute = _scan(lowered, today)
    if absolute is None or found == absolute:
        return found
    anchor = absolute.end - timedelta(days=1)
    return _scan(lowered, min(anchor, today))[0]
