"""drf-spectacular: describe the `Authorization: Api-Key <key>` scheme (agents and operators)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class AgentAPIKeyScheme(OpenApiAuthenticationExtension):
    target_class = "sessions_app.authentication.AgentAPIKeyAuthentication"
    name = "ApiKeyAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Api-Key <key>`: an agent key, or an operator key for staff scripts",
        }
