"""add_chunk / add_chunks: the one write door (guardrail, creation stamps, hot-write audit)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from audit.models import AuditEvent
from audit.services import HOT_WRITTEN
from audit.signals import hot_written
from memory.lifecycle import writes
from memory.lifecycle.stamps import creation_stamps
from memory.lifecycle.writes import ChunkDraft, add_chunk, add_chunks
from memory.store import text_index
from memory.store.models import Chunk
from protomem.errors import ApplicationError, ForbiddenError

pytestmark = pytest.mark.django_db

COMPARED = [f.attname for f in Chunk._meta.concrete_fields if f.attname != "id"]


def row(chunk: Chunk) -> dict[str, object]:
    return {name: getattr(chunk, name) for name in COMPARED}


def gate(settings, on: bool) -> None:
    settings.PROTOMEM = dataclasses.replace(
        settings.PROTOMEM, knowledge=dataclasses.replace(settings.PROTOMEM.knowledge, hot_write_confirm=on)
    )


def test_add_chunk_stores_a_stamped_row():
    # given an agent-derived fact with no stamps
    chunk = add_chunk(
        ChunkDraft(content="The user deploys on Tuesdays.", heading="Deploys", source_type="extracted")
    )
    # then it is stored with the stamps filled and nothing guessed
    stored = Chunk.objects.get(pk=chunk.pk)
    assert (stored.memory_kind, stored.delivery_policy, stored.review_state) == (
        "fact",
        "retrieved",
        "pending",
    )
    assert (stored.subject, stored.expires_at, stored.invalidated_at) == (None, None, None)
    assert (stored.content, stored.heading, stored.domain) == (
        "The user deploys on Tuesdays.",
        "Deploys",
        "fact",
    )
    assert stored.created_at == chunk.created_at
    assert timezone.is_aware(stored.created_at)


def test_operator_write_starts_confirmed_and_unknown_source_pending():
    operator = add_chunk(ChunkDraft(content="office is closed Fridays", source_type="console"))
    sdk = add_chunk(ChunkDraft(content="plugin wrote this"))
    assert Chunk.objects.get(pk=operator.pk).review_state == "confirmed"
    assert Chunk.objects.get(pk=sdk.pk).review_state == "pending"


def test_explicit_values_win_and_subject_expiry_are_kept():
    expires = timezone.now() + timedelta(days=3)
    chunk = add_chunk(
        ChunkDraft(
            content="x is y",
            domain="conversation",
            source_type="harvest",
            memory_kind="decision",
            review_state="confirmed",
            delivery_policy="on_demand",
            subject="x",
            expires_at=expires,
        )
    )
    stored = Chunk.objects.get(pk=chunk.pk)
    assert (stored.memory_kind, stored.review_state, stored.delivery_policy) == (
        "decision",
        "confirmed",
        "on_demand",
    )
    assert (stored.subject, stored.expires_at) == ("x", expires)


def test_hot_is_always_whatever_the_caller_said_and_audited(django_capture_on_commit_callbacks):
    # given a listener on the hot_written signal
    heard = []

    def listener(**kwargs):
        heard.append((kwargs["chunk_id"], kwargs["actor"], kwargs["path"]))

    hot_written.connect(listener)
    try:
        # when a hot write asks for on_demand
        with django_capture_on_commit_callbacks(execute=True):
            chunk = add_chunk(
                ChunkDraft(content="never deploy on Fridays", domain="hot", delivery_policy="on_demand"),
                actor="user:1",
                path="console",
            )
    finally:
        hot_written.disconnect(listener)
    # then it is always-on, and one audit event plus one signal record it
    assert Chunk.objects.get(pk=chunk.pk).delivery_policy == "always"
    assert Chunk.objects.get(pk=chunk.pk).memory_kind == "standing"
    event = AuditEvent.objects.get(event=HOT_WRITTEN)
    assert (event.chunk_id, event.actor, event.path) == (chunk.pk, "user:1", "console")
    assert heard == [(chunk.pk, "user:1", "console")]


def test_non_hot_write_is_not_audited():
    add_chunk(ChunkDraft(content="ordinary fact"))
    assert AuditEvent.objects.count() == 0


def test_guardrail_strips_content_and_heading():
    chunk = add_chunk(
        ChunkDraft(
            content="<think>plan the answer</think>Stored text. <SCRATCH_PAD>x",
            heading="<think>h</think>Title",
        )
    )
    stored = Chunk.objects.get(pk=chunk.pk)
    assert (stored.content, stored.heading) == ("Stored text.", "Title")


@pytest.mark.parametrize(
    "content", ["<think>only reasoning</think>", "<Think>unclosed", "all of it</think>  "]
)
def test_reasoning_only_is_dropped(content):
    assert add_chunk(ChunkDraft(content=content, heading="h", domain="hot")) is None
    assert Chunk.objects.count() == 0
    assert AuditEvent.objects.count() == 0


@pytest.mark.parametrize("content", ["", "   \n"])
def test_empty_content_is_refused(content):
    with pytest.raises(ApplicationError, match="content must not be empty"):
        add_chunk(ChunkDraft(content=content))
    assert Chunk.objects.count() == 0


@pytest.mark.parametrize(
    ("field", "value"),
    [("memory_kind", "gossip"), ("review_state", "maybe"), ("delivery_policy", "sometimes")],
)
def test_invalid_choice_is_refused_naming_the_field(field, value):
    with pytest.raises(ApplicationError, match=f"{field} must be one of") as excinfo:
        add_chunk(ChunkDraft(content="x", **{field: value}))
    assert excinfo.value.extra == {"field": field}
    assert Chunk.objects.count() == 0


def test_hot_write_gate_refuses_agent_writes_only(settings):
    gate(settings, True)
    with pytest.raises(ForbiddenError):
        add_chunk(ChunkDraft(content="pin me", domain="hot"), agent_write=True)
    with pytest.raises(ForbiddenError):
        add_chunk(ChunkDraft(content="pin me", delivery_policy="always"), agent_write=True)
    assert Chunk.objects.count() == 0
    assert AuditEvent.objects.count() == 0
    # operator surfaces and non-always agent writes still work
    assert add_chunk(ChunkDraft(content="pin me", domain="hot", source_type="console")) is not None
    assert add_chunk(ChunkDraft(content="plain", domain="fact"), agent_write=True) is not None
    assert Chunk.objects.count() == 2


def test_hot_write_gate_off_lets_agents_pin(settings):
    gate(settings, False)
    assert add_chunk(ChunkDraft(content="pin me", domain="hot"), agent_write=True).delivery_policy == "always"


# -- bulk mode


def drafts_of_every_kind(now: datetime) -> list[ChunkDraft]:
    return [
        ChunkDraft(content="fact one", heading="F1", source_type="extracted", created_at=now),
        ChunkDraft(content="episode", domain="conversation", source_type="harvest", created_at=now),
        ChunkDraft(content="operator", source_type="console", namespace="ops", created_at=now),
        ChunkDraft(content="web page", source_type="web", source="https://example.com/a", created_at=now),
        ChunkDraft(content="pinned", domain="hot", delivery_policy="retrieved", created_at=now),
        ChunkDraft(
            content="typed",
            memory_kind="decision",
            review_state="rejected",
            delivery_policy="on_demand",
            subject="s",
            expires_at=now + timedelta(days=1),
            created_at=now,
        ),
        ChunkDraft(content="odd microseconds", created_at=now, expires_at=now.replace(microsecond=7)),
        ChunkDraft(content="<think>x</think>kept part", heading="<think>y</think>", created_at=now),
    ]


def test_bulk_rows_equal_single_rows():
    # given the same drafts written once each way
    now = timezone.now()
    singles = [add_chunk(d) for d in drafts_of_every_kind(now)]
    stored = add_chunks(drafts_of_every_kind(now))
    # then bulk mode stored exactly what add_chunk stores, field for field
    assert stored == len(singles)
    bulk = list(Chunk.objects.order_by("id"))[len(singles) :]
    assert [row(c) for c in bulk] == [row(Chunk.objects.get(pk=c.pk)) for c in singles]
    assert [row(c) for c in bulk] == [row(c) for c in singles]


def test_bulk_skips_reasoning_only_drafts():
    drafts = [ChunkDraft(content="a"), ChunkDraft(content="<think>b</think>"), ChunkDraft(content="c")]
    assert add_chunks(drafts) == 2
    assert list(Chunk.objects.order_by("id").values_list("content", flat=True)) == ["a", "c"]


def test_bulk_audits_each_hot_row(django_capture_on_commit_callbacks):
    heard = []

    def listener(**kwargs):
        heard.append(kwargs["chunk_id"])

    hot_written.connect(listener)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            add_chunks(
                [
                    ChunkDraft(content="h1", domain="hot"),
                    ChunkDraft(content="plain"),
                    ChunkDraft(content="h2", domain="hot"),
                ],
                actor="system",
                path="import",
                batch_size=2,
            )
    finally:
        hot_written.disconnect(listener)
    hot_ids = list(Chunk.objects.filter(delivery_policy="always").order_by("id").values_list("id", flat=True))
    assert len(hot_ids) == 2
    assert sorted(AuditEvent.objects.filter(event=HOT_WRITTEN).values_list("chunk_id", flat=True)) == hot_ids
    assert set(AuditEvent.objects.values_list("actor", "path")) == {("system", "import")}
    assert sorted(heard) == hot_ids


def test_bulk_batches_and_statements_keep_order_and_index(monkeypatch):
    # given tiny statements (3 rows each) and batches (7 rows per transaction)
    monkeypatch.setattr(text_index.sql(), "MAX_ROWS_PER_INSERT", 3)
    drafts = [
        ChunkDraft(content=f"row {i} zebrafish", heading=f"h{i}", domain="hot" if i == 4 else "fact")
        for i in range(20)
    ]
    # when they go in through bulk mode
    assert add_chunks(drafts, batch_size=7) == 20
    # then every row is stored in order, indexed by FTS, and the one hot row audited
    rows = list(Chunk.objects.order_by("id"))
    assert [c.content for c in rows] == [f"row {i} zebrafish" for i in range(20)]
    index = text_index.sql()
    assert sorted(index.match_ids(index.all_terms(["zebrafish"]), limit=None)) == [c.pk for c in rows]
    assert list(AuditEvent.objects.values_list("chunk_id", flat=True)) == [rows[4].pk]
    assert text_index.sql().integrity_check()


def test_bulk_without_returning_still_knows_every_id(monkeypatch):
    # given a SQLite too old for RETURNING
    monkeypatch.setattr(type(connection.features), "can_return_rows_from_bulk_insert", False)
    now = timezone.now()
    # when the same drafts go through both bulk paths
    assert add_chunks(drafts_of_every_kind(now)) == 8
    monkeypatch.undo()
    assert add_chunks(drafts_of_every_kind(now)) == 8
    # then they agree, hot audit included
    rows = list(Chunk.objects.order_by("id"))
    assert [row(c) for c in rows[:8]] == [row(c) for c in rows[8:]]
    hot = [c.pk for c in rows if c.delivery_policy == "always"]
    assert len(hot) == 2
    assert sorted(AuditEvent.objects.filter(event=HOT_WRITTEN).values_list("chunk_id", flat=True)) == hot


def test_bulk_hands_every_inserted_id_to_the_embedder(monkeypatch):
    # both insert paths report every new row (hot or not) for embedding

    seen: list[int] = []
    monkeypatch.setattr(writes, "chunk_embed_enqueue", lambda *, chunk_ids: seen.extend(chunk_ids))
    add_chunks(drafts_of_every_kind(timezone.now()), batch_size=3)
    monkeypatch.setattr(type(connection.features), "can_return_rows_from_bulk_insert", False)
    add_chunks(drafts_of_every_kind(timezone.now()), batch_size=3)
    assert seen == list(Chunk.objects.order_by("id").values_list("id", flat=True))
    assert len(seen) == 16


def test_bulk_invalid_draft_raises_before_its_batch_is_written():
    drafts = [ChunkDraft(content="a"), ChunkDraft(content="b"), ChunkDraft(content="c", review_state="bogus")]
    with pytest.raises(ApplicationError, match="review_state must be one of"):
        add_chunks(drafts, batch_size=2)
    # the first full batch was committed; the batch holding the bad draft never went in
    assert list(Chunk.objects.values_list("content", flat=True)) == ["a", "b"]


def test_bulk_default_created_at_is_now_and_aware():
    before = timezone.now()
    add_chunks([ChunkDraft(content="x")])
    stored = Chunk.objects.get()
    assert before <= stored.created_at <= timezone.now()
    assert stored.created_at.tzinfo is not None
    assert stored.created_at.utcoffset() == UTC.utcoffset(None)


def test_bulk_stamps_match_the_stamp_table():
    drafts = drafts_of_every_kind(timezone.now())
    add_chunks(drafts)
    for draft, chunk in zip(drafts, Chunk.objects.order_by("id"), strict=True):
        stamps = creation_stamps(
            domain=draft.domain,
            source_type=draft.source_type,
            memory_kind=draft.memory_kind,
            delivery_policy=draft.delivery_policy,
            review_state=draft.review_state,
        )
        assert (chunk.memory_kind, chunk.delivery_policy, chunk.review_state) == (
            stamps.memory_kind,
            stamps.delivery_policy,
            stamps.review_state,
        )


def test_bulk_uses_few_large_insert_statements():
    # FTS5 writes one index segment per INSERT statement through the sync trigger (text_index.fts5),
    # so bulk mode must send big statements, not one per row or Django's 62-row batches.
    drafts = [ChunkDraft(content=f"bulk row {i}") for i in range(4500)]
    with CaptureQueriesContext(connection) as ctx:
        assert add_chunks(drafts) == 4500
    inserts = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith('INSERT INTO memory_chunk ("')]
    assert len(inserts) == 3  # 2000 + 2000 + 500 rows, one transaction
    assert Chunk.objects.count() == 4500
    assert text_index.sql().integrity_check()


@pytest.mark.sqlite_only
def test_bulk_restores_the_page_cache_size():
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA cache_size")
        before = cursor.fetchone()[0]
    add_chunks([ChunkDraft(content="x")])
    with pytest.raises(ApplicationError):
        add_chunks([ChunkDraft(content="y", memory_kind="bogus")])
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA cache_size")
        assert cursor.fetchone()[0] == before
