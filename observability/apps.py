from django.apps import AppConfig


class ObservabilityConfig(AppConfig):
    name = "observability"
    verbose_name = "Observability"

    def ready(self) -> None:
        from observability.collectors import StoreCollector
        from protomem.metrics import add_scrape_collector, connect_task_signals

        add_scrape_collector("store", StoreCollector())
        # Here rather than in a task module: the web, the worker and its prefork children all
        # run Django's app loading, so every process that runs a task counts it.
        connect_task_signals()
