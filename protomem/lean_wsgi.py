"""The WSGI application: agent API calls take a middleware chain without the browser's layers.

An agent calls /api/ with `Authorization: Api-Key ...` and no cookie. For such a request the
session, CSRF, auth, messages and axes middleware do nothing but cost CPU on every call
(~0.3 ms of a ~5 ms request): DRF authenticates the key itself and never falls back to the
session (AgentAPIKeyAuthentication answers or refuses every "Api-Key" header), DRF's views are
CSRF-exempt, nothing sets a message, and axes only acts on the admin login. WhiteNoise serves
STATIC_URL only. Everything else (request id, metrics, security headers, the API input guard,
CommonMiddleware, X-Frame-Options) runs in both chains, so the answer is the same response.
A request with a cookie, another scheme, or outside /api/ (the admin, the docs page) takes the
full chain, as does anything the test client sends (it builds its own handler).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler

# Middleware that has nothing to do for a cookie-less Api-Key request to /api/ (see above).
SKIPPED_FOR_API_KEYS = frozenset(
    {
        "whitenoise.middleware.WhiteNoiseMiddleware",
        "django.contrib.sessions.middleware.SessionMiddleware",
        "django.middleware.csrf.CsrfViewMiddleware",
        "django.contrib.auth.middleware.AuthenticationMiddleware",
        "django.contrib.messages.middleware.MessageMiddleware",
        "axes.middleware.AxesMiddleware",
    }
)
API_PREFIX = "/api/"
HTML_API_PAGES = ("/api/docs",)  # rendered templates: CSRF cookie, auth context processor
# sessions_app.authentication.KEYWORD (protomem's plumbing imports no app; a test pins the two equal).
API_KEY_SCHEME = "Api-Key "


def lean_eligible(environ: dict[str, Any]) -> bool:
    path = environ.get("PATH_INFO", "")
    return (
        path.startswith(API_PREFIX)
        and not path.startswith(HTML_API_PAGES)
        and environ.get("HTTP_AUTHORIZATION", "").startswith(API_KEY_SCHEME)
        and "HTTP_COOKIE" not in environ
    )


class _LeanHandler(WSGIHandler):
    """A WSGIHandler whose chain leaves out SKIPPED_FOR_API_KEYS (built once, at start)."""

    def load_middleware(self, is_async: bool = False) -> None:
        full = settings.MIDDLEWARE
        settings.MIDDLEWARE = [m for m in full if m not in SKIPPED_FOR_API_KEYS]
        try:
            super().load_middleware(is_async)
        finally:
            settings.MIDDLEWARE = full


class ApiKeyLaneApplication:
    """Two handlers (each with its own chain and hook lists, so threads never share a switch)."""

    def __init__(self) -> None:
        self.full = WSGIHandler()
        self.lean = _LeanHandler()

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        handler = self.lean if lean_eligible(environ) else self.full
        return handler(environ, start_response)
