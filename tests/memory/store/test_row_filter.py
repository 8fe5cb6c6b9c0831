"""memory.store.row_filter: the compiled path returns what the ORM would, converters included."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db.models import Q, Value

from memory.lifecycle.writes import ChunkDraft, add_chunks
from memory.store.deliverable import deliverable
from memory.store.models import Chunk
from memory.store.row_filter import RowFilter, chunks_in_order, compiled_filter, required_values

pytestmark = pytest.mark.django_db

FIELDS = ("id", "domain", "source", "created_at", "content")


def test_compiled_rows_match_the_orm_and_keep_the_filters() -> None:
    add_chunks(
        ChunkDraft(
            content=f"turn {i}",
            domain="turn",
            namespace="a" if i % 2 else "b",
            source="s1",
            created_at=datetime(2026, 5, 3, 12, i, tzinfo=UTC),
        )
        for i in range(6)
    )
    ids = list(Chunk.objects.order_by("pk").values_list("pk", flat=True))
    queryset = deliverable(Chunk.objects.filter(namespace="a"))
    passes = RowFilter(queryset)

    rows = sorted(passes.rows([*ids, *ids, 10**9], FIELDS))
    expected = sorted(tuple(r) for r in queryset.filter(pk__in=ids).values_list(*FIELDS))

    assert passes.compiled is not None  # the fast path, not the ORM fallback
    assert rows == expected
    assert len(rows) == 3
    assert rows[0][3] == datetime(2026, 5, 3, 12, 1, tzinfo=UTC)  # a datetime, as the ORM gives it
    assert passes.allowed(ids) == {r[0] for r in expected}
    assert passes.rows([], FIELDS) == []


def test_a_queryset_with_a_join_goes_through_the_orm() -> None:
    add_chunks([ChunkDraft(content="one", namespace="a")])
    queryset = Chunk.objects.filter(agent__is_active=True)
    passes = RowFilter(queryset)

    assert passes.compiled is None
    assert passes.allowed(Chunk.objects.values_list("pk", flat=True)) == set()  # no agent: the join drops it


def test_rows_by_a_column_are_filtered_and_ordered() -> None:
    add_chunks(
        ChunkDraft(
            content=f"turn {i}",
            domain="turn",
            namespace="a" if i != 2 else "b",
            source=f"s{i % 2}",
            created_at=datetime(2026, 5, 3, 12, 10 - i, tzinfo=UTC),
        )
        for i in range(5)
    )
    passes = RowFilter(deliverable(Chunk.objects.filter(namespace="a")))
    fallback = RowFilter(Chunk.objects.filter(namespace="a").annotate(one=Value(1)))  # not compilable

    found = passes.rows_by("source", ["s0", "s9"], ("content", "source"), order_by=("source", "created_at"))

    assert found == [("turn 4", "s0"), ("turn 0", "s0")]  # "turn 2" is in namespace b; oldest first
    assert passes.rows_by("source", [], ("content",)) == []
    assert fallback.compiled is None
    assert sorted(fallback.rows_by("source", ["s1"], ("content",))) == [("turn 1",), ("turn 3",)]
    with pytest.raises(ValueError, match="at most"):
        passes.rows_by("source", ["s"] * 501, ("content",))


def stored(count: int) -> list[int]:
    add_chunks(ChunkDraft(content=f"row {i}", namespace="a" if i % 3 else "b") for i in range(count))
    return list(Chunk.objects.order_by("pk").values_list("pk", flat=True))


def first_ids(passes: RowFilter, ids: list[int], want: int) -> list[int]:
    return [row[0] for row in passes.first_passing_rows(ids, want, ("id",))]


def test_first_passing_keeps_the_given_order_and_stops_at_want() -> None:
    ids = stored(12)
    ranked = [ids[i] for i in (7, 0, 11, 3, 5, 9, 1, 10, 4)]  # best first, not id order
    in_a = set(Chunk.objects.filter(namespace="a").values_list("pk", flat=True))
    passes = RowFilter(deliverable(Chunk.objects.filter(namespace="a")))

    first_four = first_ids(passes, ranked, 4)
    everything = first_ids(passes, [*ranked, 10**9], 100)

    assert passes.compiled is not None
    assert everything == [i for i in ranked if i in in_a]
    assert first_four == everything[:4]
    assert first_ids(passes, ranked, 0) == []
    assert first_ids(passes, [], 3) == []


def test_first_passing_through_the_orm_gives_the_same_answer() -> None:
    ids = stored(9)
    ranked = list(reversed(ids))
    joined = RowFilter(Chunk.objects.filter(namespace="a").annotate(one=Value(1)))
    compiled = RowFilter(Chunk.objects.filter(namespace="a"))

    assert joined.compiled is None
    assert first_ids(joined, ranked, 4) == first_ids(compiled, ranked, 4)
    assert len(first_ids(compiled, ranked, 4)) == 4


def test_one_queryset_is_compiled_once() -> None:
    queryset = deliverable(Chunk.objects.filter(namespace="a"))

    assert compiled_filter(queryset) is compiled_filter(queryset)
    assert compiled_filter(queryset.filter(domain="turn")) != compiled_filter(queryset)


def test_chunks_in_order_reads_whole_rows_as_the_orm_does() -> None:
    ids = stored(5)
    wanted = [ids[3], 10**9, ids[0], ids[3]]

    chunks = chunks_in_order(wanted)

    assert [c.pk for c in chunks] == [ids[3], ids[0], ids[3]]
    orm = Chunk.objects.get(pk=ids[3])
    assert {f.attname: getattr(chunks[0], f.attname) for f in Chunk._meta.concrete_fields} == {
        f.attname: getattr(orm, f.attname) for f in Chunk._meta.concrete_fields
    }
    assert chunks[0]._state.adding is False


def test_required_values_reads_the_anded_equality_and_in_filters() -> None:
    chunks = Chunk.objects

    assert required_values(chunks.filter(namespace="a"), "namespace") == {"a"}
    assert required_values(deliverable(chunks.filter(namespace__in=["a", "b"])), "namespace") == {"a", "b"}
    both = chunks.filter(namespace__in=["a", "b"]).filter(namespace="b")
    assert required_values(both, "namespace") == {"b"}
    assert required_values(chunks.filter(Q(namespace="a") & Q(domain="turn")), "namespace") == {"a"}
    # anything that does not pin the value: no answer, so the caller reads every row
    assert required_values(chunks.all(), "namespace") is None
    assert required_values(chunks.exclude(namespace="a"), "namespace") is None
    assert required_values(chunks.filter(Q(namespace="a") | Q(domain="turn")), "namespace") is None
    assert required_values(chunks.filter(namespace__startswith="a"), "namespace") is None
    assert required_values(chunks.filter(namespace__in=chunks.values("namespace")), "namespace") is None
