"""protomem create-operator-key --user NAME [--name KEYNAME]: the only time the raw key is shown."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError

from sessions_app.models import OperatorAPIKey

help = "Issue an operator API key that acts as an existing staff user; prints the key once."


def add_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--user", required=True, help="username the key acts as (must exist)")
    parser.add_argument("--name", default=None, help="label shown in the admin (default: USER-ops)")


def handle(command: Any, options: dict[str, Any]) -> None:
    username = options["user"]
    user_model = get_user_model()
    try:
        user = user_model.objects.get(**{user_model.USERNAME_FIELD: username})
    except user_model.DoesNotExist:
        raise CommandError(f"no user {username!r}; create one first (manage.py createsuperuser)") from None
    if not user.is_active:
        raise CommandError(f"user {username!r} is disabled; its keys would be refused")
    key, raw_key = OperatorAPIKey.objects.create_key(name=options["name"] or f"{username}-ops", user=user)
    if not user.is_staff:
        command.stderr.write(f"warning: {username} is not staff; the operator API will refuse this key")
    command.stderr.write(f"operator key {key.name} (prefix {key.prefix}) for {username}")
    command.stdout.write(raw_key)
