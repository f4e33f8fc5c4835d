"""The calendar periods a recall question names."""

from __future__ import annotations

from datetime import date

import pytest

from sessions_graph_core.recall.periods import Period, asks_when, mentioned_periods, says_when, talked_about


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("What did Sam share on 19 August, 2023?", date(2023, 8, 19), date(2023, 8, 20)),
        ("Who came to dinner on May 3, 2023?", date(2023, 5, 3), date(2023, 5, 4)),
        ("What happened on the 3rd of March 2024?", date(2024, 3, 3), date(2024, 3, 4)),
        ("Anything on Aug. 5, 2021?", date(2021, 8, 5), date(2021, 8, 6)),
        ("Which deploy failed on 2026-02-28?", date(2026, 2, 28), date(2026, 3, 1)),
        ("Where did James travel in July 2022?", date(2022, 7, 1), date(2022, 8, 1)),
        ("What changed in Sept 2023?", date(2023, 9, 1), date(2023, 10, 1)),
        ("What shipped in December, 2025?", date(2025, 12, 1), date(2026, 1, 1)),
        ("What was planned for 2025-11?", date(2025, 11, 1), date(2025, 12, 1)),
        ("Where did we go in August of 2023?", date(2023, 8, 1), date(2023, 9, 1)),
    ],
)
def test_explicit_days_and_months_are_read(question, start, end):
    assert mentioned_periods(question) == (Period(start, end),)


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("What did Sam do between August 11 and August 15 2023?", date(2023, 8, 11), date(2023, 8, 16)),
        ("What happened between 11 and 15 August 2023?", date(2023, 8, 11), date(2023, 8, 16)),
        ("Any outage from August 11, 2023 to August 15, 2023?", date(2023, 8, 11), date(2023, 8, 16)),
        ("What did I cook between the 3rd and the 9th of May 2023?", date(2023, 5, 3), date(2023, 5, 10)),
        ("Where was I on August 11-15, 2023?", date(2023, 8, 11), date(2023, 8, 16)),
        ("Who visited between May and July 2023?", date(2023, 5, 1), date(2023, 8, 1)),
        ("What shipped from May 2022 to June 2023?", date(2022, 5, 1), date(2023, 7, 1)),
        ("What broke from December 28 to January 3, 2024?", date(2023, 12, 28), date(2024, 1, 4)),
        ("Which deploys failed between 2023-08-01 and 2023-08-09?", date(2023, 8, 1), date(2023, 8, 10)),
    ],
)
def test_a_range_names_every_day_from_its_first_through_its_last(question, start, end):
    assert mentioned_periods(question) == (Period(start, end),)


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("What happened from 15 to 11 August 2023?", date(2023, 8, 11), date(2023, 8, 12)),  # backwards: the last day
        ("What did I learn from work in August 2023?", date(2023, 8, 1), date(2023, 9, 1)),  # no range
    ],
)
def test_what_is_no_range_names_the_last_date_alone(question, start, end):
    assert mentioned_periods(question) == (Period(start, end),)


@pytest.mark.parametrize(
    "question",
    [
        "What did we decide last week?",  # relative: recall cannot tell when the question is asked about
        "May I see the notes from 2023?",  # "May" without a day is the verb, and a year alone is too wide
        "Which cache did we pick?",
        "Ticket 2023-13 is still open",  # no thirteenth month
        "When did Melanie go camping in June?",  # a month alone, and no year in the question to give it one
        "What did we eat on May 5?",
    ],
)
def test_questions_without_an_explicit_day_or_month_name_none(question):
    assert mentioned_periods(question) == ()


@pytest.mark.parametrize(
    ("question", "periods"),
    [
        ("What did I do in May and in August 2023?",  # a month alone takes the year of the date beside it
         [(date(2023, 5, 1), date(2023, 6, 1)), (date(2023, 8, 1), date(2023, 9, 1))]),
        ("Who visited on 3 May 2023 or on 9 June 2024?",
         [(date(2023, 5, 3), date(2023, 5, 4)), (date(2024, 6, 9), date(2024, 6, 10))]),
        ("What broke between May and July 2023, and in December 2024?",
         [(date(2023, 5, 1), date(2023, 8, 1)), (date(2024, 12, 1), date(2025, 1, 1))]),
        ("Who came in 2023-08 and again during early March?",  # the year of the nearest date
         [(date(2023, 8, 1), date(2023, 9, 1)), (date(2023, 3, 1), date(2023, 3, 11))]),
        ("What did we plan on 3 May 2023 for mid-June?",  # a part of a month with no word before it
         [(date(2023, 5, 3), date(2023, 5, 4)), (date(2023, 6, 11), date(2023, 6, 21))]),
        ("What did I say on 5 May 2023 and again on May 5, 2023?", [(date(2023, 5, 5), date(2023, 5, 6))]),
        ("What did I cook on May 5 and on 9th of June, 2023?",  # days without a year, too
         [(date(2023, 5, 5), date(2023, 5, 6)), (date(2023, 6, 9), date(2023, 6, 10))]),
    ],
)
def test_every_period_a_question_names_is_read_in_order(question, periods):
    assert mentioned_periods(question) == tuple(Period(start, end) for start, end in periods)


@pytest.mark.parametrize(
    ("question", "periods"),
    [
        ("What did I do before March 2023 or after June?",  # open to the past and to the future
         [(date.min, date(2023, 4, 1)), (date(2023, 6, 1), date.max)]),
        ("What changed since 4 May 2023?", [(date(2023, 5, 4), date.max)]),
        ("What did we ship until August 2023?", [(date.min, date(2023, 9, 1))]),
        # "By" is left alone: "how many has Nate won by July 10" is answered by the count told on July 10.
        ("How many tournaments has Nate won by July 10, 2022?", [(date(2022, 7, 10), date(2022, 7, 11))]),
        # A counted span reaches that far, and keeps the day it counts from.
        ("What did John do the week before August 3, 2023?", [(date(2023, 7, 27), date(2023, 8, 4))]),
        ("Which puppy did Maria get two weeks before August 11, 2023?", [(date(2023, 7, 28), date(2023, 8, 12))]),
        ("What did they plan on the Saturday after October 28, 2023?", [(date(2023, 10, 28), date(2023, 11, 5))]),
        ("What did Audrey do over the weekend before 4th October, 2023?", [(date(2023, 9, 27), date(2023, 10, 5))]),
        ("What happened 3 days after 2023-08-19?", [(date(2023, 8, 19), date(2023, 8, 23))]),
        # Words between "after" and the date: the date names its own day only.
        ("When did John meet his team after his trip in August 2023?", [(date(2023, 8, 1), date(2023, 9, 1))]),
    ],
)
def test_before_after_since_and_until_stretch_the_period_they_precede(question, periods):
    assert mentioned_periods(question) == tuple(Period(start, end) for start, end in periods)


def test_an_impossible_day_falls_back_to_its_month():
    assert mentioned_periods("on 31 February 2023") == (Period(date(2023, 2, 1), date(2023, 3, 1)),)


@pytest.mark.parametrize(
    ("question", "expected"),
    [("When did Caroline move?", True), ("How long has Nate had turtles?", True), ("What year was it?", True),
     ("  when was the deploy", True), ("Who owns the orders service?", False), ("What happened when we met?", False)],
)
def test_questions_that_ask_when(question, expected):
    assert asks_when(question) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("I went yesterday.", True), ("Last week the deploy failed.", True), ("See you on Friday!", True),
     ("Two years ago I moved.", True), ("Back in 2019.", True), ("I've had them for three years now.", True),
     ("Next summer we hike.", True), ("I may go.", False), ("The cache is Redis.", False)],
)
def test_turns_that_say_when(text, expected):
    assert says_when(text) is expected


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("What did Maria do in the last week of October 2023?", date(2023, 10, 25), date(2023, 11, 1)),
        ("What did I plant in early May 2023?", date(2023, 5, 1), date(2023, 5, 11)),
        ("Where was John in mid-June 2023?", date(2023, 6, 11), date(2023, 6, 21)),
        ("Which tournament did Nate win in the beginning of November 2022?", date(2022, 11, 1), date(2022, 11, 11)),
        ("What happened at the end of March 2024?", date(2024, 3, 21), date(2024, 4, 1)),
        ("Was the first half of September 2022 good?", date(2022, 9, 1), date(2022, 9, 16)),
        ("Who visited in the second week of July 2023?", date(2023, 7, 8), date(2023, 7, 15)),
        ("Where did we go the first weekend of July 2023?", date(2023, 7, 1), date(2023, 7, 3)),  # 1 July: a Saturday
        ("Where did we go the last weekend of September 2023?", date(2023, 9, 30), date(2023, 10, 2)),
        ("What did Audrey do the weekend of 14 October 2023?", date(2023, 10, 14), date(2023, 10, 16)),
        ("What did we do the weekend of October 11, 2023?", date(2023, 10, 11), date(2023, 10, 16)),  # a Wednesday
        # "Before" still stretches what the part leaves: up to the end of early May.
        ("What did I buy before early May 2023?", date.min, date(2023, 5, 11)),
        # A part of a month does not narrow a day: "the end of" a day is that day.
        ("What happened at the end of 3 May 2023?", date(2023, 5, 3), date(2023, 5, 4)),
    ],
)
def test_a_part_of_a_month_names_those_days(question, start, end):
    assert mentioned_periods(question) == (Period(start, end),)


def test_the_last_weekend_before_a_day_reaches_back_to_it():
    # 10 April 2023 is a Monday: a week back holds the weekend of 8-9 April.
    assert mentioned_periods("What did I do the last weekend before April 10, 2023?") == (
        Period(date(2023, 4, 3), date(2023, 4, 11)),)


FRIDAY = date(2024, 1, 5)


@pytest.mark.parametrize(
    ("text", "said_on", "start", "end"),
    [
        ("I went there yesterday.", FRIDAY, date(2024, 1, 4), date(2024, 1, 5)),
        ("Last night we ate out.", FRIDAY, date(2024, 1, 4), date(2024, 1, 5)),
        ("This morning I ran 5k.", FRIDAY, FRIDAY, date(2024, 1, 6)),
        ("We fly out tomorrow.", FRIDAY, date(2024, 1, 6), date(2024, 1, 7)),
        ("The day before yesterday it snowed.", FRIDAY, date(2024, 1, 3), date(2024, 1, 4)),
        ("Last weekend we hiked.", FRIDAY, date(2023, 12, 30), date(2024, 1, 1)),
        ("Last weekend we hiked.", date(2024, 1, 7), date(2023, 12, 30), date(2024, 1, 1)),  # said on a Sunday
        ("Last weekend we hiked.", date(2024, 1, 8), date(2024, 1, 6), date(2024, 1, 8)),  # said on a Monday
        ("This weekend we hike.", FRIDAY, date(2024, 1, 6), date(2024, 1, 8)),
        ("Last Saturday I painted.", FRIDAY, date(2023, 12, 30), date(2023, 12, 31)),
        ("Last Friday I painted.", FRIDAY, date(2023, 12, 29), date(2023, 12, 30)),  # a week back, not today
        ("Next Monday it starts.", FRIDAY, date(2024, 1, 8), date(2024, 1, 9)),
        ("Last week was hectic.", FRIDAY, date(2023, 12, 25), date(2024, 1, 1)),
        ("Earlier this week I called her.", FRIDAY, date(2024, 1, 1), date(2024, 1, 8)),
        ("Last month I donated coats to the shelter.", FRIDAY, date(2023, 12, 1), date(2024, 1, 1)),  # across a year
        ("Last month I donated coats.", date(2023, 3, 31), date(2023, 2, 1), date(2023, 3, 1)),
        ("Next month I start.", date(2023, 12, 20), date(2024, 1, 1), date(2024, 2, 1)),
        ("Last year I moved.", FRIDAY, date(2023, 1, 1), date(2024, 1, 1)),
        ("3 days ago I fell.", FRIDAY, date(2024, 1, 2), date(2024, 1, 3)),
        ("A few days ago I fell.", FRIDAY, date(2024, 1, 1), date(2024, 1, 4)),
        ("Two weeks ago I adopted a puppy.", FRIDAY, date(2023, 12, 19), date(2023, 12, 26)),
        ("A week ago I adopted a puppy.", FRIDAY, date(2023, 12, 26), date(2024, 1, 2)),
        ("Two months ago I quit.", FRIDAY, date(2023, 11, 1), date(2023, 12, 1)),
        ("A couple of years ago I quit.", FRIDAY, date(2022, 1, 1), date(2023, 1, 1)),
        ("Last summer we went to Spain.", FRIDAY, date(2023, 6, 1), date(2023, 9, 1)),
        ("Last summer we went to Spain.", date(2023, 7, 15), date(2022, 6, 1), date(2022, 9, 1)),  # this one is not over
        ("The other day I met Sam.", FRIDAY, date(2023, 12, 29), FRIDAY),
    ],
)
def test_a_turn_talks_about_the_period_its_relative_words_name_from_its_day(text, said_on, start, end):
    assert talked_about(text, said_on) == (Period(start, end),)


@pytest.mark.parametrize(
    "text",
    [
        "Last time we met you were ill.", "The last one was better.", "I may go to the shelter.",
        "At last the deploy went through.", "Next step: write the tests.", "It lasts a week.",
        "We meet every week.", "A while ago I moved.", "Recently I started running.", "For two weeks I ran.",
        "May was lovely.",  # a month with no year names nothing a day could ground for sure
    ],
)
def test_words_that_are_not_relative_dates_name_no_period(text):
    assert talked_about(text, FRIDAY) == ()


def test_every_period_a_turn_talks_about_is_read_once_in_order():
    assert talked_about("Yesterday I ran, last month I swam, and yesterday again.", FRIDAY) == (
        Period(date(2024, 1, 4), FRIDAY), Period(date(2023, 12, 1), date(2024, 1, 1)))


def test_a_period_past_the_calendars_ends_is_left_out():
    assert talked_about("Last year, and 99999999 years ago.", date(1, 3, 1)) == ()
    assert talked_about("Next year and tomorrow.", date.max) == ()
