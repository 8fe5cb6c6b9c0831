"""Facts consolidation against the real store: dedup, supersede, failure order, FTS candidates."""

from __future__ import annotations

import dataclasses
import logging
import re
from datetime import timedelta

import pytest
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from memory.lifecycle import facts, facts_bulk
from memory.lifecycle.facts import fact_ingest
from memory.lifecycle.writes import ChunkDraft
from memory.store import text_index
from memory.store.models import Chunk
from memory.store.text_index import fts5
from protomem.errors import ApplicationError, ForbiddenError
from tests.factories import ChunkFactory

pytestmark = pytest.mark.django_db

WORDS = (
    "kestrel harbor violet ember quartz falcon meadow cobalt saffron juniper lantern orchid "
    "tundra walnut zephyr basalt cinder glacier hazel indigo maple nimbus opal pewter"
).split()


@pytest.fixture(autouse=True)
def _fresh_common_words():
    facts.reset_common_words()
    yield
    facts.reset_common_words()


def draft(content: str, *, namespace: str = "", **kw) -> ChunkDraft:
    return ChunkDraft(
        content=content, domain="fact", namespace=namespace, source="t-1", source_type="extracted", **kw
    )


def ingest(content: str, **kw) -> facts.FactOutcome:
    return fact_ingest(draft=draft(content, **kw), actor="system", path="test")


def text(shared: int, extra: list[str] | None = None) -> str:
    return " ".join(WORDS[:shared] + (extra or []))


def refuse(event: str, message: str, *, when: str = "") -> None:
    """Make the database refuse `event` on memory_chunk with `message` (undone with the test)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "CREATE FUNCTION test_refuse() RETURNS trigger AS $$ BEGIN "
                f"RAISE EXCEPTION '{message}'; END $$ LANGUAGE plpgsql"
            )
            condition = f"WHEN ({when})" if when else ""
            cursor.execute(
                f"CREATE TRIGGER test_refuse BEFORE {event} ON memory_chunk FOR EACH ROW {condition} "
                "EXECUTE FUNCTION test_refuse()"
            )
        else:
            condition = f"WHEN {when}" if when else ""
            cursor.execute(
                f"CREATE TEMP TRIGGER test_refuse BEFORE {event} ON memory_chunk {condition} "
                f"BEGIN SELECT RAISE(ABORT, '{message}'); END"
            )


def explain_lines(sql: str) -> list[str]:
    """The query plan of a captured statement (PostgreSQL: with sequential scans priced out)."""
    if connection.vendor != "postgresql":
        return fts5.explain(sql, [])
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + sql)
        return [row[0] for row in cursor.fetchall()]


def test_new_fact_is_inserted():
    outcome = ingest("The user deploys on Tuesdays")
    assert outcome.action == "inserted"
    assert outcome.superseded_id is None
    row = Chunk.objects.get()
    assert (row.pk, row.domain, row.source_type, row.review_state) == (
        outcome.chunk.pk,
        "fact",
        "extracted",
        "pending",
    )


def test_duplicate_at_exactly_085_is_skipped():
    # given: a stored fact of 18 tokens
    old = ingest(text(18)).chunk
    # when: 17 of them plus two new ones: 17 shared / 20 in the union = 0.85
    outcome = ingest(text(17, ["alpha", "beta"]))
    # then
    assert outcome.action == "duplicate"
    assert outcome.chunk.pk == old.pk
    assert outcome.score == pytest.approx(0.85)
    assert Chunk.objects.count() == 1


def test_just_under_085_supersedes():
    old = ingest(text(18)).chunk
    outcome = ingest(text(16, ["alpha", "beta"]))  # 16 / 20 = 0.80
    assert outcome.action == "superseded"
    assert outcome.superseded_id == old.pk
    old.refresh_from_db()
    assert old.invalidated_at is not None
    assert old.invalidation_reason == f"superseded_by:{outcome.chunk.pk}"
    assert Chunk.objects.get(pk=outcome.chunk.pk).invalidated_at is None


def test_revision_at_exactly_06_supersedes():
    old = ingest(text(8)).chunk
    outcome = ingest(text(6, ["alpha", "beta"]))  # 6 / 10 = 0.6
    assert outcome.action == "superseded"
    assert outcome.score == pytest.approx(0.6)
    old.refresh_from_db()
    assert old.superseded_by_id == outcome.chunk.pk


def test_just_under_06_is_a_new_fact():
    old = ingest(text(8)).chunk
    outcome = ingest(text(6, ["alpha", "beta", "gamma"]))  # 6 / 11
    assert outcome.action == "inserted"
    old.refresh_from_db()
    assert old.invalidated_at is None
    assert Chunk.objects.filter(invalidated_at__isnull=True).count() == 2


def test_running_twice_stores_once():
    first = ingest("The staging database is rebuilt every Sunday night")
    second = ingest("the staging database is rebuilt every sunday night.")
    assert (first.action, second.action) == ("inserted", "duplicate")
    assert second.chunk.pk == first.chunk.pk
    assert Chunk.objects.count() == 1


def test_namespaces_are_separate():
    ingest(text(10), namespace="alpha")
    outcome = ingest(text(10), namespace="beta")
    assert outcome.action == "inserted"
    assert Chunk.objects.count() == 2


def test_only_live_facts_are_compared():
    # superseded, expired and non-fact rows never absorb a new fact
    ChunkFactory(
        content=text(10), domain="fact", invalidated_at=timezone.now(), invalidation_reason="superseded_by:9"
    )
    ChunkFactory(content=text(10), domain="fact", expires_at=timezone.now() - timedelta(days=1))
    ChunkFactory(content=text(10), domain="conversation")
    outcome = ingest(text(10))
    assert outcome.action == "inserted"


def test_rejected_fact_still_absorbs_its_duplicate():
    # the operator turned this content down; the agent asserting it again changes nothing
    old = ChunkFactory(content=text(10), domain="fact", review_state="rejected")
    outcome = ingest(text(10))
    assert (outcome.action, outcome.chunk.pk) == ("duplicate", old.pk)


def test_failed_insert_never_invalidates():
    # given: a fact, and an insert that will fail in the database
    old = ingest(text(10)).chunk
    refuse("INSERT", "disk full", when="NEW.content LIKE '%alpha%'")
    # when: its revision cannot be stored
    with pytest.raises(DatabaseError, match="disk full"):
        ingest(text(8, ["alpha"]))
    # then: the old fact is intact and nothing else was written
    old.refresh_from_db()
    assert old.invalidated_at is None
    assert old.invalidation_reason == ""
    assert Chunk.objects.count() == 1


def test_invalidation_failure_is_logged_and_leaves_both_valid(caplog):
    old = ingest(text(10)).chunk
    refuse("UPDATE OF invalidated_at", "locked out")
    with caplog.at_level(logging.ERROR, logger="memory.lifecycle.facts"):
        outcome = ingest(text(8, ["alpha"]))  # 8 / 11: a revision
    assert outcome.action == "inserted"
    assert outcome.supersede_failed is True
    assert outcome.superseded_id is None
    assert Chunk.objects.filter(invalidated_at__isnull=True).count() == 2
    assert any(
        f"fact #{outcome.chunk.pk} landed but #{old.pk} was not invalidated" in r.getMessage()
        for r in caplog.records
    )


def test_invalidation_failure_inside_a_callers_transaction_keeps_it_usable():
    # the harvest calls fact_ingest inside its own transaction
    ingest(text(10))
    refuse("UPDATE OF invalidated_at", "locked out")
    with transaction.atomic():
        outcome = ingest(text(8, ["alpha"]))
        later = ingest("An unrelated fact about the lunch menu")
    assert (outcome.action, later.action) == ("inserted", "inserted")
    assert Chunk.objects.count() == 3


def test_reasoning_only_is_dropped():
    outcome = ingest("<think>the user probably wants this</think>")
    assert outcome.action == "dropped"
    assert outcome.chunk is None
    assert not Chunk.objects.exists()


def test_reasoning_is_stripped_before_comparing():
    ingest(text(10))
    outcome = ingest(f"<think>hmm, again?</think> {text(10)}")
    assert outcome.action == "duplicate"


def test_only_fact_drafts(settings):
    with pytest.raises(ApplicationError):
        fact_ingest(draft=ChunkDraft(content="x", domain="notes"), actor="system", path="test")


def test_hot_gate_refuses_agent_always_facts_before_anything(settings):
    cfg = settings.PROTOMEM
    settings.PROTOMEM = dataclasses.replace(
        cfg, knowledge=dataclasses.replace(cfg.knowledge, hot_write_confirm=True)
    )
    ingest(text(10))
    with pytest.raises(ForbiddenError, match="hot_write_confirm"):
        fact_ingest(
            draft=draft(text(10), delivery_policy="always"), actor="agent:1", path="t", agent_write=True
        )
    assert Chunk.objects.count() == 1
    # a non-agent path (the operator's) is not gated
    outcome = fact_ingest(
        draft=draft("Pinned: on call is Ana", delivery_policy="always"), actor="user:1", path="t"
    )
    assert outcome.action == "inserted"


def test_new_fact_with_rare_words_costs_one_index_lookup():
    ingest(text(10))
    with CaptureQueriesContext(connection) as queries:
        assert facts.closest("zebra yonder xylophone", namespace="") is None
    assert len(queries.captured_queries) == 1


def test_fact_made_of_common_words_still_dedups():
    # every token is a stopword: no rare word to look up, so the all-words lookup finds it
    first = ingest("it is what it is")
    second = ingest("It is what it is!")
    assert (first.action, second.action) == ("inserted", "duplicate")


def test_common_words_are_not_used_to_look_up(settings, monkeypatch):
    # given: a word held by more rows than COMMON_AT, and a fact sharing it plus rare words
    monkeypatch.setattr(facts, "COMMON_AT", 5)
    for i in range(6):
        ChunkFactory(content=f"deploy note {WORDS[i]} {WORDS[i + 6]}", domain="notes")
    old = ingest("deploy kestrel harbor violet ember").chunk
    # when
    outcome = ingest("deploy kestrel harbor violet quartz")  # 4 / 6
    # then: found through its rare words; "deploy" is now known common
    assert outcome.action == "superseded"
    assert outcome.superseded_id == old.pk
    db = str(connection.settings_dict["NAME"])
    assert (db, "deploy") in facts._common


def test_candidates_come_from_the_fts_index_never_a_table_scan():
    for i in range(30):
        ingest(f"{WORDS[i % len(WORDS)]} fact {i} about {WORDS[(i * 7) % len(WORDS)]} and {i * 13}")
    old = ingest(text(8)).chunk
    with CaptureQueriesContext(connection) as queries:
        match = facts.closest(text(6, ["alpha"]), namespace="")
    assert (match.chunk_id, match.decision) == (old.pk, "revision")
    selects = [q["sql"] for q in queries.captured_queries if q["sql"].lstrip().upper().startswith("SELECT")]
    assert len(selects) == 2  # the rare-word lookup, then the shortlisted rows by id
    assert "memory_chunk_fts MATCH" in selects[0] or "search_vector @@" in selects[0]
    for sql in selects:
        plan = explain_lines(sql)
        full_scan = re.compile(r"(^SCAN|Seq Scan on) memory_chunk\b(?!_fts)")
        scans = [line for line in plan if full_scan.search(line.strip())]
        assert not scans, (sql, plan)


def ingest_many(contents: list[str], **kw) -> list[facts.FactOutcome]:
    return facts_bulk.facts_ingest([draft(c, **kw) for c in contents], actor="system", path="test")


def test_bulk_decides_like_one_by_one_in_order():
    # given: a stored fact, then a batch that repeats, revises and extends it and itself
    ingest(text(18))
    batch = [
        text(17, ["alpha", "beta"]),  # duplicate of the stored fact (0.85)
        text(16, ["alpha", "beta"]),  # revises it (0.80)
        text(16, ["alpha", "beta"]),  # duplicate of the row just inserted by the batch
        "an unrelated fact about the lunch menu",
        "An unrelated fact about the lunch menu!",  # duplicate of the pending row
        text(8, ["gamma"]),  # 8 / 19 against the live revision: new
    ]
    # when
    outcomes = ingest_many(batch)
    # then: the same actions as calling fact_ingest for each, in order
    assert [o.action for o in outcomes] == [
        "duplicate",
        "superseded",
        "duplicate",
        "inserted",
        "duplicate",
        "inserted",
    ]
    assert outcomes[2].chunk.pk == outcomes[1].chunk.pk
    assert outcomes[4].chunk.pk == outcomes[3].chunk.pk
    assert outcomes[1].superseded_id == outcomes[0].chunk.pk
    assert Chunk.objects.filter(invalidated_at__isnull=True).count() == 3
    old = Chunk.objects.get(pk=outcomes[0].chunk.pk)
    assert old.invalidation_reason == f"superseded_by:{outcomes[1].chunk.pk}"


def test_bulk_supersedes_a_row_of_the_same_batch():
    outcomes = ingest_many([text(8), text(6, ["alpha", "beta"])])  # 6 / 10 = 0.6
    assert [o.action for o in outcomes] == ["inserted", "superseded"]
    first = Chunk.objects.get(pk=outcomes[0].chunk.pk)
    assert first.invalidation_reason == f"superseded_by:{outcomes[1].chunk.pk}"
    assert outcomes[1].superseded_id == first.pk


def test_bulk_matches_one_by_one_on_a_mixed_stream(django_db_blocker):
    # given: a stream where later facts repeat and revise earlier ones, across namespaces
    import random

    rng = random.Random(5)
    contents: list[tuple[str, str]] = []
    for _ in range(120):
        if contents and rng.random() < 0.4:
            base, namespace = rng.choice(contents)
            words = base.split()
            for _ in range(rng.choice((0, 1, 2, 4))):
                words[rng.randrange(len(words))] = rng.choice(WORDS)
            contents.append((" ".join(words), namespace))
        else:
            contents.append((" ".join(rng.sample(WORDS, rng.randint(3, 9))), rng.choice(("", "ops"))))
    # when: once one by one, once in bulk (fresh store each time)
    sequential = [ingest(c, namespace=ns) for c, ns in contents]
    seq_actions = [o.action for o in sequential]
    assert {"inserted", "duplicate", "superseded"} <= set(seq_actions)  # the stream exercises all three
    seq_live = sorted(Chunk.objects.filter(invalidated_at__isnull=True).values_list("content", "namespace"))
    Chunk.objects.all().delete()
    facts.reset_common_words()
    drafts = [draft(c, namespace=ns) for c, ns in contents]
    bulk = facts_bulk.facts_ingest(drafts, actor="system", path="test")
    # then
    assert [o.action for o in bulk] == seq_actions
    live = sorted(Chunk.objects.filter(invalidated_at__isnull=True).values_list("content", "namespace"))
    assert live == seq_live
    assert text_index.sql().integrity_check()


def test_bulk_invalidation_failure_is_logged_and_leaves_both_valid(caplog):
    old = ingest(text(10)).chunk
    refuse("UPDATE OF invalidated_at", "locked out")
    with caplog.at_level(logging.ERROR, logger="memory.lifecycle.facts"):
        (outcome,) = ingest_many([text(8, ["alpha"])])
    assert (outcome.action, outcome.supersede_failed, outcome.superseded_id) == ("inserted", True, None)
    assert Chunk.objects.filter(invalidated_at__isnull=True).count() == 2
    assert any(
        f"fact #{outcome.chunk.pk} landed but #{old.pk} was not invalidated" in r.getMessage()
        for r in caplog.records
    )


def test_bulk_failed_insert_writes_nothing():
    old = ingest(text(10)).chunk
    refuse("INSERT", "disk full", when="NEW.content LIKE '%alpha%'")
    with pytest.raises(DatabaseError, match="disk full"):
        ingest_many(["a first new fact about tundra", text(8, ["alpha"])])
    old.refresh_from_db()
    assert old.invalidated_at is None
    assert Chunk.objects.count() == 1


def test_bulk_drops_reasoning_and_refuses_other_domains():
    (dropped,) = ingest_many(["<think>just musing</think>"])
    assert (dropped.action, dropped.chunk) == ("dropped", None)
    with pytest.raises(ApplicationError):
        facts_bulk.facts_ingest(
            [draft(text(5)), ChunkDraft(content="x", domain="notes")], actor="system", path="t"
        )
    assert not Chunk.objects.exists()


def test_bulk_costs_a_fixed_number_of_statements_per_batch():
    ingest_many([f"{w} seed fact number {i}" for i, w in enumerate(WORDS)])
    batch = [f"{WORDS[i % 24]} {WORDS[(i + 5) % 24]} fresh entry {i} zz{i}" for i in range(40)]
    with CaptureQueriesContext(connection) as queries:
        outcomes = ingest_many(batch)
    assert all(o.action == "inserted" for o in outcomes)
    # rare-word lookup, candidate rows, one INSERT (+ savepoint bookkeeping), not one per fact
    assert len(queries.captured_queries) <= 8, [q["sql"][:80] for q in queries.captured_queries]
