"""Credential redaction for anything derived from a transcript (pure, no Django).

Session summaries, session-search text and the harvest's input and output all pass through
`redact()`: a secret the user pasted into a chat must not outlive the thread in a summary,
a search snippet, an aux-model prompt or a stored chunk. Patterns are deliberately specific
(known key shapes, `key=value` assignments, URL userinfo, PEM blocks) so ordinary prose is
left alone.
"""

from __future__ import annotations

import re

REDACTED = "[REDACTED]"

# Whole PEM private-key blocks (RSA, EC, OPENSSH, ENCRYPTED, plain PKCS#8); an unterminated
# block is redacted to the end of the text, since the rest of it is key material.
_PRIVATE_KEY = re.compile(
    r"-----BEGIN (?P<kind>[A-Z0-9 ]*?)PRIVATE KEY-----.*?(?:-----END (?P=kind)PRIVATE KEY-----|\Z)",
    re.DOTALL,
)

# Credentials in URL userinfo: scheme://user:password@host -> scheme://user:[REDACTED]@host
_URL_PASSWORD = re.compile(r"(?P<head>\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]+:)(?P<secret>[^\s@/]+)(?=@)")

# Authorization headers and bearer tokens.
# A token must contain a digit, so prose ("bearer authentication") is left alone.
_BEARER = re.compile(
    r"(?P<head>\b(?:Bearer|Token|Api-Key)\s+)(?P<secret>(?=[A-Za-z._~+/=-]*\d)[A-Za-z0-9._~+/=-]{12,})",
    re.IGNORECASE,
)
_BASIC = re.compile(r"(?P<head>\bAuthorization:\s*Basic\s+)(?P<secret>[A-Za-z0-9+/]{8,}={0,2})", re.I)

# Well-known key shapes, redacted wherever they appear.
_KEY_SHAPES = [
    re.compile(r"\bsk-(?:proj-|ant-(?:api\d+-)?|live-|svcacct-)?[A-Za-z0-9_-]{16,}"),  # OpenAI, Anthropic
    re.compile(r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}"),  # Stripe
    re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[A-Z0-9]{16}\b"),  # AWS access key ids
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,}\b"),  # GitHub tokens
    re.compile(r"\bgithub_pat_[A-Za-z0-9_]{22,}\b"),
    re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}\b"),  # GitLab
    re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b"),  # Slack
    re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b"),  # Google API keys
    re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),  # JWTs
]

# `password = hunter2`, `"api_key": "..."`, `AWS_SECRET_ACCESS_KEY=...`: the value goes.
_ASSIGNMENT = re.compile(
    r"""(?P<head>\b[\w.-]*(?:password|passwd|pwd|passphrase|secret|api[_-]?key|apikey|access[_-]?key|"""
    r"""auth[_-]?token|access[_-]?token|refresh[_-]?token|client[_-]?secret|private[_-]?key)"""
    r"""["']?\s*[:=]\s*["']?)(?P<secret>[^\s"',;}{]{4,})""",
    re.IGNORECASE,
)


def _keep_head(match: re.Match[str]) -> str:
    return match.group("head") + REDACTED


def redact(text: str) -> str:
    """`text` with credentials replaced by [REDACTED]; idempotent (redact(redact(x)) == redact(x))."""
    if not text:
        return text or ""
    out = _PRIVATE_KEY.sub(REDACTED, text)
    out = _URL_PASSWORD.sub(_keep_head, out)
    out = _BEARER.sub(_keep_head, out)
    out = _BASIC.sub(_keep_head, out)
    for shape in _KEY_SHAPES:
        out = shape.sub(REDACTED, out)
    return _ASSIGNMENT.sub(lambda m: m[0] if m.group("secret").startswith(REDACTED) else _keep_head(m), out)


def redact_value(value: object) -> object:
    """Redact every string inside a JSON-like value (dicts, lists, strings); keys are kept."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [redact_value(v) for v in value]
    if isinstance(value, dict):
        return {k: redact_value(v) for k, v in value.items()}
    return value
