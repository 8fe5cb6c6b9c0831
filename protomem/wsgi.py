from __future__ import annotations

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "protomem.settings")
django.setup(set_prefix=False)  # what get_wsgi_application() does before building its handler

from protomem.lean_wsgi import ApiKeyLaneApplication  # noqa: E402 - needs the app registry
from protomem.warmup import warm_up  # noqa: E402

application = ApiKeyLaneApplication()
warm_up()  # before gunicorn's worker accepts its first connection (protomem.warmup)
