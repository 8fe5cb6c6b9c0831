"""A minimal client for an OpenAI-compatible gateway's /chat/completions (stdlib urllib).

`base_url` includes the API prefix, as OpenAI clients expect: `http://127.0.0.1:4000/v1`
posts to `http://127.0.0.1:4000/v1/chat/completions`. Every call has a timeout. Errors come
back as two classes so callers can decide about retries without parsing messages:
`TransientGatewayError` (timeouts, connection failures, 429, 5xx, an unreadable body) and
`PermanentGatewayError` (other 4xx: a bad key or an unknown model will not fix itself).
"""

from __future__ import annotations

import http.client
import json
import logging
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from protomem.config import GatewayConfig, get_config

logger = logging.getLogger(__name__)

MAX_RESPONSE_BYTES = 4 * 1024 * 1024


class GatewayError(Exception):
    """The gateway call failed."""


class TransientGatewayError(GatewayError):
    """Worth retrying later: timeout, connection refused/reset, 429 or 5xx, garbled body."""


class PermanentGatewayError(GatewayError):
    """Retrying will not help: 4xx other than 408/429, or no gateway configured."""


@dataclass(frozen=True)
class ChatResult:
    content: str
    model: str


def gateway_configured(cfg: GatewayConfig | None = None) -> bool:
    """Whether a gateway URL and an aux model are set."""
    cfg = cfg or get_config().gateway
    return bool(cfg.base_url.strip() and cfg.aux_model.strip())


def _post_json(url: str, payload: dict[str, Any], *, api_key: str, timeout_s: float) -> Any:
    data = json.dumps(payload).encode()
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    request = urllib.request.Request(url, data=data, headers=headers, method="POST")  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:  # noqa: S310 - http(s) only
            body = response.read(MAX_RESPONSE_BYTES)
    except urllib.error.HTTPError as exc:
        status = exc.code
        if status in (408, 409, 425, 429) or status >= 500:
            raise TransientGatewayError(f"gateway answered HTTP {status}") from exc
        raise PermanentGatewayError(f"gateway answered HTTP {status}") from exc
    except TimeoutError as exc:
        raise TransientGatewayError(f"gateway timed out after {timeout_s}s") from exc
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, TimeoutError):
            raise TransientGatewayError(f"gateway timed out after {timeout_s}s") from exc
        raise TransientGatewayError(f"gateway unreachable: {exc.reason}") from exc
    except (http.client.HTTPException, ConnectionError, OSError) as exc:
        raise TransientGatewayError(f"gateway connection failed: {exc.__class__.__name__}") from exc
    try:
        return json.loads(body)
    except ValueError as exc:
        raise TransientGatewayError("gateway answered a body that is not JSON") from exc


def chat_completion(
    *,
    messages: list[dict[str, str]],
    cfg: GatewayConfig | None = None,
    model: str | None = None,
    temperature: float = 0.0,
    max_tokens: int | None = None,
) -> ChatResult:
    """One non-streaming chat completion; raises Transient/PermanentGatewayError on failure."""
    cfg = cfg or get_config().gateway
    if not cfg.base_url.strip():
        raise PermanentGatewayError("no gateway configured (gateway.base_url is empty)")
    model = model or cfg.aux_model
    if not cfg.base_url.startswith(("http://", "https://")):
        raise PermanentGatewayError("gateway.base_url must be an http(s) URL")
    url = cfg.base_url.rstrip("/") + "/chat/completions"
    payload: dict[str, Any] = {"model": model, "messages": messages, "temperature": temperature}
    if max_tokens:
        payload["max_tokens"] = max_tokens
    reply = _post_json(url, payload, api_key=cfg.api_key, timeout_s=cfg.timeout_s)
    try:
        message = reply["choices"][0]["message"]
        content = message.get("content") or ""
    except (KeyError, IndexError, TypeError, AttributeError) as exc:
        raise TransientGatewayError("gateway reply has no choices[0].message") from exc
    if not isinstance(content, str):
        raise TransientGatewayError("gateway reply content is not text")
    return ChatResult(content=content, model=str(reply.get("model") or model))
