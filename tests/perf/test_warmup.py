"""Loading protomem.wsgi (what a gunicorn worker does before it accepts a connection) warms the
agent's hot path: the URLconf and the views are imported, Celery's app is finalized, the hot
serializers are built; the MCP SDK stays unimported and no database connection is opened."""

from __future__ import annotations

from pathlib import Path

from tests.perf.fresh_app import run_fresh_app

SCRIPT = r"""
import importlib
from celery import current_app
from django.db import connections

WARMED = ("protomem.urls", "memory.api.views", "delivery.api.views")
before = {m for m in WARMED if m in sys.modules}
for conn in connections.all():
    conn.close()
wsgi = importlib.import_module("protomem.wsgi")
out["before"] = sorted(before)
out["after"] = sorted(m for m in WARMED if m in sys.modules)
out["celery_finalized"] = current_app.finalized
out["mcp"] = sorted(m for m in sys.modules if m == "mcp" or m.startswith("mcp.") or m == "mcp_server.http")
from memory.api.serializers import RecallQueryInput
out["shared_fields"] = "_shared_prototype" in vars(RecallQueryInput)
out["connections_opened"] = [alias for alias in connections if connections[alias].connection is not None]
client = Client(HTTP_AUTHORIZATION=f"Api-Key {key}")
out["recall"] = client.get("/api/memory/recall/?query=deploy").status_code
"""


def test_loading_the_wsgi_app_warms_the_hot_path_and_nothing_else(tmp_path: Path) -> None:
    out = run_fresh_app(tmp_path, SCRIPT)

    assert out["before"] == []  # the prelude's get_wsgi_application() left the URLconf lazy
    assert out["after"] == ["delivery.api.views", "memory.api.views", "protomem.urls"]
    assert out["celery_finalized"] is True
    assert out["shared_fields"] is True
    assert out["mcp"] == []
    assert out["connections_opened"] == []  # no database work at load
    assert out["recall"] == 200
