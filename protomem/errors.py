"""Errors services raise; the API maps them to status codes (protomem.api)."""

from __future__ import annotations

from typing import Any


class ApplicationError(Exception):
    """A business rule refused the request (HTTP 400)."""

    status_code = 400

    def __init__(self, message: str, *, extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra or {}


class ForbiddenError(ApplicationError):
    """The caller may not do this (HTTP 403)."""

    status_code = 403


class ConflictError(ApplicationError):
    """The row changed under us (HTTP 409)."""

    status_code = 409
