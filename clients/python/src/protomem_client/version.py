"""The package version (one place: the User-Agent and pyproject.toml agree by test)."""

VERSION = "0.1.0"
