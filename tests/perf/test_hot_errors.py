"""The hot endpoints' error answers, pinned exactly (status, JSON body, content type, the
WWW-Authenticate challenge), so a leaner transport for recall, context and memory_ingest cannot
drift from the error format every other endpoint keeps: 400, 401, 403, 404 and 413 on each."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from sessions_app.services import session_register

pytestmark = pytest.mark.django_db(databases=["default", "injections"])

RECALL = "/api/memory/recall/"
CONTEXT = "/api/sessions/s1/context/"
INGEST = "/api/sessions/s1/memory/ingest/"
NOT_FOUND = {"detail": "Not found."}
NO_KEY = {"detail": "Authentication credentials were not provided."}
BAD_KEY = {"detail": "Invalid API key."}
NOT_AGENT = {"detail": "This endpoint is for agents (Api-Key auth)."}


def _call(client: APIClient, method: str, url: str, body: Any = None, **extra: Any) -> Any:
    if method == "get":
        return client.get(url, body or {}, **extra)
    return client.post(url, body if body is not None else {}, format="json", **extra)


# (name, method, url, a valid body / query, a body / query the endpoint refuses with 400, its 400 body)
HOT = [
    (
        "recall",
        "get",
        RECALL,
        {"query": "deploy"},
        {"query": "deploy", "top_k": 0},
        {"top_k": ["Ensure this value is greater than or equal to 1."]},
    ),
    (
        "recall-post",
        "post",
        RECALL,
        {"query": "deploy"},
        {"query": ""},
        {"query": ["This field may not be blank."]},
    ),
    (
        "context",
        "post",
        CONTEXT,
        {"query": "deploy"},
        {"query": "deploy", "goal_driven": "maybe"},
        {"goal_driven": ["Must be a valid boolean."]},
    ),
    (
        "ingest",
        "post",
        INGEST,
        {"content": "the deploy script lives in ops/deploy.sh"},
        {"content": "x", "source": "forged"},
        {"source": ["set by the server from the session; not accepted in the body"]},
    ),
]
IDS = [row[0] for row in HOT]


@pytest.fixture
def s1(agent_client: Any) -> Any:
    return session_register(agent=agent_client.agent, session_id="s1")


@pytest.mark.parametrize(("name", "method", "url", "good", "bad", "bad_body"), HOT, ids=IDS)
def test_400_names_the_field(agent_client, s1, name, method, url, good, bad, bad_body):
    ok = _call(agent_client, method, url, good)
    refused = _call(agent_client, method, url, bad)

    assert ok.status_code in (200, 201), ok.content
    assert refused.status_code == 400
    assert refused["Content-Type"] == "application/json"
    assert refused.json() == bad_body


@pytest.mark.parametrize(("name", "method", "url", "good", "bad", "bad_body"), HOT, ids=IDS)
def test_401_without_or_with_a_wrong_key(s1, name, method, url, good, bad, bad_body):
    anonymous = APIClient()
    wrong = APIClient()
    wrong.credentials(HTTP_AUTHORIZATION="Api-Key nope.nope")

    no_key = _call(anonymous, method, url, good)
    bad_key = _call(wrong, method, url, good)

    assert (no_key.status_code, no_key.json()) == (401, NO_KEY)
    assert (bad_key.status_code, bad_key.json()) == (401, BAD_KEY)
    assert no_key["WWW-Authenticate"] == bad_key["WWW-Authenticate"] == "Api-Key"


@pytest.mark.parametrize(("name", "method", "url", "good", "bad", "bad_body"), HOT, ids=IDS)
def test_403_for_an_operator_key(operator_client, s1, name, method, url, good, bad, bad_body):
    answer = _call(operator_client, method, url, good)

    assert (answer.status_code, answer.json()) == (403, NOT_AGENT)


@pytest.mark.parametrize(("name", "method", "url", "good", "bad", "bad_body"), HOT, ids=IDS)
def test_404_for_an_unknown_session_or_route(agent_client, s1, name, method, url, good, bad, bad_body):
    target = url.replace("/s1/", "/nope/") if "/s1/" in url else url + "extra/"

    answer = _call(agent_client, method, target, good)

    assert answer.status_code == 404
    assert answer.json() == (NOT_FOUND if "/s1/" in url else {"detail": "Not found.", "code": "not_found"})


@pytest.mark.parametrize(("name", "method", "url", "good", "bad", "bad_body"), HOT, ids=IDS)
def test_413_for_a_body_over_the_limit(agent_client, s1, settings, name, method, url, good, bad, bad_body):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024
    body = json.dumps({**good, "padding": "x" * 2000}).encode()

    answer = agent_client.generic(method.upper(), url, body, content_type="application/json")

    assert answer.status_code == 413
    assert answer.json() == {
        "detail": "Request body too large (the limit is 1024 bytes).",
        "code": "payload_too_large",
    }


def _keyed(agent: Any) -> tuple[Any, APIClient]:
    from sessions_app.models import AgentAPIKey

    key_obj, raw = AgentAPIKey.objects.create_key(name="k", agent=agent)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {raw}")
    return key_obj, client


def test_401_for_a_revoked_or_expired_key_or_a_disabled_agent(agent_client, s1):
    from django.utils import timezone

    agent = agent_client.agent
    revoked, revoked_client = _keyed(agent)
    expired, expired_client = _keyed(agent)
    revoked.revoked = True
    revoked.save()
    expired.expiry_date = timezone.now() - timezone.timedelta(minutes=1)
    expired.save()
    ok = agent_client.get(RECALL, {"query": "deploy"})

    assert ok.status_code == 200
    assert revoked_client.get(RECALL, {"query": "deploy"}).json() == BAD_KEY
    assert expired_client.get(RECALL, {"query": "deploy"}).json() == {"detail": "API key revoked or expired."}
    agent.is_active = False
    agent.save()
    disabled = agent_client.get(RECALL, {"query": "deploy"})
    assert (disabled.status_code, disabled.json()) == (401, {"detail": "Agent is disabled."})
    from sessions_app import authentication
    from sessions_app.models import AgentAPIKey

    lookup = authentication._LOOKUPS[AgentAPIKey][0]
    assert lookup._compiled["default"] is not None  # the compiled statement answered, not the ORM fallback


def test_an_operator_key_authenticates_its_user(operator_client):
    answer = operator_client.get("/api/knowledge/chunks/")

    assert answer.status_code == 200
