"""What both clients share around sending: headers, the request, the session default, and
turning transport failures into ProtomemError."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx

from protomem_client.errors import ConnectionFailed, ProtomemError
from protomem_client.operations import Call
from protomem_client.retry import RETRY_ERRORS
from protomem_client.version import VERSION

DEFAULT_TIMEOUT = 30.0


def default_headers(api_key: str, extra: Mapping[str, str] | None) -> dict[str, str]:
    if not api_key or any(c.isspace() for c in api_key):
        raise ValueError("api_key must be a non-empty key without whitespace")
    return {
        "Authorization": f"Api-Key {api_key}",
        "Accept": "application/json",
        "User-Agent": f"protomem-client/{VERSION}",
        **(extra or {}),
    }


def build_request(http: httpx.Client | httpx.AsyncClient, call: Call[Any]) -> httpx.Request:
    return http.build_request(call.route.method, call.path, params=call.params, json=call.json)


def resolve_session(explicit: str | None, default: str | None) -> str:
    session_id = explicit if explicit is not None else default
    if session_id is None:
        raise ValueError("no session_id: pass one, or construct the client with session_id=")
    return session_id


def transport_failure(request: httpx.Request, error: Exception) -> ProtomemError:
    """ConnectionFailed when the server was never reached, a plain ProtomemError otherwise
    (a read timeout, a dropped connection: the server may have acted on the request)."""
    cls = ConnectionFailed if isinstance(error, RETRY_ERRORS) else ProtomemError
    return cls(
        f"{request.method} {request.url}: {type(error).__name__}: {error}",
        method=request.method,
        url=str(request.url),
    )
