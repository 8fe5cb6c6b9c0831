from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from django.core.cache import cache

from sessions_app.models import Agent, Session
from sessions_app.selectors import reset_search_caches
from sessions_app.services import MessageInput, session_register, session_turn_append


@pytest.fixture(autouse=True)
def _fresh_cache() -> Any:
    cache.clear()
    reset_search_caches()
    yield
    cache.clear()
    reset_search_caches()


def configure(settings: Any, **blocks: dict[str, Any]) -> None:
    """settings.PROTOMEM with some block fields replaced: configure(settings, memory={...})."""
    cfg = settings.PROTOMEM
    changes: dict[str, Any] = {}
    for name, values in blocks.items():
        current = getattr(cfg, name)
        changes[name] = (
            dataclasses.replace(current, **values) if dataclasses.is_dataclass(current) else values
        )
    settings.PROTOMEM = dataclasses.replace(cfg, **changes)


@pytest.fixture
def no_gateway(settings: Any) -> None:
    configure(settings, gateway={"base_url": "", "api_key": "", "aux_model": ""})


def converse(
    agent: Agent,
    session_id: str,
    first: str,
    answer: str = "ok",
    *,
    now: datetime | None = None,
    incognito: bool = False,
    terminal: bool = True,
    surface: str | None = None,
) -> Session:
    """Register a session and append one user/assistant turn."""
    session, _ = session_register(agent=agent, session_id=session_id, incognito=incognito, surface=surface)
    session_turn_append(
        session=session,
        messages=[MessageInput(role="user", content=first), MessageInput(role="assistant", content=answer)],
        terminal=terminal,
        now=now,
    )
    session.refresh_from_db()
    return session


@pytest.fixture
def talk() -> Callable[..., Session]:
    return converse
