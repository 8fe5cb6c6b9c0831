from django.apps import AppConfig


class DeliveryConfig(AppConfig):
    """Per-turn projection of memory into the prompt: no models of its own, only reads."""

    name = "delivery"
    verbose_name = "Delivery"
