"""Test overrides: real SQLite files (FTS5), eager Celery unless a test starts a real worker."""

from __future__ import annotations

import dataclasses
import os
import tempfile
from pathlib import Path

from protomem.settings import *  # noqa: F403

# One directory per test run, so parallel runs on one machine never share database files.
TEST_RUN_DIR = Path(os.environ.get("PROTOMEM_TEST_DIR") or tempfile.mkdtemp(prefix="protomem-test-"))
os.environ["PROTOMEM_TEST_DIR"] = str(TEST_RUN_DIR)
# Built ONNX encoders (memory.embedding.onnx_encoder) go to this run's dir, not the user's cache.
os.environ.setdefault("PROTOMEM_MODEL_CACHE", str(TEST_RUN_DIR / "model-cache"))
for _alias, _file in (("default", "agent.db"), ("injections", "injections.db")):
    _db = DATABASES[_alias]  # noqa: F405
    if _db["ENGINE"] == "django.db.backends.sqlite3":
        _db["TEST"] = {"NAME": str(TEST_RUN_DIR / _file)}
    else:  # a server database: one test database per run and alias, dropped at the end
        _db["TEST"] = {"NAME": f"test_{_db['NAME']}_{TEST_RUN_DIR.name.replace('-', '_')}"[:63]}

# The suite runs keyword recall unless a test opts in to vectors (tests/memory/store/vector_stub.py's
# `hybrid` fixture, or settings.PROTOMEM), so ordinary writes do not run the local model; the shipped
# defaults (embeddings on, the packaged local model) are pinned by tests/memory/test_config.py.
PROTOMEM = dataclasses.replace(
    PROTOMEM,  # noqa: F405
    knowledge=dataclasses.replace(PROTOMEM.knowledge, embeddings=False, embed_model="qwen3-embedding"),  # noqa: F405
)

SECRET_KEY = "test"  # noqa: S105
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Tasks run eagerly unless a test takes the `celery_worker` fixture, which starts a real worker
# on Redis; each run gets its own queue so parallel runs never steal each other's tasks.
CELERY_BROKER_URL = os.environ.get("PROTOMEM_TEST_BROKER", "redis://127.0.0.1:6379/15")
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_TASK_DEFAULT_QUEUE = os.environ.setdefault("CELERY_QUEUE", f"protomem-test-{TEST_RUN_DIR.name}")
