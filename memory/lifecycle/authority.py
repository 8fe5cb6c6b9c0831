"""Who may supersede what: trust order as a write rule, not only a sort order.

A write may supersede only rows of its own owner (the same agent; no agent = the host) and of
the same or a lower trust tier, and never a row an operator has confirmed or a commons row,
unless the writer is an operator. Any other revision is stored as a pending *proposed
revision* that names the row it would replace (Chunk.proposes_id); the original keeps being
delivered until a reviewer confirms the proposal (memory.lifecycle.review), which then
supersedes it with the reviewer as the actor. Dedup is not a write: a paraphrase of a protected
row still answers "duplicate".

Pure: it reads only the two rows' columns, so every write path (memory_ingest, the harvest's
facts, documents, bulk imports) asks the same question the same way.
"""

from __future__ import annotations

from typing import Any, Protocol

from memory.store.models import ChunkScope, ReviewState
from memory.store.trust import TrustTier, trust_tier

PROPOSED_REVISION = "proposed_revision"  # the hold reason of a proposal (lifecycle.inspection)


class RowRef(Protocol):
    """What the rule needs of the row a write would supersede."""

    @property
    def agent_id(self) -> Any: ...

    @property
    def source_type(self) -> str: ...

    @property
    def scope(self) -> str | None: ...

    @property
    def review_state(self) -> str | None: ...


def may_supersede(*, writer_agent_id: int | None, writer_source_type: str | None, target: RowRef) -> bool:
    """True when this writer's revision may invalidate `target` outright (else: a proposal)."""
    writer_tier = trust_tier(writer_source_type)
    if writer_agent_id is None and writer_tier == TrustTier.OPERATOR:
        return True  # an operator's write is a verdict: the store is theirs
    if target.agent_id != writer_agent_id:
        return False  # another agent's row, or (for an agent) a host row written for every agent
    shared_with_all = target.scope == ChunkScope.COMMONS or (
        target.scope == ChunkScope.HOST and writer_agent_id is not None
    )
    if shared_with_all:
        # Read by every agent (a host row may name an agent as its author once a reviewer
        # accepted its proposal): only a reviewer changes what everyone reads.
        return False
    if trust_tier(target.source_type) > writer_tier:
        return False  # never outrank the writer
    # What an operator confirmed stays true until an operator says otherwise.
    return target.review_state != ReviewState.CONFIRMED
