"""Credential redaction, pure (no Django): text -> the text with secrets replaced, plus what was found.

Everything derived from a transcript (session summaries, search text, the harvest) and every
agent- or document-written memory passes through here: a secret pasted into a chat or planted in
a write must not outlive it in the store, a prompt or a log. Patterns are deliberately specific
(known key shapes, `key=value` assignments, "the password is ...", URL userinfo, PEM blocks), and
obvious placeholders (`${DB_PASSWORD}`, `os.environ[...]`, `user:password@localhost`) are left
alone, so ordinary prose and code examples pass unchanged.

`redact_secrets(text)` returns a `Redaction` (text and the kinds found); `redact(text)` is the
string-only form sessions_app has always used.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

REDACTED = "[REDACTED]"


@dataclass(frozen=True)
class Redaction:
    text: str
    kinds: tuple[str, ...]  # sorted, unique: e.g. ("aws_access_key", "password")

    @property
    def found(self) -> bool:
        return bool(self.kinds)


# Whole PEM private-key blocks (RSA, EC, OPENSSH, ENCRYPTED, plain PKCS#8); an unterminated
# block is redacted to the end of the text, since the rest of it is key material.
_PRIVATE_KEY = re.compile(
    r"-----BEGIN (?P<kind>[A-Z0-9 ]*?)PRIVATE KEY-----.*?(?:-----END (?P=kind)PRIVATE KEY-----|\Z)",
    re.DOTALL,
)

# Credentials in URL userinfo (postgres://, mongodb+srv://, amqp://, and redis://:pass@ with no
# user): scheme://user:password@host -> scheme://user:[REDACTED]@host
_URL_PASSWORD = re.compile(r"(?P<head>\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]*:)(?P<secret>[^\s@/]+)(?=@)")

# Authorization headers and bearer tokens; a token must contain a digit, so prose
# ("bearer authentication") is left alone.
_BEARER = re.compile(
    r"(?P<head>\b(?:Bearer|Token|Api-Key)\s+)(?P<secret>(?=[A-Za-z._~+/=-]*\d)[A-Za-z0-9._~+/=-]{12,})",
    re.IGNORECASE,
)
_BASIC = re.compile(r"(?P<head>\bAuthorization:\s*Basic\s+)(?P<secret>[A-Za-z0-9+/]{8,}={0,2})", re.I)

# Well-known key shapes, redacted wherever they appear; first match wins, so Anthropic's
# sk-ant- is named before OpenAI's broader sk-. The middle column holds literal substrings one of
# which every match contains: a cheap test that skips the pattern for ordinary text.
_AWS_PREFIXES = ("AKIA", "ASIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA")
_KEY_SHAPES: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("anthropic_key", ("sk-ant-",), re.compile(r"\bsk-ant-(?:api\d+-|admin\d+-)?[A-Za-z0-9_-]{16,}")),
    ("openai_key", ("sk-",), re.compile(r"\bsk-(?:proj-|live-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}")),
    ("stripe_key", ("_live_", "_test_"), re.compile(r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}")),
    ("aws_access_key", _AWS_PREFIXES, re.compile(rf"\b(?:{'|'.join(_AWS_PREFIXES)})[A-Z0-9]{{16}}\b")),
    ("github_token", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,}\b")),
    ("github_token", ("github_pat_",), re.compile(r"\bgithub_pat_[A-Za-z0-9_]{22,}\b")),
    ("gitlab_token", ("glpat-",), re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}\b")),
    ("slack_token", ("xox",), re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b")),
    ("google_api_key", ("AIza",), re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b")),
    ("jwt", ("eyJ",), re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
)
# The same cheap test for the case-insensitive rules, on the lower-cased text.
_ASSIGNMENT_WORDS = ("pass", "pwd", "secret", "key", "token")
_PROSE_WORDS = ("pass", "pin")

# `password = hunter2`, `"api_key": "..."`, `AWS_SECRET_ACCESS_KEY=...`: the value goes.
_ASSIGNMENT = re.compile(
    r"""(?P<head>\b(?P<name>[\w.-]*(?:password|passwd|pwd|passphrase|secret|api[_-]?key|apikey|"""
    r"""access[_-]?key|auth[_-]?token|access[_-]?token|refresh[_-]?token|client[_-]?secret|"""
    r"""private[_-]?key))["']?\s*[:=]\s*["']?)(?P<secret>[^\s"',;}{]{4,})""",
    re.IGNORECASE,
)

# Prose: "the root password for db-main is Kx8#mPq2" -- only values with a digit or a symbol,
# so "the password is stored in Vault" stays.
_PROSE_PASSWORD = re.compile(
    r"(?P<head>\b(?:password|passphrase|passcode|passwd|pin)\s+(?:for\s+[\w.@-]+\s+)?(?:is|was)\s*:?\s+)"
    r"(?P<secret>(?=\S*[\d#$%&!*@^])[^\s,;]{6,})",
    re.IGNORECASE,
)

# Values that name a secret rather than hold one: templating and env references, calls and
# subscripts (`os.environ[...]`, `getenv(...)`), dotted settings, type names, stock placeholders.
_REFERENCE = re.compile(
    r"""^(?:\$|%|<|\{\{|\[REDACTED\]|\*{3,}|x{3,}|\.{3})"""
    r"""|^[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*[\[(]"""
    r"""|^[a-z_]+(?:\.[A-Za-z_]\w*)+$"""
    r"""|^[A-Z][a-z]+(?:[A-Z][a-z]+)+$"""
    r"""|^(?:password|passwd|pass|secret|changeme|example|placeholder|redacted|required|optional|none|null"""
    r"""|true|false|string|str|bytes|your[_-]?\w*|my[_-]?\w*)$""",
    re.IGNORECASE,
)


def _is_placeholder(value: str) -> bool:
    return bool(_REFERENCE.match(value.strip("\"'`")))


def _assignment_kind(name: str) -> str:
    lowered = name.lower()
    if "aws" in lowered or "secret_access" in lowered:
        return "aws_secret_key"
    if any(word in lowered for word in ("password", "passwd", "pwd", "passphrase")):
        return "password"
    return "credential"


def redact_secrets(text: str) -> Redaction:
    """`text` with credentials replaced by [REDACTED] and the kinds found; idempotent."""
    if not text:
        return Redaction(text=text or "", kinds=())
    kinds: set[str] = set()

    def whole(kind: str) -> Callable[[re.Match[str]], str]:
        def replace(match: re.Match[str]) -> str:
            kinds.add(kind)
            return REDACTED

        return replace

    def keep_head(kind: str | None) -> Callable[[re.Match[str]], str]:
        def replace(match: re.Match[str]) -> str:
            secret = match.group("secret")
            if secret.startswith(REDACTED) or _is_placeholder(secret):
                return match[0]
            kinds.add(kind or _assignment_kind(match.group("name")))
            return match.group("head") + REDACTED

        return replace

    out = text
    lowered = text.lower()
    if "PRIVATE KEY" in out:
        out = _PRIVATE_KEY.sub(whole("private_key"), out)
    if "://" in out:
        out = _URL_PASSWORD.sub(keep_head("connection_string"), out)
    for kind, triggers, shape in _KEY_SHAPES:  # before the header rules: a known key is named by its provider
        if any(map(out.__contains__, triggers)):
            out = shape.sub(whole(kind), out)
    if "bearer" in lowered or "token" in lowered or "api-key" in lowered:
        out = _BEARER.sub(keep_head("bearer_token"), out)
    if "basic" in lowered:
        out = _BASIC.sub(keep_head("basic_auth"), out)
    if ("=" in out or ":" in out) and any(map(lowered.__contains__, _ASSIGNMENT_WORDS)):
        out = _ASSIGNMENT.sub(keep_head(None), out)
    if any(map(lowered.__contains__, _PROSE_WORDS)):
        out = _PROSE_PASSWORD.sub(keep_head("password"), out)
    return Redaction(text=out, kinds=tuple(sorted(kinds)))


def redact(text: str) -> str:
    """`text` with credentials replaced by [REDACTED]; idempotent (redact(redact(x)) == redact(x))."""
    return redact_secrets(text).text


def redact_value(value: object) -> object:
    """Redact every string inside a JSON-like value (dicts, lists, strings); keys are kept."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [redact_value(v) for v in value]
    if isinstance(value, dict):
        return {k: redact_value(v) for k, v in value.items()}
    return value
