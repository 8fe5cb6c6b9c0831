"""Route the injection log to its own database; everything else lives in `default`."""

from __future__ import annotations

from typing import Any

INJECTIONS_DB = "injections"
INJECTION_MODELS = {"injectionlog", "injectionlogitem"}


class InjectionLogRouter:
    def _is_injection(self, app_label: str, model_name: str | None) -> bool:
        return app_label == "audit" and (model_name or "") in INJECTION_MODELS

    def db_for_read(self, model: Any, **hints: Any) -> str | None:
        return INJECTIONS_DB if self._is_injection(model._meta.app_label, model._meta.model_name) else None

    db_for_write = db_for_read

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool | None:
        return None

    def allow_migrate(
        self, db: str, app_label: str, model_name: str | None = None, **hints: Any
    ) -> bool | None:
        if db == INJECTIONS_DB:
            return self._is_injection(app_label, model_name)
        return not self._is_injection(app_label, model_name)
