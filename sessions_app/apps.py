from django.apps import AppConfig


class SessionsAppConfig(AppConfig):
    # Never "sessions": django.contrib.sessions owns that label.
    name = "sessions_app"
    label = "sessions_app"
    verbose_name = "Sessions"

    def ready(self) -> None:
        # tasks: registered in every process, since services enqueue them by name (protomem.queue)
        from sessions_app import checks, tasks  # noqa: F401 - registers the system checks and tasks
        from sessions_app.api import schema  # noqa: F401 - registers the OpenAPI auth scheme
        from sessions_app.integrity import register_summary_index

        register_summary_index()
