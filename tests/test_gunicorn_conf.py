"""gunicorn.conf.py: gthread (keep-alive) workers, 3 threads on PostgreSQL and one on SQLite; no access log
unless PROTOMEM_ACCESS_LOG asks for one.

Resolved the way gunicorn resolves it (its own config loader over this repository's file), so a
misspelt setting name, which gunicorn ignores silently, fails here.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from gunicorn.app.wsgiapp import WSGIApplication

CONF = Path(__file__).resolve().parents[1] / "gunicorn.conf.py"


def resolved(monkeypatch: pytest.MonkeyPatch, *args: str):
    monkeypatch.setattr(sys, "argv", ["gunicorn", "--config", str(CONF), *args, "protomem.wsgi"])
    return WSGIApplication().cfg


@pytest.mark.parametrize("url", ["postgres://u@h:5432/d", "postgresql://u@h/d"])
def test_postgresql_gets_gthread_workers(monkeypatch, url):
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.delenv("PROTOMEM_WEB_THREADS", raising=False)
    cfg = resolved(monkeypatch)
    assert cfg.worker_class_str == "gthread"
    assert cfg.threads == 3
    assert cfg.keepalive > 0  # what gthread brings: the connection outlives the request


def test_the_thread_count_follows_the_environment(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgres://u@h/d")
    monkeypatch.setenv("PROTOMEM_WEB_THREADS", "2")
    assert resolved(monkeypatch).threads == 2


@pytest.mark.parametrize("url", [None, "sqlite:////tmp/x.db"])
def test_sqlite_gets_gthread_workers_with_one_thread(monkeypatch, url):
    if url is None:
        monkeypatch.delenv("DATABASE_URL", raising=False)
    else:
        monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.delenv("PROTOMEM_WEB_THREADS", raising=False)
    cfg = resolved(monkeypatch)
    assert cfg.worker_class_str == "gthread"
    assert cfg.threads == 1  # two threads of one process would compete for SQLite's write lock
    assert cfg.keepalive > 0


def test_no_access_log_by_default(monkeypatch):
    monkeypatch.delenv("PROTOMEM_ACCESS_LOG", raising=False)
    assert resolved(monkeypatch).accesslog is None


def test_the_access_log_follows_the_environment(monkeypatch):
    monkeypatch.setenv("PROTOMEM_ACCESS_LOG", "-")
    assert resolved(monkeypatch).accesslog == "-"


def test_the_command_line_still_wins(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgres://u@h/d")
    cfg = resolved(monkeypatch, "--worker-class", "sync", "--threads", "1")
    assert cfg.worker_class_str == "sync"
    assert cfg.threads == 1
