"""What the hot memory page warns about: always-on rows that say the same thing more than once."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from memory.store.models import Chunk


def _said(chunk: Chunk) -> str:
    """The row's words, ignoring case, spacing and closing punctuation: what makes two rows the same."""
    return " ".join(chunk.content.casefold().split()).rstrip(" .!;")


def identical_groups(rows: Iterable[Chunk]) -> list[list[int]]:
    """Ids of rows saying the same thing, groups of two or more, in the rows' order."""
    groups: dict[str, list[int]] = defaultdict(list)
    for chunk in rows:
        groups[_said(chunk)].append(chunk.pk)
    return [ids for ids in groups.values() if len(ids) > 1]
