"""The literal gate (inspection_patterns.LiteralGated) answers what the plain pattern answers, and
the classifier's faster sentence split splits as the plain one did: cost cuts that change no verdict."""

from __future__ import annotations

import random
import re

import pytest

from memory.evals.poisoning_score import load_corpus
from memory.lifecycle import (
    inspection,
    inspection_concealment,
    inspection_frames,
    inspection_language,
    inspection_patterns,
    inspection_semantic,
    inspection_standing,
    inspection_sweeping,
)
from memory.lifecycle.inspection import normalise, raw_text
from memory.lifecycle.inspection_classifier import _SENTENCE
from memory.lifecycle.inspection_patterns import LiteralGated, required_literals

_GATED = [
    value
    for module in (
        inspection,
        inspection_concealment,
        inspection_frames,
        inspection_language,
        inspection_patterns,
        inspection_semantic,
        inspection_sweeping,
    )
    for value in vars(module).values()
    if isinstance(value, LiteralGated)
]


@pytest.fixture(scope="module")
def texts() -> list[str]:
    texts = [normalise(raw_text(row.heading, row.content)) for row in load_corpus()]
    rnd = random.Random(29)
    for _ in range(2000):  # slices that start and end mid-word
        text = rnd.choice(texts)
        start = rnd.randrange(len(text) + 1)
        texts.append(text[start : start + rnd.randint(0, 160)])
    return texts


def test_every_gated_pattern_has_a_gate() -> None:
    assert len(_GATED) >= 10
    assert all(gated._gate is not None for gated in _GATED)


def test_required_literals_of_simple_patterns() -> None:
    assert required_literals(re.compile(r"\b(?:revoked|withdrawn)\b")) == {"revoked", "withdrawn"}
    # the parser draws the branches' shared start out: " not s" then "end" or "hare"
    assert required_literals(re.compile(r"(?:will|must) not (?:send|share)")) == {" not s"}
    assert required_literals(re.compile(r"https?://|www\.")) == {"http", "www."}
    assert required_literals(re.compile(r"a|\w+")) is None  # a branch that needs no fixed string
    assert required_literals(re.compile(r"(?i)secret")) is None  # case-blind: not as written
    assert required_literals(re.compile(r"x*")) is None


def test_gated_search_finds_what_the_pattern_finds(texts: list[str]) -> None:
    for gated in _GATED:
        plain = gated._compiled
        for text in texts:
            found, expected = gated.search(text), plain.search(text)
            assert (found and found.span()) == (expected and expected.span()), (plain.pattern[:60], text)
            middle = len(text) // 2
            found, expected = gated.search(text, 3, middle), plain.search(text, 3, middle)
            assert (found and found.span()) == (expected and expected.span()), (plain.pattern[:60], text)


def test_every_match_holds_a_required_literal(texts: list[str]) -> None:
    for gated in _GATED:
        words = required_literals(gated._compiled)
        assert words
        for text in texts:
            for match in gated.finditer(text):
                assert any(word in match[0] for word in words), (gated.pattern[:60], match[0])


# the split as it was written before (one alternation a character): the reference
_PLAIN_SENTENCE = re.compile(r"(?:[^.!?\u3002\uff01\uff1f]|[.!?]+(?=\S))*(?:[.!?\u3002\uff01\uff1f]+|$)")


def test_sentence_split_is_the_plain_split(texts: list[str]) -> None:
    rnd = random.Random(7)
    marks = "ab .!?\u3002\uff01\uff1f\n"
    mixed = ["".join(rnd.choice(marks) for _ in range(rnd.randint(0, 12))) for _ in range(20000)]
    for text in texts + mixed:
        assert _SENTENCE.findall(text) == _PLAIN_SENTENCE.findall(text), text


def test_occurs_in_is_found_not_empty(texts: list[str]) -> None:
    for scan in (inspection_standing._READER_SCAN, inspection_sweeping._DROPPED_SCAN):
        for text in texts:
            assert scan.occurs_in(text) == bool(scan.found(text)), text
