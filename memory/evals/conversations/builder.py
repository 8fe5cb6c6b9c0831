"""The conversation builder the event scripts write into (see generate.py).

An event adds *blocks* (a few consecutive turns, each optionally tagged with a key) to chosen
sessions, and questions that name their evidence by key. `Builder.render` interleaves the
event blocks of each session with small-talk filler, numbers the turns, and resolves keys to
turn ids, so a question's evidence always points at the turn that states the fact.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta

KINDS = ("single_hop", "multi_hop", "temporal", "open_domain")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


@dataclass(frozen=True)
class Person:
    name: str
    pronoun: str  # "she" / "he" / "they"
    possessive: str  # "her" / "his" / "their"


@dataclass
class Line:
    speaker: Person
    text: str
    key: str = ""


@dataclass
class PendingQuestion:
    kind: str
    question: str
    answer: str
    keys: tuple[str, ...]


@dataclass
class Builder:
    conv_id: str
    a: Person
    b: Person
    dates: list[date]
    rng: random.Random
    blocks: dict[int, list[list[Line]]] = field(default_factory=dict)
    questions: list[PendingQuestion] = field(default_factory=list)
    taken: set[str] = field(default_factory=set)

    @property
    def sessions(self) -> int:
        return len(self.dates)

    def other(self, person: Person) -> Person:
        return self.b if person is self.a else self.a

    def block(self, session: int, lines: list[tuple[Person, str] | tuple[Person, str, str]]) -> None:
        self.blocks.setdefault(session, []).append([Line(*line) for line in lines])

    def ask(self, kind: str, question: str, answer: str, *keys: str) -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown question kind {kind!r}")
        self.questions.append(PendingQuestion(kind, question, answer, keys))

    def pick(self, options: list[str] | tuple[str, ...]) -> str:
        return self.rng.choice(options)

    def unique(self, options: list | tuple) -> object:
        """An option no earlier event of this conversation took (details stay distinct)."""
        free = [o for o in options if repr(o) not in self.taken]
        choice = self.rng.choice(free or list(options))
        self.taken.add(repr(choice))
        return choice

    def stages(self, count: int, *, earliest: int = 0, gap: int = 1) -> list[int]:
        """`count` increasing session indexes, at least `gap` apart."""
        span = self.sessions - earliest - (count - 1) * gap
        picks = sorted(self.rng.sample(range(span), count))
        return [earliest + p + i * gap for i, p in enumerate(picks)]

    def day(self, session: int) -> date:
        return self.dates[session]

    def days_before(self, session: int, days: int) -> date:
        return self.dates[session] - timedelta(days=days)

    def last_weekday(self, session: int, weekday: int) -> date:
        """The most recent `weekday` (0 = Monday) strictly before the session's date."""
        d = self.dates[session] - timedelta(days=1)
        while d.weekday() != weekday:
            d -= timedelta(days=1)
        return d


def month_name(d: date) -> str:
    return d.strftime("%B %Y")


class FillerPool:
    """Small-talk exchanges (speaker 0 / 1, text) drawn without repeats until the pool runs dry."""

    def __init__(self, exchanges: list[list[tuple[int, str]]], rng: random.Random) -> None:
        self.fresh = list(exchanges)
        rng.shuffle(self.fresh)
        self.used: list[list[tuple[int, str]]] = []
        self.rng = rng

    def draw(self, people: tuple[Person, Person]) -> list[Line]:
        exchange = self.fresh.pop() if self.fresh else self.rng.choice(self.used)
        self.used.append(exchange)
        first = self.rng.randrange(2)
        return _lines(exchange, people, first)


def _lines(exchange: list[tuple[int, str]], people: tuple[Person, Person], first: int) -> list[Line]:
    out = []
    for side, text in exchange:
        me, you = people[(first + side) % 2], people[(first + side + 1) % 2]
        out.append(Line(me, text.format(me=me.name, you=you.name)))
    return out


def render(
    builder: Builder, filler: FillerPool, *, opening: list, closing: list
) -> tuple[list[dict[str, object]], dict[str, str]]:
    """Turn records for the conversation, and key -> turn id."""
    rng = builder.rng
    turns: list[dict[str, object]] = []
    key_to_turn: dict[str, str] = {}
    people = (builder.a, builder.b)
    number = 0
    for session in range(builder.sessions):
        starter = rng.randrange(2)
        events = list(builder.blocks.get(session, []))
        rng.shuffle(events)
        units: list[list[Line]] = [_lines(rng.choice(opening), people, starter)]
        # Each event block is followed by one or two small-talk exchanges.
        for event in events:
            units.append(event)
            for _ in range(rng.choice((1, 1, 2))):
                units.append(filler.draw(people))
        while sum(len(u) for u in units) < 30:
            units.insert(rng.randrange(1, len(units) + 1), filler.draw(people))
        units.append(_lines(rng.choice(closing), people, rng.randrange(2)))
        session_id = f"{builder.conv_id}-s{session + 1:02d}"
        for unit in units:
            for line in unit:
                number += 1
                turn_id = f"{builder.conv_id}-t{number:04d}"
                if line.key:
                    if line.key in key_to_turn:
                        raise ValueError(f"evidence key {line.key!r} used twice")
                    key_to_turn[line.key] = turn_id
                turns.append(
                    {
                        "conv": builder.conv_id,
                        "session": session_id,
                        "date": builder.dates[session].isoformat(),
                        "turn": turn_id,
                        "speaker": line.speaker.name,
                        "text": line.text,
                    }
                )
    return turns, key_to_turn
