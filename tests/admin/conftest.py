"""Admin test actors: staff operators with the console's model permissions, with or without review."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from tests.factories import UserFactory

PASSWORD = "pw-for-tests-123"  # tests.factories.UserFactory's password

# What an operator needs to use the console (everything but the review permission).
OPERATOR_PERMS = [
    ("memory", "view_chunk"),
    ("memory", "add_chunk"),
    ("memory", "change_chunk"),
    ("memory", "view_skill"),
    ("memory", "change_skill"),
    ("sessions_app", "view_session"),
    ("sessions_app", "delete_session"),
    ("audit", "view_injectionlog"),
    ("audit", "view_auditevent"),
]


def grant(user: Any, *perms: tuple[str, str]) -> Any:
    for app_label, codename in perms:
        user.user_permissions.add(
            Permission.objects.get(content_type__app_label=app_label, codename=codename)
        )
    return user


@pytest.fixture
def operator(db: Any) -> Any:
    """Staff with every console permission except memory.review_chunk."""
    return grant(UserFactory(username="operator", is_staff=True), *OPERATOR_PERMS)


@pytest.fixture
def review_operator(db: Any) -> Any:
    """Staff with the console permissions and memory.review_chunk."""
    return grant(
        UserFactory(username="reviewer-op", is_staff=True), *OPERATOR_PERMS, ("memory", "review_chunk")
    )


@pytest.fixture
def operator_web(operator: Any) -> Client:
    client = Client()
    client.force_login(operator)
    return client


@pytest.fixture
def reviewer_web(review_operator: Any) -> Client:
    client = Client()
    client.force_login(review_operator)
    return client
