"""What the API returns, as TypedDicts: the decoded JSON, typed (fields the server adds later
pass through untouched). Timestamps are ISO-8601 strings, as sent."""

from __future__ import annotations

from typing import Any, Generic, Literal, NotRequired, TypedDict, TypeVar

T = TypeVar("T")


class Page(TypedDict, Generic[T]):
    """One page of a limit/offset list: `next` is None on the last page."""

    count: int
    next: str | None
    previous: str | None
    results: list[T]


class Chunk(TypedDict):
    id: int
    domain: str
    finding_type: str | None
    namespace: str | None
    source: str | None
    source_type: str | None
    trust: str
    trust_tier: int
    agent: int | None
    created_at: str
    invalidated_at: str | None
    invalidation_reason: str | None
    superseded_by: int | None
    memory_kind: str | None
    subject: str | None
    review_state: str | None
    expires_at: str | None
    expires: str | None
    lapse_recorded_at: str | None
    delivery_policy: str | None
    heading: str
    content: str
    scope: str
    promoted_from: int | None


class MemoryListItem(Chunk):
    line: str  # the memory_list line, with expires=YYYY-MM-DD


class RecallHit(Chunk):
    tag: str  # "" for a live row, else "superseded by #ID" / "superseded"
    line: str


class RecallResult(TypedDict):
    query: str
    count: int
    results: list[RecallHit]
    text: str  # the hits' lines, one per line


class IngestResult(TypedDict):
    action: Literal["inserted", "duplicate", "superseded", "dropped"]
    chunk: Chunk | None
    superseded_id: int | None
    score: float


class KnowledgeIngestResult(TypedDict):
    action: Literal["inserted", "replaced", "duplicate"]
    chunks: list[Chunk]
    superseded_ids: list[int]


class Session(TypedDict):
    session_id: str
    agent: int
    surface: str
    incognito: bool
    is_background: bool
    created_at: str
    last_activity_at: str
    retired_at: str | None
    turn_count: int
    message_count: int
    topic: str
    has_summary: bool
    harvest_state: str
    harvest_error: str
    harvest_attempts: int
    harvested_at: str | None
    harvest_result: Any


class MessageIn(TypedDict):
    """One message of a turn to append."""

    role: Literal["user", "assistant", "tool"]
    content: str
    name: NotRequired[str]  # the tool's name (role=tool)
    tool_calls: NotRequired[list[dict[str, Any]]]  # OpenAI-style (assistant)


class Message(TypedDict):
    seq: int
    turn: int
    role: str
    name: str
    content: str
    tool_calls: list[dict[str, Any]]
    created_at: str


class TurnResult(TypedDict):
    session_id: str
    seq: int
    turn_id: str | None
    terminal: bool
    goal_driven: bool
    created: bool  # False when turn_id was already stored
    summary_written: bool
    message_count: int


class SessionHit(TypedDict):
    session_id: str
    surface: str
    topic: str
    message_count: int
    updated_at: str
    snippet: str


class SessionSearchResult(TypedDict):
    query: str
    backend: str
    results: list[SessionHit]


class SummaryMessage(TypedDict):
    role: str
    content: str


class ToolCount(TypedDict):
    name: str
    count: int


class SessionSummary(TypedDict):
    session_id: str
    surface: str
    topic: str
    message_count: int
    updated_at: str
    retired: bool
    messages: list[SummaryMessage]
    top_tool_calls: list[ToolCount]
    final_output: str


class ContextSection(TypedDict):
    key: str
    label: str
    text: str
    chars: int
    ids: list[Any]
    items: int
    items_dropped: int
    chars_dropped: int
    truncated: bool


class Overflow(TypedDict):
    key: str
    label: str
    items_dropped: int
    chars_dropped: int


class Budget(TypedDict):
    ceiling: int | None
    chars_used: int
    over_budget: bool
    overflow: list[Overflow]
    truncated: dict[str, bool]


class ContextSource(TypedDict):
    section: str
    chunk_id: int | None
    session_id: str
    source: str
    source_type: str
    trust: str
    stored: str
    scope: str


class InjectedIds(TypedDict):
    digest_session_ids: list[str]
    hot_ids: list[int]
    rag_ids: list[int]
    skill_names: list[str]


class Context(TypedDict):
    """The per-turn projection; `text` is what the turn's prompt receives."""

    text: str
    approx_tokens: int
    incognito: bool
    knowledge_enabled: bool
    memory_injected: bool
    sections: list[ContextSection]
    injected: InjectedIds
    sources: list[ContextSource]
    budget: Budget
    injection_id: int | None


class Skill(TypedDict):
    name: str
    description: str
    content: str
    enabled: bool
    created_at: str
    updated_at: str
