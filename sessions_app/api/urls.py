"""Session routes under /api/. `sessions/search/` comes before the id routes, and "search" is a
reserved session id, so it can never be shadowed. Other apps own sessions/<id>/memory/…,
sessions/<id>/knowledge/… and sessions/<id>/context/."""

from __future__ import annotations

from django.urls import re_path

from sessions_app.api import views

SESSION = r"sessions/(?P<session_id>[^/]+)"

urlpatterns = [
    re_path(r"^sessions/?$", views.SessionListCreateApi.as_view(), name="session-list"),
    re_path(r"^sessions/search/?$", views.SessionSearchApi.as_view(), name="session-search"),
    re_path(rf"^{SESSION}/?$", views.SessionDetailApi.as_view(), name="session-detail"),
    re_path(rf"^{SESSION}/messages/?$", views.SessionMessagesApi.as_view(), name="session-messages"),
    re_path(rf"^{SESSION}/summary/?$", views.SessionSummaryApi.as_view(), name="session-summary"),
]
