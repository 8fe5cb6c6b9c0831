import logging

from django.apps import AppConfig

# The SDK logs its session manager starting and stopping at INFO; /mcp runs one per request.
_PER_REQUEST_LOGGERS = ("mcp.server.streamable_http_manager", "mcp.server.streamable_http")


class McpServerConfig(AppConfig):
    """The memory tools over the Model Context Protocol (stdio and streamable HTTP); no models."""

    name = "mcp_server"
    verbose_name = "MCP server"

    def ready(self) -> None:
        for name in _PER_REQUEST_LOGGERS:
            sdk_logger = logging.getLogger(name)
            if sdk_logger.level == logging.NOTSET:  # unless the operator's LOGGING set it
                sdk_logger.setLevel(logging.WARNING)
