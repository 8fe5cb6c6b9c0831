"""Trust tiers: a code-level map from source_type to who wrote it (never config)."""

from __future__ import annotations

from enum import IntEnum


class TrustTier(IntEnum):
    EXTERNAL = 1
    AGENT = 2
    OPERATOR = 3


# Operator surfaces: a person deliberately wrote it through the console / admin / operator API.
OPERATOR_SOURCE_TYPES = frozenset({"console", "operator", "admin"})
# Derived from conversation by the agent itself.
AGENT_SOURCE_TYPES = frozenset({"memory_ingest", "extracted", "harvest", "background"})
# Third-party content; listed for documentation, since anything unlisted is tier 1 anyway.
EXTERNAL_SOURCE_TYPES = frozenset(
    {"knowledge_ingest", "web", "youtube", "pdf", "media", "document", "snapshot", "plugin", "eval"}
)

LABELS = {TrustTier.OPERATOR: "operator", TrustTier.AGENT: "agent", TrustTier.EXTERNAL: "external"}


def trust_tier(source_type: str | None) -> TrustTier:
    """Tier for a source_type; unknown or blank is external (tier 1)."""
    st = (source_type or "").strip().lower()
    if st in OPERATOR_SOURCE_TYPES:
        return TrustTier.OPERATOR
    if st in AGENT_SOURCE_TYPES:
        return TrustTier.AGENT
    return TrustTier.EXTERNAL


def trust_label(source_type: str | None) -> str:
    return LABELS[trust_tier(source_type)]


def source_types_at_or_above(tier: int) -> tuple[frozenset[str], bool]:
    """(source types of tiers >= `tier`, whether unknown/blank types qualify) for query filters."""
    if tier <= TrustTier.EXTERNAL:
        return frozenset(), True
    allowed = OPERATOR_SOURCE_TYPES | (AGENT_SOURCE_TYPES if tier <= TrustTier.AGENT else frozenset())
    return allowed, False
