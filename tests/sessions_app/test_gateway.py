"""The OpenAI-compatible gateway client against the stub server on 127.0.0.1."""

from __future__ import annotations

import socket

import pytest

from protomem.config import GatewayConfig
from sessions_app.gateway import (
    PermanentGatewayError,
    TransientGatewayError,
    chat_completion,
    gateway_configured,
)
from tests.fixtures.gateway import Reply, chat_reply

MESSAGES = [{"role": "user", "content": "hi"}]


def test_posts_chat_completions_with_model_and_key(stub_gateway):
    stub_gateway.enqueue(chat_reply('{"summary": "x"}'))
    result = chat_completion(messages=MESSAGES)
    assert result.content == '{"summary": "x"}'
    (request,) = stub_gateway.requests
    assert request["path"] == "/v1/chat/completions"
    assert request["body"]["model"] == "stub-aux"
    assert request["body"]["messages"] == MESSAGES
    assert request["body"]["temperature"] == 0.0
    assert request["headers"]["Authorization"] == "Bearer stub-key"


@pytest.mark.parametrize("status", [500, 502, 503, 429, 408])
def test_5xx_and_throttling_are_transient(stub_gateway, status):
    stub_gateway.enqueue(Reply(status=status, body={"error": "upstream"}))
    with pytest.raises(TransientGatewayError, match=str(status)):
        chat_completion(messages=MESSAGES)


@pytest.mark.parametrize("status", [400, 401, 403, 404])
def test_other_4xx_are_permanent(stub_gateway, status):
    stub_gateway.enqueue(Reply(status=status, body={"error": "no"}))
    with pytest.raises(PermanentGatewayError, match=str(status)):
        chat_completion(messages=MESSAGES)


def test_timeout_is_transient(stub_gateway):
    stub_gateway.enqueue(Reply(body={"choices": []}, delay_s=1.5))
    cfg = GatewayConfig(base_url=stub_gateway.url, aux_model="m", timeout_s=0.3)
    with pytest.raises(TransientGatewayError, match="timed out"):
        chat_completion(messages=MESSAGES, cfg=cfg)


@pytest.mark.parametrize(
    "body",
    [
        "<html>bad gateway</html>",
        {"choices": []},
        {"nothing": True},
        {"choices": [{"message": {"content": 3}}]},
    ],
)
def test_garbled_replies_are_transient(stub_gateway, body):
    stub_gateway.enqueue(Reply(body=body))
    with pytest.raises(TransientGatewayError):
        chat_completion(messages=MESSAGES)


def test_unreachable_gateway_is_transient():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again before the call: connection refused
    cfg = GatewayConfig(base_url=f"http://127.0.0.1:{port}/v1", aux_model="m", timeout_s=1)
    with pytest.raises(TransientGatewayError, match="unreachable"):
        chat_completion(messages=MESSAGES, cfg=cfg)


def test_unconfigured_gateway_is_permanent():
    assert gateway_configured(GatewayConfig()) is False
    assert gateway_configured(GatewayConfig(base_url="http://x/v1", aux_model="m")) is True
    with pytest.raises(PermanentGatewayError):
        chat_completion(messages=MESSAGES, cfg=GatewayConfig())
    with pytest.raises(PermanentGatewayError):
        chat_completion(messages=MESSAGES, cfg=GatewayConfig(base_url="file:///etc/passwd", aux_model="m"))
