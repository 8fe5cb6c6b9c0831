"""The one settings module: everything comes from the environment and the config file."""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url

from protomem.config import load_config
from protomem.logging import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent
INSTANCE_DIR = Path(os.environ.get("PROTOMEM_INSTANCE_DIR") or BASE_DIR / "instance")


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.strip().lower() in ("1", "true", "yes", "on")


def env_list(name: str, default: str) -> list[str]:
    return [v.strip() for v in os.environ.get(name, default).split(",") if v.strip()]


PROTOMEM = load_config(base_dir=BASE_DIR, instance_dir=INSTANCE_DIR)

DEBUG = env_bool("DJANGO_DEBUG", False)
# The embedded default is for a laptop; checks.py warns when it is used with DEBUG off.
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or "insecure-dev-key-change-me"
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework_api_key",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "protomem",
    "memory",
    "sessions_app",
    "audit",
    "delivery",
    "mcp_server",
    "observability",  # GET /metrics and the store gauges it reads at scrape time
    "axes",  # failed-login throttling and lockouts for the admin (see AXES_* below)
]

MIDDLEWARE = [
    "protomem.logging.RequestContextMiddleware",  # request id (X-Request-ID) on every log line
    "protomem.metrics.RequestMetricsMiddleware",  # latency by route, method and status class
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "protomem.middleware.ApiInputGuardMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # turns a locked-out login into the lockout page (429)
]

ROOT_URLCONF = "protomem.urls"
WSGI_APPLICATION = "protomem.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

SQLITE_OPTIONS = {
    # WAL lets readers run beside the writer; IMMEDIATE makes writers queue on the busy
    # timeout instead of failing with "database is locked" halfway through a transaction.
    "init_command": "PRAGMA journal_mode=WAL;PRAGMA synchronous=NORMAL",
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
}


# Seconds a web worker keeps its database connection between requests (0: a new one per
# request; unset: 60). Both backends: opening an SQLite connection (file open, WAL and synchronous
# pragmas) was ~8% of a hot request's CPU, a PostgreSQL one a round trip and a backend fork.
# Celery closes a worker's connections around every task (celery.fixups.django), so tasks never
# reuse one; health checks replace a connection a PostgreSQL restart killed before it is used.
DATABASE_CONN_MAX_AGE = int(os.environ.get("DATABASE_CONN_MAX_AGE", "60"))


def sqlite_database(path: str) -> dict[str, object]:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": path,
        "OPTIONS": dict(SQLITE_OPTIONS),
        "CONN_MAX_AGE": DATABASE_CONN_MAX_AGE,
        "CONN_HEALTH_CHECKS": True,
    }


# Django's PostgreSQL backend, with a health check that polls the kept connection's socket instead
# of a SELECT 1 round trip on every request (protomem/db_backends/postgresql/base.py).
POSTGRESQL_ENGINE = "protomem.db_backends.postgresql"

# PostgreSQL only. Server-side binding (psycopg 3's extended protocol, parameters sent apart from
# the SQL) lets psycopg prepare a statement on the server once it has run `prepare_threshold`
# times on a connection, so the server parses and plans it once per connection, not per request.
# An empty DATABASE_PREPARE_THRESHOLD (or server-side binding off) prepares nothing, which a
# transaction-mode pooler without prepared-statement support (PgBouncer < 1.21) needs.
# Off by default: on two cores shared with PostgreSQL, bench.load served ~30% fewer requests a
# second with it on (fewer requests in flight at once), though each used less CPU.
DATABASE_SERVER_SIDE_BINDING = env_bool("DATABASE_SERVER_SIDE_BINDING", False)
_PREPARE_THRESHOLD = os.environ.get("DATABASE_PREPARE_THRESHOLD", "2").strip()
DATABASE_PREPARE_THRESHOLD = int(_PREPARE_THRESHOLD) if _PREPARE_THRESHOLD else None


def postgresql_options() -> dict[str, object]:
    """OPTIONS of a PostgreSQL DATABASES entry: server-side binding and prepared statements."""
    if not DATABASE_SERVER_SIDE_BINDING:
        return {}
    return {"server_side_binding": True, "prepare_threshold": DATABASE_PREPARE_THRESHOLD}


def url_database(url: str) -> dict[str, object]:
    """A DATABASES entry from a URL (postgres://user@host:port/name, sqlite:///path)."""
    entry = dj_database_url.parse(url, conn_max_age=DATABASE_CONN_MAX_AGE)
    if entry["ENGINE"] == "django.db.backends.sqlite3":
        return sqlite_database(str(entry["NAME"]))
    entry["CONN_HEALTH_CHECKS"] = True  # a pooled connection killed by a PostgreSQL restart is replaced
    if entry["ENGINE"] in ("django.db.backends.postgresql", "django.db.backends.postgresql_psycopg2"):
        entry["ENGINE"] = POSTGRESQL_ENGINE
        entry["OPTIONS"] = {**postgresql_options(), **entry.get("OPTIONS", {})}
    return entry


def injections_url(store_url: str) -> str:
    """The injection log's own database beside a server store: same server, name + '_injections'."""
    base, _, name = store_url.rpartition("/")
    name, sep, query = name.partition("?")
    return f"{base}/{name}_injections{sep}{query}"


# SQLite files by default; DATABASE_URL=postgres://... moves the store to PostgreSQL (several web and
# worker nodes). The injection log is forensics: its own database either way, so pruning or copying it
# never touches the store (INJECTION_LOG_DATABASE_URL, else a sibling database on the same server).
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    DATABASES = {
        "default": url_database(DATABASE_URL),
        "injections": url_database(
            os.environ.get("INJECTION_LOG_DATABASE_URL")
            or (injections_url(DATABASE_URL) if not DATABASE_URL.startswith("sqlite") else "")
            or f"sqlite:///{PROTOMEM.injection_log_path}"
        ),
    }
else:
    DATABASES = {
        "default": sqlite_database(PROTOMEM.knowledge.db_path),
        "injections": sqlite_database(PROTOMEM.injection_log_path),
    }
DATABASE_ROUTERS = ["protomem.routers.InjectionLogRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

# Admin login protection (django-axes). The axes backend comes first: it refuses a locked-out
# username or address before the password is even checked. Failures count per username and,
# separately, per client address, so neither spraying one account from many hosts nor many
# accounts from one host gets more than AXES_FAILURE_LIMIT guesses per cool-off period.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("PROTOMEM_LOGIN_FAILURE_LIMIT", 5))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
# Hours; a superuser lifts a lockout earlier (admin "Login lockouts" or `protomem unlock-login`).
AXES_COOLOFF_TIME = float(os.environ.get("PROTOMEM_LOGIN_COOLOFF_HOURS", 1))
AXES_RESET_ON_SUCCESS = True
# The audited handler (audit.login_guard) also writes the lockout to the audit log.
AXES_HANDLER = "audit.login_guard.AuditedAxesHandler"
AXES_LOCKOUT_TEMPLATE = "admin/login_locked_out.html"
AXES_ENABLE_ADMIN = False  # audit.admin shows the attempts, with an audited "lift" action
AXES_VERBOSE = False  # no "AXES: BEGIN" banner on every manage.py command
# The address is REMOTE_ADDR (no forwarding header is trusted, so none can be spoofed); behind a
# reverse proxy all clients share the proxy's address, and so its per-address count.

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = INSTANCE_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # WhiteNoise warns about a missing root

DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("PROTOMEM_MAX_BODY_BYTES", 1_048_576))
# Longer /api/ query strings are refused with 414 (protomem.middleware).
PROTOMEM_MAX_QUERY_BYTES = int(os.environ.get("PROTOMEM_MAX_QUERY_BYTES", 65_536))

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "sessions_app.authentication.AgentAPIKeyAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["protomem.api.HardenedFilterBackend"],
    # JSON only: strict UTF-8, bounded depth, no NUL (protomem.parsers); forms are 415.
    "DEFAULT_PARSER_CLASSES": ["protomem.parsers.StrictJSONParser"],
    "DEFAULT_PAGINATION_CLASS": "protomem.api.DefaultPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "protomem.api.exception_handler",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "UNAUTHENTICATED_USER": None,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "protomem API",
    "DESCRIPTION": "Durable, reviewable memory for LLM agents.",
    "VERSION": "1.0.0",
    "SCHEMA_PATH_PREFIX": "/api/",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # One name for the review verdict, whether a field is called review_state or state.
    "ENUM_NAME_OVERRIDES": {"ReviewStateEnum": "memory.store.models.ReviewState"},
    "SERVE_INCLUDE_SCHEMA": False,
    "APPEND_COMPONENTS": {
        "securitySchemes": {"ApiKeyAuth": {"type": "apiKey", "in": "header", "name": "Authorization"}}
    },
    "SECURITY": [{"ApiKeyAuth": []}],
}

# Celery: Redis when configured, else kombu's filesystem transport under the instance dir,
# so the embedded run needs no broker server.
BROKER_DIR = INSTANCE_DIR / "broker"
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or os.environ.get("REDIS_URL") or ""
if not CELERY_BROKER_URL:
    # A hostname (ignored by the transport) keeps kombu from warning "No hostname was supplied".
    CELERY_BROKER_URL = "filesystem://localhost/"
    for sub in ("queue", "processed", "control"):
        (BROKER_DIR / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "processed_folder": str(BROKER_DIR / "processed"),
        # Exchange tables (remote control, pidbox); kombu's default is ./control in the cwd.
        "control_folder": str(BROKER_DIR / "control"),
        # How often an idle worker looks for messages (kombu's default is 1 s); a worker notices
        # a stop only between polls, so this also bounds how long `make run` takes to stop.
        "polling_interval": 0.25,
    }
else:
    # Late acks: a task whose worker died is redelivered after the visibility timeout. It must
    # exceed the longest task (or Redis redelivers one still running) and SESSIONS_HARVEST_STALE_S
    # (so the redelivered harvest finds the dead worker's claim stale and takes it over).
    _visibility_s = int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", 3600))
    # Several deployments (or test runs) sharing one Redis db keep their unacked sets apart, so
    # one's visibility timeout never redelivers the other's running tasks.
    _unacked = os.environ.get("CELERY_UNACKED_KEY", "unacked")
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": _visibility_s,
        "unacked_key": _unacked,
        "unacked_index_key": f"{_unacked}_index",
        "unacked_mutex_key": f"{_unacked}_mutex",
        # Idle workers look for abandoned messages every tenth of the timeout (1-60 s).
        "unacked_restore_interval": max(1, min(60, _visibility_s // 10)),
        "unacked_restore_throttle": 1,
    }
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "protomem")
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = 120
CELERY_TASK_TIME_LIMIT = 180
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_TIMEZONE = "UTC"
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_BEAT_SCHEDULE_FILENAME = str(INSTANCE_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULE = {
    "memory.chunks_expire_sweep": {
        "task": "memory.chunks_expire_sweep",
        "schedule": 15 * 60,
        "options": {"expires": 20 * 60},
    },
    "memory.chunks_reap_deleted": {
        "task": "memory.chunks_reap_deleted",
        "schedule": 60 * 60,
        "options": {"expires": 90 * 60},
    },
    "memory.embeddings_backfill": {
        "task": "memory.embeddings_backfill",
        "schedule": 60 * 60,
        "options": {"expires": 90 * 60},
    },
    "sessions.retire_aged": {
        "task": "sessions.retire_aged",
        "schedule": 60 * 60,
        "options": {"expires": 90 * 60},
    },
    "sessions.harvest_sweep": {
        "task": "sessions.harvest_sweep",
        "schedule": 5 * 60,
        "options": {"expires": 7 * 60},
    },
}

# Harvest retry policy (sessions_app.services.harvest_policy) and the sweep's patience.
SESSIONS_HARVEST_MAX_ATTEMPTS = int(os.environ.get("SESSIONS_HARVEST_MAX_ATTEMPTS", 4))
SESSIONS_HARVEST_BACKOFF_S = float(os.environ.get("SESSIONS_HARVEST_BACKOFF_S", 30))
SESSIONS_HARVEST_BACKOFF_MAX_S = float(os.environ.get("SESSIONS_HARVEST_BACKOFF_MAX_S", 600))
SESSIONS_HARVEST_GRACE_S = float(os.environ.get("SESSIONS_HARVEST_GRACE_S", 600))
SESSIONS_HARVEST_STALE_S = float(os.environ.get("SESSIONS_HARVEST_STALE_S", 900))
# Bulk-deleted chunks stay restorable this long before memory.chunks_reap_deleted removes them.
PROTOMEM_BULK_DELETE_GRACE_DAYS = float(os.environ.get("PROTOMEM_BULK_DELETE_GRACE_DAYS", 7))

# GET /metrics (observability.views): operators with audit.view_injectionlog, or a scraper sending
# "Authorization: Bearer <PROTOMEM_METRICS_TOKEN>" (unset: no token opens it). Several processes
# (gunicorn workers, Celery children) sum their samples when PROMETHEUS_MULTIPROC_DIR is set.
PROTOMEM_METRICS_TOKEN = os.environ.get("PROTOMEM_METRICS_TOKEN", "")

LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO")
# LOG_FORMAT=json: one JSON object per line, with request id, agent and session when known.
LOGGING = logging_config(log_format=os.environ.get("LOG_FORMAT", "text"), level=LOG_LEVEL)
