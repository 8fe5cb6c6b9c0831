"""memory.lifecycle.guardrail: leaked reasoning never reaches the store."""

from __future__ import annotations

import pytest

from memory.lifecycle.guardrail import is_only_reasoning, strip_reasoning


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("plain answer", "plain answer"),
        ("", ""),
        ("a < b and c > d", "a < b and c > d"),
        ("<think>private</think>The answer.", "The answer."),
        ("The answer.<scratch_pad>notes</scratch_pad>", "The answer."),
        ("before <think>x</think> after", "before  after"),
        # mixed case, and the thinking / scratchpad spellings
        ("A<THINK>x</Think>B", "AB"),
        ("A<Scratch_Pad>x</SCRATCH_PAD>B", "AB"),
        ("A<thinking>x</thinking>B<scratchpad>y</scratchpad>C", "ABC"),
        # whitespace and attributes inside the tag
        ("A< think >x</ think >B", "AB"),
        ('A<think type="hidden">x</think>B', "AB"),
        # nested, same and different tags
        ("<think>a<think>b</think>c</think>d", "d"),
        ("<scratch_pad>a<think>b</think>c</scratch_pad>d", "d"),
        ("x<think>a<think>b</think>still hidden</think>y", "xy"),
        # unclosed: everything after the opener is reasoning
        ("kept <think>never closed", "kept"),
        ("kept <think>a<think>b</think> still open", "kept"),
        # stray closer: the opener was dropped, so everything before it was reasoning
        ("reasoning only</think>The answer.", "The answer."),
        ("<think>a</think>b</think>c", "c"),
        # an empty self-closing tag is just removed
        ("A<think/>B", "AB"),
        # lookalikes are not reasoning tags
        ("keep <thinker> and <thinks>", "keep <thinker> and <thinks>"),
    ],
)
def test_strip_reasoning(text, kept):
    assert strip_reasoning(text) == kept


@pytest.mark.parametrize(
    "text",
    [
        "<think>all of it</think>",
        "  <THINK>all of it</THINK>  \n",
        "<scratch_pad>a</scratch_pad><think>b</think>",
        "<think>unclosed",
        "only this</think>",
    ],
)
def test_only_reasoning(text):
    stripped = strip_reasoning(text)
    assert stripped == ""
    assert is_only_reasoning(text, stripped) is True


def test_blank_is_not_reasoning():
    assert is_only_reasoning("", "") is False
    assert is_only_reasoning("   ", "") is False
    assert is_only_reasoning("answer", "answer") is False
