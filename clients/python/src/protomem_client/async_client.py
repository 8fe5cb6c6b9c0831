"""AsyncProtomemClient: the asyncio/trio client. Requests are built and parsed in operations.py;
only the sending loop differs from ProtomemClient (it awaits)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any, TypeVar, Unpack

import anyio
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


class AsyncProtomemClient:
    """protomem's agent API, awaited. `session_id` is the default for the per-session calls."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        session_id: str | None = None,
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
        retry: RetryPolicy | None = None,
        headers: Mapping[str, str] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Callable[[float], Awaitable[None]] = anyio.sleep,
    ) -> None:
        self.session_id = session_id
        self.retry = retry or RetryPolicy()
        self._sleep = sleep
        self._http = httpx.AsyncClient(
            base_url=base_url, headers=default_headers(api_key, headers), timeout=timeout, transport=transport
        )

    async def __aenter__(self) -> AsyncProtomemClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def _send(self, call: Call[T]) -> T:
        attempt = 1
        while True:
            request = build_request(self._http, call)
            try:
                response = await self._http.send(request)
            except httpx.TransportError as error:
                delay = self.retry.delay_after_error(attempt, error)
                if delay is None:
                    raise transport_failure(request, error) from error
            else:
                delay = self.retry.delay_after_response(attempt, response)
                if delay is None:
                    return call.parse(response)
            await self._sleep(delay)
            attempt += 1

    def _session(self, session_id: str | None) -> str:
        return resolve_session(session_id, self.session_id)

    # Pagination

    async def paginate(
        self, method: Callable[..., Awaitable[Page[T]]], /, **options: Any
    ) -> AsyncIterator[Page[T]]:
        """Every page of a list method: async for page in client.paginate(client.memory_list)."""
        current: dict[str, Any] | None = dict(options)
        while current is not None:
            page = await method(**current)
            yield page
            current = ops.next_page_options(page, current)

    async def iter_all(
        self, method: Callable[..., Awaitable[Page[T]]], /, **options: Any
    ) -> AsyncIterator[T]:
        """Every item of a list method, across its pages."""
        async for page in self.paginate(method, **options):
            for item in page["results"]:
                yield item

    # Sessions

    async def session_register(
        self, session_id: str | None = None, **options: Unpack[ops.SessionRegisterOptions]
    ) -> Session:
        return await self._send(ops.session_register(self._session(session_id), options))

    async def sessions_list(self, **options: Unpack[ops.SessionsListOptions]) -> Page[Session]:
        return await self._send(ops.sessions_list(options))

    async def session_get(self, session_id: str | None = None) -> Session:
        return await self._send(ops.session_get(self._session(session_id)))

    async def session_retire(self, session_id: str | None = None) -> None:
        await self._send(ops.session_retire(self._session(session_id)))

    async def turn_append(
        self, messages: list[MessageIn], *, session_id: str | None = None, **options: Unpack[ops.TurnOptions]
    ) -> TurnResult:
        return await self._send(ops.turn_append(self._session(session_id), messages, options))

    async def session_messages(
        self, session_id: str | None = None, **options: Unpack[ops.PageOptions]
    ) -> Page[Message]:
        return await self._send(ops.session_messages(self._session(session_id), options))

    async def session_search(self, query: str, *, limit: int | None = None) -> SessionSearchResult:
        return await self._send(ops.session_search(query, limit))

    async def recall_session(self, session_id: str | None = None) -> SessionSummary:
        return await self._send(ops.recall_session(self._session(session_id)))

    # Memory

    async def memory_ingest(
        self, content: str, *, session_id: str | None = None, **options: Unpack[ops.MemoryIngestOptions]
    ) -> IngestResult:
        return await self._send(ops.memory_ingest(self._session(session_id), content, options))

    async def knowledge_ingest(
        self,
        origin: str,
        content: str,
        *,
        session_id: str | None = None,
        **options: Unpack[ops.KnowledgeIngestOptions],
    ) -> KnowledgeIngestResult:
        return await self._send(ops.knowledge_ingest(self._session(session_id), origin, content, options))

    async def memory_recall(self, query: str, **options: Unpack[ops.RecallOptions]) -> RecallResult:
        return await self._send(ops.memory_recall(query, options))

    async def memory_list(self, **options: Unpack[ops.MemoryListOptions]) -> Page[MemoryListItem]:
        return await self._send(ops.memory_list(options))

    # Delivery

    async def context(
        self, query: str = "", *, session_id: str | None = None, **options: Unpack[ops.ContextOptions]
    ) -> Context:
        return await self._send(ops.context(self._session(session_id), query, options))

    async def skills_list(self, **options: Unpack[ops.SkillsListOptions]) -> Page[Skill]:
        return await self._send(ops.skills_list(options))

    async def skill_get(self, name: str) -> Skill:
        return await self._send(ops.skill_get(name))
