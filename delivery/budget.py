"""Fitting the per-turn projection into its budget, and what was shed. Pure: no Django, no DB.

The projection is a list of parts in display order; each part is whole lines (items). Parts
inside the envelope render as one block wrapped by the envelope's header and footer; the rest
render as their own blocks. Blocks are separated by one blank line.

Over the ceiling, parts shed lowest priority first (the highest `priority` number), one item
per step, re-measuring after every step: a DROP part loses whole items, a REDUCE part swaps an
item for its short form (its identity floor), a NEVER part is delivered whole whatever it
costs. Nothing is ever cut inside a line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

MIN_CEILING_CHARS = 16_000
CHARS_PER_TOKEN = 4
BLOCK_SEPARATOR = "\n\n"


def approx_tokens(chars: int) -> int:
    """The runtime's token heuristic: chars // 4."""
    return chars // CHARS_PER_TOKEN


def ceiling_chars(*, window_tokens: int, budget_pct: float) -> int | None:
    """budget_pct % of the window in chars, never below 16,000; None (unbounded) if either is 0."""
    if budget_pct <= 0 or window_tokens <= 0:
        return None
    return max(MIN_CEILING_CHARS, int(window_tokens * budget_pct / 100 * CHARS_PER_TOKEN))


class Shed(StrEnum):
    NEVER = "never"
    DROP = "drop"
    REDUCE = "reduce"


class Item(NamedTuple):
    """One whole line (or block of lines) of a part; `short` is its identity floor (REDUCE parts)."""

    key: str | int
    text: str
    short: str | None = None


@dataclass(frozen=True)
class Part:
    """A section of the projection. `priority`: 1 is kept longest; the highest number sheds first.

    `shed_sequence` lists item indexes in the order they give way (default: from the end); a
    callable is only called if the part actually has to shed (it may be costly to rank).
    `render`, when set, renders the part itself from the kept item indexes ("" for none).
    """

    key: str
    label: str
    items: tuple[Item, ...]
    priority: int
    shed: Shed = Shed.DROP
    header: str = ""
    footer: str = ""
    in_envelope: bool = False
    shed_sequence: Sequence[int] | Callable[[], Sequence[int]] | None = None
    render: Callable[[Sequence[int]], str] | None = None


@dataclass(frozen=True)
class Envelope:
    header: str
    footer: str


@dataclass(frozen=True)
class PartResult:
    key: str
    label: str
    text: str
    kept_keys: tuple[str | int, ...]
    reduced_keys: tuple[str | int, ...]
    dropped_keys: tuple[str | int, ...]
    items_dropped: int
    chars_dropped: int

    @property
    def truncated(self) -> bool:
        return self.items_dropped > 0

    @property
    def chars(self) -> int:
        return len(self.text)


@dataclass(frozen=True)
class Overflow:
    key: str
    label: str
    items_dropped: int
    chars_dropped: int


@dataclass(frozen=True)
class FitResult:
    text: str
    parts: tuple[PartResult, ...]
    ceiling: int | None
    chars_used: int
    over_budget: bool
    overflow: tuple[Overflow, ...] = field(default=())
    standing_chars: int = 0

    def part(self, key: str) -> PartResult | None:
        return next((p for p in self.parts if p.key == key), None)


class _State:
    """One part while fitting: which items are alive and in which form, and its rendered size."""

    def __init__(self, part: Part) -> None:
        self.part = part
        self.lines: list[str] = [item.text for item in part.items]
        self.alive: list[bool] = [True] * len(part.items)
        self.reduced: list[bool] = [False] * len(part.items)
        self.line_chars = sum(len(line) for line in self.lines)
        self.alive_count = len(self.lines)
        self.items_dropped = 0
        self.chars_dropped = 0
        self.size = self._measure()

    def kept_lines(self) -> list[str]:
        return [line for line, alive in zip(self.lines, self.alive, strict=True) if alive]

    def kept_indexes(self) -> list[int]:
        return [i for i, alive in enumerate(self.alive) if alive]

    def _measure(self) -> int:
        if self.part.render is not None:
            return len(self.part.render(self.kept_indexes()))
        if not self.alive_count:
            return 0
        pieces = [p for p in (self.part.header, self.part.footer) if p]
        return sum(len(p) for p in pieces) + self.line_chars + (self.alive_count + len(pieces) - 1)

    def render(self) -> str:
        if self.part.render is not None:
            return self.part.render(self.kept_indexes())
        lines = self.kept_lines()
        if not lines:
            return ""
        return "\n".join(p for p in (self.part.header, *lines, self.part.footer) if p)

    def sequence(self) -> Sequence[int]:
        seq = self.part.shed_sequence
        if seq is None:
            return range(len(self.part.items) - 1, -1, -1)
        return seq() if callable(seq) else seq

    def shed_one(self, index: int) -> bool:
        """Apply one shedding step to item `index`; False when it has nothing left to give."""
        if not self.alive[index]:
            return False
        item = self.part.items[index]
        if self.part.shed is Shed.DROP:
            self.alive[index] = False
            self.alive_count -= 1
            self.line_chars -= len(self.lines[index])
        elif self.part.shed is Shed.REDUCE:
            if self.reduced[index] or item.short is None or item.short == item.text:
                return False
            self.reduced[index] = True
            self.line_chars += len(item.short) - len(self.lines[index])
            self.lines[index] = item.short
        else:
            return False
        self.items_dropped += 1
        self.size = self._measure()
        return True

    def result(self, text: str) -> PartResult:
        """This part's outcome; `text` is its render() (rendered once, for the prompt and this)."""
        keys = [item.key for item in self.part.items]
        return PartResult(
            key=self.part.key,
            label=self.part.label,
            text=text,
            kept_keys=tuple(k for k, alive in zip(keys, self.alive, strict=True) if alive),
            reduced_keys=tuple(
                k for k, alive, red in zip(keys, self.alive, self.reduced, strict=True) if alive and red
            ),
            dropped_keys=tuple(k for k, alive in zip(keys, self.alive, strict=True) if not alive),
            items_dropped=self.items_dropped,
            chars_dropped=self.chars_dropped,
        )


def _total(states: list[_State], envelope: Envelope) -> int:
    blocks: list[int] = []
    inner = [s.size for s in states if s.part.in_envelope and s.size]
    envelope_done = False
    for state in states:
        if state.part.in_envelope:
            if not envelope_done and inner:
                blocks.append(
                    len(envelope.header)
                    + len(envelope.footer)
                    + 2
                    + sum(inner)
                    + len(BLOCK_SEPARATOR) * (len(inner) - 1)
                )
            envelope_done = True
        elif state.size:
            blocks.append(state.size)
    return sum(blocks) + len(BLOCK_SEPARATOR) * max(len(blocks) - 1, 0)


def _render_all(states: list[_State], texts: list[str], envelope: Envelope) -> str:
    """The prompt from each state's rendered text (`texts`, in the same order)."""
    blocks: list[str] = []
    inner = [t for s, t in zip(states, texts, strict=True) if s.part.in_envelope and t]
    envelope_done = False
    for state, text in zip(states, texts, strict=True):
        if state.part.in_envelope:
            if not envelope_done and inner:
                blocks.append(envelope.header + "\n" + BLOCK_SEPARATOR.join(inner) + "\n" + envelope.footer)
            envelope_done = True
        else:
            if text:
                blocks.append(text)
    return BLOCK_SEPARATOR.join(blocks)


def fit(parts: Sequence[Part], *, ceiling: int | None, envelope: Envelope) -> FitResult:
    """Render `parts` within `ceiling` chars (None = unbounded), shedding as the module says."""
    states = [_State(part) for part in parts]
    size = _total(states, envelope)
    if ceiling is not None and size > ceiling:
        sheddable = sorted(
            (s for s in states if s.part.shed is not Shed.NEVER), key=lambda s: -s.part.priority
        )
        for state in sheddable:
            for index in state.sequence():
                if size <= ceiling:
                    break
                if state.shed_one(index):
                    new_size = _total(states, envelope)
                    state.chars_dropped += size - new_size
                    size = new_size
            if size <= ceiling:
                break
    texts = [s.render() for s in states]
    text = _render_all(states, texts, envelope)
    results = tuple(s.result(t) for s, t in zip(states, texts, strict=True))
    return FitResult(
        text=text,
        parts=results,
        ceiling=ceiling,
        chars_used=len(text),
        over_budget=ceiling is not None and len(text) > ceiling,
        overflow=tuple(
            Overflow(key=r.key, label=r.label, items_dropped=r.items_dropped, chars_dropped=r.chars_dropped)
            for r in results
            if r.items_dropped
        ),
        standing_chars=sum(s.size for s in states if s.part.shed is Shed.NEVER),
    )
