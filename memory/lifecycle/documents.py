"""A third-party document as chunks: split by Markdown headings, then paragraphs, then sentences,
each chunk at most `max_chars` and headed by its section's heading trail. Pure (no Django)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

MAX_CHUNK_CHARS = 1500
HEADING_MAX = 512
HEADING_SEP = " > "


@dataclass(frozen=True)
class DocumentPart:
    heading: str
    content: str


_ATX = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"^[ \t]{0,3}(```|~~~)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _sections(text: str) -> list[tuple[list[str], list[str]]]:
    """(heading trail, body lines) per Markdown section; headings inside code fences are text."""
    sections: list[tuple[list[str], list[str]]] = [([], [])]
    trail: list[tuple[int, str]] = []
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        match = None if fenced else _ATX.match(line)
        if match:
            level, title = len(match.group(1)), match.group(2).strip()
            trail = [(lvl, t) for lvl, t in trail if lvl < level] + [(level, title)]
            sections.append(([t for _, t in trail], []))
        else:
            sections[-1][1].append(line)
    return sections


def _paragraphs(lines: list[str]) -> list[str]:
    """Blank-line separated paragraphs (a fenced code block stays one paragraph)."""
    out: list[str] = []
    current: list[str] = []
    fenced = False
    for line in lines:
        if _FENCE.match(line):
            fenced = not fenced
        if not line.strip() and not fenced:
            if current:
                out.append("\n".join(current).strip("\n"))
                current = []
            continue
        current.append(line.rstrip())
    if current:
        out.append("\n".join(current).strip("\n"))
    return [p for p in out if p.strip()]


def _cut_line(line: str, limit: int) -> list[str]:
    """One over-long line cut to <= `limit` chars: at sentence ends, else at spaces, else hard."""
    pieces: list[str] = []
    current = ""
    for sentence in _SENTENCE_END.split(line):
        while len(sentence) > limit:
            cut = sentence.rfind(" ", 0, limit + 1)
            cut = cut if cut > limit // 2 else limit
            head, sentence = sentence[:cut].rstrip(), sentence[cut:].lstrip()
            if current:
                pieces.append(current)
                current = ""
            pieces.append(head)
        if not sentence:
            continue
        if current and len(current) + 1 + len(sentence) > limit:
            pieces.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}" if current else sentence
    if current:
        pieces.append(current)
    return pieces


def _pack(units: Iterable[str], limit: int, sep: str) -> list[str]:
    """`units` joined by `sep`, in order, into as few pieces of <= `limit` chars as a greedy pass
    makes (a unit is never split; empty units count, so code keeps its blank lines)."""
    pieces: list[str] = []
    current: str | None = None
    for unit in units:
        if current is not None and len(current) + len(sep) + len(unit) > limit:
            pieces.append(current)
            current = None
        current = unit if current is None else f"{current}{sep}{unit}"
    if current is not None:
        pieces.append(current)
    return pieces


def _pieces(paragraph: str, limit: int) -> list[str]:
    """A paragraph cut to pieces of <= `limit` chars, at line breaks first (code keeps its lines)."""
    if len(paragraph) <= limit:
        return [paragraph]
    units: list[str] = []
    for line in paragraph.split("\n"):
        units.extend([line] if len(line) <= limit else _cut_line(line, limit))
    return [p for p in _pack(units, limit, "\n") if p.strip()]


def split_document(text: str, *, title: str = "", max_chars: int = MAX_CHUNK_CHARS) -> list[DocumentPart]:
    """Chunks of a (Markdown or plain) document: by heading, then paragraphs packed to max_chars.

    Each chunk's heading is the title and heading trail ("Guide > Setup > Linux"), with
    "(i/n)" when a section took several chunks. No chunk's content exceeds `max_chars`.
    """
    parts: list[DocumentPart] = []
    for trail, lines in _sections(text or ""):
        units = (piece for paragraph in _paragraphs(lines) for piece in _pieces(paragraph, max_chars))
        pieces = _pack(units, max_chars, "\n\n")
        heading = HEADING_SEP.join([t for t in [title.strip(), *trail] if t])
        for index, piece in enumerate(pieces, 1):
            label = f"{heading} ({index}/{len(pieces)})" if len(pieces) > 1 and heading else heading
            parts.append(DocumentPart(heading=label[:HEADING_MAX], content=piece))
    return parts
