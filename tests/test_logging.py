"""LOG_FORMAT=json: one JSON object per line, with the request id, agent and session when known."""

from __future__ import annotations

import io
import json
import logging
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory
from django.utils.module_loading import import_string

from protomem.logging import RequestContextFilter, RequestContextMiddleware, logging_config


def _formatter(log_format: str) -> logging.Formatter:
    """The formatter LOGGING declares, built the way dictConfig builds it."""
    spec = dict(logging_config(log_format=log_format, level="INFO")["formatters"][log_format])
    factory = spec.pop("()", None)
    if factory is None:
        return logging.Formatter(spec["format"])
    return import_string(factory)(**spec)


@contextmanager
def json_capture(logger_name: str, *, with_context: bool = True) -> Iterator[list[dict[str, Any]]]:
    """Lines logged under `logger_name` inside the block, through LOG_FORMAT=json's formatter
    (and the request-context filter); the list is filled when the block ends."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(_formatter("json"))
    if with_context:
        handler.addFilter(RequestContextFilter())
    logger = logging.getLogger(logger_name)
    level = logger.level
    logger.setLevel(logging.INFO)
    logger.addHandler(handler)
    lines: list[dict[str, Any]] = []
    try:
        yield lines
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
        lines.extend(json.loads(line) for line in stream.getvalue().splitlines())


def test_each_line_is_one_json_object_with_the_base_fields() -> None:
    logger = logging.getLogger("protomem.test_json")
    with json_capture("protomem.test_json", with_context=False) as lines:
        logger.warning("disk %s is %d%% full", "/srv", 93)
        try:
            raise RuntimeError("boom")
        except RuntimeError:
            logger.exception("failed")

    first, second = lines
    assert first["message"] == "disk /srv is 93% full"
    assert first["level"] == "WARNING"
    assert first["logger"] == "protomem.test_json"
    assert datetime.fromisoformat(first["time"]).utcoffset() == timedelta(0)
    assert second["level"] == "ERROR"
    assert "RuntimeError: boom" in second["exc_info"]


def _logging_view(request: HttpRequest) -> HttpResponse:
    logging.getLogger("protomem.test_view").info("inside the view")
    return HttpResponse("ok")


def test_middleware_tags_lines_and_echoes_the_callers_request_id() -> None:
    middleware = RequestContextMiddleware(_logging_view)
    with json_capture("protomem.test_view") as lines:
        given = middleware(RequestFactory().get("/x", HTTP_X_REQUEST_ID="trace-42.a"))
        made = middleware(RequestFactory().get("/x", HTTP_X_REQUEST_ID="bad id\nwith newline"))
        logging.getLogger("protomem.test_view").info("after the requests")

    assert given["X-Request-ID"] == "trace-42.a"
    assert uuid.UUID(made["X-Request-ID"]).version == 4  # an unusable id is replaced, not copied
    # Outside a request nothing is made up: the last line has no request id.
    assert [line.get("request_id") for line in lines] == ["trace-42.a", made["X-Request-ID"], None]


def test_request_lines_carry_agent_and_session(agent_client: Any) -> None:
    with json_capture("django.request") as lines:
        response = agent_client.get("/api/sessions/no-such-session/", HTTP_X_REQUEST_ID="req-404")

    assert response.status_code == 404
    assert response["X-Request-ID"] == "req-404"
    (line,) = lines
    assert line["level"] == "WARNING"
    assert line["message"] == "Not Found: /api/sessions/no-such-session/"
    assert (line["request_id"], line["agent"], line["session"]) == ("req-404", "agent-a", "no-such-session")


def test_log_format_is_text_or_json_only() -> None:
    assert logging_config(log_format="text", level="INFO")["handlers"]["console"]["formatter"] == "text"
    with pytest.raises(ValueError, match="LOG_FORMAT"):
        logging_config(log_format="yaml", level="INFO")
