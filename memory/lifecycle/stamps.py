"""Creation stamps (ADR 0108 D7): what add_chunk fills in when the caller left it blank.

Pure: shared by add_chunk and the one-shot backfill migration (which copies the table).
"""

from __future__ import annotations

from dataclasses import dataclass

from memory.store.trust import EXTERNAL_SOURCE_TYPES, TrustTier, trust_tier

KIND_BY_DOMAIN = {
    "hot": "standing",
    "standing": "standing",
    "fact": "fact",
    "facts": "fact",
    "conversation": "episode",
    "episode": "episode",
    "finding": "note",
    "note": "note",
    "notes": "note",
    "context": "note",
    "preferences": "profile",
    "profile": "profile",
    "decision": "decision",
    "decisions": "decision",
    "knowledge": "reference",
    "reference": "reference",
    "document": "reference",
}
KIND_BY_SOURCE_TYPE = {"harvest": "episode", "extracted": "fact"}
DEFAULT_KIND = "note"


@dataclass(frozen=True)
class Stamps:
    memory_kind: str
    delivery_policy: str
    review_state: str


def kind_for(domain: str, source_type: str | None) -> str:
    """memory_kind from domain (+ source type): hot is standing, third-party content is reference."""
    domain = (domain or "").strip().lower()
    st = (source_type or "").strip().lower()
    if domain == "hot":
        return "standing"
    if st in EXTERNAL_SOURCE_TYPES:
        return "reference"
    if domain in KIND_BY_DOMAIN:
        return KIND_BY_DOMAIN[domain]
    return KIND_BY_SOURCE_TYPE.get(st, DEFAULT_KIND)


def creation_stamps(
    *,
    domain: str,
    source_type: str | None,
    memory_kind: str | None = None,
    delivery_policy: str | None = None,
    review_state: str | None = None,
) -> Stamps:
    """Fill blanks; explicit values win, except that domain="hot" is always-on whatever was said."""
    if (domain or "").strip().lower() == "hot":
        policy = "always"
    else:
        policy = delivery_policy or "retrieved"
    if review_state:
        state = review_state
    else:
        state = "confirmed" if trust_tier(source_type) == TrustTier.OPERATOR else "pending"
    return Stamps(
        memory_kind=memory_kind or kind_for(domain, source_type),
        delivery_policy=policy,
        review_state=state,
    )
