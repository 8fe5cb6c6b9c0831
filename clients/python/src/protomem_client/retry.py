"""When to try a call again, and how long to wait: shared by the sync and async clients.

Retried: 429 and 503 (the server asked us to come back; Retry-After is honoured, up to a cap)
and connect errors (the request never reached the server, so even a POST is safe to resend).
Nothing else: a 500 or a read timeout may have done the work already.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

import httpx

RETRY_STATUSES = frozenset({429, 503})
RETRY_ERRORS: tuple[type[Exception], ...] = (httpx.ConnectError, httpx.ConnectTimeout)


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 3  # in total, the first one included
    backoff: float = 0.5  # seconds before the second attempt; doubles each time
    max_backoff: float = 8.0
    max_retry_after: float = 60.0  # a longer Retry-After is cut to this
    jitter: float = 0.5  # each computed wait is scaled by a random factor in [1 - jitter, 1]
    random: random.Random = field(default_factory=random.Random, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError("attempts must be at least 1")

    def delay_after_response(self, attempt: int, response: httpx.Response) -> float | None:
        """Seconds to wait before attempt `attempt + 1`, or None to stop and report this response."""
        if response.status_code not in RETRY_STATUSES or attempt >= self.attempts:
            return None
        asked = retry_after_seconds(response.headers.get("retry-after"))
        if asked is not None:
            return min(asked, self.max_retry_after)
        return self.backoff_delay(attempt)

    def delay_after_error(self, attempt: int, error: Exception) -> float | None:
        """Seconds to wait after a transport error, or None to give up (re-raise it)."""
        if not isinstance(error, RETRY_ERRORS) or attempt >= self.attempts:
            return None
        return self.backoff_delay(attempt)

    def backoff_delay(self, attempt: int) -> float:
        # Exponential, capped, and jittered so many clients that failed together do not
        # come back together.
        base = min(self.backoff * 2.0 ** (attempt - 1), self.max_backoff)
        return base * (1 - self.jitter * self.random.random())


def retry_after_seconds(value: str | None) -> float | None:
    """Retry-After as seconds: either delta-seconds or an HTTP date; None when absent or garbled."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())
