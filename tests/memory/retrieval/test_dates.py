"""memory.retrieval.dates: date expressions in a query read as a range of days, relative to a given day."""

from __future__ import annotations

from datetime import date

import pytest

from memory.retrieval.dates import DateRange, date_range, names_year, says_relative

TODAY = date(2026, 5, 20)  # a Wednesday


def days(start: str, end: str) -> DateRange:
    return DateRange(date.fromisoformat(start), date.fromisoformat(end))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("What did Alice buy in February 2026?", days("2026-02-01", "2026-03-01")),
        ("what happened in May", days("2026-05-01", "2026-06-01")),
        ("the trip in June", days("2025-06-01", "2025-07-01")),  # the latest June not after today
        ("on 3 May", days("2026-05-03", "2026-05-04")),
        ("on the 3rd of May 2025", days("2025-05-03", "2025-05-04")),
        ("May 3rd, 2025", days("2025-05-03", "2025-05-04")),
        ("Dec 2025", days("2025-12-01", "2026-01-01")),
        ("notes from 2026-04-13", days("2026-04-13", "2026-04-14")),
        ("the 2026-04 report", days("2026-04-01", "2026-05-01")),
        ("what did we decide last week", days("2026-05-11", "2026-05-18")),
        ("this week", days("2026-05-18", "2026-05-25")),
        ("last weekend", days("2026-05-16", "2026-05-18")),
        ("last month", days("2026-04-01", "2026-05-01")),
        ("LAST YEAR", days("2025-01-01", "2026-01-01")),
        ("anything in 2024?", days("2024-01-01", "2025-01-01")),
        ("yesterday", days("2026-05-19", "2026-05-20")),
        ("last Saturday", days("2026-05-16", "2026-05-17")),
        ("on Wednesday", days("2026-05-13", "2026-05-14")),  # a weekday names the one before today
        ("three weeks ago", days("2026-04-26", "2026-05-03")),
        ("2 days ago", days("2026-05-17", "2026-05-20")),
        ("between 2 March and 10 April", days("2026-03-02", "2026-04-11")),  # the span of both
    ],
)
def test_date_expressions(text: str, expected: DateRange) -> None:
    assert date_range(text, TODAY) == expected


@pytest.mark.parametrize(
    "text",
    ["Where does Marcus work now?", "you may go", "May I ask something?", "", "room 2026"],
)
def test_no_date_is_read_into_plain_text(text: str) -> None:
    assert date_range(text, TODAY) is None


def test_last_month_in_january_is_december_of_the_year_before() -> None:
    assert date_range("last month", date(2026, 1, 9)) == days("2025-12-01", "2026-01-01")


def test_an_impossible_day_falls_back_to_what_can_be_read() -> None:
    assert date_range("on 31 February 2026", TODAY) == days("2026-02-01", "2026-03-01")  # the month
    assert date_range("2026-13-01", TODAY) is None


def test_a_range_contains_its_days_only() -> None:
    may = days("2026-05-01", "2026-06-01")

    assert date(2026, 5, 1) in may
    assert date(2026, 5, 31) in may
    assert date(2026, 6, 1) not in may
    assert "2026-05-02" not in may


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # 10 April 2023 was a Monday: the weekend before it, and the day itself
        ("What did Maria do last weekend before April 10, 2023?", days("2023-04-08", "2023-04-11")),
        ("Tim's writing issue last week, as mentioned on November 6, 2023", days("2023-10-30", "2023-11-07")),
        ("what did she finish yesterday, on 2023-03-02", days("2023-03-01", "2023-03-03")),
        ("in June 2025, about last month", days("2025-05-01", "2025-07-01")),  # the month before June 2025
    ],
)
def test_relative_words_count_from_a_date_that_names_its_year(text: str, expected: DateRange) -> None:
    assert date_range(text, TODAY) == expected


def test_a_date_with_a_year_after_today_leaves_relative_words_to_today() -> None:
    assert date_range("last week, before 2027-01-05", TODAY) == days("2026-05-11", "2027-01-06")


@pytest.mark.parametrize(
    ("text", "year", "relative"),
    [
        ("What did Maria do in December 2023?", True, False),
        ("What happened on December 1,2023?", True, False),
        ("notes from 2026-04-13", True, False),
        ("What did she do last weekend before April 10, 2023?", True, True),
        ("Which spot did Joanna visit in May?", False, False),
        ("What event did John volunteer at last weekend?", False, True),
        ("What did Joanna write yesterday?", False, True),
        ("what did we ship two weeks ago", False, True),
        ("What did Alice cook?", False, False),
    ],
)
def test_names_year_and_says_relative(text: str, year: bool, relative: bool) -> None:
    assert names_year(text) is year
    assert says_relative(text) is relative
