"""The reasoning guardrail: leaked <think>/<scratch_pad> never reaches the store or a prompt."""

from __future__ import annotations

import re

# <think>, </think>, <think type="x">, <think/> (and thinking / scratch_pad / scratchpad), any case.
_TAG = re.compile(r"<\s*(/?)\s*(?:think|thinking|scratch_pad|scratchpad)\b[^<>]*?(/?)\s*>", re.IGNORECASE)


def strip_reasoning(text: str) -> str:
    """Remove reasoning blocks: nested, mixed case, unclosed (to the end), or a stray closer.

    A closer with no opener means the provider dropped the opening tag, so everything
    before it was reasoning too. A self-closing <think/> holds nothing and is just removed.
    """
    if not text or "<" not in text:
        return text or ""
    out: list[str] = []
    depth = 0
    pos = 0
    for match in _TAG.finditer(text):
        closing = match.group(1) == "/"
        if match.group(2) == "/" and not closing:  # <think/>: an empty block
            if depth == 0:
                out.append(text[pos : match.start()])
            pos = match.end()
            continue
        if depth == 0:
            if closing:
                out.clear()  # stray closer: what came before was reasoning
            else:
                out.append(text[pos : match.start()])
                depth = 1
        elif closing:
            depth -= 1
        else:
            depth += 1
        pos = match.end()
    if depth == 0:
        out.append(text[pos:])
    return "".join(out).strip()


def is_only_reasoning(original: str, stripped: str) -> bool:
    """True when the text had content but nothing survives the strip."""
    return bool(original.strip()) and not stripped.strip()
