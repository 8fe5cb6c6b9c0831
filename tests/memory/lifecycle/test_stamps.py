"""memory.lifecycle.stamps: what add_chunk fills in when the caller left it blank (ADR 0108 D7)."""

from __future__ import annotations

import pytest

from memory.lifecycle.stamps import (
    DEFAULT_KIND,
    KIND_BY_DOMAIN,
    KIND_BY_SOURCE_TYPE,
    Stamps,
    creation_stamps,
    kind_for,
)
from memory.store.models import MemoryKind
from memory.store.trust import EXTERNAL_SOURCE_TYPES
from tests.memory.store.test_trust import KNOWN

# The kind table, row by row: (domain, source_type) -> memory_kind.
KIND_ROWS = [
    ("hot", "", "standing"),
    ("hot", "web", "standing"),  # hot wins over third-party provenance
    ("standing", "", "standing"),
    ("fact", "", "fact"),
    ("facts", "", "fact"),
    ("conversation", "", "episode"),
    ("episode", "", "episode"),
    ("finding", "", "note"),
    ("note", "", "note"),
    ("notes", "", "note"),
    ("context", "", "note"),
    ("preferences", "", "profile"),
    ("profile", "", "profile"),
    ("decision", "", "decision"),
    ("decisions", "", "decision"),
    ("knowledge", "", "reference"),
    ("reference", "", "reference"),
    ("document", "", "reference"),
    # source type decides when the domain is not in the table
    ("whatever", "harvest", "episode"),
    ("whatever", "extracted", "fact"),
    ("whatever", "", "note"),
    ("whatever", "memory_ingest", "note"),
    ("", "", "note"),
    # domain decides over the agent's own source types
    ("fact", "harvest", "fact"),
    ("conversation", "extracted", "episode"),
    # third-party content is reference whatever the domain says (except hot)
    ("fact", "web", "reference"),
    ("conversation", "pdf", "reference"),
    # case and whitespace do not matter
    ("HOT", "", "standing"),
    (" Fact ", "", "fact"),
    ("whatever", "WEB", "reference"),
]


@pytest.mark.parametrize(("domain", "source_type", "kind"), KIND_ROWS)
def test_kind_table_row(domain, source_type, kind):
    assert kind_for(domain, source_type) == kind
    assert creation_stamps(domain=domain, source_type=source_type).memory_kind == kind


def test_kind_rows_cover_the_whole_table():
    domains = {d.strip().lower() for d, _, _ in KIND_ROWS}
    assert set(KIND_BY_DOMAIN) <= domains
    assert set(KIND_BY_SOURCE_TYPE) <= {st for _, st, _ in KIND_ROWS}
    assert DEFAULT_KIND == "note"


@pytest.mark.parametrize("source_type", sorted(EXTERNAL_SOURCE_TYPES))
def test_every_external_source_type_is_reference(source_type):
    assert kind_for("fact", source_type) == "reference"


def test_every_stamped_kind_is_a_valid_choice():
    produced = (
        {kind for _, _, kind in KIND_ROWS} | set(KIND_BY_DOMAIN.values()) | set(KIND_BY_SOURCE_TYPE.values())
    )
    assert produced <= set(MemoryKind.values)


@pytest.mark.parametrize(("source_type", "tier"), [*sorted(KNOWN.items()), ("", 1), (None, 1), ("sdk", 1)])
def test_review_state_by_trust_tier(source_type, tier):
    stamps = creation_stamps(domain="fact", source_type=source_type)
    assert stamps.review_state == ("confirmed" if tier == 3 else "pending")


@pytest.mark.parametrize(
    ("domain", "asked", "policy"),
    [
        ("hot", None, "always"),
        ("hot", "retrieved", "always"),  # forced, whatever the caller said
        ("hot", "on_demand", "always"),
        ("Hot", "on_demand", "always"),
        ("fact", None, "retrieved"),
        ("fact", "always", "always"),  # pinning a non-hot row is allowed
        ("fact", "on_demand", "on_demand"),
        ("preferences", "retrieved", "retrieved"),
    ],
)
def test_delivery_policy(domain, asked, policy):
    assert creation_stamps(domain=domain, source_type="", delivery_policy=asked).delivery_policy == policy


def test_explicit_values_win():
    stamps = creation_stamps(
        domain="conversation",
        source_type="web",
        memory_kind="decision",
        delivery_policy="on_demand",
        review_state="confirmed",
    )
    assert stamps == Stamps(memory_kind="decision", delivery_policy="on_demand", review_state="confirmed")
    # an operator write may still start pending or rejected if the caller says so
    assert (
        creation_stamps(domain="fact", source_type="console", review_state="pending").review_state
        == "pending"
    )
    assert (
        creation_stamps(domain="fact", source_type="console", review_state="rejected").review_state
        == "rejected"
    )


def test_blank_strings_count_as_not_given():
    stamps = creation_stamps(
        domain="fact", source_type="harvest", memory_kind="", delivery_policy="", review_state=""
    )
    assert stamps == Stamps(memory_kind="fact", delivery_policy="retrieved", review_state="pending")
