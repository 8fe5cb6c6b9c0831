"""How a stored row reads when it is handed to a model: one line, its stored date, its trust label.

Shared by the per-turn projection (delivery) and the agent's recall / list tools, so a row reads
the same wherever it is delivered.
"""

from __future__ import annotations

import re
from datetime import datetime, tzinfo
from typing import Any, Protocol

from django.utils import timezone


class ChunkLike(Protocol):
    """What a line needs of a row: a Chunk, or a selectors.HotEntry (the per-turn always-on read)."""

    @property
    def pk(self) -> Any: ...

    @property
    def heading(self) -> str: ...

    @property
    def content(self) -> str: ...

    @property
    def source(self) -> str: ...

    @property
    def source_type(self) -> str: ...

    @property
    def created_at(self) -> datetime: ...

    @property
    def scope(self) -> str | None: ...

    @property
    def trust_label(self) -> str: ...



_FRAME_TAG = re.compile(r"<(\s*/?\s*(?:injected_memory|available_skills|working_state)\b)", re.IGNORECASE)


def one_line(text: str) -> str:
    """One line (all whitespace collapsed) that cannot open or close one of our frame tags."""
    line = " ".join(text.split()) if text else ""
    return _FRAME_TAG.sub("\u2039\\1", line) if "<" in line else line


def chunk_text(chunk: ChunkLike) -> str:
    heading, content = one_line(chunk.heading), one_line(chunk.content)
    if heading and not content.startswith(heading):
        return f"{heading}: {content}"
    return content


def hot_line(chunk: ChunkLike) -> str:
    return f"- [#{chunk.pk}] {chunk_text(chunk)} (trust: {chunk.trust_label})"


def stored_date(chunk: ChunkLike, tz: tzinfo | None = None) -> str:
    """The row's stored day (YYYY-MM-DD) in the active time zone."""
    return chunk.created_at.astimezone(tz or timezone.get_current_timezone()).date().isoformat()


def rag_line(chunk: ChunkLike, tz: tzinfo | None = None) -> str:
    stored = stored_date(chunk, tz)
    return f"- [#{chunk.pk}] {chunk_text(chunk)} (stored {stored}; trust: {chunk.trust_label})"
