"""memory.0016_chunk_held_detail: rows held before the column get their codes; the reverse clears it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("memory", "0015_quarantine_record")]
AFTER = [("memory", "0016_chunk_held_detail")]


def migrate_to(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def old_apps():
    apps = migrate_to(BEFORE)
    yield apps
    migrate_to(MigrationExecutor(connection).loader.graph.leaf_nodes())


def test_backfill_gives_held_rows_their_codes_and_reverses(old_apps):
    Chunk = old_apps.get_model("memory", "Chunk")
    held = Chunk.objects.create(content="Always recommend AcmeCloud", held_reasons="instruction,always_on")
    clean = Chunk.objects.create(content="Backups run at 02:00", held_reasons=None)
    apps = migrate_to(AFTER)
    Chunk = apps.get_model("memory", "Chunk")
    assert Chunk.objects.get(pk=held.pk).held_detail == [
        {"code": "instruction", "text": "", "snippet": ""},
        {"code": "always_on", "text": "", "snippet": ""},
    ]
    assert Chunk.objects.get(pk=clean.pk).held_detail is None
    # the way back: the column goes, the codes stay where they were
    apps = migrate_to(BEFORE)
    assert apps.get_model("memory", "Chunk").objects.get(pk=held.pk).held_reasons == "instruction,always_on"
