"""Enqueue a Celery task by its registered name once the current transaction commits.

Services call this instead of importing task modules, so tasks (which import services) and
services never import each other. The task is looked up in the app's registry at send time.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import current_app
from django.db import transaction

logger = logging.getLogger(__name__)


def send_task(name: str, *args: Any, **kwargs: Any) -> None:
    """Send `name` now (use inside an on-commit hook or outside any transaction)."""
    current_app.tasks[name].delay(*args, **kwargs)


def enqueue_on_commit(name: str, *args: Any, robust: bool = False, **kwargs: Any) -> None:
    """Send `name` with these arguments after commit; `robust` logs a broker error instead of raising."""
    transaction.on_commit(lambda: send_task(name, *args, **kwargs), robust=robust)
