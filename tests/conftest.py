from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from rest_framework.test import APIClient

from sessions_app.models import Agent, AgentAPIKey, OperatorAPIKey
from tests.factories import AgentFactory, UserFactory

pytest_plugins = ["tests.fixtures.gateway", "tests.fixtures.worker", "tests.fixtures.browser"]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run each backend-specific test only on its backend (deselected, so reported, never skipped).

    The suite runs twice in CI, once per backend (.ci/run); the other backend's twin of a
    deselected test runs there.
    """
    from tests.backends import on_postgres

    other = "sqlite_only" if on_postgres() else "postgres_only"
    keep = [item for item in items if other not in item.keywords]
    if len(keep) != len(items):
        config.hook.pytest_deselected(items=[item for item in items if other in item.keywords])
        items[:] = keep


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Leave nothing behind after a passing run: this run's temp dir and its queue keys in Redis.

    A failing run keeps its directory (worker logs, databases) for a look; only a directory this
    run made under the temp dir (settings_test's `protomem-test-*`) is ever removed.
    """
    run_dir = Path(os.environ.get("PROTOMEM_TEST_DIR", ""))
    if exitstatus == 0 and run_dir.name.startswith("protomem-test-") and run_dir.parent == Path(
        tempfile.gettempdir()
    ):
        shutil.rmtree(run_dir, ignore_errors=True)
    _forget_queue_keys()


def _forget_queue_keys() -> None:
    from django.conf import settings

    url = getattr(settings, "CELERY_BROKER_URL", "")
    queue = getattr(settings, "CELERY_TASK_DEFAULT_QUEUE", "")
    if not url.startswith("redis://") or not queue.startswith("protomem-test-"):
        return
    import redis

    try:
        client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        keys = list(client.scan_iter(match=f"*{queue}*", count=500))
        if keys:
            client.delete(*keys)
    except redis.RedisError:
        pass  # Redis already gone: nothing of ours is left in it either


def agent_client_for(agent: Agent) -> APIClient:
    _, raw = AgentAPIKey.objects.create_key(name=f"{agent.name}-key", agent=agent)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {raw}")
    client.agent = agent  # type: ignore[attr-defined]
    return client


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def agent(db: Any) -> Agent:
    return AgentFactory(name="agent-a")


@pytest.fixture
def other_agent(db: Any) -> Agent:
    return AgentFactory(name="agent-b")


@pytest.fixture
def agent_client(agent: Agent) -> APIClient:
    return agent_client_for(agent)


@pytest.fixture
def other_agent_client(other_agent: Agent) -> APIClient:
    return agent_client_for(other_agent)


@pytest.fixture
def staff_user(db: Any) -> Any:
    return UserFactory(username="staff", is_staff=True)


OPERATOR_PERMS = (
    ("memory", "view_chunk"),
    ("memory", "add_chunk"),
    ("memory", "change_chunk"),
    ("memory", "delete_chunk"),
    ("memory", "review_chunk"),
    ("memory", "promote_chunk"),
    ("memory", "view_skill"),
    ("memory", "add_skill"),
    ("memory", "change_skill"),
    ("audit", "view_injectionlog"),
    ("sessions_app", "view_session"),
)


def grant(user: Any, *perms: tuple[str, str]) -> Any:
    """Give `user` these (app_label, codename) permissions (and forget its cached ones)."""
    for app_label, codename in perms:
        perm = Permission.objects.get(content_type__app_label=app_label, codename=codename)
        user.user_permissions.add(perm)
    for cache in ("_perm_cache", "_user_perm_cache"):
        user.__dict__.pop(cache, None)
    return user


@pytest.fixture
def reviewer(db: Any) -> Any:
    """Staff with the operator's whole memory role: every chunk permission and the injection log."""
    return grant(UserFactory(username="reviewer", is_staff=True), *OPERATOR_PERMS)


@pytest.fixture
def superuser(db: Any) -> Any:
    return UserFactory(username="admin", is_staff=True, is_superuser=True)


@pytest.fixture
def operator_client(reviewer: Any) -> APIClient:
    """A staff reviewer authenticated with an operator API key (the scripted path)."""
    _, raw = OperatorAPIKey.objects.create_key(name="ops", user=reviewer)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {raw}")
    return client


@pytest.fixture
def staff_client(staff_user: Any) -> APIClient:
    """Staff without the review permission (browser session auth)."""
    client = APIClient()
    client.force_login(staff_user)
    return client
