"""Loading the app and answering the agent's hot calls never imports the MCP SDK; /mcp does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import json, sys
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
call_command("migrate", database="injections", verbosity=0)
from django.core.wsgi import get_wsgi_application
from django.test import Client
from sessions_app.models import Agent, AgentAPIKey

application = get_wsgi_application()
agent = Agent.objects.create(name="lazy-mcp")
_, key = AgentAPIKey.objects.create_key(name="lazy-mcp", agent=agent)
client = Client(HTTP_AUTHORIZATION=f"Api-Key {key}")
out = {}
JSON = "application/json"
out["register"] = client.post("/api/sessions/", {"session_id": "s1"}, content_type=JSON).status_code
out["ingest"] = client.post(
    "/api/sessions/s1/memory/ingest/", {"content": "the deploy script lives in ops/deploy.sh"},
    content_type="application/json").status_code
out["recall"] = client.get("/api/memory/recall/?query=deploy+script").status_code
out["recall_hits"] = json.loads(client.get("/api/memory/recall/?query=deploy+script").content)["count"]
out["context"] = client.post(
    "/api/sessions/s1/context/", {"query": "deploy", "model": "m"}, content_type=JSON).status_code
out["mcp_after_rest"] = sorted(
    m for m in sys.modules if m == "mcp" or m.startswith("mcp.") or m == "mcp_server.http")
out["mcp_status"] = client.post(
    "/mcp", json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}), content_type="application/json",
    HTTP_ACCEPT="application/json, text/event-stream").status_code
out["mcp_after_mcp"] = "mcp" in sys.modules and "mcp_server.http" in sys.modules
print(json.dumps(out))
"""


def test_rest_calls_do_not_import_the_mcp_sdk_and_mcp_loads_it_on_demand(tmp_path: Path) -> None:
    (tmp_path / "protomem.yaml").write_text(
        "default_model: m\nmodels:\n  m: {context_window: 32000}\nknowledge: {embeddings: false}\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "INJECTION_LOG_DATABASE_URL")}
    env.update(
        DJANGO_SETTINGS_MODULE="protomem.settings",
        PROTOMEM_INSTANCE_DIR=str(tmp_path),
        PROTOMEM_CONFIG=str(tmp_path / "protomem.yaml"),
        PYTHONPATH=str(REPO),
    )
    env.pop("CELERY_BROKER_URL", None)
    env.pop("REDIS_URL", None)
    done = subprocess.run(  # noqa: S603 - this interpreter, a fixed script
        [sys.executable, "-c", SCRIPT], cwd=REPO, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert (out["register"], out["ingest"], out["recall"], out["context"]) == (201, 201, 200, 200)
    assert out["recall_hits"] == 1
    assert out["mcp_after_rest"] == []
    # The route still works, and loading it is visible to the check above.
    assert out["mcp_status"] == 200
    assert out["mcp_after_mcp"] is True
