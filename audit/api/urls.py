from __future__ import annotations

from django.urls import re_path

from audit.api.views import InjectionLogListApi, InjectionReplayApi

urlpatterns = [
    re_path(r"^memory/injections/?$", InjectionLogListApi.as_view(), name="injection-log-list"),
    re_path(
        r"^memory/injections/(?P<log_id>[0-9]{1,19})/replay/?$",
        InjectionReplayApi.as_view(),
        name="injection-log-replay",
    ),
]
