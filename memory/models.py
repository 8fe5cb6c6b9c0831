"""Django discovers an app's models in `<app>.models`; memory's live in memory.store.models."""

from memory.store.models import *  # noqa: F403
