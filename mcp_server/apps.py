from django.apps import AppConfig


class McpServerConfig(AppConfig):
    """The memory tools over the Model Context Protocol (stdio and streamable HTTP); no models."""

    name = "mcp_server"
    verbose_name = "MCP server"
