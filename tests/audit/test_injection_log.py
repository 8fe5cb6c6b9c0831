"""The injection log: its own database, the record service and the per-chunk history."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connections

from audit.models import InjectionLog, InjectionLogItem
from audit.selectors import injection_chunk_sections, injection_logs, injections_for_chunk
from audit.services import injection_log_record

pytestmark = pytest.mark.django_db(databases=["default", "injections"])


def tables(alias):
    with connections[alias].cursor() as cursor:
        return set(connections[alias].introspection.table_names(cursor))


def test_log_tables_live_only_in_the_injections_database():
    assert {"audit_injectionlog", "audit_injectionlogitem"} <= tables("injections")
    assert not {"audit_injectionlog", "audit_injectionlogitem"} & tables("default")
    assert "audit_auditevent" in tables("default")
    assert "audit_auditevent" not in tables("injections")
    assert "memory_chunk" not in tables("injections")


def test_record_writes_one_row_and_its_items():
    log = injection_log_record(
        agent_id=7,
        session_id="t-1",
        digest_session_ids=["s2", "s1"],
        hot_ids=[3, 1],
        rag_ids=[9, 4, 9],
        approx_tokens=120,
    )
    assert log._state.db == "injections"
    stored = InjectionLog.objects.get()
    assert (stored.agent_id, stored.session_id, stored.approx_tokens) == (7, "t-1", 120)
    assert (stored.digest_session_ids, stored.hot_ids, stored.rag_ids) == (["s2", "s1"], [3, 1], [9, 4])
    assert sorted(InjectionLogItem.objects.values_list("section", "chunk_id")) == [
        ("hot", 1),
        ("hot", 3),
        ("rag", 4),
        ("rag", 9),
    ]
    with connections["injections"].cursor() as cursor:
        cursor.execute("SELECT count(*) FROM audit_injectionlog")
        assert cursor.fetchone()[0] == 1


def test_record_writes_many_items_exactly():
    """Many items (PostgreSQL: one INSERT taking a column array per field) land whole and exact,
    with their scopes and a NULL agent, and a single item as well."""
    rag = list(range(1, 400))
    log = injection_log_record(
        agent_id=None, session_id="t-big", hot_ids=[500], rag_ids=rag, scopes={2: "commons"}
    )
    single = injection_log_record(agent_id=3, session_id="t-one", rag_ids=[5])
    items = list(
        InjectionLogItem.objects.filter(log_id=log.pk).values_list(
            "chunk_id", "section", "scope", "agent_id", "session_id"
        )
    )
    expected = [(500, "hot", "private", None, "t-big")] + [
        (i, "rag", "commons" if i == 2 else "private", None, "t-big") for i in rag
    ]
    assert sorted(items) == sorted(expected)
    assert list(
        InjectionLogItem.objects.filter(log_id=single.pk).values_list("chunk_id", "section", "agent_id")
    ) == [(5, "rag", 3)]


def test_injections_for_chunk_is_newest_first_over_hot_and_rag():
    a = injection_log_record(agent_id=1, session_id="a", hot_ids=[5])
    injection_log_record(agent_id=1, session_id="b", rag_ids=[6])
    c = injection_log_record(agent_id=2, session_id="c", rag_ids=[5, 6], hot_ids=[5])
    assert list(injections_for_chunk(5)) == [c, a]
    sections = {log_id: sorted(v) for log_id, v in injection_chunk_sections(5).items()}
    assert sections == {a.pk: ["hot"], c.pk: ["hot", "rag"]}
    assert list(injections_for_chunk(999)) == []


@pytest.mark.sqlite_only
def test_injections_for_chunk_uses_the_chunk_index():
    with connections["injections"].cursor() as cursor:
        cursor.execute(
            "EXPLAIN QUERY PLAN SELECT log_id FROM audit_injectionlogitem WHERE chunk_id = %s", [5]
        )
        plan = " ".join(str(row[-1]) for row in cursor.fetchall())
    assert "injection_item_chunk" in plan


def test_selector_filters():
    base = datetime(2026, 7, 1, 12, tzinfo=UTC)
    rows = []
    for i, (agent, session) in enumerate([(1, "a"), (1, "b"), (2, "a")]):
        log = injection_log_record(agent_id=agent, session_id=session, hot_ids=[i])
        InjectionLog.objects.filter(pk=log.pk).update(created_at=base + timedelta(days=i))
        rows.append(log.pk)
    assert [r.pk for r in injection_logs()] == rows[::-1]
    assert [r.pk for r in injection_logs(session_id="a")] == [rows[2], rows[0]]
    assert [r.pk for r in injection_logs(agent_id=1)] == [rows[1], rows[0]]
    assert [r.pk for r in injection_logs(on_date=(base + timedelta(days=1)).date())] == [rows[1]]
    assert [r.pk for r in injection_logs(since=base + timedelta(hours=1))] == [rows[2], rows[1]]
    assert [r.pk for r in injection_logs(until=base + timedelta(hours=1))] == [rows[0]]
