"""Log configuration and the per-request context every log line carries.

`LOG_FORMAT=json` writes one JSON object per line: time, level, logger, message, and, when the
line is written while a request is served, its request id, the agent and the session. The
request id comes from the caller's X-Request-ID (if it is a sane token) or a new uuid4, and is
echoed in the response's X-Request-ID, so a client's report can be matched to the server's lines.

python-json-logger does the formatting (exceptions, `extra=` fields, non-JSON values), which a
hand-written formatter would have to repeat; what is ours is only the context below.
"""

from __future__ import annotations

import contextvars
import logging
import re
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.utils.functional import LazyObject

if TYPE_CHECKING:  # settings import this module: keep it free of request machinery at import time
    from django.http import HttpRequest, HttpResponse

REQUEST_ID_HEADER = "X-Request-ID"
# A caller's id is kept only if it is a plain token of reasonable length (it lands in every line).
_VALID_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")

# The request being served by this thread; its id and session are kept on the request itself,
# so lines Django logs after the middleware has returned (4xx "Not Found: ...", which carry the
# request in `extra`) are tagged as well.
_request: contextvars.ContextVar[HttpRequest | None] = contextvars.ContextVar("request", default=None)


def current_request_id() -> str | None:
    request = _request.get()
    return getattr(request, "request_id", None)


def _agent_name(request: Any) -> str | None:
    """The authenticated agent's name, if DRF has already authenticated one; never a query.

    DRF stores its principal on the Django request as `user` once it authenticates. Before that,
    `user` is Django's lazy session user, which is left alone: evaluating it would hit the database
    from inside a log call.
    """
    user = vars(request).get("user") if hasattr(request, "__dict__") else None
    if user is None or isinstance(user, LazyObject):
        return None
    return getattr(getattr(user, "agent", None), "name", None)


class RequestContextFilter(logging.Filter):
    """Adds request_id, agent and session to a record when they are known (never overwrites)."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = _request.get() or getattr(record, "request", None)
        if request is None or not hasattr(request, "request_id"):
            return True
        context = {
            "request_id": request.request_id,
            "agent": _agent_name(request),
            "session": getattr(request, "log_session", None),
        }
        for key, value in context.items():
            if value is not None and not hasattr(record, key):
                setattr(record, key, value)
        return True


class RequestContextMiddleware:
    """Gives each request an id (X-Request-ID in, or a new one; echoed out) and, from the URL,
    its session, for the log lines written while it is served."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        incoming = request.headers.get(REQUEST_ID_HEADER, "")
        request_id = incoming if _VALID_REQUEST_ID.fullmatch(incoming) else uuid.uuid4().hex
        request.request_id = request_id  # type: ignore[attr-defined]
        token = _request.set(request)
        try:
            response = self.get_response(request)
        finally:
            _request.reset(token)
        response[REQUEST_ID_HEADER] = request_id
        return response

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: dict[str, Any]
    ) -> None:
        if kwargs.get("session_id"):
            request.log_session = str(kwargs["session_id"])  # type: ignore[attr-defined]


def logging_config(*, log_format: str, level: str) -> dict[str, Any]:
    """Django's LOGGING: `text` (the default) or `json` lines on stderr."""
    if log_format not in ("text", "json"):
        raise ValueError(f"LOG_FORMAT must be 'text' or 'json', got {log_format!r}")
    formatters: dict[str, Any] = {
        "text": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(levelname)s %(name)s %(message)s",
            "rename_fields": {"levelname": "level", "name": "logger"},
            "timestamp": "time",
        },
    }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_context": {"()": "protomem.logging.RequestContextFilter"}},
        "formatters": formatters,
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": log_format,
                "filters": ["request_context"],
            }
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {"django.db.backends": {"level": "INFO"}},
    }
