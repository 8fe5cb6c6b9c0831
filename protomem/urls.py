from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from mcp_server.http import McpHttpView
from observability.views import MetricsView
from protomem import health

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
    path("mcp", McpHttpView.as_view(), name="mcp"),
]
