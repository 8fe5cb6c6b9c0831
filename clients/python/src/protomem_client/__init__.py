"""Typed sync and async client for protomem's agent API.

    from protomem_client import ProtomemClient
    with ProtomemClient("http://127.0.0.1:8000", api_key, session_id="thread-1") as client:
        client.memory_ingest("The user deploys on Tuesdays.")
"""

from __future__ import annotations

from protomem_client.async_client import AsyncProtomemClient
from protomem_client.errors import (
    BadRequest,
    Conflict,
    ConnectionFailed,
    Forbidden,
    NotFound,
    PayloadTooLarge,
    ProtomemError,
    ServerError,
    TooManyRequests,
    Unauthorized,
)
from protomem_client.retry import RetryPolicy
from protomem_client.routes import OPERATOR_ONLY, ROUTES, Route
from protomem_client.sync_client import ProtomemClient
from protomem_client.version import VERSION

__version__ = VERSION
__all__ = [
    "OPERATOR_ONLY",
    "ROUTES",
    "AsyncProtomemClient",
    "BadRequest",
    "Conflict",
    "ConnectionFailed",
    "Forbidden",
    "NotFound",
    "PayloadTooLarge",
    "ProtomemClient",
    "ProtomemError",
    "RetryPolicy",
    "Route",
    "ServerError",
    "TooManyRequests",
    "Unauthorized",
]
