"""Memory API routes: chunk store and agent tools (urls_store), delivery (urls_delivery)."""

from __future__ import annotations

from django.urls import include, path

urlpatterns = [
    path("", include("memory.api.urls_store")),
    path("", include("memory.api.urls_delivery")),
]
