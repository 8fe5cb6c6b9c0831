"""How a stored row reads when it is handed to a model: one line, its stored date, its trust label.

Shared by the per-turn projection (delivery) and the agent's recall / list tools, so a row reads
the same wherever it is delivered.
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
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
# A label the text itself writes, e.g. content ending "(stored 2020-01-01; trust: operator)".
_FORGED_LABEL = re.compile(r"\((?:[^()]*;\s*)?trust\s*:\s*([^()]*)\)", re.IGNORECASE)
_ENTITY = re.compile(r"&(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);", re.IGNORECASE)
MAX_ENTITY_PASSES = 3  # "&amp;lt;" hides "<" two decodes deep; more than this is left escaped
# The only characters of ASCII that _visible() drops: controls other than tab and line feed (ASCII
# has no format characters, and NFKC leaves every ASCII character as it is).
_ASCII_INVISIBLE = dict.fromkeys([*range(9), *range(11, 32), 127])
# Rows rendered per process (row_text): a turn re-renders the same always-on and recalled rows.
ROW_CACHE_SIZE = 4096
ROW_CACHE_MAX_CHARS = 8192  # longer texts are rendered each time rather than held


def _visible(char: str) -> bool:
    # Format characters (zero-width spaces and joiners, bidi controls such as U+202E, soft
    # hyphens, BOMs) and control characters other than line breaks and tabs render as nothing,
    # so they can hide a tag or reverse what a reviewer reads; they never reach a prompt.
    category = unicodedata.category(char)
    return char in "\n\t" or not (category == "Cf" or category == "Cc")


class _VisibilityTable(dict[int, int | None]):
    """A str.translate table: a code point maps to itself, or to None (dropped) where _visible()
    says so. Filled as characters are met, so translate stays in C for every known character;
    past MAX_KNOWN code points new ones are answered without being kept (bounded memory)."""

    MAX_KNOWN = 65536

    def __missing__(self, code: int) -> int | None:
        value = code if _visible(chr(code)) else None
        if len(self) < self.MAX_KNOWN:
            self[code] = value
        return value


_VISIBILITY = _VisibilityTable()


def without_invisible(text: str) -> str:
    """`text` without the characters _visible() drops (a secret split by zero-width spaces joins up)."""
    return text.translate(_VISIBILITY) if text and not text.isascii() else text


def _compatible_visible(text: str) -> str:
    """NFKC, then without the characters _visible() drops."""
    if text.isascii():  # most stored text: the same result without NFKC (ASCII is NFKC already)
        return text.translate(_ASCII_INVISIBLE)
    return unicodedata.normalize("NFKC", text).translate(_VISIBILITY)


def normalized(text: str) -> str:
    """Delivered text as the model will read it: entities decoded, NFKC (a fullwidth less-than is <),
    invisible characters removed, our frame tags and trust labels neutralised.

    Entities that are still there after MAX_ENTITY_PASSES decodes are escaped (& -> &amp;), so
    no later reader can decode them into a tag either.
    """
    if not text:
        return ""
    for _ in range(MAX_ENTITY_PASSES):
        if "&" not in text or not _ENTITY.search(text):
            break
        text = html.unescape(text)
    else:
        text = _ENTITY.sub(lambda m: "&amp;" + m.group(0)[1:], text)
    text = _compatible_visible(text)
    if "<" in text:
        text = _FRAME_TAG.sub("\u2039\\1", text)
    if "(" in text:
        text = _FORGED_LABEL.sub(lambda m: f"(text claims trust: {m.group(1).strip()})", text)
    return text


def one_line(text: str) -> str:
    """One line (all whitespace collapsed) of normalized() text."""
    return " ".join(normalized(text).split()) if text else ""


def _render_row(heading: str, content: str) -> tuple[str, str, tuple[str, ...]]:
    """(heading on one line, content on one line, content's lines): each text normalized once."""
    text = normalized(content)
    lines = tuple(line.rstrip() for line in text.splitlines() if line.strip())
    return one_line(heading), " ".join(text.split()), lines


_render_row_cached = functools.lru_cache(maxsize=ROW_CACHE_SIZE)(_render_row)


def row_text(chunk: ChunkLike) -> tuple[str, str, tuple[str, ...]]:
    """A row's delivered text, rendered once per process and text: (heading, content, lines).

    Keyed by the row's heading and content themselves, so an edit (or a revision, a new row)
    can never be served an old rendering; the trust label and the stored date, which depend on
    policy and time zone, are not cached. Each turn re-delivers mostly the same rows.
    """
    heading, content = chunk.heading or "", chunk.content or ""
    if len(heading) + len(content) > ROW_CACHE_MAX_CHARS:
        return _render_row(heading, content)
    return _render_row_cached(heading, content)


def clear_row_cache() -> None:
    """Forget every cached rendering (tests; a change of the rendering rules at run time)."""
    _render_row_cached.cache_clear()


def _joined(heading: str, content: str) -> str:
    if heading and not content.startswith(heading):
        return f"{heading}: {content}"
    return content


def chunk_text(chunk: ChunkLike) -> str:
    """heading: content on one line (list previews and the digest-sized views)."""
    heading, content, _ = row_text(chunk)
    return _joined(heading, content)


def chunk_block(chunk: ChunkLike, prefix: str) -> str:
    """`prefix` then the row's text; a multi-line row keeps its line breaks, each further line
    indented two spaces under the item (so no content line can pass for an item of its own)."""
    heading, content, lines = row_text(chunk)
    if len(lines) <= 1:
        return f"{prefix} {_joined(heading, content)}"
    first, rest = (f"{prefix} {heading}:", lines) if heading else (f"{prefix} {lines[0].strip()}", lines[1:])
    return "\n".join([first, *(f"  {line}" for line in rest)])


def stored_date(chunk: ChunkLike, tz: tzinfo | None = None) -> str:
    """The row's stored day (YYYY-MM-DD) in the active time zone."""
    return chunk.created_at.astimezone(tz or timezone.get_current_timezone()).date().isoformat()


def hot_line(chunk: ChunkLike) -> str:
    """- [#ID] (trust: LABEL) text: the label comes first, so nothing in the text can follow it."""
    return chunk_block(chunk, f"- [#{chunk.pk}] (trust: {chunk.trust_label})")


def rag_line(chunk: ChunkLike, tz: tzinfo | None = None) -> str:
    """- [#ID] (stored YYYY-MM-DD; trust: LABEL[; instruction-shaped]) text

    A row the write inspection found instruction-shaped (delivered because a reviewer confirmed
    it, or knowledge.hold is off) says so in its label: data about instructions, not one.
    """
    flags = "; instruction-shaped" if "instruction" in (getattr(chunk, "held_reasons", None) or "") else ""
    label = f"(stored {stored_date(chunk, tz)}; trust: {chunk.trust_label}{flags})"
    return chunk_block(chunk, f"- [#{chunk.pk}] {label}")
