"""Hostile input over HTTP is a 4xx with a JSON body that says what was wrong, never a 500.

Oversize bodies (413), invalid UTF-8, deep JSON, NUL characters, lone surrogates, huge query
strings (414), absurd ids and out-of-range numbers (400 / 404), form bodies (415).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from audit.models import InjectionLog
from memory.store.models import Chunk
from protomem.api import MAX_DB_INT
from protomem.parsers import MAX_JSON_DEPTH
from sessions_app.models import Message, Session
from sessions_app.services import session_register
from tests.factories import ChunkFactory

pytestmark = pytest.mark.django_db(databases=["default", "injections"])

SESSION = "bad-input-thread"
HUGE = str(10**30)


@pytest.fixture
def session(agent: Any) -> Session:
    session, _ = session_register(agent=agent, session_id=SESSION)
    return session


def key_of(client: Any) -> str:
    return client._credentials["HTTP_AUTHORIZATION"]


def raw_post(client: Any, path: str, body: bytes, content_type: str = "application/json") -> Any:
    """POST exact bytes (the APIClient would re-encode them)."""
    return Client().generic(
        "POST", path, data=body, content_type=content_type, HTTP_AUTHORIZATION=key_of(client)
    )


def assert_json_error(resp: Any, status: int, *needles: str) -> dict[str, Any]:
    assert resp.status_code == status, resp.content[:500]
    assert resp["Content-Type"].startswith("application/json"), resp["Content-Type"]
    body = resp.json()
    text = json.dumps(body)
    for needle in needles:
        assert needle in text, body
    return body


def nested(depth: int) -> str:
    return "[" * (depth - 1) + '{"a": 1}' + "]" * (depth - 1)


def ingest_url() -> str:
    return f"/api/sessions/{SESSION}/memory/ingest/"


# ------------------------------------------------------------------------------ bodies


def test_oversize_declared_body_is_413_before_anything_runs(agent_client, session, settings):
    # given a 1 KiB limit
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024
    body = json.dumps({"content": "x" * 2000}).encode()
    # when / then: 413 with the limit named, and nothing stored
    resp = raw_post(agent_client, ingest_url(), body)
    assert_json_error(resp, 413, "1024 bytes")
    assert not Chunk.objects.exists()


def test_oversize_body_is_413_from_the_view_too(agent_client, session, settings):
    # given no guard middleware: Django's own body check (RequestDataTooBig) is mapped to 413
    settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if not m.endswith("ApiInputGuardMiddleware")]
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 4096
    resp = agent_client.post(ingest_url(), {"content": "y" * 5000}, format="json")
    assert_json_error(resp, 413, "4096 bytes")
    assert not Chunk.objects.exists()


def test_too_many_query_fields_is_400(operator_client):
    query = "&".join(f"f{i}=1" for i in range(1001))  # DATA_UPLOAD_MAX_NUMBER_FIELDS is 1000
    resp = operator_client.get(f"/api/knowledge/chunks/?{query}")
    assert_json_error(resp, 400, "DATA_UPLOAD_MAX_NUMBER_FIELDS")


def test_body_at_the_limit_is_accepted(agent_client, session, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 4096
    body = json.dumps({"content": "the deploy window is Tuesday"}).encode()
    body += b" " * (4096 - len(body))
    resp = raw_post(agent_client, ingest_url(), body)
    assert resp.status_code == 201, resp.content
    assert Chunk.objects.get().content == "the deploy window is Tuesday"


def test_parser_caps_an_undeclared_length(settings):
    # given a stream longer than the limit (a chunked body has no Content-Length to refuse early)
    from io import BytesIO

    from protomem.parsers import PayloadTooLarge, StrictJSONParser

    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10
    with pytest.raises(PayloadTooLarge):
        StrictJSONParser().parse(BytesIO(b'{"content": "too long"}'))
    assert StrictJSONParser().parse(BytesIO(b'{"a": 1}')) == {"a": 1}


@pytest.mark.parametrize(
    "body",
    [
        b'{"content": "caf\xe9"}',  # latin-1, not UTF-8
        b'{"content": "\xff\xfe"}',
        b'{"content": "\xed\xa0\x80"}',  # an encoded surrogate (CESU-8)
        b"\xc3",  # truncated sequence
    ],
)
def test_invalid_utf8_body_is_400(agent_client, session, body):
    resp = raw_post(agent_client, ingest_url(), body)
    assert_json_error(resp, 400, "not valid UTF-8")
    assert not Chunk.objects.exists()


def test_declared_charset_is_not_trusted(agent_client, session):
    # an unknown charset must not reach codecs.lookup (LookupError), and latin-1 is not JSON
    for content_type in ("application/json; charset=no-such-codec", "application/json; charset=latin-1"):
        resp = raw_post(agent_client, ingest_url(), b'{"content": "caf\xe9"}', content_type)
        assert_json_error(resp, 400, "not valid UTF-8")
    assert not Chunk.objects.exists()


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 5_000, 200_000])
def test_deep_json_is_400(agent_client, session, depth):
    resp = raw_post(agent_client, ingest_url(), nested(depth).encode())
    assert_json_error(resp, 400, f"nested deeper than {MAX_JSON_DEPTH} levels")


def test_deep_json_inside_an_accepted_field_is_400(agent_client, session):
    # tool_calls takes free-form dicts: the depth bound is the parser's, not the serializer's
    deep: Any = {"x": 1}
    for _ in range(MAX_JSON_DEPTH):
        deep = {"x": deep}
    turn = {"messages": [{"role": "assistant", "content": "ok", "tool_calls": [deep]}]}
    resp = agent_client.post(f"/api/sessions/{SESSION}/messages/", turn, format="json")
    assert_json_error(resp, 400, "nested deeper")
    assert not Message.objects.exists()


def test_json_at_the_depth_limit_is_parsed(agent_client, session):
    call: Any = {"name": "lookup"}
    for _ in range(MAX_JSON_DEPTH - 5):  # turn -> messages -> message -> tool_calls -> call
        call = {"args": call}
    turn = {"messages": [{"role": "assistant", "content": "ok", "tool_calls": [call]}]}
    resp = agent_client.post(f"/api/sessions/{SESSION}/messages/", turn, format="json")
    assert resp.status_code == 201, resp.content
    assert Message.objects.get().tool_calls == [call]


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        (b'{"content": "a\\u0000b"}', "NUL"),
        (b'{"content": "ok", "heading": "\\u0000"}', "NUL"),
        (b'{"content": "lone \\ud800 surrogate"}', "surrogate"),
        (b'{"content": "lone \\udfff"}', "surrogate"),
        (b'{"content": "ok", "\\u0000": 1}', "NUL"),
    ],
)
def test_nul_and_lone_surrogates_are_400(agent_client, session, body, needle):
    resp = raw_post(agent_client, ingest_url(), body)
    assert_json_error(resp, 400, needle)
    assert not Chunk.objects.exists()


def test_paired_surrogate_escapes_are_fine(agent_client, session):
    resp = raw_post(agent_client, ingest_url(), b'{"content": "gecko \\ud83e\\udd8e emoji"}')
    assert resp.status_code == 201, resp.content
    assert Chunk.objects.get().content == "gecko \U0001f98e emoji"


def test_nul_inside_free_form_json_is_400(agent_client, session):
    body = json.dumps(
        {"messages": [{"role": "assistant", "content": "ok", "tool_calls": [{"name": "a\x00b"}]}]}
    ).encode()
    resp = raw_post(agent_client, f"/api/sessions/{SESSION}/messages/", body)
    assert_json_error(resp, 400, "NUL")
    assert not Message.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        b'{"content": NaN}',
        b'{"content": "x", "expires_in_days": Infinity}',
        b'{"content": "x"',
        b"",
        b"null",
        b"[]",
        b'"just a string"',
        b'{"content": "x", "expires_in_days": 1e400}',
        b'{"content": "x", "expires_in_days": ' + b"9" * 5000 + b"}",
    ],
)
def test_malformed_or_wrong_shaped_json_is_400(agent_client, session, body):
    resp = raw_post(agent_client, ingest_url(), body)
    assert resp.status_code == 400, resp.content[:300]
    assert resp.json()
    assert not Chunk.objects.exists()


@pytest.mark.parametrize(
    "content_type", ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain"]
)
def test_non_json_bodies_are_415(agent_client, session, content_type):
    resp = raw_post(agent_client, ingest_url(), b"content=hello", content_type)
    assert_json_error(resp, 415, "Unsupported media type")
    assert not Chunk.objects.exists()


# ------------------------------------------------------------------------------ fields


def test_field_lengths_are_capped_with_400(agent_client, session):
    from memory.api.serializers import MAX_CONTENT_CHARS

    resp = agent_client.post(ingest_url(), {"content": "z" * (MAX_CONTENT_CHARS + 1)}, format="json")
    body = assert_json_error(resp, 400, "content")
    assert "no more than" in json.dumps(body)
    resp = agent_client.post(ingest_url(), {"content": "ok", "subject": "s" * 257}, format="json")
    assert_json_error(resp, 400, "subject")
    assert not Chunk.objects.exists()


def test_out_of_range_numbers_in_bodies_are_400(operator_client, agent_client, session):
    resp = operator_client.post("/api/knowledge/chunks/bulk-delete/", {"ids": [10**30]}, format="json")
    assert_json_error(resp, 400, "ids")
    resp = operator_client.post(
        "/api/knowledge/chunks/bulk-restore/", {"ids": [MAX_DB_INT + 1]}, format="json"
    )
    assert_json_error(resp, 400, "ids")
    resp = agent_client.post(ingest_url(), {"content": "x", "expires_in_days": 10**30}, format="json")
    assert_json_error(resp, 400, "expires_in_days")
    # the largest id a row could have is a plain miss
    resp = operator_client.post("/api/knowledge/chunks/bulk-restore/", {"ids": [MAX_DB_INT]}, format="json")
    assert resp.status_code == 200, resp.content
    assert resp.json()["restored"] == 0


@pytest.mark.parametrize(
    "filters",
    [
        {"ids": HUGE},
        {"ids": [1, HUGE]},
        {"ids": [1, "x"]},
        {"agent": HUGE},
        {"agent": {"nested": 1}},
        {"source": ["a", "b"]},
        {"created_after": "not a date"},
        {"created_after": "9999-12-31T23:59:59-14:00"},
    ],
)
def test_bulk_delete_with_a_hostile_filter_is_400(operator_client, filters):
    chunk = ChunkFactory()
    resp = operator_client.post("/api/knowledge/chunks/bulk-delete/", {"filter": filters}, format="json")
    assert_json_error(resp, 400, "filter")
    chunk.refresh_from_db()
    assert chunk.invalidated_at is None


def test_bulk_delete_filter_takes_json_scalars_and_an_id_list(operator_client):
    keep, drop = ChunkFactory(domain="fact"), ChunkFactory(domain="fact")
    body = {"filter": {"ids": [drop.pk, 10**6], "domain": "fact", "deleted": False}}
    resp = operator_client.post("/api/knowledge/chunks/bulk-delete/", body, format="json")
    assert resp.status_code == 200, resp.content
    assert resp.json()["ids"] == [drop.pk]
    keep.refresh_from_db()
    assert keep.invalidated_at is None


# ------------------------------------------------------------------------------ URLs


def test_nul_in_the_api_key_is_400(session):
    resp = Client().get("/api/sessions/", HTTP_AUTHORIZATION="Api-Key abc\x00def")
    assert_json_error(resp, 400, "NUL")


def test_huge_query_string_is_414(agent_client, settings):
    settings.PROTOMEM_MAX_QUERY_BYTES = 2048
    resp = agent_client.get("/api/memory/recall/", {"query": "q" * 3000})
    assert_json_error(resp, 414, "2048 bytes")


def test_long_search_queries_are_400(agent_client, session):
    from memory.api.serializers import MAX_QUERY_CHARS

    resp = agent_client.get("/api/memory/recall/", {"query": "deploy " * (MAX_QUERY_CHARS // 7 + 1)})
    assert_json_error(resp, 400, "query")
    resp = agent_client.get("/api/sessions/search/", {"query": "w" * 1001})
    assert_json_error(resp, 400, "query")
    resp = agent_client.get("/api/skills/", {"query": "w" * 5000})
    assert_json_error(resp, 400, "query")


@pytest.mark.parametrize(
    "path",
    [
        f"/api/sessions/{SESSION}%00/",
        "/api/skills/a%00b/",
        "/api/memory/recall/?query=a%00b",
        "/api/skills/?query=%00",
        "/api/memory/list/?domain=%00",
    ],
)
def test_nul_in_the_url_is_400(agent_client, session, path):
    resp = Client().get(path, HTTP_AUTHORIZATION=key_of(agent_client))
    assert_json_error(resp, 400, "NUL")


OUT_OF_RANGE = "Date/time out of range"
TOO_BIG = "less than or equal to 9223372036854775807"


@pytest.mark.parametrize(
    ("path", "query", "status", "needle"),
    [
        ("/api/knowledge/chunks/", {"agent": HUGE}, 400, TOO_BIG),
        ("/api/knowledge/chunks/", {"ids": f"1,{HUGE}"}, 400, TOO_BIG),
        ("/api/knowledge/chunks/", {"agent": "-" + HUGE}, 400, "greater than or equal to"),
        ("/api/knowledge/chunks/", {"created_after": "0001-01-01T00:00:00+14:00"}, 400, OUT_OF_RANGE),
        ("/api/knowledge/chunks/", {"created_before": "9999-12-31T23:59:59-14:00"}, 400, OUT_OF_RANGE),
        ("/api/knowledge/chunks/", {"limit": HUGE, "offset": HUGE}, 200, '"results": []'),
        ("/api/sessions/", {"agent": HUGE}, 400, TOO_BIG),
        ("/api/sessions/", {"active_since": "9999-12-31T23:59:59-14:00"}, 400, OUT_OF_RANGE),
        ("/api/sessions/", {"offset": HUGE}, 200, '"results": []'),
        ("/api/memory/list/", {"created_after": "0001-01-01T00:00:00+05:00"}, 400, OUT_OF_RANGE),
        ("/api/memory/injections/", {"agent": HUGE}, 400, TOO_BIG),
        ("/api/memory/injections/", {"chunk": HUGE}, 400, TOO_BIG),
        ("/api/memory/injections/", {"since": "9999-12-31T23:59:59-14:00"}, 400, OUT_OF_RANGE),
        # PostgreSQL refuses offsets past ±15:59; Python parses up to ±23:59
        ("/api/memory/injections/", {"until": "1684-04-20T05:35:34+23:24"}, 400, "UTC offset out of range"),
        ("/api/knowledge/chunks/", {"created_before": "2026-01-01T00:00:00-16:00"}, 400, "UTC offset"),
        ("/api/memory/injections/", {"cursor": "garbage"}, 404, "Invalid cursor"),
        # a well-formed cursor whose position is not a timestamp
        (
            "/api/memory/injections/",
            {"cursor": "cD05OTk5OTk5OTk5OTk5OTk5OTk5OTk5OQ=="},
            400,
            "invalid format",
        ),
        ("/api/prompts/preview/", {"agent": HUGE}, 400, TOO_BIG),
        ("/api/prompts/preview/", {"agent": "1.5"}, 400, "valid integer"),
    ],
)
def test_absurd_list_parameters_are_4xx(operator_client, agent_client, path, query, status, needle):
    # given a row, so a filter that reached the database would have something to match
    ChunkFactory()
    client = agent_client if path == "/api/memory/list/" else operator_client
    resp = client.get(path, query)
    assert_json_error(resp, status, needle)
    assert not InjectionLog.objects.exists()


@pytest.mark.parametrize(
    "path",
    [
        f"/api/knowledge/chunks/{HUGE}/",
        f"/api/knowledge/chunks/{MAX_DB_INT + 1}/",
        f"/api/memory/chunks/{HUGE}/review/",
        f"/api/knowledge/chunks/{HUGE}/promote/",
    ],
)
def test_absurd_chunk_ids_in_the_path_are_404(operator_client, path):
    if path.endswith(("review/", "promote/")):
        resp = operator_client.post(path, {"state": "confirmed"})
    else:
        resp = operator_client.get(path)
    assert_json_error(resp, 404, "Not found")


def test_unrouted_api_urls_are_a_json_404(operator_client):
    for path in ("/api/knowledge/chunks/-5/", "/api/knowledge/chunks/abc/", "/api/no-such-thing/"):
        assert_json_error(operator_client.get(path), 404, "Not found")


@pytest.mark.parametrize("agent_param", [HUGE, "-1", "1e3", "x"])
def test_operator_session_lookup_with_an_absurd_agent_is_404(operator_client, session, agent_param):
    for suffix in ("", "summary/"):
        resp = operator_client.get(f"/api/sessions/{SESSION}/{suffix}", {"agent": agent_param})
        assert_json_error(resp, 404, "Not found")


def test_overlong_session_ids_are_404_not_500(agent_client):
    resp = agent_client.post(f"/api/sessions/{'s' * 5000}/context/", {}, format="json")
    assert_json_error(resp, 404, "Not found")
    resp = agent_client.post("/api/sessions/", {"session_id": "s" * 256}, format="json")
    assert_json_error(resp, 400, "session_id")
    assert not Session.objects.exists()


@pytest.mark.parametrize("header", ["   ", "\t"])
def test_a_blank_authorization_header_is_401_not_500(api_client, db, header):
    resp = api_client.get("/api/sessions/", HTTP_AUTHORIZATION=header)
    assert resp.status_code in (401, 403)


def test_a_quarantine_naming_an_agent_beyond_the_db_range_is_400(operator_client, session):
    resp = operator_client.post(
        f"/api/sessions/{SESSION}/quarantine/", {"agent": MAX_DB_INT + 1, "reason": "x"}, format="json"
    )
    assert_json_error(resp, 400, "agent")


def test_lifting_a_quarantine_id_beyond_the_db_range_is_404(operator_client):
    assert_json_error(operator_client.post(f"/api/quarantines/{MAX_DB_INT + 1}/lift/"), 404, "Not found")
