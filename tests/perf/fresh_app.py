"""Run a script in a fresh Python process on a fresh SQLite instance (shipped settings, migrated)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]

PRELUDE = r"""
import json, sys
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
call_command("migrate", database="injections", verbosity=0)
from django.core.wsgi import get_wsgi_application
from django.test import Client
from sessions_app.models import Agent, AgentAPIKey

application = get_wsgi_application()
agent = Agent.objects.create(name="fresh-app")
_, key = AgentAPIKey.objects.create_key(name="fresh-app", agent=agent)
client = Client(HTTP_AUTHORIZATION=f"Api-Key {key}")
JSON = "application/json"
out = {}
"""


def run_fresh_app(tmp_path: Path, script: str, **env_extra: str) -> dict[str, Any]:
    """`script` after PRELUDE (a migrated instance, an agent `client`); it fills `out`, returned."""
    (tmp_path / "protomem.yaml").write_text(
        "default_model: m\nmodels:\n  m: {context_window: 32000}\nknowledge: {embeddings: false}\n"
    )
    dropped = ("DATABASE_URL", "INJECTION_LOG_DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update(
        DJANGO_SETTINGS_MODULE="protomem.settings",
        PROTOMEM_INSTANCE_DIR=str(tmp_path),
        PROTOMEM_CONFIG=str(tmp_path / "protomem.yaml"),
        PYTHONPATH=str(REPO),
        **env_extra,
    )
    code = PRELUDE + script + "\nprint(json.dumps(out))\n"
    done = subprocess.run(  # noqa: S603 - this interpreter, a fixed script
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])
