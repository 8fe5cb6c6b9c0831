"""What a fact write records about the row it replaces or contradicts (Chunk.held_detail).

A revision that supersedes a row, or proposes to, adds one entry to the new row's held_detail:
code "supersedes" or "proposed_revision", the row's id, the rule of memory.lifecycle.facts_subject
that decided it and the words that differ ("200 -> 250"). A proposal that contradicts a row a
person stands behind (confirmed by a reviewer, or written by an operator) also gets the holding
reason `contradicts_confirmed`: it is linked to that row, never supersedes it, and waits for a
person (it is already held as a proposal; the code says why it matters).
"""

from __future__ import annotations

from typing import Any

from memory.lifecycle import dedup
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
