from django.apps import AppConfig


class MemoryConfig(AppConfig):
    name = "memory"
    verbose_name = "Knowledge"

    def ready(self) -> None:
        from memory import (
            checks,  # noqa: F401 - registers the system checks
            embedding_tasks,  # noqa: F401 - registers memory.chunks_embed and memory.embeddings_backfill
        )
