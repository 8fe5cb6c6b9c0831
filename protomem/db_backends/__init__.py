"""Database backends: Django's own, with what a kept web-worker connection should not pay for."""
