"""Request limits (issue 19, item 6) through a real gunicorn started from the repository root, so
gunicorn.conf.py applies as it does for `make run`.

A recall query of 1,500 CJK characters (inside the API's 2,000-character limit, ~13.5 KB
percent-encoded: over gunicorn's default 4,094-byte request line) answers 200 by GET and by
POST; a query string over PROTOMEM_MAX_QUERY_BYTES answers the API's JSON 414, not gunicorn's
HTML one; a session id that takes an operator source prefix is refused with 400 naming
session_id.
"""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
from django.conf import settings

from tests.test_integrity import Server, Store

CJK_QUERY = ("記憶検索の長い質問文" * 150)[:1500]
RESERVED_SESSION_IDS = ["user:1", "admin-x", "USER:2", "operator-7", "console"]


class PatientServer(Server):
    """tests.test_integrity's gunicorn, whose readiness probe also waits out a worker still booting
    (a /healthz that times out while Django imports is "not yet", not a failure)."""

    def _get(self, path: str) -> int:
        try:
            return super()._get(path)
        except TimeoutError:
            return 0


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    """A migrated SQLite instance served by gunicorn, and an agent key for it."""
    store = Store(tmp_path_factory.mktemp("limits") / "store")
    store.manage("migrate", "-v0", check=True)
    store.manage("migrate", "--database", "injections", "-v0", check=True)
    key = store.manage("protomem", "create-agent-key", "limits-agent", check=True).stdout.strip()
    server = PatientServer(store)
    try:
        yield server, key
    finally:
        server.stop()


def request(
    server: PatientServer, method: str, target: str, key: str, body: dict[str, Any] | None = None
) -> tuple[int, str, dict[str, Any] | str]:
    """(status, content type, JSON body or raw text) of one request; the target is sent as is."""
    url = urlsplit(server.url)
    connection = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=30)
    try:
        headers = {"Authorization": f"Api-Key {key}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        connection.request(method, target, body=data, headers=headers)
        response = connection.getresponse()
        raw = response.read().decode("utf-8", "replace")
        content_type = response.getheader("Content-Type", "")
        payload: dict[str, Any] | str = json.loads(raw) if "json" in content_type else raw
        return response.status, content_type, payload
    finally:
        connection.close()


def test_the_server_reads_this_repositorys_gunicorn_conf():
    conf = Path(__file__).resolve().parents[2] / "gunicorn.conf.py"
    assert "limit_request_line = 0" in conf.read_text()


def test_a_long_cjk_recall_query_answers_200_by_get(served):
    server, key = served
    target = "/api/memory/recall/?query=" + quote(CJK_QUERY)
    assert len(target) > 4094 * 3  # far past gunicorn's default request line
    status, content_type, payload = request(server, "GET", target, key)
    assert status == 200, payload
    assert "json" in content_type
    assert isinstance(payload, dict)
    assert payload["query"] == CJK_QUERY


def test_a_long_cjk_recall_query_answers_200_by_post(served):
    server, key = served
    status, _, payload = request(server, "POST", "/api/memory/recall/", key, {"query": CJK_QUERY})
    assert status == 200, payload
    assert isinstance(payload, dict)
    assert payload["query"] == CJK_QUERY


def test_an_over_long_query_string_is_a_json_414(served):
    server, key = served
    limit = settings.PROTOMEM_MAX_QUERY_BYTES
    status, content_type, payload = request(
        server, "GET", "/api/memory/recall/?query=" + "a" * (limit + 1), key
    )
    assert status == 414
    assert "application/json" in content_type
    assert isinstance(payload, dict)
    assert payload["code"] == "uri_too_long"
    assert str(limit) in payload["detail"]


@pytest.mark.parametrize("session_id", RESERVED_SESSION_IDS)
def test_a_session_id_with_an_operator_prefix_is_refused(served, session_id):
    server, key = served
    status, _, payload = request(server, "POST", "/api/sessions/", key, {"session_id": session_id})
    assert status == 400, payload
    assert isinstance(payload, dict)
    assert "session_id" in json.dumps(payload)
    # an ordinary id that merely contains the words is fine
    status, _, payload = request(
        server, "POST", "/api/sessions/", key, {"session_id": f"thread-{session_id}"}
    )
    assert status in (200, 201), payload


@pytest.mark.django_db
@pytest.mark.parametrize("session_id", ["user:1", "admin-x"])
def test_the_api_names_session_id_when_refusing_a_reserved_prefix(agent_client, session_id):
    resp = agent_client.post("/api/sessions/", {"session_id": session_id}, format="json")
    assert resp.status_code == 400, resp.content
    assert "session_id" in json.dumps(resp.json())
    assert not agent_client.agent.sessions.exists()
