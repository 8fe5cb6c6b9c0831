"""Refuse hostile API requests before any view, auth or database work, with a JSON 4xx.

Only under /api/ (the admin keeps Django's own handling):
- a declared Content-Length over DATA_UPLOAD_MAX_MEMORY_SIZE: 413 without reading the body
  (an undeclared length is still capped when the body is read: protomem.parsers);
- a query string over PROTOMEM_MAX_QUERY_BYTES: 414;
- a NUL character in the path, query string or Authorization header: 400 (PostgreSQL can
  neither store nor compare it, so it would surface as a 500 from whichever lookup met it);
- a URL no route matches (e.g. a chunk id that is not digits): Django's HTML 404 page
  becomes the API's JSON 404.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote_plus

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

API_PREFIX = "/api/"
DEFAULT_MAX_QUERY_BYTES = 65_536
NUL_CODE = "null_character"


def _error(status: int, detail: str, code: str) -> JsonResponse:
    return JsonResponse({"detail": detail, "code": code}, status=status)


def _declared_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


class ApiInputGuardMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info.startswith(API_PREFIX):
            refusal = self.refuse(request)
            if refusal is not None:
                return refusal
            response = self.get_response(request)
            if response.status_code == 404 and getattr(request, "resolver_match", None) is None:
                return _error(404, "Not found.", "not_found")
            return response
        return self.get_response(request)

    def refuse(self, request: HttpRequest) -> HttpResponse | None:
        body_limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if body_limit is not None and _declared_length(request) > body_limit:
            return _error(
                413, f"Request body too large (the limit is {body_limit} bytes).", "payload_too_large"
            )
        query = request.META.get("QUERY_STRING", "")
        query_limit = getattr(settings, "PROTOMEM_MAX_QUERY_BYTES", DEFAULT_MAX_QUERY_BYTES)
        if len(query) > query_limit:
            return _error(414, f"Query string too long (the limit is {query_limit} bytes).", "uri_too_long")
        # Decoding makes a NUL only out of "%00": most queries skip unquoting.
        nul_in_query = "\x00" in query or ("%00" in query and "\x00" in unquote_plus(query))
        if "\x00" in request.path_info or nul_in_query:
            return _error(400, "NUL characters are not allowed in the URL.", NUL_CODE)
        if "\x00" in request.META.get("HTTP_AUTHORIZATION", ""):  # the key is a DB lookup too
            return _error(400, "NUL characters are not allowed in the Authorization header.", NUL_CODE)
        return None
