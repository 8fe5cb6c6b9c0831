"""Fixtures for the Python client tests: an agent key and clients pointed at the live server.

The package lives in clients/python/src; when it is not pip-installed (pip install -e
clients/python), that directory is put on sys.path so the tests import the checkout's copy.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CLIENT_SRC = Path(__file__).resolve().parents[2] / "clients" / "python" / "src"
if importlib.util.find_spec("protomem_client") is None:
    sys.path.insert(0, str(CLIENT_SRC))

from protomem_client import ProtomemClient, RetryPolicy  # noqa: E402

from sessions_app.models import Agent, AgentAPIKey  # noqa: E402
from tests.factories import AgentFactory  # noqa: E402

SESSION_ID = "client-thread-1"
# Short waits, so a test that does meet a retry never sleeps for long.
FAST_RETRY = RetryPolicy(attempts=3, backoff=0.01, max_backoff=0.05)


@pytest.fixture
def client_agent(transactional_db: Any) -> Agent:
    return AgentFactory(name="client-agent")


@pytest.fixture
def agent_key(client_agent: Agent) -> str:
    _, raw = AgentAPIKey.objects.create_key(name="client-agent-key", agent=client_agent)
    return raw


@pytest.fixture
def client(live_server: Any, agent_key: str) -> Iterator[ProtomemClient]:
    """A sync client with a registered session as its default."""
    with ProtomemClient(live_server.url, agent_key, session_id=SESSION_ID, retry=FAST_RETRY) as api:
        api.session_register()
        yield api
