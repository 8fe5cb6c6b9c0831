"""A row's revision chain, in the order its links give (superseded_by:<id>, proposes), not by time.

Older rows are found by walking back the supersession links one step at a time (a fact
consolidation can merge several rows into one step); newer rows by following superseded_by
forward. A pending proposed revision is listed after the row it proposes to replace.
"""

from __future__ import annotations

from dataclasses import dataclass

from memory.lifecycle.writes import SUPERSEDED_PREFIX
from memory.store.models import Chunk, ReviewState

CHAIN_MAX_STEPS = 50  # rows listed each way


@dataclass(frozen=True)
class ChainStep:
    chunk: Chunk
    note: str  # how it links to its neighbour ("superseded by #7", "current", "proposes #3", ...)
    is_this: bool = False


def _note(chunk: Chunk) -> str:
    if chunk.superseded_by_id:
        return f"superseded by #{chunk.superseded_by_id}"
    if chunk.proposes_id and chunk.review_state != ReviewState.CONFIRMED:
        return f"proposed revision of #{chunk.proposes_id} (not accepted)"
    if chunk.invalidated_at is not None:
        return "invalidated"
    return "current"


def _older(chunk: Chunk) -> list[Chunk]:
    """Rows before `chunk`, nearest last: each step is what the step after it superseded."""
    levels: list[list[Chunk]] = []
    frontier = [chunk]
    seen = {chunk.pk}
    total = 0
    while frontier and total < CHAIN_MAX_STEPS:
        reasons = [f"{SUPERSEDED_PREFIX}{c.pk}" for c in frontier]
        rows = list(
            Chunk.objects.filter(invalidated_at__isnull=False, invalidation_reason__in=reasons)
            .exclude(pk__in=seen)
            .order_by("id")
        )
        if (
            not rows
            and len(frontier) == 1
            and frontier[0].proposes_id
            and frontier[0].proposes_id not in seen
        ):
            target = Chunk.objects.filter(pk=frontier[0].proposes_id).first()  # not accepted yet
            rows = [target] if target is not None else []
        if not rows:
            break
        seen.update(r.pk for r in rows)
        levels.append(rows)
        total += len(rows)
        frontier = rows
    return [row for level in reversed(levels) for row in level][-CHAIN_MAX_STEPS:]


def _newer(chunk: Chunk) -> list[Chunk]:
    """Rows after `chunk`: its superseded_by chain, then pending proposals for the newest one."""
    out: list[Chunk] = []
    seen = {chunk.pk}
    current = chunk
    while current.superseded_by_id and current.superseded_by_id not in seen and len(out) < CHAIN_MAX_STEPS:
        row = Chunk.objects.filter(pk=current.superseded_by_id).first()
        if row is None:
            break
        out.append(row)
        seen.add(row.pk)
        current = row
    proposals = (
        Chunk.objects.filter(proposes_id=current.pk, invalidated_at__isnull=True)
        .exclude(pk__in=seen)
        .exclude(review_state=ReviewState.CONFIRMED)
        .order_by("id")
    )
    out.extend(proposals[: max(CHAIN_MAX_STEPS - len(out), 0)])
    return out


def revision_chain(chunk: Chunk) -> list[ChainStep]:
    """The chain through `chunk`, oldest link first; [] when the row has no other revision."""
    older, newer = _older(chunk), _newer(chunk)
    if not older and not newer:
        return []
    return [
        *(ChainStep(c, _note(c)) for c in older),
        ChainStep(chunk, _note(chunk), is_this=True),
        *(ChainStep(c, _note(c)) for c in newer),
    ]
