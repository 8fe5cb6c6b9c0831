"""A caller's queryset applied to ids the store already ranked: which pass, and their columns.

Vector hits, the turn window's neighbours and the rerank pool are ids found outside the ORM;
each must still pass the caller's filters (deliverable(), namespace, scope). Filtering them with
`queryset.filter(pk__in=batch)` costs more to build than to run: Django prepares every one of
a 500-id IN list's parameters (~1.5 ms a batch here, against ~0.1 ms for the statement). So a
plain single-table queryset's WHERE is compiled once to SQL (`compiled_filter`, also the
keyword search's one-statement path) and run beside a parameterized `id IN (...)`; any other
queryset (joins, annotations, slices) goes through the ORM as before, with the same result.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection
from django.db.models import QuerySet

from memory.store.models import Chunk

IN_BATCH = 500  # ids per `id IN (...)`, well under SQLite's variable limit
TABLE = Chunk._meta.db_table


def compiled_filter(queryset: QuerySet[Chunk]) -> tuple[str, list[Any]] | None:
    """The queryset's WHERE as SQL over memory_chunk, or None if it needs more than that."""
    query = queryset.query
    if (
        queryset.db != DEFAULT_DB_ALIAS
        or query.model is None
        or query.model._meta.db_table != TABLE
        or any(query.alias_refcount[a] for a in query.alias_map if a != TABLE)  # a join
        or query.extra_tables
        or query.is_sliced
        or query.distinct
        or query.combinator
        or query.annotations
        or query.is_empty()
    ):
        return None
    if not query.where:
        return "", []
    sql, params = query.get_compiler(using=DEFAULT_DB_ALIAS).compile(query.where)
    return sql, list(params)


def _batches(ids: Sequence[int]) -> Iterator[list[int]]:
    for start in range(0, len(ids), IN_BATCH):
        yield [int(i) for i in ids[start : start + IN_BATCH]]


class RowFilter:
    """One queryset's filters, compiled once, applied to any number of id lists."""

    def __init__(self, queryset: QuerySet[Chunk]) -> None:
        self.queryset = queryset

    @functools.cached_property
    def compiled(self) -> tuple[str, list[Any]] | None:
        """The WHERE as SQL (compiled_filter), on first use: a caller may never need it."""
        return compiled_filter(self.queryset)

    def rows(self, ids: Iterable[int], fields: Sequence[str]) -> list[tuple[Any, ...]]:
        """`fields` (plain columns) of the rows among `ids` that pass, any order."""
        ids = list(dict.fromkeys(ids))
        out: list[tuple[Any, ...]] = []
        for batch in _batches(ids):
            out += self._select(fields, "id", batch, order_by=())
        return out

    def rows_by(
        self, column: str, values: Sequence[Any], fields: Sequence[str], *, order_by: Sequence[str] = ()
    ) -> list[tuple[Any, ...]]:
        """`fields` of the rows whose `column` is one of `values` (fewer than IN_BATCH) that pass.

        The rows are found by `column`'s own index first and only then checked against the
        filters (`id IN (SELECT id ... WHERE column IN ...)`): with both in one WHERE, SQLite
        may drive from the filters' index instead (a whole namespace read to find one session).
        """
        if len(values) > IN_BATCH:
            raise ValueError(f"at most {IN_BATCH} values")
        return self._select(fields, column, list(values), order_by=order_by, by_index=True)

    def _select(
        self,
        fields: Sequence[str],
        column: str,
        values: list[Any],
        *,
        order_by: Sequence[str],
        by_index: bool = False,
    ) -> list[tuple[Any, ...]]:
        if not values:
            return []
        if self.compiled is None:
            found = self.queryset.filter(**{f"{column}__in": values}).order_by(*order_by)
            return [tuple(r) for r in found.values_list(*fields)]
        where, where_params = self.compiled
        qn = connection.ops.quote_name
        table = qn(TABLE)
        fields_of = [Chunk._meta.get_field(name) for name in fields]
        select = ", ".join(f"{table}.{qn(field.column)}" for field in fields_of)
        marks = ", ".join(["%s"] * len(values))
        match = f"{table}.{qn(Chunk._meta.get_field(column).column)} IN ({marks})"
        if by_index:  # names and placeholders only below: values and filters are parameters
            match = f"{table}.{qn('id')} IN (SELECT {qn('id')} FROM {table} WHERE {match})"  # noqa: S608
        sql = f"SELECT {select} FROM {table} WHERE {match}"  # noqa: S608
        if where:
            sql += f" AND ({where})"
        if order_by:
            order = (f"{table}.{qn(Chunk._meta.get_field(name).column)}" for name in order_by)
            sql += " ORDER BY " + ", ".join(order)
        converters = []  # what the ORM would apply to each column (SQLite's datetimes, say)
        for index, field in enumerate(fields_of):
            col = field.get_col(TABLE)
            for func in connection.ops.get_db_converters(col) + field.get_db_converters(connection):
                converters.append((index, func, col))
        with connection.cursor() as cursor:
            cursor.execute(sql, [*values, *where_params])
            raw_rows = cursor.fetchall()
        if not converters:
            return [tuple(raw) for raw in raw_rows]
        out = []
        for raw in raw_rows:
            row = list(raw)
            for index, func, col in converters:
                row[index] = func(row[index], col, connection)
            out.append(tuple(row))
        return out

    def allowed(self, ids: Iterable[int]) -> set[int]:
        """The ids among `ids` whose rows pass."""
        return {row[0] for row in self.rows(ids, ("id",))}
