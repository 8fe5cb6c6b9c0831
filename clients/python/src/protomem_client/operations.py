"""Request building and response parsing for every route, in one place for both clients.

Each builder returns a `Call`: the route, the formatted path, query and body, and the statuses
that mean success. The clients only send it (with retries) and hand the response to
`Call.parse`, so the sync and async clients cannot disagree about what a route takes or returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypedDict, TypeVar, cast
from urllib.parse import quote

import httpx

from protomem_client import routes
from protomem_client.errors import ProtomemError, error_for
from protomem_client.results import (
    Context,
    IngestResult,
    KnowledgeIngestResult,
    MemoryListItem,
    Message,
    MessageIn,
    Page,
    RecallResult,
    Session,
    SessionSearchResult,
    SessionSummary,
    Skill,
    TurnResult,
)
from protomem_client.routes import Route

T = TypeVar("T")
MemoryKind = Literal["profile", "standing", "fact", "decision", "note", "episode", "reference", "legacy"]
DeliveryPolicy = Literal["always", "retrieved", "on_demand"]
ReviewState = Literal["pending", "confirmed", "rejected"]
Surface = Literal["chat", "a2a", "api", "cli", "background", "other"]


# Optional arguments, declared once: both clients take them as **options: Unpack[...].


class PageOptions(TypedDict, total=False):
    limit: int  # page size (the server caps it at 200)
    offset: int


class _WriteOptions(TypedDict, total=False):
    subject: str | None
    memory_kind: MemoryKind | None
    delivery_policy: DeliveryPolicy | None
    namespace: str | None
    expires_in_days: int | None


class MemoryIngestOptions(_WriteOptions, total=False):
    heading: str
    domain: str  # "fact" (the default) is deduplicated and superseded


class KnowledgeIngestOptions(_WriteOptions, total=False):
    title: str
    domain: str
    max_chunk_chars: int


class RecallOptions(TypedDict, total=False):
    top_k: int
    namespace: str
    include_superseded: bool


class MemoryListOptions(PageOptions, total=False):
    review_state: ReviewState
    memory_kind: MemoryKind
    delivery_policy: DeliveryPolicy
    domain: str
    namespace: str
    subject: str
    created_after: str  # ISO-8601
    created_before: str
    expired: bool
    mine: bool


class SessionRegisterOptions(TypedDict, total=False):
    surface: Surface
    incognito: bool


class SessionsListOptions(PageOptions, total=False):
    surface: Surface
    incognito: bool
    retired: bool
    harvest_state: str
    active_since: str  # ISO-8601
    active_before: str


class TurnOptions(TypedDict, total=False):
    terminal: bool
    goal_driven: bool
    turn_id: str  # idempotency key: re-posting it stores nothing


class ContextOptions(TypedDict, total=False):
    model: str
    goal_driven: bool
    working_state: str
    incognito: bool


class SkillsListOptions(PageOptions, total=False):
    query: str


@dataclass(frozen=True)
class Call(Generic[T]):
    route: Route
    path: str
    params: dict[str, str] | None = None
    json: dict[str, Any] | None = None
    success: frozenset[int] = frozenset({200})

    def parse(self, response: httpx.Response) -> T:
        """The decoded body of a success, else the matching ProtomemError (raised)."""
        if response.status_code not in self.success:
            raise error_for(response)
        if response.status_code == 204:
            return cast(T, None)
        try:
            return cast(T, response.json())
        except ValueError as exc:
            raise ProtomemError(
                f"HTTP {response.status_code}: the body is not JSON",
                status=response.status_code,
                body=response.text,
                method=response.request.method,
                url=str(response.request.url),
            ) from exc


def _checked(options: Mapping[str, Any], allowed: Any) -> dict[str, Any]:
    # A misspelt option would otherwise be dropped silently by the server.
    unknown = sorted(set(options) - allowed.__required_keys__ - allowed.__optional_keys__)
    if unknown:
        raise TypeError(f"unexpected option(s): {', '.join(unknown)}")
    return dict(options)


def _query(values: Mapping[str, Any]) -> dict[str, str]:
    """Query-string spelling: booleans as true/false (what django-filter and DRF parse), no None."""
    query: dict[str, str] = {}
    for name, value in values.items():
        if value is None:
            continue
        query[name] = ("true" if value else "false") if isinstance(value, bool) else str(value)
    return query


def _segment(value: str, what: str) -> str:
    if not value or value in (".", ".."):
        raise ValueError(f"{what} must be a non-empty path segment, not {value!r}")
    return quote(value, safe="")


def _session_path(route: Route, session_id: str) -> str:
    return route.path.format(session_id=_segment(session_id, "session_id"))


CREATED_OR_OK = frozenset({200, 201})


def session_register(session_id: str, options: SessionRegisterOptions) -> Call[Session]:
    body = {"session_id": session_id, **_checked(options, SessionRegisterOptions)}
    return Call(routes.SESSION_REGISTER, routes.SESSION_REGISTER.path, json=body, success=CREATED_OR_OK)


def sessions_list(options: SessionsListOptions) -> Call[Page[Session]]:
    params = _query(_checked(options, SessionsListOptions))
    return Call(routes.SESSIONS_LIST, routes.SESSIONS_LIST.path, params=params)


def session_get(session_id: str) -> Call[Session]:
    return Call(routes.SESSION_GET, _session_path(routes.SESSION_GET, session_id))


def session_retire(session_id: str) -> Call[None]:
    path = _session_path(routes.SESSION_RETIRE, session_id)
    return Call(routes.SESSION_RETIRE, path, success=frozenset({204}))


def turn_append(session_id: str, messages: list[MessageIn], options: TurnOptions) -> Call[TurnResult]:
    body = {"messages": list(messages), **_checked(options, TurnOptions)}
    path = _session_path(routes.TURN_APPEND, session_id)
    return Call(routes.TURN_APPEND, path, json=body, success=CREATED_OR_OK)


def session_messages(session_id: str, options: PageOptions) -> Call[Page[Message]]:
    path = _session_path(routes.SESSION_MESSAGES, session_id)
    return Call(routes.SESSION_MESSAGES, path, params=_query(_checked(options, PageOptions)))


def session_search(query: str, limit: int | None) -> Call[SessionSearchResult]:
    params = _query({"query": query, "limit": limit})
    return Call(routes.SESSION_SEARCH, routes.SESSION_SEARCH.path, params=params)


def recall_session(session_id: str) -> Call[SessionSummary]:
    return Call(routes.RECALL_SESSION, _session_path(routes.RECALL_SESSION, session_id))


def memory_ingest(session_id: str, content: str, options: MemoryIngestOptions) -> Call[IngestResult]:
    body = {"content": content, **_checked(options, MemoryIngestOptions)}
    path = _session_path(routes.MEMORY_INGEST, session_id)
    return Call(routes.MEMORY_INGEST, path, json=body, success=CREATED_OR_OK)


def knowledge_ingest(
    session_id: str, origin: str, content: str, options: KnowledgeIngestOptions
) -> Call[KnowledgeIngestResult]:
    body = {"origin": origin, "content": content, **_checked(options, KnowledgeIngestOptions)}
    path = _session_path(routes.KNOWLEDGE_INGEST, session_id)
    return Call(routes.KNOWLEDGE_INGEST, path, json=body, success=CREATED_OR_OK)


def memory_recall(query: str, options: RecallOptions) -> Call[RecallResult]:
    body = {"query": query, **_checked(options, RecallOptions)}
    return Call(routes.MEMORY_RECALL, routes.MEMORY_RECALL.path, json=body)


def memory_list(options: MemoryListOptions) -> Call[Page[MemoryListItem]]:
    params = _query(_checked(options, MemoryListOptions))
    return Call(routes.MEMORY_LIST, routes.MEMORY_LIST.path, params=params)


def context(session_id: str, query: str, options: ContextOptions) -> Call[Context]:
    body = {"query": query, **_checked(options, ContextOptions)}
    return Call(routes.CONTEXT, _session_path(routes.CONTEXT, session_id), json=body)


def skills_list(options: SkillsListOptions) -> Call[Page[Skill]]:
    params = _query(_checked(options, SkillsListOptions))
    return Call(routes.SKILLS_LIST, routes.SKILLS_LIST.path, params=params)


def skill_get(name: str) -> Call[Skill]:
    return Call(routes.SKILL_GET, routes.SKILL_GET.path.format(name=_segment(name, "name")))


def next_page_options(page: Mapping[str, Any], options: Mapping[str, Any]) -> dict[str, Any] | None:
    """The options for the page after `page`, or None on the last one.

    Follows the server's own `next` link (its limit and offset, so a capped page size is
    respected) but keeps the client's base URL: behind a proxy the link's host may be wrong.
    """
    link = page.get("next")
    if not link:
        return None
    params = httpx.URL(link).params
    following = dict(options)
    for name in ("limit", "offset"):
        if name in params:
            following[name] = int(params[name])
    if following.get("offset", 0) <= options.get("offset", 0):
        raise ProtomemError(f"the next-page link does not advance: {link}")
    return following
