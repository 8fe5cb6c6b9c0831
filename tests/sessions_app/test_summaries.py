"""Building a session summary from a transcript (pure, no database)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from memory.lifecycle.redaction import REDACTED
from sessions_app.summaries import MAX_MESSAGES, TOPIC_MAX_CHARS, build_summary, clean_for_read, topic_of


@dataclass
class Msg:
    role: str
    content: str = ""
    name: str = ""
    tool_calls: Any = field(default_factory=list)


def test_summary_has_messages_top_tools_and_final_output():
    doc = build_summary(
        [
            Msg("user", "  Where are the   audit logs\nstored? "),
            Msg(
                "assistant",
                "<think>check s3</think>Looking.",
                tool_calls=[
                    {"type": "function", "function": {"name": "s3_list", "arguments": '{"k": "sk-x"}'}},
                    {"name": "grep"},
                    {"function": {"name": "s3_list"}},
                ],
            ),
            Msg("tool", "secret tool output", name="s3_list"),
            Msg("assistant", "In bucket audit-prod."),
        ]
    )
    assert doc.topic == "Where are the audit logs stored?"
    assert doc.message_count == 3
    assert doc.data == {
        "messages": [
            {"role": "user", "content": "Where are the   audit logs\nstored?"},
            {"role": "assistant", "content": "Looking."},
            {"role": "assistant", "content": "In bucket audit-prod."},
        ],
        "top_tool_calls": [{"name": "s3_list", "count": 2}, {"name": "grep", "count": 1}],
        "final_output": "In bucket audit-prod.",
    }
    assert "secret tool output" not in doc.text
    assert "check s3" not in doc.text
    assert doc.text == "Where are the   audit logs\nstored?\nLooking.\nIn bucket audit-prod.\ns3_list grep"


def test_topic_comes_from_the_first_user_message_only():
    doc = build_summary(
        [Msg("assistant", "I am your assistant, ask me"), Msg("user", "kestrel plan"), Msg("user", "x")]
    )
    assert doc.topic == "kestrel plan"


def test_topic_is_redacted_stripped_and_capped():
    assert topic_of("<think>x</think>my password=hunter2-2 please") == f"my password={REDACTED} please"
    long = topic_of("word " * 100)
    assert len(long) <= TOPIC_MAX_CHARS
    assert long.endswith("…")


def test_keeps_only_the_newest_messages():
    doc = build_summary(
        [Msg("user" if i % 2 == 0 else "assistant", f"m{i}") for i in range(MAX_MESSAGES + 10)]
    )
    assert len(doc.data["messages"]) == MAX_MESSAGES
    assert doc.data["messages"][-1]["content"] == f"m{MAX_MESSAGES + 9}"
    assert doc.topic == "m0"
    assert doc.message_count == MAX_MESSAGES + 10


def test_clean_for_read_strips_and_redacts_stored_strings():
    stored = {"messages": [{"role": "assistant", "content": "<think>plan</think>use AKIAIOSFODNN7EXAMPLE"}]}
    assert clean_for_read(stored) == {"messages": [{"role": "assistant", "content": f"use {REDACTED}"}]}
