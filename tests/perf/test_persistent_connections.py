"""A web worker keeps its database connection between requests (DATABASE_CONN_MAX_AGE), SQLite too."""

from __future__ import annotations

from pathlib import Path

import pytest

from protomem import settings as shipped
from tests.perf.fresh_app import run_fresh_app

SCRIPT = r"""
from wsgiref.util import setup_testing_defaults
from django.db import connections, close_old_connections
close_old_connections()  # the setup's own connection, as a worker starts

def serve(path, query):
    # Through the WSGI handler itself (the test client keeps connections open on purpose).
    environ = {"PATH_INFO": path, "QUERY_STRING": query, "HTTP_AUTHORIZATION": f"Api-Key {key}"}
    setup_testing_defaults(environ)
    statuses = []
    response = application(environ, lambda status, headers, exc_info=None: statuses.append(status))
    b"".join(response)
    response.close()  # request_finished: where Django closes an expired connection
    return statuses[0]

seen = []
for i in range(3):
    status = serve("/api/memory/recall/", "query=deploy")
    assert status.startswith("200"), status
    raw = connections["default"].connection
    seen.append(None if raw is None else id(raw))
out["seen"] = seen
out["max_age"] = connections["default"].settings_dict["CONN_MAX_AGE"]
out["health_checks"] = connections["default"].settings_dict["CONN_HEALTH_CHECKS"]
"""


def test_shipped_sqlite_settings_keep_connections_with_health_checks() -> None:
    entry = shipped.sqlite_database("/tmp/protomem-unused/x.db")  # noqa: S108 - never opened
    assert entry["CONN_MAX_AGE"] == shipped.DATABASE_CONN_MAX_AGE
    assert entry["CONN_HEALTH_CHECKS"] is True
    pg = shipped.url_database("postgres://u@127.0.0.1:5432/x")
    assert pg["CONN_MAX_AGE"] == shipped.DATABASE_CONN_MAX_AGE
    assert pg["CONN_HEALTH_CHECKS"] is True


@pytest.mark.parametrize(("max_age", "reused"), [("60", True), ("0", False)])
def test_requests_reuse_the_connection_only_when_asked(tmp_path: Path, max_age: str, reused: bool) -> None:
    out = run_fresh_app(tmp_path, SCRIPT, DATABASE_CONN_MAX_AGE=max_age)

    assert out["max_age"] == int(max_age)
    assert out["health_checks"] is True
    if reused:
        assert out["seen"][0] is not None
        assert len(set(out["seen"])) == 1
    else:
        assert out["seen"] == [None, None, None]  # closed at the end of every request


def test_celery_workers_close_their_connections_around_every_task() -> None:
    """Kept connections are for web workers: Celery's Django fixup closes a worker's connections
    before and after each task (CELERY_DB_REUSE_MAX unset), so a task never inherits one."""
    from celery.fixups.django import DjangoFixup, DjangoWorkerFixup

    from protomem.celery import app

    assert "celery.fixups.django:fixup" in app.fixups
    assert any(isinstance(f, DjangoFixup) for f in app._fixups)
    assert not DjangoWorkerFixup(app).db_reuse_max
