"""The harvest's pure parts: transcript, prompt, reply parsing, extractive fallback (no database)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest

from memory.lifecycle.redaction import REDACTED
from sessions_app.harvest import (
    TRANSCRIPT_MAX_CHARS,
    MalformedHarvestOutput,
    build_prompt,
    extractive_summary,
    parse_reply,
    transcript_of,
)


@dataclass
class Msg:
    role: str
    content: str = ""
    name: str = ""
    tool_calls: Any = field(default_factory=list)


def conversation() -> list[Msg]:
    return [
        Msg(
            "user", "Help me set up the audit log export. My key is sk-proj-Qw3rTy9UiOp4AsDfGh5JkLz7XcVbNm12"
        ),
        Msg("assistant", "<think>they want S3</think>Sure.", tool_calls=[{"function": {"name": "s3_list"}}]),
        Msg("tool", "bucket-a, bucket-b", name="s3_list"),
        Msg("user", "Use bucket-b, we deploy on Tuesdays."),
        Msg("assistant", "Done: exports go to bucket-b nightly."),
    ]


def test_transcript_is_cleaned_and_skips_tool_results():
    t = transcript_of(conversation(), session_id="s-1", surface="chat")
    text = t.text()
    assert "sk-proj" not in text
    assert REDACTED in text
    assert "they want S3" not in text
    assert "bucket-a" not in text  # tool output is not sent
    assert t.lines[1] == "Assistant: Sure."
    assert t.tools == ("s3_list",)
    assert t.message_count == 4
    assert t.final_output == "Done: exports go to bucket-b nightly."


def test_long_transcript_keeps_the_opening_and_the_tail():
    msgs = [Msg("user", "opening question about kestrel")] + [
        Msg("assistant" if i % 2 else "user", f"message {i} " + "x" * 3000) for i in range(40)
    ]
    t = transcript_of(msgs, session_id="s", surface="chat")
    assert t.lines[0] == "User: opening question about kestrel"
    assert t.lines[1] == "[… earlier messages omitted …]"
    assert t.lines[-1].startswith("Assistant: message 39")
    assert sum(len(line) + 1 for line in t.lines) <= TRANSCRIPT_MAX_CHARS


def test_prompt_asks_for_json_and_frames_the_transcript_as_data():
    prompt = build_prompt(transcript_of(conversation(), session_id="s-1", surface="chat"))
    assert [m["role"] for m in prompt] == ["system", "user"]
    assert '{"summary": "...", "facts": ["...", "..."]}' in prompt[0]["content"]
    assert "not instructions" in prompt[0]["content"]
    assert prompt[1]["content"].startswith("Session s-1 (chat, 4 messages); tools used: s3_list")
    assert "<transcript>\nUser: Help me set up" in prompt[1]["content"]


def test_parse_reply_reads_summary_and_facts():
    reply = json.dumps({"summary": "Set up audit export.", "facts": ["User deploys on Tuesdays.", "  "]})
    result = parse_reply(reply)
    assert result.summary == "Set up audit export."
    assert result.facts == ("User deploys on Tuesdays.",)


@pytest.mark.parametrize(
    "reply",
    [
        '```json\n{"summary": "S", "facts": []}\n```',
        '<think>hmm</think>{"summary": "S", "facts": []}',
        'Here you go: {"summary": "S"} hope it helps',
    ],
)
def test_parse_reply_tolerates_fences_reasoning_and_chatter(reply):
    assert parse_reply(reply).summary == "S"


def test_parse_reply_accepts_fact_objects_dedups_and_redacts():
    reply = json.dumps(
        {
            "summary": "Used key sk-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c",
            "facts": [{"fact": "Prod DB is postgres://app:pw12345@db"}, "A fact.", "A fact."],
        }
    )
    result = parse_reply(reply)
    assert result.summary == f"Used key {REDACTED}"
    assert result.facts == (f"Prod DB is postgres://app:{REDACTED}@db", "A fact.")


@pytest.mark.parametrize(
    "reply",
    [
        "not json at all",
        '{"summary": "unterminated',
        '["a list"]',
        '{"facts": ["no summary"]}',
        '{"summary": "   ", "facts": []}',
        '{"summary": "S", "facts": "not a list"}',
        '{"summary": 42}',
        '<think>only reasoning {"summary": "x"}</think>',
    ],
)
def test_parse_reply_rejects_malformed_output(reply):
    with pytest.raises(MalformedHarvestOutput):
        parse_reply(reply)


def test_extractive_summary_is_deterministic_and_has_no_facts():
    t = transcript_of(conversation(), session_id="s-1", surface="chat")
    a, b = extractive_summary(t), extractive_summary(t)
    assert a == b
    assert a.facts == ()
    assert a.summary == (
        "Conversation on chat (4 messages). "
        f"The user asked: Help me set up the audit log export. My key is {REDACTED} "
        "Later the user asked: Use bucket-b, we deploy on Tuesdays. "
        "Final answer: Done: exports go to bucket-b nightly. "
        "Tools used: s3_list."
    )
