"""On PostgreSQL a kept connection's health check runs no statement, and still catches a
connection the server ended (protomem.db_backends.postgresql)."""

from __future__ import annotations

import select

import pytest
from django.db import connection, connections

from protomem import settings as shipped

pytestmark = pytest.mark.django_db(transaction=True)


def test_server_urls_use_the_polling_backend() -> None:
    assert shipped.url_database("postgres://u@127.0.0.1:5432/x")["ENGINE"] == shipped.POSTGRESQL_ENGINE
    assert shipped.url_database("sqlite:////tmp/x.db")["ENGINE"] == "django.db.backends.sqlite3"


@pytest.mark.postgres_only
def test_an_idle_connection_is_usable_without_a_round_trip(monkeypatch) -> None:
    connection.ensure_connection()

    def no_statements(*args: object, **kwargs: object) -> None:
        raise AssertionError("the health check ran a statement")

    monkeypatch.setattr(connection.connection, "cursor", no_statements)
    assert connection.is_usable() is True


@pytest.mark.postgres_only
def test_a_connection_the_server_ended_is_replaced() -> None:
    kept = connections.create_connection("default")  # its own connection, like a web worker's
    try:
        kept.ensure_connection()
        pid = kept.connection.info.backend_pid
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
            assert cursor.fetchone() == (True,)
        # The server's goodbye (FATAL, then EOF) arrives asynchronously: wait for it on the socket.
        readable, _, _ = select.select([kept.connection.fileno()], [], [], 10)
        assert readable

        assert kept.is_usable() is False
        kept.health_check_done = False
        kept.close_if_health_check_failed()
        assert kept.connection is None
        with kept.cursor() as cursor:  # a fresh connection
            cursor.execute("SELECT 1")
            assert cursor.fetchone() == (1,)
        assert kept.connection.info.backend_pid != pid
    finally:
        kept.close()
