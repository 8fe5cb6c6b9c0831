"""memory.store.trust: every source_type ranks into a tier; unknown or blank is external."""

from __future__ import annotations

import pytest

from memory.store import trust
from memory.store.trust import TrustTier, source_types_at_or_above, trust_label, trust_tier

KNOWN = {
    # operator surfaces (tier 3)
    "console": 3,
    "operator": 3,
    "admin": 3,
    # derived from conversation by the agent (tier 2)
    "memory_ingest": 2,
    "extracted": 2,
    "harvest": 2,
    "background": 2,
    # ingested third-party content (tier 1)
    "knowledge_ingest": 1,
    "web": 1,
    "youtube": 1,
    "pdf": 1,
    "media": 1,
    "document": 1,
    "snapshot": 1,
    "plugin": 1,
    "eval": 1,
}


def test_the_table_lists_every_known_source_type():
    listed = trust.OPERATOR_SOURCE_TYPES | trust.AGENT_SOURCE_TYPES | trust.EXTERNAL_SOURCE_TYPES
    assert listed == set(KNOWN)


@pytest.mark.parametrize(("source_type", "tier"), sorted(KNOWN.items()))
def test_known_source_type_tier(source_type, tier):
    assert trust_tier(source_type) == tier
    assert trust_label(source_type) == {3: "operator", 2: "agent", 1: "external"}[tier]


@pytest.mark.parametrize("source_type", [None, "", "   ", "sdk", "operator-ish", "unknown"])
def test_unknown_or_blank_is_external(source_type):
    assert trust_tier(source_type) is TrustTier.EXTERNAL
    assert trust_label(source_type) == "external"


def test_matching_ignores_case_and_surrounding_space():
    assert trust_tier(" Console ") is TrustTier.OPERATOR
    assert trust_tier("HARVEST") is TrustTier.AGENT


def test_labels_and_values():
    assert [(t.value, trust.LABELS[t]) for t in TrustTier] == [(1, "external"), (2, "agent"), (3, "operator")]


def test_query_filter_sets_by_floor():
    assert source_types_at_or_above(1) == (frozenset(), True)
    assert source_types_at_or_above(2) == (trust.OPERATOR_SOURCE_TYPES | trust.AGENT_SOURCE_TYPES, False)
    assert source_types_at_or_above(3) == (trust.OPERATOR_SOURCE_TYPES, False)
