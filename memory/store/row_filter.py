"""A caller's queryset applied to ids the store already ranked: which pass, and their columns.

Vector hits, the turn window's neighbours and the rerank pool are ids found outside the ORM;
each must still pass the caller's filters (deliverable(), namespace, scope). Filtering them with
`queryset.filter(pk__in=batch)` costs more to build than to run: Django prepares every one of
a 500-id IN list's parameters (~1.5 ms a batch here, against ~0.1 ms for the statement). So a
plain single-table queryset's WHERE is compiled once to SQL (`compiled_filter`, also the
keyword search's one-statement path) and run beside a parameterized `id IN (...)`; any other
queryset (joins, annotations, slices) goes through the ORM as before, with the same result.

Also here, for the same reason: reading raw rows as the ORM would (`columns_of` / `converted`,
`chunks_of`, `chunks_in_order`), and `RowFilter.first_passing_rows`, which walks ranked vector hits
in one statement that stops at the k-th row that passes.
"""

from __future__ import annotations

import functools
import json
import weakref
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection
from django.db.models import QuerySet
from django.db.models.expressions import Col
from django.db.models.lookups import Exact, In
from django.db.models.sql.where import AND, WhereNode

from memory.store.models import Chunk

IN_BATCH = 500  # ids per `id IN (...)`, well under SQLite's variable limit
TABLE = Chunk._meta.db_table

Compiled = tuple[str, list[Any]]  # a WHERE clause and its parameters
_compiled: weakref.WeakKeyDictionary[QuerySet[Chunk], Compiled | None] = weakref.WeakKeyDictionary()


def compiled_filter(queryset: QuerySet[Chunk]) -> Compiled | None:
    """The queryset's WHERE as SQL over memory_chunk, or None if it needs more than that.

    Kept per queryset object while it lives: a queryset never changes (each filter makes a new
    one), and one hybrid search hands the same one to the keyword search, the vector filter and
    rerank; compiling it cost ~0.3 ms each time."""
    try:
        return _compiled[queryset]
    except KeyError:
        pass
    compiled = _compile(queryset)
    _compiled[queryset] = compiled
    return compiled


def remember_compiled(queryset: QuerySet[Chunk], compiled: Compiled) -> None:
    """Record what `queryset` compiles to, for one that was built from parts already compiled
    (memory.store.deliverable): compiled_filter then returns it as it is."""
    _compiled[queryset] = compiled


def _compile(queryset: QuerySet[Chunk]) -> Compiled | None:
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


def required_values(queryset: QuerySet[Chunk], field: str) -> frozenset[Any] | None:
    """The values of `field` a row must have to pass `queryset`, read off the `field=x` and
    `field__in=[...]` filters it ANDs (intersected), or None when it has no such filter.

    A necessary condition only (the caller still applies the whole filter): the vector index
    uses it to search one namespace's columns instead of every column."""
    allowed: frozenset[Any] | None = None
    pending = [queryset.query.where]
    while pending:
        node = pending.pop()
        if node.negated or node.connector != AND:
            continue
        for child in node.children:
            if isinstance(child, WhereNode):
                pending.append(child)
                continue
            lhs, rhs = getattr(child, "lhs", None), getattr(child, "rhs", None)
            if not (isinstance(lhs, Col) and lhs.alias == TABLE and lhs.target.name == field):
                continue
            if isinstance(child, Exact) and isinstance(rhs, str | int):
                values = frozenset([rhs])
            elif isinstance(child, In) and isinstance(rhs, list | tuple | set | frozenset):
                values = frozenset(rhs)
            else:
                continue
            allowed = values if allowed is None else allowed & values
    return allowed


@functools.cache
def _reader(fields: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[tuple[int, Any, Any], ...]]:
    """The quoted, qualified columns of Chunk `fields`, and (index, converter, column) for each
    DB converter the ORM would apply to them (SQLite's datetimes, say)."""
    qn = connection.ops.quote_name
    fields_of = [Chunk._meta.get_field(name) for name in fields]
    converters = []
    for index, field in enumerate(fields_of):
        col = field.get_col(TABLE)
        for func in connection.ops.get_db_converters(col) + field.get_db_converters(connection):
            converters.append((index, func, col))
    return tuple(f"{qn(TABLE)}.{qn(field.column)}" for field in fields_of), tuple(converters)


def columns_of(fields: Sequence[str]) -> tuple[str, ...]:
    """The quoted, qualified columns of Chunk `fields`, for a raw SELECT read by converted()."""
    return _reader(tuple(fields))[0]


def converted(raw_rows: Iterable[Sequence[Any]], fields: Sequence[str]) -> list[tuple[Any, ...]]:
    """Raw rows of columns_of(`fields`) with the values the ORM would give."""
    converters = _reader(tuple(fields))[1]
    if not converters:  # the driver's rows are tuples already
        return raw_rows if isinstance(raw_rows, list) else list(raw_rows)  # type: ignore[return-value]
    out = []
    for raw in raw_rows:
        row = list(raw)
        for index, func, col in converters:
            row[index] = func(row[index], col, connection)
        out.append(tuple(row))
    return out


CHUNK_FIELDS = tuple(field.attname for field in Chunk._meta.concrete_fields)  # id first


def chunk_columns() -> tuple[str, ...]:
    """Every Chunk column, quoted and qualified, id first: what chunks_of() builds rows from."""
    return columns_of(CHUNK_FIELDS)


def chunks_of(rows: Iterable[Sequence[Any]], model: type[Chunk] = Chunk) -> list[Chunk]:
    """`model` (Chunk or a proxy of it) instances from raw rows of chunk_columns(), as the ORM
    would build them."""
    return [model.from_db(DEFAULT_DB_ALIAS, CHUNK_FIELDS, values) for values in converted(rows, CHUNK_FIELDS)]


def chunks_in_order(ids: Sequence[int], known: Mapping[int, Sequence[Any]] | None = None) -> list[Chunk]:
    """The chunks of `ids` in that order (ids with no row skipped), one `id IN` per IN_BATCH.

    What selectors.chunks_by_ids returns, without building a queryset: in_bulk spent ~0.4 of
    its ~0.5 ms for ten rows preparing the statement. `known`: rows of CHUNK_FIELDS already
    read and converted (converted()), by id; only the other ids are read."""
    qn = connection.ops.quote_name
    select = ", ".join(chunk_columns())
    found = {i: Chunk.from_db(DEFAULT_DB_ALIAS, CHUNK_FIELDS, known[i]) for i in ids if i in (known or {})}
    for batch in _batches([i for i in ids if i not in found]):
        marks = ", ".join(["%s"] * len(batch))
        sql = f"SELECT {select} FROM {qn(TABLE)} WHERE {qn(TABLE)}.{qn('id')} IN ({marks})"  # noqa: S608
        with connection.cursor() as cursor:
            cursor.execute(sql, batch)
            found.update((chunk.pk, chunk) for chunk in chunks_of(cursor.fetchall()))
    return [found[i] for i in ids if i in found]


def _batches(ids: Sequence[int]) -> Iterator[list[int]]:
    for start in range(0, len(ids), IN_BATCH):
        yield [int(i) for i in ids[start : start + IN_BATCH]]


class RowFilter:
    """One queryset's filters, compiled once, applied to any number of id lists."""

    def __init__(self, queryset: QuerySet[Chunk]) -> None:
        self.queryset = queryset

    @functools.cached_property
    def compiled(self) -> Compiled | None:
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
        marks = ", ".join(["%s"] * len(values))
        match = f"{table}.{qn(Chunk._meta.get_field(column).column)} IN ({marks})"
        if by_index:  # names and placeholders only below: values and filters are parameters
            match = f"{table}.{qn('id')} IN (SELECT {qn('id')} FROM {table} WHERE {match})"  # noqa: S608
        sql = f"SELECT {', '.join(columns_of(fields))} FROM {table} WHERE {match}"  # noqa: S608
        if where:
            sql += f" AND ({where})"
        if order_by:
            sql += " ORDER BY " + ", ".join(columns_of(order_by))
        with connection.cursor() as cursor:
            cursor.execute(sql, [*values, *where_params])
            return converted(cursor.fetchall(), fields)

    def allowed(self, ids: Iterable[int]) -> set[int]:
        """The ids among `ids` whose rows pass."""
        return {row[0] for row in self.rows(ids, ("id",))}

    def first_passing_rows(
        self, ids: Sequence[int], want: int, fields: Sequence[str]
    ) -> list[tuple[Any, ...]]:
        """`fields` (id first) of the first `want` rows of `ids`, in their order, that pass.

        One statement walks the ids in order, stops at `want` and reads the fields on the way:
        a filter that passes most rows reads about `want` of them, one that passes few (a
        namespace among many) reads all the ids in that one statement instead of one `IN` batch
        after another. SQLite: the ids as a json_each array, joined with CROSS JOIN so the array
        is the outer loop (SQLite never reorders a CROSS JOIN) and rows come out in array order;
        an ORDER BY on the array index would instead sort all of them first (a temp b-tree: 0.38
        ms against 0.18 for 1,200 ids here). PostgreSQL: unnest WITH ORDINALITY, ordered by position.
        """
        ids = list(map(int, ids))
        if want <= 0 or not ids:
            return []
        if self.compiled is None:
            out: list[tuple[Any, ...]] = []
            for batch in _batches(ids):
                found = {row[0]: row for row in self.rows(batch, fields)}
                out += [found[i] for i in batch if i in found][: want - len(out)]
                if len(out) >= want:
                    break
            return out
        where, where_params = self.compiled
        qn = connection.ops.quote_name
        table, pk = qn(TABLE), f"{qn(TABLE)}.{qn('id')}"
        if connection.vendor == "postgresql":
            ranked_ids = "unnest(%s::bigint[]) WITH ORDINALITY AS ranked(id, at)"
            source = f"{ranked_ids} JOIN {table} ON {pk} = ranked.id"
            order, ranked = " ORDER BY ranked.at", ids
        else:
            source = f"json_each(%s) AS ranked CROSS JOIN {table} ON {pk} = ranked.value"
            order, ranked = "", json.dumps(ids)
        columns = ", ".join(columns_of(fields))
        sql = f"SELECT {columns} FROM {source} WHERE {where or '1 = 1'}{order} LIMIT %s"  # noqa: S608 - names only
        with connection.cursor() as cursor:
            cursor.execute(sql, [ranked, *where_params, want])
            return converted(cursor.fetchall(), fields)
