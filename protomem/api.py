"""Shared DRF plumbing: pagination, the filter backend and the error envelope.

Hostile input is a 4xx with a JSON body, never a 500: an oversize body is 413, Django's
SuspiciousOperation family (too many fields, ...) is 400, and filters are bounded to what the
database can hold (64-bit integers, datetimes UTC can represent), so an absurd id is a 400
rather than an OverflowError (SQLite) or a NumericValueOutOfRange (PostgreSQL).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import django_filters
from django.conf import settings
from django.core.exceptions import (
    PermissionDenied,
    RequestDataTooBig,
    SuspiciousOperation,
)
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import QuerySet
from django.http import Http404, UnreadablePostError
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework import exceptions
from rest_framework.pagination import CursorPagination, LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from protomem.errors import ApplicationError
from protomem.parsers import PayloadTooLarge

# BigAutoField / BIGINT on both backends: anything outside can never name a row.
MAX_DB_INT = 2**63 - 1
MAX_UTC_OFFSET = timedelta(hours=14)


class DefaultPagination(LimitOffsetPagination):
    default_limit = 50
    max_limit = 200


class NewestFirstCursorPagination(CursorPagination):
    """Stable under inserts: for append-only lists (audit, injections)."""

    ordering = "-created_at"
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 200


def _storable_datetime(value: datetime | None) -> None:
    # Python parses offsets up to ±23:59 and any year; PostgreSQL refuses offsets past ±15:59
    # ("time zone displacement out of range") and 0001-01-01T00:00+14:00 overflows the UTC
    # conversion on the way to either database. Real zones stay within -12:00..+14:00.
    offset = value.utcoffset() if value is not None else None
    if offset is None:
        return
    if abs(offset) > MAX_UTC_OFFSET:
        raise DjangoValidationError("UTC offset out of range (at most ±14:00).", code="out_of_range")
    try:
        value.astimezone(UTC)
    except OverflowError:
        raise DjangoValidationError("Date/time out of range.", code="out_of_range") from None


def harden_filters(filterset: django_filters.FilterSet) -> django_filters.FilterSet:
    """Bound number filters to the DB integer range and datetimes to what UTC can hold; returns it.

    Must run before the filterset's form is built (the filters' fields are made from `extra`).
    """
    for f in filterset.filters.values():
        if isinstance(f, django_filters.NumberFilter):
            f.extra.setdefault("max_value", MAX_DB_INT)
            f.extra.setdefault("min_value", -MAX_DB_INT)
        elif isinstance(f, django_filters.DateTimeFilter):
            f.extra["validators"] = [*f.extra.get("validators", ()), _storable_datetime]
    return filterset


class HardenedFilterBackend(DjangoFilterBackend):
    """django-filter's backend with harden_filters applied to every filterset."""

    def get_filterset(self, request: Request, queryset: QuerySet[Any], view: Any) -> Any:
        filterset = super().get_filterset(request, queryset, view)
        return harden_filters(filterset) if filterset is not None else None


def _to_drf(exc: Exception) -> Exception:
    if isinstance(exc, DjangoValidationError):
        return exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        )
    if isinstance(exc, Http404):
        return exceptions.NotFound()
    if isinstance(exc, PermissionDenied):
        return exceptions.PermissionDenied()
    if isinstance(exc, RequestDataTooBig):
        return PayloadTooLarge(limit=settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    if isinstance(exc, SuspiciousOperation):
        # TooManyFieldsSent, TooManyFilesSent, ...: Django's message is safe to show.
        return exceptions.ParseError(str(exc) or "Malformed request.")
    if isinstance(exc, UnreadablePostError):
        return exceptions.ParseError("The request body could not be read.")
    return exc


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, plus Django's own exceptions and our ApplicationError family."""
    exc = _to_drf(exc)
    if isinstance(exc, ApplicationError):
        return Response({"detail": exc.message, **exc.extra}, status=exc.status_code)
    return drf_exception_handler(exc, context)
