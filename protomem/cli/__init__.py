"""protomem's own `manage.py protomem` subcommands (operator keys, doctor)."""
