"""Admin login protection (django-axes): lockout per username and per address, audited, liftable."""

from __future__ import annotations

import io
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEvent
from audit.services import LOGIN_LOCKED_OUT, LOGIN_LOCKOUT_LIFTED, login_lockout_lift
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "pw-for-tests-123"  # tests.factories.UserFactory's password
LOGIN = reverse("admin:login")
LOCKOUTS = reverse("admin:axes_accessattempt_changelist")
LIMIT = settings.AXES_FAILURE_LIMIT


def sign_in(username: str, password: str, *, ip: str = "10.0.0.1") -> tuple[int, Client]:
    """POST the admin login form from `ip`; the status and the client (signed in or not)."""
    client = Client(REMOTE_ADDR=ip)
    response = client.post(LOGIN, {"username": username, "password": password, "next": "/admin/"})
    return response.status_code, client


def signed_in(client: Client) -> bool:
    return client.get(reverse("admin:index")).status_code == 200


def fail(username: str, times: int, *, ip: str = "10.0.0.1") -> list[int]:
    return [sign_in(username, "wrong-password", ip=ip)[0] for _ in range(times)]


@pytest.fixture
def ops(db: Any) -> Any:
    return UserFactory(username="ops", is_staff=True, is_superuser=True)


def test_limit_is_five_by_default() -> None:
    assert (LIMIT, settings.AXES_LOCKOUT_PARAMETERS) == (5, ["username", "ip_address"])


def test_right_password_is_refused_after_the_limit_until_lifted(ops: Any) -> None:
    # given: LIMIT - 1 failures still leave the login form answering normally
    assert fail("ops", LIMIT - 1) == [200] * (LIMIT - 1)
    # when: the LIMIT-th failure locks the account
    assert fail("ops", 1) == [429]
    # then: the right password is refused too, and the client is not signed in
    status, client = sign_in("ops", PASSWORD)
    assert status == 429
    assert not signed_in(client)
    # when: a superuser lifts the lockout
    cleared = login_lockout_lift(actor="user:1", path="test", username="ops")
    # then: the right password works again
    status, client = sign_in("ops", PASSWORD)
    assert cleared == 1
    assert status == 302
    assert signed_in(client)


def test_lockout_is_audited_once_and_the_lift_too(ops: Any) -> None:
    fail("ops", LIMIT + 3)  # three more tries after the lockout are refused, not re-audited

    locked = list(AuditEvent.objects.filter(event=LOGIN_LOCKED_OUT).values("actor", "path", "data"))
    assert locked == [
        {
            "actor": "ip:10.0.0.1",
            "path": LOGIN,
            "data": {"username": "ops", "ip_address": "10.0.0.1", "failures": LIMIT},
        }
    ]
    assert AccessAttempt.objects.get(username="ops").failures_since_start == LIMIT + 3

    login_lockout_lift(actor="user:9", path="cli", username="ops", ip_address="10.0.0.1")
    lifted = AuditEvent.objects.get(event=LOGIN_LOCKOUT_LIFTED)
    assert (lifted.actor, lifted.path, lifted.data) == (
        "user:9",
        "cli",
        {"username": "ops", "ip_address": "10.0.0.1", "cleared": 1},
    )
    assert not AccessAttempt.objects.exists()


def test_an_address_is_locked_after_failures_on_many_usernames(ops: Any) -> None:
    # given: one address guesses LIMIT different usernames once each
    for n in range(LIMIT):
        sign_in(f"guess-{n}", "wrong-password", ip="10.0.0.66")
    # then: that address cannot sign in even with the right password; another address can
    assert sign_in("ops", PASSWORD, ip="10.0.0.66")[0] == 429
    status, client = sign_in("ops", PASSWORD, ip="10.0.0.7")
    assert status == 302
    assert signed_in(client)


def test_a_username_is_locked_after_failures_from_many_addresses(ops: Any) -> None:
    # given: LIMIT addresses guess the password of "ops" once each
    for n in range(LIMIT):
        sign_in("ops", "wrong-password", ip=f"10.0.1.{n}")
    # then: "ops" is refused from a fresh address; another user from that address is not
    assert sign_in("ops", PASSWORD, ip="10.0.2.1")[0] == 429
    UserFactory(username="other", is_staff=True)
    assert sign_in("other", PASSWORD, ip="10.0.2.1")[0] == 302


def test_lockout_ends_after_the_cool_off(ops: Any) -> None:
    fail("ops", LIMIT)
    assert sign_in("ops", PASSWORD)[0] == 429

    later = timezone.now() + timedelta(hours=settings.AXES_COOLOFF_TIME, minutes=1)
    with time_machine.travel(later, tick=False):
        status, client = sign_in("ops", PASSWORD)
        assert status == 302
        assert signed_in(client)


def test_a_success_before_the_limit_resets_the_count(ops: Any) -> None:
    fail("ops", LIMIT - 1)
    assert sign_in("ops", PASSWORD)[0] == 302
    assert fail("ops", LIMIT - 1) == [200] * (LIMIT - 1)  # counting starts again
    assert sign_in("ops", PASSWORD)[0] == 302


# ----------------------------------------------------------------------------------------------
# The console page and the CLI


def test_superuser_sees_the_lockout_and_lifts_it_from_the_console(ops: Any) -> None:
    fail("ops", LIMIT)
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    console = Client()
    console.force_login(admin)

    page = console.get(LOCKOUTS).content.decode()
    assert "Login lockouts" in page
    assert "locked: username + address" in page

    attempt = AccessAttempt.objects.get(username="ops")
    response = console.post(
        LOCKOUTS, {"action": "lift_lockout", "_selected_action": [attempt.pk]}, follow=True
    )
    assert "Lifted the lockout of ops @ 10.0.0.1: cleared 1 failed-login rows." in response.content.decode()
    assert AuditEvent.objects.get(event=LOGIN_LOCKOUT_LIFTED).actor == f"user:{admin.pk}"
    assert sign_in("ops", PASSWORD)[0] == 302


def test_operators_see_lockouts_but_cannot_lift_or_delete_them(ops: Any) -> None:
    fail("ops", LIMIT)
    viewer = UserFactory(username="viewer", is_staff=True)
    viewer.user_permissions.add(
        Permission.objects.get(content_type__app_label="axes", codename="view_accessattempt")
    )
    console = Client()
    console.force_login(viewer)

    response = console.get(LOCKOUTS)
    assert "locked: username + address" in response.content.decode()
    assert response.context["action_form"] is None  # no action at all: neither lift nor delete

    attempt = AccessAttempt.objects.get(username="ops")
    console.post(LOCKOUTS, {"action": "lift_lockout", "_selected_action": [attempt.pk]})
    assert AccessAttempt.objects.filter(pk=attempt.pk).exists()
    assert not AuditEvent.objects.filter(event=LOGIN_LOCKOUT_LIFTED).exists()


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("protomem", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_cli_lists_and_lifts_a_lockout(ops: Any) -> None:
    fail("ops", LIMIT, ip="10.0.0.9")

    out, _ = run("unlock-login", "--list")
    assert out.split("\t")[:3] == ["ops", "10.0.0.9", str(LIMIT)]
    assert out.rstrip().endswith("locked: username + address")

    out, _ = run("unlock-login", "--username", "ops")
    assert out.strip() == "cleared 1 failed-login rows"
    assert AuditEvent.objects.get(event=LOGIN_LOCKOUT_LIFTED).data["username"] == "ops"
    assert run("unlock-login", "--list") == ("", "no lockouts\n")
    assert sign_in("ops", PASSWORD, ip="10.0.0.9")[0] == 302


def test_cli_needs_a_target(db: Any) -> None:
    with pytest.raises(CommandError, match="give --username, --ip"):
        run("unlock-login")
    assert not AuditEvent.objects.exists()
