"""Who writes and reads memory, as memory sees them: an agent and the session it acts in.

The rows behind them (sessions_app's Agent and Session) live in the app above; memory's
services only need these few attributes, so they take anything that has them.
"""

from __future__ import annotations

from typing import Any, Protocol

from protomem.config import get_config


class AgentRef(Protocol):
    """An agent: its id and the namespace it is pinned to ("" = none)."""

    @property
    def pk(self) -> Any: ...

    @property
    def namespace(self) -> str: ...


class SessionRef(Protocol):
    """The session a write happens in: the server's id for it, its owner, whether it leaves a trail."""

    @property
    def pk(self) -> Any: ...

    @property
    def session_id(self) -> str: ...

    @property
    def agent_id(self) -> Any: ...

    @property
    def incognito(self) -> bool: ...


def is_operator_source(source: str) -> bool:
    """Whether `source` starts with a prefix reserved for operator surfaces ("user:7", "admin"):
    an agent's session id may not (knowledge.reserved_source_prefixes), so it never reads as one."""
    lowered = (source or "").lower()
    return any(lowered.startswith(prefix) for prefix in get_config().knowledge.reserved_source_prefixes)
