"""The sessions endpoints document themselves without schema warnings."""

from __future__ import annotations

from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator


def test_sessions_paths_generate_without_warnings():
    GENERATOR_STATS.reset()
    with GENERATOR_STATS.silence():
        schema = SchemaGenerator().get_schema(request=None, public=True)
    ours = [
        msg for msg in [*GENERATOR_STATS._warn_cache, *GENERATOR_STATS._error_cache] if "sessions_app" in msg
    ]
    assert ours == []
    paths = schema["paths"]
    assert {"get", "post"} <= set(paths["/api/sessions/"])
    assert {"get", "delete"} <= set(paths["/api/sessions/{session_id}/"])
    assert {"get", "post"} <= set(paths["/api/sessions/{session_id}/messages/"])
    assert "get" in paths["/api/sessions/search/"]
    assert "get" in paths["/api/sessions/{session_id}/summary/"]
    assert schema["components"]["securitySchemes"]["ApiKeyAuth"]["name"] == "Authorization"
