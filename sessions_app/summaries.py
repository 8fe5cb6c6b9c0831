"""Session summaries, pure: transcript -> the reasoning-stripped, credential-redacted summary.

A summary holds the conversation's user and assistant messages (each capped), the most used
tool calls (names and counts only: arguments can carry anything) and the final output. Tool
results are not copied: they are third-party content and usually large. The same strip and
redaction are applied again on read (`clean_for_read`), so a row written before a pattern
existed, or edited by hand, still never leaks reasoning or a credential.

The topic comes from the first user message only, never assistant text (the identity
confusion and poisoning surface the spec warns about).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from memory.lifecycle.guardrail import strip_reasoning
from memory.lifecycle.redaction import redact

TOPIC_MAX_CHARS = 120
MESSAGE_MAX_CHARS = 1000
FINAL_MAX_CHARS = 4000
MAX_MESSAGES = 40  # the newest ones; the topic keeps the opening
TOP_TOOLS = 5

_SPACE = re.compile(r"\s+")


class MessageLike(Protocol):
    role: str
    name: str
    content: str
    tool_calls: Any


@dataclass(frozen=True)
class SummaryDoc:
    topic: str
    message_count: int
    data: dict[str, Any]
    text: str


def clean(text: str) -> str:
    """Reasoning-stripped, then credential-redacted."""
    return redact(strip_reasoning(text or ""))


def _one_line(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def _cap(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip() + "…"


def topic_of(first_user_message: str) -> str:
    """One line from the first user message: cleaned, whitespace collapsed, capped."""
    return _cap(_one_line(clean(first_user_message)), TOPIC_MAX_CHARS)


def tool_call_names(tool_calls: Any) -> list[str]:
    """Names from OpenAI-style ({"function": {"name"}}) or flat ({"name"}) tool calls."""
    names: list[str] = []
    if not isinstance(tool_calls, list):
        return names
    for call in tool_calls:
        if not isinstance(call, dict):
            continue
        function = call.get("function")
        name = call.get("name") or (function.get("name") if isinstance(function, dict) else None)
        if isinstance(name, str) and name.strip():
            names.append(name.strip()[:128])
    return names


def counted(role: str) -> bool:
    """Whether a message counts toward the digest's message count (user and assistant)."""
    return role in ("user", "assistant")


def build_summary(messages: Iterable[MessageLike]) -> SummaryDoc:
    """The summary of a transcript (messages in order)."""
    rows = list(messages)
    topic = ""
    kept: list[dict[str, str]] = []
    tools: Counter[str] = Counter()
    tool_results: Counter[str] = Counter()
    final_output = ""
    count = 0
    for message in rows:
        if message.role == "tool":
            if message.name:
                tool_results[message.name[:128]] += 1
            continue
        if not counted(message.role):
            continue
        count += 1
        tools.update(tool_call_names(message.tool_calls))
        content = clean(message.content).strip()
        if message.role == "user" and not topic and content:
            topic = topic_of(content)
        if not content:
            continue
        kept.append({"role": message.role, "content": _cap(content, MESSAGE_MAX_CHARS)})
        if message.role == "assistant":
            final_output = content
    kept = kept[-MAX_MESSAGES:]
    ranked = tools or tool_results  # runtimes that only log tool results still get names
    top = [{"name": n, "count": c} for n, c in sorted(ranked.items(), key=lambda kv: (-kv[1], kv[0]))]
    data = {
        "messages": kept,
        "top_tool_calls": top[:TOP_TOOLS],
        "final_output": _cap(final_output, FINAL_MAX_CHARS),
    }
    return SummaryDoc(topic=topic, message_count=count, data=data, text=searchable_text(topic, data))


def searchable_text(topic: str, data: dict[str, Any]) -> str:
    """What session search indexes: the messages' text and the tool names (the topic is indexed
    as its own column). No role labels: a word in every summary would match every query."""
    parts = [str(m.get("content", "")) for m in data.get("messages", [])]
    parts.append(" ".join(str(t.get("name", "")) for t in data.get("top_tool_calls", [])))
    final = str(data.get("final_output") or "")
    if final and not any(final == m.get("content") for m in data.get("messages", [])):
        parts.append(final)
    return "\n".join(p for p in parts if p)


def clean_for_read(value: Any) -> Any:
    """Strip and redact every string in a stored summary again on the way out."""
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, list):
        return [clean_for_read(v) for v in value]
    if isinstance(value, dict):
        return {k: clean_for_read(v) for k, v in value.items()}
    return value
