from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from observability.views import MetricsView
from protomem import health

_mcp_view: Callable[..., HttpResponse] | None = None


@csrf_exempt
def mcp(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """/mcp: the MCP SDK (~0.9 s of imports) is loaded by the first request that uses it, not by
    every worker at start or on its first REST call. The view is excluded from the OpenAPI schema
    either way (McpHttpView.schema = None)."""
    global _mcp_view
    if _mcp_view is None:
        from mcp_server.http import McpHttpView

        _mcp_view = McpHttpView.as_view()
    return _mcp_view(request, *args, **kwargs)


urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("metrics", MetricsView.as_view(), name="metrics"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("api/", include("memory.api.urls")),
    path("api/", include("delivery.api.urls")),
    path("api/", include("sessions_app.api.urls")),
    path("api/", include("audit.api.urls")),
    path("mcp", mcp, name="mcp"),
]
