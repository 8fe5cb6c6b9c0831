"""protomem unlock-login [--username NAME] [--ip ADDRESS] | --list: lift an admin-login lockout."""

from __future__ import annotations

import getpass
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import CommandError

from audit.selectors import login_lockouts_active
from audit.services import login_lockout_lift

help = "List admin-login lockouts, or lift one by username and/or address (audited)."


def add_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--username", default=None, help="clear this username's failed logins")
    parser.add_argument("--ip", default=None, help="clear this address's failed logins")
    parser.add_argument("--list", action="store_true", help="print who is locked out now")


def handle(command: Any, options: dict[str, Any]) -> None:
    if options["list"]:
        rows = login_lockouts_active().order_by("-attempt_time")
        for row in rows:
            why = " + ".join(
                k for k, v in (("username", row.username_locked), ("address", row.address_locked)) if v
            )
            command.stdout.write(
                f"{row.username or '?'}\t{row.ip_address or '?'}\t{row.failures_since_start}\t"
                f"{row.attempt_time:%Y-%m-%d %H:%M:%S}\tlocked: {why}"
            )
        if not rows:
            command.stderr.write("no lockouts")
        return
    if not options["username"] and not options["ip"]:
        raise CommandError("give --username, --ip (or both), or --list")
    cleared = login_lockout_lift(
        actor=f"cli:{getpass.getuser()}", path="cli", username=options["username"], ip_address=options["ip"]
    )
    command.stdout.write(f"cleared {cleared} failed-login rows")
