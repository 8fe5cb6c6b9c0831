"""The detectors' start guard (inspection_patterns.guarded) finds exactly what the plain pattern finds."""

from __future__ import annotations

import random
import re

import pytest

from memory.evals.poisoning_score import load_corpus
from memory.lifecycle.inspection import normalise, raw_text
from memory.lifecycle.inspection_patterns import (
    AUTHORITY_DETECTORS,
    INSTRUCTION_DETECTORS,
    PROTECTED_TEMPLATES,
    guarded,
)

_SUBJECTS = "system prompt|tool policy|role|rules"
_PATTERNS = [pattern for _label, pattern in INSTRUCTION_DETECTORS] + [
    template.format(s=_SUBJECTS) for template in PROTECTED_TEMPLATES
]
_PIECES = ["\n", " ", ".", "'", ",", ":", "(", "é", "ai ", "you ", "アシスタントへ", "-", "x", "note to ai: "]


def _texts() -> list[str]:
    texts = [normalise(raw_text(row.heading, row.content)) for row in load_corpus()]
    rnd = random.Random(29)
    for _ in range(3000):  # slices that start mid-word and mid-sentence, with pieces put in
        text = rnd.choice(texts)
        start = rnd.randrange(len(text) + 1)
        piece = text[start : start + rnd.randint(0, 160)]
        at = rnd.randrange(len(piece) + 1)
        texts.append(piece[:at] + rnd.choice(_PIECES) + piece[at:])
    return texts


@pytest.fixture(scope="module")
def texts() -> list[str]:
    return _texts()


@pytest.mark.parametrize("pattern", _PATTERNS, ids=range(len(_PATTERNS)))
def test_guarded_pattern_matches_the_same_spans(pattern: str, texts: list[str]) -> None:
    plain, guard = re.compile(pattern), guarded(pattern)
    assert guard.pattern != plain.pattern  # every detector gets a guard
    for text in texts:
        assert [m.span() for m in guard.finditer(text)] == [m.span() for m in plain.finditer(text)], text


def test_authority_detectors_are_guarded() -> None:
    assert all(pattern.pattern.startswith("(?=") for pattern in AUTHORITY_DETECTORS)


@pytest.mark.parametrize(
    ("pattern", "guard"),
    [
        (r"\bfoo|bar", r"(?=[b]|\b[f])"),  # a boundary before one alternative only
        (r"(?:^|\n)to:", "(?=[\\\n]|^[t])"),  # "^" as the pattern's own
        (r"\s*x", r"(?=[\sx])"),  # an optional start adds what follows it
    ],
)
def test_guard_shape(pattern: str, guard: str) -> None:
    assert guarded(pattern).pattern == f"{guard}(?:{pattern})"


@pytest.mark.parametrize("pattern", [r"[^a]b", r".x", r"(?i:a)b", r"(?m)^a", r"a?", r"\b"])
def test_patterns_without_a_plain_start_are_compiled_as_they_are(pattern: str) -> None:
    assert guarded(pattern).pattern == pattern


@pytest.mark.parametrize("flags", [re.MULTILINE, re.IGNORECASE, re.MULTILINE | re.IGNORECASE])
def test_guard_compiled_with_the_patterns_flags(flags: int) -> None:
    pattern = r"(?:^|[.!?]\s*)(?:note|tell) (?:the )?(?:ai|assistant)\b|\bKey\s*:"
    plain, guard = re.compile(pattern, flags), guarded(pattern, flags)
    assert guard.pattern != plain.pattern
    assert guard.flags == plain.flags
    texts = ["x\nnote the AI", "Note the assistant", "a. tell ai", "key: 1", "KEY : 2", "x note the ai"]
    for text in texts:
        assert [m.span() for m in guard.finditer(text)] == [m.span() for m in plain.finditer(text)], text
