"""Loading the app and answering the agent's hot calls never imports the MCP SDK; /mcp does."""

from __future__ import annotations

from pathlib import Path

from tests.perf.fresh_app import run_fresh_app

SCRIPT = r"""
out["register"] = client.post("/api/sessions/", {"session_id": "s1"}, content_type=JSON).status_code
out["ingest"] = client.post(
    "/api/sessions/s1/memory/ingest/", {"content": "the deploy script lives in ops/deploy.sh"},
    content_type=JSON).status_code
out["recall"] = client.get("/api/memory/recall/?query=deploy+script").status_code
out["recall_hits"] = json.loads(client.get("/api/memory/recall/?query=deploy+script").content)["count"]
out["context"] = client.post(
    "/api/sessions/s1/context/", {"query": "deploy", "model": "m"}, content_type=JSON).status_code
out["mcp_after_rest"] = sorted(
    m for m in sys.modules if m == "mcp" or m.startswith("mcp.") or m == "mcp_server.http")
out["mcp_status"] = client.post(
    "/mcp", json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}), content_type=JSON,
    HTTP_ACCEPT="application/json, text/event-stream").status_code
out["mcp_after_mcp"] = "mcp" in sys.modules and "mcp_server.http" in sys.modules
"""


def test_rest_calls_do_not_import_the_mcp_sdk_and_mcp_loads_it_on_demand(tmp_path: Path) -> None:
    out = run_fresh_app(tmp_path, SCRIPT)

    assert (out["register"], out["ingest"], out["recall"], out["context"]) == (201, 201, 200, 200)
    assert out["recall_hits"] == 1
    assert out["mcp_after_rest"] == []
    # The route still works, and loading it is visible to the check above.
    assert out["mcp_status"] == 200
    assert out["mcp_after_mcp"] is True
