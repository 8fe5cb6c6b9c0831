"""memory.0003_stamp_legacy_rows: the one-shot backfill stamps legacy rows exactly like add_chunk."""

from __future__ import annotations

import itertools

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from memory.lifecycle.stamps import KIND_BY_DOMAIN, creation_stamps
from tests.memory.store.test_trust import KNOWN

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("memory", "0002_chunk_fts")]
BACKFILL = [("memory", "0003_stamp_legacy_rows")]
DOMAINS = [*KIND_BY_DOMAIN, "whatever", "", "HOT", "Fact"]
SOURCE_TYPES = [*KNOWN, "", "sdk", "CONSOLE", "Web"]


def migrate_to(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def legacy_apps():
    apps = migrate_to(BEFORE)
    yield apps
    executor = MigrationExecutor(connection)
    migrate_to(executor.loader.graph.leaf_nodes())


def expected(domain, source_type, memory_kind=None, delivery_policy=None, review_state=None):
    stamps = creation_stamps(
        domain=domain,
        source_type=source_type,
        memory_kind=memory_kind,
        delivery_policy=delivery_policy,
        review_state=review_state,
    )
    return stamps.memory_kind, stamps.delivery_policy, stamps.review_state


def test_backfill_stamps_every_row_of_the_table(legacy_apps):
    # given legacy rows for every (domain, source_type) pair, none of them stamped
    Chunk = legacy_apps.get_model("memory", "Chunk")
    pairs = list(itertools.product(DOMAINS, SOURCE_TYPES))
    Chunk.objects.bulk_create(
        Chunk(
            domain=d,
            source_type=st,
            content=f"{d}/{st}",
            memory_kind=None,
            review_state=None,
            delivery_policy=None,
        )
        for d, st in pairs
    )
    # and legacy rows where some stamps were already set
    partial = [
        ("fact", "web", "decision", None, None),
        ("fact", "harvest", None, "on_demand", None),
        ("fact", "harvest", None, None, "rejected"),
        ("hot", "", None, "retrieved", None),  # hot is always-on, whatever the row said
        ("conversation", "console", "note", "always", "pending"),  # fully stamped: untouched
    ]
    Chunk.objects.bulk_create(
        Chunk(domain=d, source_type=st, content="partial", memory_kind=k, delivery_policy=p, review_state=r)
        for d, st, k, p, r in partial
    )
    # when the backfill runs
    apps = migrate_to(BACKFILL)
    # then every row carries exactly the stamps add_chunk would give it
    Chunk = apps.get_model("memory", "Chunk")
    rows = list(Chunk.objects.order_by("id").values_list("memory_kind", "delivery_policy", "review_state"))
    assert len(rows) == len(pairs) + len(partial)
    assert rows[: len(pairs)] == [expected(d, st) for d, st in pairs]
    assert rows[len(pairs) :] == [expected(d, st, k, p, r) for d, st, k, p, r in partial]
    assert not Chunk.objects.filter(memory_kind__isnull=True).exists()


def test_backfill_is_rerunnable_and_reverses_cleanly(legacy_apps):
    Chunk = legacy_apps.get_model("memory", "Chunk")
    Chunk.objects.create(domain="hot", source_type="console", content="x")
    migrate_to(BACKFILL)
    # reverse is a no-op that keeps the stamps; running forward again changes nothing
    apps = migrate_to(BEFORE)
    Chunk = apps.get_model("memory", "Chunk")
    assert list(Chunk.objects.values_list("memory_kind", "delivery_policy", "review_state")) == [
        ("standing", "always", "confirmed")
    ]
    apps = migrate_to(BACKFILL)
    Chunk = apps.get_model("memory", "Chunk")
    assert list(Chunk.objects.values_list("memory_kind", "delivery_policy", "review_state")) == [
        ("standing", "always", "confirmed")
    ]


@pytest.mark.sqlite_only
def test_reverting_and_reapplying_the_authority_migration_keeps_the_index_triggers():
    # A table rebuild (Django's SQLite fallback for some column changes) would drop the FTS and
    # vector triggers; 0013's columns are plain nullable ones, so both directions are ALTER TABLE.
    from memory.store.text_index import fts5
    from memory.store.vector_health import vector_triggers_missing

    executor = MigrationExecutor(connection)
    leaf = executor.loader.graph.leaf_nodes()
    try:
        migrate_to([("memory", "0012_chunk_fts_usermerge")])
        # only the trigger a later migration (0014) adds
        assert (fts5.missing_schema(), vector_triggers_missing()) == ([], ["memory_chunk_vector_chunk_moved"])
    finally:
        migrate_to(leaf)
    assert (fts5.missing_schema(), vector_triggers_missing()) == ([], [])
