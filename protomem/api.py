"""Shared DRF plumbing: pagination and the error envelope."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions
from rest_framework.pagination import CursorPagination, LimitOffsetPagination
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from protomem.errors import ApplicationError


class DefaultPagination(LimitOffsetPagination):
    default_limit = 50
    max_limit = 200


class NewestFirstCursorPagination(CursorPagination):
    """Stable under inserts: for append-only lists (audit, injections)."""

    ordering = "-created_at"
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 200


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, plus Django's own exceptions and our ApplicationError family."""
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        )
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    if isinstance(exc, ApplicationError):
        return Response({"detail": exc.message, **exc.extra}, status=exc.status_code)
    return drf_exception_handler(exc, context)
