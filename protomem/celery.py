"""The Celery app: configured from Django settings (CELERY_*), tasks found per app."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "protomem.settings")

app = Celery("protomem")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
