from django.apps import AppConfig


class MemoryConfig(AppConfig):
    name = "memory"
    verbose_name = "Knowledge"

    def ready(self) -> None:
        from memory import checks, tasks  # noqa: F401 - registers the system checks and the tasks
