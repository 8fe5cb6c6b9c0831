"""Streamable HTTP at /mcp, inside the Django (WSGI) service.

The view authenticates `Authorization: Api-Key <agent key>` with sessions_app's own
authentication (401 without or with a bad key, 403 for an operator key), fixes the session
(X-Protomem-Session from the operator's client config, else the key's `mcp-<prefix>`
session), then hands the request to the SDK's own streamable-HTTP handler in stateless,
JSON-response mode: one POST carries one JSON-RPC message and is answered with one
application/json body (GET and DELETE are 405), so nothing outlives the request and any
gunicorn worker can serve any call, in both protocol eras (the initialize handshake and the
handshake-free 2026-07-28 version).

The SDK handler is an ASGI app; `call_asgi` runs it to completion on an event loop through
asgiref's async_to_sync (Django's own bridge), buffering the response. Tool calls inside it
come back to this request's thread through sync_to_async(thread_sensitive=True), so they use
this request's database connection.
"""

from __future__ import annotations

from typing import Any

import anyio
from asgiref.sync import async_to_sync
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from mcp_server.binding import SESSION_HEADER, Binding, BindingError, checked_session_id, key_session_id
from mcp_server.server import build_server
from sessions_app.authentication import AgentAPIKeyAuthentication
from sessions_app.permissions import IsAgent

# Hop-by-hop or recomputed by the WSGI server: not copied from the SDK's response.
_DROPPED_HEADERS = frozenset({b"content-length", b"transfer-encoding", b"connection"})


def asgi_scope(request: HttpRequest) -> dict[str, Any]:
    """The ASGI HTTP scope of a Django request (headers lower-cased, latin-1 as ASGI wants)."""
    headers = [
        (name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in request.headers.items()
    ]
    server_port = int(request.get_port() or 80)
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": request.method,
        "scheme": request.scheme,
        "path": request.path,
        "raw_path": request.path.encode("utf-8"),
        "root_path": "",
        "query_string": request.META.get("QUERY_STRING", "").encode("latin-1"),
        "headers": headers,
        "client": (request.META.get("REMOTE_ADDR", ""), 0),
        "server": (request.get_host().split(":")[0], server_port),
    }


async def _serve(binding: Binding, scope: dict[str, Any], body: bytes) -> tuple[int, list[Any], bytes]:
    """Run the SDK's stateless JSON handler for one request; (status, headers, body)."""
    manager = StreamableHTTPSessionManager(
        app=build_server(lambda: binding), stateless=True, json_response=True
    )
    status, headers, chunks = 500, [], []
    finished = anyio.Event()
    delivered = False

    async def receive() -> dict[str, Any]:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        await finished.wait()  # the client stays connected until the answer is complete
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status, headers
        if message["type"] == "http.response.start":
            status, headers = message["status"], list(message.get("headers", []))
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                finished.set()

    async with manager.run():
        await manager.handle_request(scope, receive, send)
    finished.set()
    return status, headers, b"".join(chunks)


def call_asgi(binding: Binding, request: HttpRequest) -> HttpResponse:
    status, headers, body = async_to_sync(_serve)(binding, asgi_scope(request), request.body)
    response = HttpResponse(body, status=status)
    for name, value in headers:
        if name.lower() not in _DROPPED_HEADERS:
            response.headers[name.decode("latin-1")] = value.decode("latin-1")
    return response


class _JSONOnly(BaseContentNegotiation):
    """Errors (401/403/400) are JSON whatever the Accept header; MCP answers carry their own type."""

    def select_parser(self, request: Request, parsers: list[Any]) -> Any:
        return None

    def select_renderer(
        self, request: Request, renderers: list[Any], format_suffix: str | None = None
    ) -> Any:
        return renderers[0], renderers[0].media_type


class McpHttpView(APIView):
    """POST one JSON-RPC message; the SDK answers it with one JSON body."""

    authentication_classes = [AgentAPIKeyAuthentication]
    permission_classes = [IsAgent]
    parser_classes: list[Any] = []  # the SDK reads the raw body itself
    renderer_classes = [JSONRenderer]
    content_negotiation_class = _JSONOnly
    schema = None  # not part of the REST API's OpenAPI schema

    def _bound(self, request: Request) -> Binding | HttpResponse:
        named = request.headers.get(SESSION_HEADER, "")
        try:
            session_id = checked_session_id(named) if named else key_session_id(request.auth)
        except BindingError as exc:
            return JsonResponse({"detail": f"{SESSION_HEADER}: {exc}"}, status=400)
        return Binding(agent=request.user.agent, session_id=session_id)

    # POST only: stateless mode has no server-initiated stream to GET (it would hold the
    # worker open forever) and no session to DELETE, so both are 405 as the MCP spec allows.
    def post(self, request: Request) -> HttpResponse:
        bound = self._bound(request)
        if isinstance(bound, HttpResponse):
            return bound
        try:
            request.body  # noqa: B018 - read (and size-checked) before the SDK gets it
        except RequestDataTooBig:
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            return JsonResponse(
                {"detail": f"Request body too large (the limit is {limit} bytes)."}, status=413
            )
        return call_asgi(bound, request._request)
