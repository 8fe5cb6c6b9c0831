from __future__ import annotations

from django.urls import re_path

from audit.api.views import InjectionLogListApi

urlpatterns = [
    re_path(r"^memory/injections/?$", InjectionLogListApi.as_view(), name="injection-log-list"),
]
