"""The WSGI application's Api-Key lane: which requests take it, what its chain leaves out, and
that it answers what the full chain answers (status, headers, body) on the hot endpoints."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.conf import settings
from django.core.signals import request_finished, request_started
from django.db import close_old_connections

from protomem import lean_wsgi
from protomem.lean_wsgi import SKIPPED_FOR_API_KEYS, ApiKeyLaneApplication, lean_eligible
from sessions_app.authentication import KEYWORD
from sessions_app.services import session_register

pytestmark = pytest.mark.django_db(databases=["default", "injections"])
VARYING_HEADERS = {"X-Request-ID"}  # a fresh id per request


def _environ(method: str, path: str, key: str, body: Any = None, query: str = "", **extra: str) -> dict:
    raw = json.dumps(body).encode() if body is not None else b""
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(raw),
        "wsgi.errors": io.StringIO(),
        "HTTP_AUTHORIZATION": key,
    }
    if raw:
        environ.update(CONTENT_TYPE="application/json", CONTENT_LENGTH=str(len(raw)))
    environ.update(extra)
    return environ


def _call(handler: Any, environ: dict) -> tuple[str, dict[str, str], bytes]:
    seen: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        seen["status"], seen["headers"] = status, dict(headers)

    # As django.test.Client does: the test's transaction keeps the connection open.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        body = b"".join(handler(environ, start_response))
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    headers = {k: v for k, v in seen["headers"].items() if k not in VARYING_HEADERS}
    return seen["status"], headers, body


@pytest.fixture(scope="module")
def app() -> ApiKeyLaneApplication:
    return ApiKeyLaneApplication()


@pytest.fixture
def key(agent_client: Any) -> str:
    session_register(agent=agent_client.agent, session_id="s1")
    return agent_client._credentials["HTTP_AUTHORIZATION"]


def test_the_scheme_is_the_authentication_keyword() -> None:
    assert lean_wsgi.API_KEY_SCHEME == KEYWORD + " "


def test_the_lean_chain_leaves_out_only_the_browser_layers(app: ApiKeyLaneApplication) -> None:
    names = [f"{type(m).__module__}.{type(m).__name__}" for m in _chain(app.lean)]
    assert names == [m for m in settings.MIDDLEWARE if m not in SKIPPED_FOR_API_KEYS]
    assert len(names) == len(settings.MIDDLEWARE) - len(SKIPPED_FOR_API_KEYS)
    assert [f"{type(m).__module__}.{type(m).__name__}" for m in _chain(app.full)] == settings.MIDDLEWARE


def _chain(handler: Any) -> list[Any]:
    out, node = [], handler._middleware_chain
    while True:  # convert_exception_to_response(middleware(convert_exception_to_response(...)))
        node = getattr(node, "__wrapped__", node)
        if not hasattr(node, "get_response"):  # the innermost: the handler's own _get_response
            return out
        out.append(node)
        node = node.get_response


@pytest.mark.parametrize(
    ("path", "extra", "lean"),
    [
        ("/api/memory/recall/", {"HTTP_AUTHORIZATION": "Api-Key abc.def"}, True),
        ("/api/memory/recall/", {"HTTP_AUTHORIZATION": "Api-Key abc", "HTTP_COOKIE": "sessionid=x"}, False),
        ("/api/memory/recall/", {"HTTP_AUTHORIZATION": "Bearer abc"}, False),
        ("/api/memory/recall/", {}, False),
        ("/api/docs/", {"HTTP_AUTHORIZATION": "Api-Key abc"}, False),
        ("/admin/", {"HTTP_AUTHORIZATION": "Api-Key abc"}, False),
        ("/healthz", {"HTTP_AUTHORIZATION": "Api-Key abc"}, False),
    ],
)
def test_which_requests_take_the_lane(path: str, extra: dict, lean: bool) -> None:
    assert lean_eligible({"PATH_INFO": path, **extra}) is lean


def test_recall_context_and_errors_answer_as_the_full_chain(app: ApiKeyLaneApplication, key: str) -> None:
    ingest = _call(
        app.full, _environ("POST", "/api/sessions/s1/memory/ingest/", key, {"content": "deploy on tuesdays"})
    )
    assert ingest[0].startswith("201")
    cases = [
        ("GET", "/api/memory/recall/", None, "query=deploy+tuesdays&top_k=5"),
        ("POST", "/api/memory/recall/", {"query": "deploy"}, ""),
        ("GET", "/api/memory/recall/", None, "top_k=0"),  # 400
        ("GET", "/api/memory/recall/", None, "query=x&top_k=999"),  # 400
        ("POST", "/api/sessions/nope/memory/ingest/", {"content": "x"}, ""),  # 404
        ("POST", "/api/sessions/s1/memory/ingest/", {"content": "x", "source": "forged"}, ""),  # 400
        ("POST", "/api/sessions/s1/memory/ingest/", {"content": "deploy on tuesdays"}, ""),  # 200 duplicate
        ("GET", "/api/no/such/route/", None, ""),  # JSON 404
        ("GET", "/api/sessions/s1/context/", None, ""),  # 405
    ]
    for method, path, body, query in cases:
        full = _call(app.full, _environ(method, path, key, body, query))
        lean = _call(app.lean, _environ(method, path, key, body, query))
        assert lean == full, (method, path, query)
    for wrong in ("Api-Key nope.nope", "Api-Key "):
        lean = _call(app.lean, _environ("GET", "/api/memory/recall/", wrong, query="query=x"))
        assert lean == _call(app.full, _environ("GET", "/api/memory/recall/", wrong, query="query=x"))
        assert lean[0].startswith("401")
        assert lean[1]["WWW-Authenticate"] == KEYWORD


def test_context_and_ingest_answer_as_the_full_chain(app: ApiKeyLaneApplication, key: str) -> None:
    a = _call(
        app.full, _environ("POST", "/api/sessions/s1/memory/ingest/", key, {"content": "alpha fact one"})
    )
    b = _call(
        app.lean, _environ("POST", "/api/sessions/s1/memory/ingest/", key, {"content": "beta fact two"})
    )
    assert a[0] == b[0] == "201 Created"
    assert {**a[1], "Content-Length": ""} == {**b[1], "Content-Length": ""}  # the contents differ
    assert json.loads(b[2])["chunk"]["content"] == "beta fact two"
    assert set(json.loads(a[2])) == set(json.loads(b[2]))
    turn = {"query": "alpha beta fact", "model": "", "working_state": "- x"}
    full = _call(app.full, _environ("POST", "/api/sessions/s1/context/", key, turn))
    lean = _call(app.lean, _environ("POST", "/api/sessions/s1/context/", key, turn))
    assert (lean[0], lean[1]) == (full[0], full[1])
    first, second = json.loads(full[2]), json.loads(lean[2])
    assert None is not first["injection_id"] != second["injection_id"]  # each turn logs its own
    assert {**second, "injection_id": None} == {**first, "injection_id": None}


def test_the_application_dispatches_by_the_lane(app: ApiKeyLaneApplication, key: str, monkeypatch) -> None:
    used = []
    monkeypatch.setattr(app, "lean", lambda environ, start: used.append("lean") or [b""])
    monkeypatch.setattr(app, "full", lambda environ, start: used.append("full") or [b""])
    app(_environ("GET", "/api/memory/recall/", key, query="query=x"), None)
    app(_environ("GET", "/api/memory/recall/", key, query="query=x", HTTP_COOKIE="a=b"), None)
    assert used == ["lean", "full"]
