"""`manage.py protomem create-operator-key` and `manage.py protomem doctor`."""

from __future__ import annotations

import dataclasses
import io
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from protomem.cli.doctor_checks import DEV_SECRET_KEY
from sessions_app.models import OperatorAPIKey
from tests.fixtures.gateway import StubGateway

GOOD_KEY = "k" * 50


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("protomem", *args, stdout=out, stderr=err)
    except SystemExit as exc:
        return int(exc.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def test_create_operator_key_prints_a_key_that_acts_as_the_user(reviewer: Any) -> None:
    code, out, err = run("create-operator-key", "--user", "reviewer", "--name", "nightly-export")

    raw = out.strip()
    key = OperatorAPIKey.objects.get_from_key(raw)
    assert code == 0
    assert (key.user, key.name) == (reviewer, "nightly-export")
    assert raw not in err  # shown once, on stdout only


def test_create_operator_key_refuses_an_unknown_user(db: Any) -> None:
    with pytest.raises(CommandError, match="no user 'ghost'"):
        run("create-operator-key", "--user", "ghost")
    assert not OperatorAPIKey.objects.exists()


@pytest.fixture
def healthy(settings: Any, stub_gateway: StubGateway) -> Any:
    """A configuration the doctor has nothing against (gateway: the stub, which lists stub-aux)."""
    settings.SECRET_KEY = GOOD_KEY
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["memory.example.org"]
    settings.CELERY_BROKER_URL = "filesystem://localhost/"
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {}
    return settings


@pytest.mark.django_db(databases=["default", "injections"])
def test_doctor_passes_a_sound_configuration(healthy: Any) -> None:
    code, out, _ = run("doctor")

    assert code == 0, out
    assert "ERROR" not in out
    assert "WARN" not in out
    assert "OK    gateway: http://127.0.0.1:" in out


@pytest.mark.django_db(databases=["default", "injections"])
def test_doctor_names_each_problem_and_fails(healthy: Any) -> None:
    healthy.SECRET_KEY = DEV_SECRET_KEY
    healthy.ALLOWED_HOSTS = ["*"]
    healthy.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    healthy.CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 600}
    healthy.SESSIONS_HARVEST_STALE_S = 900
    cfg = healthy.PROTOMEM
    healthy.PROTOMEM = dataclasses.replace(
        cfg, knowledge=dataclasses.replace(cfg.knowledge, embeddings=True, embed_model="local:no-such-model")
    )

    code, out, _ = run("doctor")

    assert code == 1
    assert "ERROR secret key: DJANGO_SECRET_KEY is not set" in out
    assert "WARN  allowed hosts: DJANGO_ALLOWED_HOSTS contains '*'" in out
    assert "ERROR broker: cannot reach redis://127.0.0.1:1/0" in out
    assert "ERROR embeddings: unknown local model 'local:no-such-model'" in out
    assert "WARN  harvest lease: CELERY_VISIBILITY_TIMEOUT (600 s) is not above" in out
