"""Delivery routes: per-turn context (agents), prompt preview (operators), skills.

Trailing slashes are optional, as on the session routes.
"""

from __future__ import annotations

from django.urls import re_path

from delivery.api.views import ContextApi, PromptPreviewApi, SkillDetailApi, SkillListApi

urlpatterns = [
    re_path(r"^sessions/(?P<session_id>[^/]+)/context/?$", ContextApi.as_view(), name="session-context"),
    re_path(r"^prompts/preview/?$", PromptPreviewApi.as_view(), name="prompt-preview"),
    re_path(r"^skills/?$", SkillListApi.as_view(), name="skill-list"),
    re_path(r"^skills/(?P<name>[^/]+)/?$", SkillDetailApi.as_view(), name="skill-detail"),
]
