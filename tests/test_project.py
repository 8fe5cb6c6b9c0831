"""Project-level gates: system checks, migrations, health endpoints, beat schedule."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core import checks as django_checks
from django.core.management import call_command
from django.db import connection
from django.test import Client

from memory import checks
from memory.store.text_index import fts5
from tests.backends import ranked_backend

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.django_db
def test_manage_py_check_passes():
    out = io.StringIO()
    call_command("check", stdout=out)
    assert "System check identified no issues" in out.getvalue()


@pytest.mark.django_db
def test_our_checks_are_registered_and_quiet():
    registry = django_checks.registry.registry
    registered = {c.__name__ for c in registry.get_checks()}
    deploy_only = {c.__name__ for c in registry.get_checks(include_deployment_checks=True)}
    assert "fts_schema_check" in registered
    assert "secret_key_check" in deploy_only - registered
    assert checks.fts_schema_check() == []
    assert checks.secret_key_check() == []


@pytest.mark.sqlite_only
@pytest.mark.django_db
def test_missing_trigger_is_an_error():
    with connection.cursor() as cursor:
        cursor.execute("DROP TRIGGER memory_chunk_fts_ad")  # rolled back with the test transaction
    [message] = checks.fts_schema_check()
    assert message.id == "memory.E001"
    assert message.level == django_checks.ERROR
    assert "memory_chunk_fts_ad" in message.msg


@pytest.mark.sqlite_only
@pytest.mark.django_db
def test_missing_table_is_an_error():
    with connection.cursor() as cursor:
        for trigger in fts5.TRIGGERS:
            cursor.execute(f"DROP TRIGGER {trigger}")
        cursor.execute("DROP TABLE memory_chunk_fts")
    [message] = checks.fts_schema_check()
    assert message.id == "memory.E001"
    assert "memory_chunk_fts," in message.msg


@pytest.mark.sqlite_only
@pytest.mark.django_db
def test_no_fts5_is_only_a_warning(monkeypatch):
    monkeypatch.setattr(fts5, "fts5_compiled", lambda: False)
    [message] = checks.fts_schema_check()
    assert (message.id, message.level) == ("memory.W001", django_checks.WARNING)


@pytest.mark.sqlite_only
@pytest.mark.django_db
def test_unmigrated_database_is_not_checked(monkeypatch):
    with connection.cursor() as cursor:
        cursor.execute("DROP TRIGGER memory_chunk_fts_ai")
    monkeypatch.setattr(checks, "_fts_migration_applied", lambda: False)
    assert checks.fts_schema_check() == []


def test_dev_secret_key_with_debug_off_warns(settings):
    settings.SECRET_KEY, settings.DEBUG = checks.DEV_SECRET_KEY, False
    [message] = checks.secret_key_check()
    assert (message.id, message.level) == ("memory.W002", django_checks.WARNING)
    settings.DEBUG = True
    assert checks.secret_key_check() == []
    settings.SECRET_KEY, settings.DEBUG = "a-real-secret", False
    assert checks.secret_key_check() == []


def manage(args, instance, **env):
    # a fresh instance means the embedded defaults: SQLite files in the instance dir
    dropped = ("DJANGO_SECRET_KEY", "PROTOMEM_CONFIG", "DATABASE_URL", "INJECTION_LOG_DATABASE_URL")
    full_env = {k: v for k, v in os.environ.items() if k not in dropped}
    full_env.update(
        PROTOMEM_INSTANCE_DIR=str(instance),
        DJANGO_SETTINGS_MODULE="protomem.settings",
        PROTOMEM_CONFIG=str(instance / "protomem.yaml"),
        **env,
    )
    return subprocess.run(  # noqa: S603 - our own interpreter and manage.py
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_fresh_instance_migrates_and_passes_check(tmp_path):
    # given a brand-new instance dir with the real settings (no env secret)
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "protomem.yaml").write_text("{}\n")
    # before migrate there is nothing to check; migrate is not blocked
    first = manage(["check"], instance)
    assert first.returncode == 0, first.stderr
    migrated = manage(["migrate", "--noinput"], instance)
    assert migrated.returncode == 0, migrated.stderr
    # then check passes quietly (no FTS error, no dev-key preamble on every command) ...
    result = manage(["check"], instance)
    assert result.returncode == 0, result.stderr
    assert "memory.W002" not in result.stderr + result.stdout
    assert "memory.E001" not in result.stderr + result.stdout
    # ... and the deployment check names the embedded dev key
    deploy = manage(["check", "--deploy"], instance)
    assert "memory.W002" in deploy.stderr + deploy.stdout
    # and the settings' embedded default is the key the check knows
    key = manage(["shell", "-c", "from django.conf import settings; print(settings.SECRET_KEY)"], instance)
    assert key.stdout.strip().splitlines()[-1] == checks.DEV_SECRET_KEY
    quiet = manage(["check"], instance, DJANGO_SECRET_KEY="x" * 50)
    assert quiet.returncode == 0
    assert "no issues" in quiet.stdout


@pytest.mark.django_db
def test_no_missing_migrations():
    out = io.StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()


def test_healthz():
    response = Client().get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok"


@pytest.mark.django_db(databases=["default", "injections"])
def test_readyz():
    response = Client().get("/readyz")
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is True
    assert body["checks"]["db:default"] == "ok"
    assert body["checks"]["db:injections"] == "ok"
    assert body["checks"]["search"] == ranked_backend()


@pytest.mark.django_db  # importing the task modules runs Celery's Django fixup, i.e. the checks
def test_every_beat_task_is_registered(settings):
    from protomem.celery import app

    app.loader.import_default_modules()
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert scheduled
    missing = sorted(scheduled - set(app.tasks))
    assert missing == []


def test_every_task_a_service_enqueues_by_name_is_registered_in_a_web_process():
    # Services send tasks by registered name (protomem.queue), so each app's ready() must have
    # imported its tasks module, not only the worker's autodiscovery.
    from celery import current_app
    from django.conf import settings

    from memory.store.embedding_index import EMBED_TASK
    from sessions_app.retirement import HARVEST_TASK

    names = set(current_app.tasks)
    assert {EMBED_TASK, HARVEST_TASK} <= names
    assert {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()} <= names
