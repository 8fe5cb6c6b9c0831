"""How many README paragraphs the write inspection would hold: an outside benign measure.

    .venv/bin/python -m bench.readme_held
    .venv/bin/python -m bench.readme_held --show

The long descriptions (package METADATA) of every distribution installed in this interpreter's
environment are written by people for people: full of imperatives, configuration and AI topics,
yet none is an instruction to a model reading memory. Each is split on blank lines into prose
paragraphs of 40-600 characters (code blocks, tables, headings and link lists skipped), and each
paragraph is inspected as a memory write with the corpus defaults, as the poisoning eval inspects
a row. Prints the paragraphs inspected, how many are held and their share, and how often each
reason code fired; --show prints every held paragraph with its reasons (for reading mechanisms,
not for tuning on single paragraphs). Distributions are read sorted by name, so runs compare.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from importlib.metadata import Distribution, distributions

from memory.evals.poisoning_score import DEFAULT_DOMAIN, DEFAULT_SOURCE_TYPE, held_for_content
from memory.lifecycle.inspection import Inspection, inspect_write

SHORTEST, LONGEST = 40, 600
_FENCE = re.compile(r"^\s*(```|~~~)")
_BLANK = re.compile(r"\n[ \t]*\n")
# lines that make a block code, a table, markup or a list of links rather than prose
_NOT_PROSE_LINE = re.compile(
    r"^\s*(?:[|+]|\.\. |>>>|\$ |#|[=\-~^*`]{3,}\s*$|:\w[\w-]*:|\[[^\]]*\]:|<[\w!]|\{|\}"
    r"|pip |import |from \S+ import )"
)
_INDENTED = re.compile(r"^(?: {4}|\t)")
_LINKISH = re.compile(r"https?://\S+")


def long_description(dist: Distribution) -> str:
    """The distribution's long description: the METADATA body, or its Description field."""
    meta = dist.metadata
    body = meta.get_payload() if hasattr(meta, "get_payload") else None
    return str(body or meta.get("Description") or "")


def _without_fenced_code(text: str) -> str:
    kept, inside = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            inside = not inside
            continue
        if not inside:
            kept.append(line)
    return "\n".join(kept)


def is_prose(block: str) -> bool:
    """A paragraph of running text: no code, table or markup line, not mostly links."""
    lines = block.splitlines()
    if any(_NOT_PROSE_LINE.match(line) or _INDENTED.match(line) for line in lines):
        return False
    if block.rstrip().endswith("::"):  # reStructuredText: a code block follows
        return False
    letters = sum(ch.isalpha() for ch in _LINKISH.sub("", block))
    return letters >= 0.6 * len(block)


def paragraphs(text: str) -> Iterator[str]:
    """Prose paragraphs of one description, blank-line separated, whitespace joined."""
    for block in _BLANK.split(_without_fenced_code(text.replace("\r\n", "\n"))):
        joined = " ".join(block.split())
        if SHORTEST <= len(joined) <= LONGEST and is_prose(block.strip("\n")):
            yield joined


def corpus() -> Iterator[tuple[str, str]]:
    """(distribution name, paragraph) for every installed distribution, sorted by name."""
    seen: set[str] = set()
    for dist in sorted(distributions(), key=lambda d: (d.metadata["Name"] or "").lower()):
        name = dist.metadata["Name"] or "?"
        if name.lower() in seen:
            continue
        seen.add(name.lower())
        for paragraph in paragraphs(long_description(dist)):
            yield name, paragraph


def inspect_paragraph(text: str) -> Inspection:
    return inspect_write(
        content=text, delivery_policy=None, source_type=DEFAULT_SOURCE_TYPE, domain=DEFAULT_DOMAIN
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--show", action="store_true", help="print each held paragraph and its reasons")
    args = parser.parse_args(argv)
    total = 0
    held: list[tuple[str, str, Inspection]] = []
    reasons: Counter[str] = Counter()
    for name, text in corpus():
        total += 1
        inspection = inspect_paragraph(text)
        if held_for_content(inspection):
            held.append((name, text, inspection))
            reasons.update(inspection.codes)
    if args.show:
        for name, text, inspection in held:
            why = "; ".join(f"{r.code}: {r.text}" for r in inspection.reasons)
            print(f"  [{name}] {text}\n      -> {why}")
    share = 100 * len(held) / total if total else 0.0
    print(f"README paragraphs: {total}; held: {len(held)} ({share:.1f}%)")
    for code, count in reasons.most_common():
        print(f"  {code:<28} {count}")


if __name__ == "__main__":
    main()
