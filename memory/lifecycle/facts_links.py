"""What a fact write records about the row it replaces or contradicts (Chunk.held_detail).

A revision that supersedes a row, or proposes to, adds one entry to the new row's held_detail:
code "supersedes" or "proposed_revision", the row's id, the rule of memory.lifecycle.facts_subject
that decided it and the words that differ ("200 -> 250"). A proposal that contradicts a row a
person stands behind (confirmed by a reviewer, or written by an operator) also gets the holding
reason `contradicts_confirmed`: it is linked to that row, never supersedes it, and waits for a
person (it is already held as a proposal; the code says why it matters).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from memory.lifecycle import dedup
from memory.lifecycle.writes import SUPERSEDED_PREFIX
from memory.store.models import Chunk, ReviewState
from memory.store.trust import TrustTier, trust_tier

SUPERSEDES = "supersedes"
CONTRADICTS_CONFIRMED = "contradicts_confirmed"
CONTRADICTING_RULES = frozenset({"value_changed", "negation_flip"})


def changed_words(verdict: Any) -> str:
    """ "old words -> new words" of a facts_subject.Verdict (empty when none differ)."""
    if verdict is None or not (verdict.old or verdict.new):
        return ""
    return f"{' '.join(verdict.old) or '(nothing)'} -> {' '.join(verdict.new) or '(nothing)'}"


def stands_behind(target: Chunk) -> bool:
    """A person stands behind this row: a reviewer confirmed it or an operator wrote it."""
    operator = trust_tier(target.source_type) == TrustTier.OPERATOR
    return target.review_state == ReviewState.CONFIRMED or operator


def contradicts(match: dedup.Match, target: Chunk) -> bool:
    verdict = match.verdict
    return verdict is not None and verdict.rule in CONTRADICTING_RULES and stands_behind(target)


def link_entries(match: dedup.Match, *, proposal: bool, target: Chunk) -> list[dict[str, object]]:
    """The held_detail entries of a new row that revises `target` (a supersede or a proposal)."""
    rule = match.verdict.rule if match.verdict is not None else "overlap"
    words = changed_words(match.verdict)
    entries: list[dict[str, object]] = []
    if proposal:
        entries.append(
            {"code": "proposed_revision", "text": f"would replace #{target.pk}", "snippet": words,
             "rule": rule, "chunk_id": target.pk}
        )  # fmt: skip
    else:
        entries.append(
            {"code": SUPERSEDES, "text": f"replaces #{target.pk}", "snippet": words, "rule": rule,
             "chunk_id": target.pk}
        )  # fmt: skip
    if proposal and contradicts(match, target):
        who = "an operator" if trust_tier(target.source_type) == TrustTier.OPERATOR else "a reviewer"
        entries.append(
            {"code": CONTRADICTS_CONFIRMED, "text": f"contradicts #{target.pk}, which {who} stands behind",
             "snippet": words, "rule": rule, "chunk_id": target.pk}
        )  # fmt: skip
    return entries


Detail = list[dict[str, object]]


def merged(chunk_detail: Detail | None, entries: Detail) -> Detail:
    """held_detail with `entries` added, replacing an entry of the same code and row."""
    keys = {(e["code"], e.get("chunk_id")) for e in entries}
    kept = [e for e in (chunk_detail or []) if (e.get("code"), e.get("chunk_id")) not in keys]
    return kept + entries


def with_code(held_reasons: str | None, code: str) -> str:
    codes = [c for c in (held_reasons or "").split(",") if c]
    return ",".join(dict.fromkeys([*codes, code]))


def record_link(chunk: Chunk, match: dedup.Match, *, proposal: bool, target: Chunk) -> None:
    """Store the link entries on `chunk` (one UPDATE), and on the instance."""
    entries = link_entries(match, proposal=proposal, target=target)
    chunk.held_detail = merged(chunk.held_detail, entries)
    fields = {"held_detail": chunk.held_detail}
    if any(e["code"] == CONTRADICTS_CONFIRMED for e in entries):
        chunk.held_reasons = with_code(chunk.held_reasons, CONTRADICTS_CONFIRMED)
        fields["held_reasons"] = chunk.held_reasons
    Chunk.objects.filter(pk=chunk.pk).update(**fields)


# -- reading: what a row replaces, and how the words changed


@dataclass(frozen=True)
class DiffPart:
    """One run of a word diff: op is "same", "del" (only in the old row) or "ins" (only in the new)."""

    op: str
    text: str


def word_diff(old: str, new: str) -> list[DiffPart]:
    """The words of `old` and `new` aligned (difflib), as runs of same / deleted / inserted text."""
    a, b = (old or "").split(), (new or "").split()
    parts: list[DiffPart] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag == "equal":
            parts.append(DiffPart("same", " ".join(a[i1:i2])))
            continue
        if i2 > i1:
            parts.append(DiffPart("del", " ".join(a[i1:i2])))
        if j2 > j1:
            parts.append(DiffPart("ins", " ".join(b[j1:j2])))
    return parts


@dataclass(frozen=True)
class Replaced:
    """A row `chunk` replaces: superseded by it ("superseded") or waiting on its review ("proposed")."""

    row: Chunk
    how: str
    diff: list[DiffPart]
    rule: str = ""


def replaced_rows(chunk: Chunk) -> list[Replaced]:
    """The rows this row superseded (invalidation_reason superseded_by:<id>, the chain index) and the
    row it proposes to replace, each with the word diff from it to this row."""
    rules = {
        e.get("chunk_id"): str(e.get("rule") or "") for e in (chunk.held_detail or []) if "chunk_id" in e
    }
    out: list[Replaced] = []
    old = Chunk.objects.filter(
        invalidated_at__isnull=False, invalidation_reason=f"{SUPERSEDED_PREFIX}{chunk.pk}"
    ).order_by("id")
    for row in old:
        out.append(Replaced(row, "superseded", word_diff(row.content, chunk.content), rules.get(row.pk, "")))
    if chunk.proposes_id is not None:
        target = Chunk.objects.filter(pk=chunk.proposes_id).first()
        if target is not None:
            diff = word_diff(target.content, chunk.content)
            out.append(Replaced(target, "proposed", diff, rules.get(target.pk, "")))
    return out


def replaces_ids(chunk: Chunk) -> list[int]:
    """Ids this row replaces as far as the row itself says (held_detail links and proposes_id): for
    lists, without a query."""
    ids = [
        int(str(e["chunk_id"]))
        for e in (chunk.held_detail or [])
        if e.get("code") in (SUPERSEDES, "proposed_revision") and e.get("chunk_id") is not None
    ]
    if chunk.proposes_id is not None:
        ids.append(chunk.proposes_id)
    return list(dict.fromkeys(ids))


def held_detail_of(chunk: Chunk) -> list[dict[str, Any]]:
    """The row's reasons (held_detail), or for a row held before that column its codes alone."""
    if chunk.held_detail:
        return [dict(entry) for entry in chunk.held_detail if isinstance(entry, dict)]
    codes = [code for code in (chunk.held_reasons or "").split(",") if code]
    return [{"code": code, "text": "", "snippet": ""} for code in codes]
