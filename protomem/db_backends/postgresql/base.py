"""Django's PostgreSQL backend with a health check that costs no round trip.

Web workers keep their connection between requests (DATABASE_CONN_MAX_AGE) with health checks
on, so a connection a PostgreSQL restart killed is replaced before a request uses it. Django
checks with `SELECT 1` at the first query of every request (per database: the context
endpoint pays two): a round trip, ~0.1-0.2 ms of the worker's CPU and a backend wake-up, on
every agent call. A kept connection is idle between requests, so nothing should be waiting on
its socket: a server that ended the session (restart, pg_terminate_backend, idle timeout) has
sent its FATAL error and closed, which makes the socket readable. So the check here asks
psycopg's own state (closed, broken, a failed transaction) and polls the socket without
waiting; anything unexpected counts as unusable and the connection is replaced (a spare
reconnect, never a wrong answer). What it cannot see, a peer that vanished without a word (a
dropped network), SELECT 1 would only have noticed after its own timeout.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg import pq

# Transaction states a kept connection may be in when checked: idle between requests, or inside
# an atomic block (tests, a request that opened one before its first query).
_USABLE_STATES = frozenset({pq.TransactionStatus.IDLE, pq.TransactionStatus.INTRANS})


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        conn = self.connection
        if conn is None or conn.closed or conn.broken:
            return False
        if conn.pgconn.transaction_status not in _USABLE_STATES:
            return False
        poller = select.poll()  # not select(): a descriptor past FD_SETSIZE (1024) would fail it
        try:
            poller.register(conn.fileno(), select.POLLIN)
            ready = poller.poll(0)
        except (OSError, ValueError):  # a closed or invalid descriptor
            return False
        return not ready
