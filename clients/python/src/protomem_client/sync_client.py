"""ProtomemClient: the blocking client. Requests are built and parsed in operations.py."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar, Unpack

import httpx

from protomem_client import operations as ops
from protomem_client.operations import Call
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
from protomem_client.retry import RetryPolicy
from protomem_client.transport import (
    DEFAULT_TIMEOUT,
    build_request,
    default_headers,
    resolve_session,
    transport_failure,
)

T = TypeVar("T")


class ProtomemClient:
    """protomem's agent API. `session_id` is the default for the per-session calls."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        session_id: str | None = None,
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
        retry: RetryPolicy | None = None,
        headers: Mapping[str, str] | None = None,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.session_id = session_id
        self.retry = retry or RetryPolicy()
        self._sleep = sleep
        self._http = httpx.Client(
            base_url=base_url, headers=default_headers(api_key, headers), timeout=timeout, transport=transport
        )

    def __enter__(self) -> ProtomemClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def _send(self, call: Call[T]) -> T:
        attempt = 1
        while True:
            request = build_request(self._http, call)
            try:
                response = self._http.send(request)
            except httpx.TransportError as error:
                delay = self.retry.delay_after_error(attempt, error)
                if delay is None:
                    raise transport_failure(request, error) from error
            else:
                delay = self.retry.delay_after_response(attempt, response)
                if delay is None:
                    return call.parse(response)
            self._sleep(delay)
            attempt += 1

    def _session(self, session_id: str | None) -> str:
        return resolve_session(session_id, self.session_id)

    # Pagination

    def paginate(self, method: Callable[..., Page[T]], /, **options: Any) -> Iterator[Page[T]]:
        """Every page of a list method, e.g. paginate(client.memory_list, review_state="pending")."""
        current: dict[str, Any] | None = dict(options)
        while current is not None:
            page = method(**current)
            yield page
            current = ops.next_page_options(page, current)

    def iter_all(self, method: Callable[..., Page[T]], /, **options: Any) -> Iterator[T]:
        """Every item of a list method, across its pages."""
        for page in self.paginate(method, **options):
            yield from page["results"]

    # Sessions

    def session_register(
        self, session_id: str | None = None, **options: Unpack[ops.SessionRegisterOptions]
    ) -> Session:
        return self._send(ops.session_register(self._session(session_id), options))

    def sessions_list(self, **options: Unpack[ops.SessionsListOptions]) -> Page[Session]:
        return self._send(ops.sessions_list(options))

    def session_get(self, session_id: str | None = None) -> Session:
        return self._send(ops.session_get(self._session(session_id)))

    def session_retire(self, session_id: str | None = None) -> None:
        self._send(ops.session_retire(self._session(session_id)))

    def turn_append(
        self, messages: list[MessageIn], *, session_id: str | None = None, **options: Unpack[ops.TurnOptions]
    ) -> TurnResult:
        return self._send(ops.turn_append(self._session(session_id), messages, options))

    def session_messages(
        self, session_id: str | None = None, **options: Unpack[ops.PageOptions]
    ) -> Page[Message]:
        return self._send(ops.session_messages(self._session(session_id), options))

    def session_search(self, query: str, *, limit: int | None = None) -> SessionSearchResult:
        return self._send(ops.session_search(query, limit))

    def recall_session(self, session_id: str | None = None) -> SessionSummary:
        return self._send(ops.recall_session(self._session(session_id)))

    # Memory

    def memory_ingest(
        self, content: str, *, session_id: str | None = None, **options: Unpack[ops.MemoryIngestOptions]
    ) -> IngestResult:
        return self._send(ops.memory_ingest(self._session(session_id), content, options))

    def knowledge_ingest(
        self,
        origin: str,
        content: str,
        *,
        session_id: str | None = None,
        **options: Unpack[ops.KnowledgeIngestOptions],
    ) -> KnowledgeIngestResult:
        return self._send(ops.knowledge_ingest(self._session(session_id), origin, content, options))

    def memory_recall(self, query: str, **options: Unpack[ops.RecallOptions]) -> RecallResult:
        return self._send(ops.memory_recall(query, options))

    def memory_list(self, **options: Unpack[ops.MemoryListOptions]) -> Page[MemoryListItem]:
        return self._send(ops.memory_list(options))

    # Delivery

    def context(
        self, query: str = "", *, session_id: str | None = None, **options: Unpack[ops.ContextOptions]
    ) -> Context:
        return self._send(ops.context(self._session(session_id), query, options))

    def skills_list(self, **options: Unpack[ops.SkillsListOptions]) -> Page[Skill]:
        return self._send(ops.skills_list(options))

    def skill_get(self, name: str) -> Skill:
        return self._send(ops.skill_get(name))
