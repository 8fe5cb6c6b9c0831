"""A per-request row lookup whose SQL is compiled once per process, from the ORM's own queryset.

Every API request looks up its key (and the caller's session) with a queryset that differs only
in one value. Building such a queryset and compiling it cost ~0.3-0.4 ms of CPU a lookup, more than
running the statement; the same pattern already serves the always-on rows and the skill index.
CompiledLookup builds the queryset once with a marker in place of the value, keeps the SQL the
ORM generated and the converters the ORM would apply to its columns, and runs that with the
value. The SQL is Django's own for the active backend, parameterized; if the marker is not
exactly one parameter, every call goes through the ORM instead (same rows).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet

MARKER = "\x00protomem-compiled-lookup\x00"  # no stored value can be this (NUL is refused on input)
INT_MARKER = -7_340_032_017  # an id no row has (ids are positive)
# A moment no row is stamped with. The ORM hands a datetime to the driver as the backend
# adapts it (SQLite: text), so the compiled parameter is found in that form and a given
# datetime is adapted the same way before it takes the marker's place.
DATETIME_MARKER = datetime(1901, 2, 3, 4, 5, 6, 789013, tzinfo=UTC)

_Compiled = tuple[
    str,
    tuple[Any, ...],
    tuple[tuple[int, bool], ...],  # (parameter index, adapt the given datetime) per marker
    tuple[tuple[int, tuple[Callable[..., Any], ...], Any], ...],
]


class CompiledLookup:
    """`build(*values)` is a values_list() queryset; rows(*values) returns its rows as tuples.

    `markers` are what build() is compiled with, one per value (MARKER for text, INT_MARKER
    for an id, DATETIME_MARKER for a moment; several of a kind must differ from each other); each
    must appear exactly once among the compiled parameters."""

    def __init__(self, build: Callable[..., QuerySet[Any]], markers: tuple[Any, ...] = (MARKER,)) -> None:
        self._build = build
        self._markers = markers
        self._compiled: dict[str, _Compiled | None] = {}

    def rows(self, *given: Any, using: str = DEFAULT_DB_ALIAS) -> list[tuple[Any, ...]]:
        if using not in self._compiled:
            self._compiled[using] = self._compile(using)
        compiled = self._compiled[using]
        if compiled is None:
            return [tuple(row) for row in self._build(*given).using(using)]
        sql, params, slots, converters = compiled
        connection = connections[using]
        values = list(params)
        for (slot, adapt), value in zip(slots, given, strict=True):
            values[slot] = connection.ops.adapt_datetimefield_value(value) if adapt else value
        with connection.cursor() as cursor:
            cursor.execute(sql, values)
            fetched = cursor.fetchall()
        if not converters:
            return [tuple(row) for row in fetched]
        out = []
        for raw in fetched:
            row = list(raw)
            for index, funcs, expression in converters:
                for convert in funcs:
                    row[index] = convert(row[index], expression, connection)
            out.append(tuple(row))
        return out

    def _compile(self, using: str) -> _Compiled | None:
        query = self._build(*self._markers).using(using).query
        compiler = query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        slots = []
        for marker in self._markers:
            forms = [(marker, False)]
            if isinstance(marker, datetime):
                adapted = connections[using].ops.adapt_datetimefield_value(marker)
                if type(adapted) is not type(marker) or adapted != marker:  # PostgreSQL: the same
                    forms.append((adapted, True))
            found = [
                (i, adapt)
                for i, p in enumerate(params)
                for form, adapt in forms
                if type(p) is type(form) and p == form
            ]
            if len(found) != 1:
                return None
            slots.append(found[0])
        selected = [s[0] for s in compiler.select[: compiler.col_count]]
        converters = tuple(
            (index, tuple(funcs), expression)
            for index, (funcs, expression) in compiler.get_converters(selected).items()
        )
        return sql, tuple(params), tuple(slots), converters
