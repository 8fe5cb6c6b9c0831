"""GET /metrics: the Prometheus page, for operators and the scraper only.

Who may read it:
- a scraper holding PROTOMEM_METRICS_TOKEN (`Authorization: Bearer <token>`; Prometheus's
  `authorization: {credentials_file: ...}`); the token opens this page and nothing else;
- an operator: a staff user (admin session or operator Api-Key) with audit.view_injectionlog,
  the permission that already shows what memory entered which prompt.
Agents are refused (403) and anonymous callers asked to authenticate (401).
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import HttpResponse
from rest_framework import authentication, exceptions
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.permissions import BasePermission
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from protomem.metrics import exposition
from sessions_app.authentication import AgentAPIKeyAuthentication
from sessions_app.permissions import HasModelPerms

BEARER = b"bearer"


@dataclass(frozen=True)
class MetricsScraper:
    """request.user for a caller holding the metrics token: authenticated, no other rights."""

    is_authenticated: bool = True
    is_active: bool = True
    is_staff: bool = False
    is_superuser: bool = False
    is_anonymous: bool = False
    pk: str = "metrics-scraper"

    def has_perm(self, perm: str, obj: Any = None) -> bool:
        return False

    def __str__(self) -> str:
        return self.pk


class MetricsTokenAuthentication(authentication.BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].lower() != BEARER:
            return None
        token = (getattr(settings, "PROTOMEM_METRICS_TOKEN", "") or "").encode()
        if len(parts) != 2 or not token or not hmac.compare_digest(parts[1], token):
            raise exceptions.AuthenticationFailed("Invalid metrics token.")
        return MetricsScraper(), None

    def authenticate_header(self, request: Request) -> str:
        # First authenticator: an anonymous caller gets 401 with this challenge, not 403.
        return 'Bearer realm="metrics"'


class IsMetricsScraper(BasePermission):
    def has_permission(self, request: Any, view: Any) -> bool:
        return isinstance(request.user, MetricsScraper)


class ErrorsAsJson(BaseContentNegotiation):
    """The page picks its own format from Accept (OpenMetrics or text); errors are JSON. Never 406."""

    def select_parser(self, request: Request, parsers: list[Any]) -> Any:
        return parsers[0] if parsers else None

    def select_renderer(self, request: Request, renderers: list[Any], format_suffix: Any = None) -> Any:
        return renderers[0], renderers[0].media_type


class MetricsView(APIView):
    http_method_names = ["get", "head"]
    authentication_classes = [
        MetricsTokenAuthentication,
        AgentAPIKeyAuthentication,
        authentication.SessionAuthentication,
    ]
    permission_classes = [IsMetricsScraper | HasModelPerms]
    required_perms = {"*": ("audit.view_injectionlog",)}
    renderer_classes = [JSONRenderer]
    content_negotiation_class = ErrorsAsJson
    schema = None  # operator plumbing, not part of the agent API's schema

    def get(self, request: Request) -> HttpResponse:
        body, content_type = exposition(request.headers.get("Accept", ""))
        response = HttpResponse(body, content_type=content_type)
        response["Cache-Control"] = "no-store"
        return response
