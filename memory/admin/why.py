"""Why a row was flagged and what it replaces: the panels of the change page and the verdict steps,
and the "replaces #N" mark of the review queue. Rendering only: the reasons come from the row's
held_detail (lifecycle.inspection via writes, and lifecycle.facts_links), the replaced rows and
word diffs from memory.lifecycle.facts_links. Always format_html: chunk text is untrusted.
"""

from __future__ import annotations

from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from memory.admin.html import REASON_WORDS, RISK_WORDS, chunk_url
from memory.lifecycle.facts_links import (
    CONTRADICTS_CONFIRMED,
    SUPERSEDES,
    DiffPart,
    held_detail_of,
    replaced_rows,
    replaces_ids,
)
from memory.store.models import Chunk

WHY_WORDS = {
    **REASON_WORDS,
    SUPERSEDES: "replaces a row",
    CONTRADICTS_CONFIRMED: "contradicts a confirmed row",
    "supersedes_operator": "would supersede an operator-confirmed row",
    "always_on": "would be always-on",
}


def _reason_item(entry: dict[str, Any]) -> SafeString:
    code = str(entry.get("code") or "")
    extra = {k: v for k, v in entry.items() if k not in ("code", "text", "snippet", "chunk_id") and v}
    rule = format_html_join(
        " ",
        '<span class="pm-quiet pm-why-rule">{}: {}</span>',
        ((k, str(v)) for k, v in sorted(extra.items())),
    )
    snippet = str(entry.get("snippet") or "")
    span = format_html(' matched <mark class="pm-why-span">{}</mark>', snippet) if snippet else ""
    text: SafeString | str = str(entry.get("text") or "")
    if entry.get("chunk_id") is not None:
        cid = int(str(entry["chunk_id"]))
        link = format_html('<a href="{}">#{}</a>', chunk_url(cid), cid)
        before, mark, after = str(text).partition(f"#{cid}")
        text = format_html("{}{}{}", before, link, after) if mark else format_html("{} {}", text, link)
    return format_html(
        '<li><span class="pm-badge pm-reason" data-code="{}">{}</span> {}{} {}</li>',
        code,
        WHY_WORDS.get(code, code),
        text,
        span,
        rule,
    )


def why_panel(chunk: Chunk) -> SafeString | str:
    """The reasons this row was flagged, each with its matched span and rule; "" when none."""
    found = held_detail_of(chunk)
    if not found:
        return ""
    level = chunk.risk if chunk.risk in (1, 2, 3) else 3
    held = "held from delivery until reviewed" if chunk.held_reasons else "not held"
    return format_html(
        '<div class="pm-panel pm-why"><h3>Why this row was flagged '
        '<span class="pm-badge pm-risk-{}">{}</span> <span class="pm-quiet">{}</span></h3>'
        '<ul class="pm-list">{}</ul></div>',
        level,
        RISK_WORDS[level],
        held,
        format_html_join("", "{}", ((_reason_item(e),) for e in found)),
    )


def diff_html(parts: list[DiffPart]) -> SafeString:
    """A word diff as <del>/<ins> runs."""
    tags = {
        "same": "<span>{}</span>",
        "del": '<del class="pm-del">{}</del>',
        "ins": '<ins class="pm-ins">{}</ins>',
    }
    return format_html_join(" ", "{}", ((format_html(tags[p.op], p.text),) for p in parts))


def replaces_panel(chunk: Chunk) -> SafeString | str:
    """ "replaces #N" (or "would replace #N" for a proposal) with the word diff; "" when none."""
    rows = replaced_rows(chunk)
    if not rows:
        return ""
    items = []
    for r in rows:
        verb = "replaces" if r.how == "superseded" else "would replace (on confirm)"
        rule = format_html(' <span class="pm-quiet">rule: {}</span>', r.rule) if r.rule else ""
        items.append(
            format_html(
                '<li class="pm-replaces-item">{} <a href="{}">#{}</a>{}<div class="pm-diff">{}</div></li>',
                verb,
                chunk_url(r.row.pk),
                r.row.pk,
                rule,
                diff_html(r.diff),
            )
        )
    return format_html(
        '<div class="pm-panel pm-replaces"><h3>Replaces</h3><ul class="pm-list">{}</ul></div>',
        format_html_join("", "{}", ((i,) for i in items)),
    )


def replaces_mark(chunk: Chunk) -> SafeString | str:
    """The queue's "replaces #N" mark, from the row alone (no query)."""
    ids = replaces_ids(chunk)
    if not ids:
        return ""
    return format_html(
        '<span class="pm-badge pm-replaces-mark">replaces {}</span>', ", ".join(f"#{i}" for i in ids)
    )


def panels(chunk: Chunk | None) -> dict[str, SafeString | str]:
    """Template context of the why and replaces panels."""
    if chunk is None or chunk.pk is None:
        return {"why_panel": "", "replaces_panel": ""}
    return {"why_panel": why_panel(chunk), "replaces_panel": replaces_panel(chunk)}
