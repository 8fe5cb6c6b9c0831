"""Exceptions: one class per status the API documents, all under ProtomemError."""

from __future__ import annotations

from typing import Any

import httpx

REQUEST_ID_HEADERS = ("x-request-id", "request-id", "x-correlation-id")


class ProtomemError(Exception):
    """A call failed. `status` is None when no response arrived (ConnectionFailed)."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        body: Any = None,
        request_id: str | None = None,
        method: str = "",
        url: str = "",
    ) -> None:
        super().__init__(message)
        self.status = status
        self.body = body  # the parsed JSON body (the raw text when it was not JSON)
        self.request_id = request_id
        self.method = method
        self.url = url

    @property
    def detail(self) -> str | None:
        """The API's `detail` message, when the body has one."""
        detail = self.body.get("detail") if isinstance(self.body, dict) else None
        return detail if isinstance(detail, str) else None


class BadRequest(ProtomemError):
    """400: invalid input; `field_errors` maps each refused field to its messages."""

    @property
    def field_errors(self) -> dict[str, Any]:
        if not isinstance(self.body, dict):
            return {}
        return {name: errors for name, errors in self.body.items() if name not in ("detail", "code")}


class Unauthorized(ProtomemError):
    """401: no API key, or a wrong, revoked or expired one."""


class Forbidden(ProtomemError):
    """403: the key may not do this (operator route, pinned namespace, hot-write gate, ...)."""


class NotFound(ProtomemError):
    """404: no such row or session, or not this agent's."""


class Conflict(ProtomemError):
    """409: the row changed concurrently."""


class PayloadTooLarge(ProtomemError):
    """413 (body over the server's limit) or 414 (query string too long)."""


class TooManyRequests(ProtomemError):
    """429, after the client's retries ran out."""


class ServerError(ProtomemError):
    """5xx (503 only after the client's retries ran out)."""


class ConnectionFailed(ProtomemError):
    """The server could not be reached, after the client's retries ran out."""


_BY_STATUS: dict[int, type[ProtomemError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    413: PayloadTooLarge,
    414: PayloadTooLarge,
    429: TooManyRequests,
}


def decode_body(response: httpx.Response) -> Any:
    """The JSON body, or the text when it is not JSON (a proxy's HTML error page)."""
    if not response.content:
        return None
    try:
        return response.json()
    except ValueError:
        return response.text


def request_id_of(response: httpx.Response) -> str | None:
    for header in REQUEST_ID_HEADERS:
        if header in response.headers:
            return response.headers[header]
    return None


def error_for(response: httpx.Response) -> ProtomemError:
    """The exception for a non-success response."""
    status = response.status_code
    cls = _BY_STATUS.get(status) or (ServerError if status >= 500 else ProtomemError)
    body = decode_body(response)
    return cls(
        _message(status, body),
        status=status,
        body=body,
        request_id=request_id_of(response),
        method=response.request.method,
        url=str(response.request.url),
    )


def _message(status: int, body: Any) -> str:
    if isinstance(body, dict):
        if isinstance(body.get("detail"), str):
            return f"HTTP {status}: {body['detail']}"
        if body:
            fields = "; ".join(f"{name}: {errors}" for name, errors in body.items())
            return f"HTTP {status}: {fields}"
    if isinstance(body, str) and body.strip():
        return f"HTTP {status}: {body.strip()[:200]}"
    return f"HTTP {status}"
