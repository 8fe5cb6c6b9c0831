"""GET /api/memory/injections: operators only, newest first, cursor-paginated, filterable."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from audit.models import InjectionLog
from audit.services import injection_log_record
from tests.conftest import grant

pytestmark = pytest.mark.django_db(databases=["default", "injections"])

URL = "/api/memory/injections"
BASE = datetime(2026, 7, 1, 12, tzinfo=UTC)


def make(n, *, agent_id=1, session_id="t", start=0):
    ids = []
    for i in range(start, start + n):
        log = injection_log_record(
            agent_id=agent_id, session_id=session_id, hot_ids=[i], rag_ids=[100 + i], approx_tokens=i
        )
        InjectionLog.objects.filter(pk=log.pk).update(created_at=BASE + timedelta(minutes=i))
        ids.append(log.pk)
    return ids


def test_lists_newest_first_with_cursor_pages(operator_client):
    ids = make(5)
    page1 = operator_client.get(URL, {"limit": 2})
    assert page1.status_code == 200, page1.content
    body = page1.json()
    assert [r["id"] for r in body["results"]] == [ids[4], ids[3]]
    assert body["previous"] is None
    page2 = operator_client.get(body["next"]).json()
    assert [r["id"] for r in page2["results"]] == [ids[2], ids[1]]
    # stable under inserts: a newer row does not shift the next page
    make(1, start=50)
    page3 = operator_client.get(page2["next"]).json()
    assert [r["id"] for r in page3["results"]] == [ids[0]]
    assert page3["next"] is None
    row = body["results"][0]
    assert row == {
        "id": ids[4],
        "created_at": "2026-07-01T12:04:00Z",
        "agent_id": 1,
        "session_id": "t",
        "digest_session_ids": [],
        "hot_ids": [4],
        "rag_ids": [104],
        "approx_tokens": 4,
    }


def test_filters(operator_client):
    a = make(2, agent_id=1, session_id="a")
    b = make(2, agent_id=2, session_id="b", start=2)
    day2 = make(1, agent_id=2, session_id="a", start=60 * 24)

    def ids(params):
        resp = operator_client.get(URL, params)
        assert resp.status_code == 200, resp.content
        return [r["id"] for r in resp.json()["results"]]

    assert ids({"session": "a"}) == [day2[0], a[1], a[0]]
    assert ids({"agent": 2}) == [day2[0], b[1], b[0]]
    assert ids({"session": "a", "agent": 1}) == [a[1], a[0]]
    assert ids({"date": "2026-07-02"}) == day2
    assert ids({"since": "2026-07-01T12:02:00Z", "until": "2026-07-01T13:00:00Z"}) == [b[1], b[0]]
    assert ids({"chunk": 103}) == [b[1]]
    assert operator_client.get(URL, {"date": "nope"}).status_code == 400


def test_trailing_slash_works_too(operator_client):
    make(1)
    assert operator_client.get(URL + "/").status_code == 200


def test_operators_with_the_view_permission_only(agent_client, api_client, staff_client, staff_user):
    make(1)
    assert agent_client.get(URL).status_code == 403
    assert api_client.get(URL).status_code == 401
    refused = staff_client.get(URL)
    assert refused.status_code == 403
    assert refused.json()["detail"] == "Needs the permission(s): audit.view_injectionlog."
    grant(staff_user, ("audit", "view_injectionlog"))
    assert staff_client.get(URL).status_code == 200
