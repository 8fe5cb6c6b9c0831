"""`manage.py protomem <subcommand>`: one entry point; each app owns its subcommands.

A subcommand is a module with `help`, `add_arguments(parser)` and `handle(command, options)`;
it parses, calls services/selectors and prints, nothing more.
"""

from __future__ import annotations

import importlib
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

SUBCOMMANDS = {
    "search": "memory.cli.search",
    "create-agent-key": "sessions_app.cli.create_agent_key",
    "seed-demo": "protomem.cli.seed_demo",
    "eval-recall": "memory.cli.eval_recall",
    "check": "protomem.cli.check",
    "eval-poisoning": "protomem.cli.eval_poisoning",
    "eval-supersede": "memory.cli.eval_supersede",
    "create-operator-key": "protomem.cli.create_operator_key",
    "doctor": "protomem.cli.doctor",
    "mcp": "protomem.cli.mcp",
    "unlock-login": "protomem.cli.unlock_login",
    "pgvector-enable": "memory.cli.pgvector_enable",
}


# `check` repairs what Django's system checks complain about (memory.E001), so it must not be
# stopped by them; `doctor` reports the same things itself, in its own words. Every other
# subcommand runs them as usual.
UNCHECKED = {"check", "doctor"}


class Command(BaseCommand):
    help = "protomem operations: " + ", ".join(SUBCOMMANDS)
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: ArgumentParser) -> None:
        # Django adds this flag only to commands that require system checks; ours runs them itself.
        parser.add_argument("--skip-checks", action="store_true", help="skip Django's system checks")
        sub = parser.add_subparsers(dest="subcommand", metavar="SUBCOMMAND")
        sub.required = True
        for name, module_path in SUBCOMMANDS.items():
            module = importlib.import_module(module_path)
            child = sub.add_parser(name, help=module.help, description=module.help)
            child.add_argument("--no-progress", action="store_true", help="hide progress output")
            module.add_arguments(child)

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["subcommand"]
        if name not in SUBCOMMANDS:
            raise CommandError(f"unknown subcommand {name!r}")
        if name not in UNCHECKED and not options.get("skip_checks"):
            self.check()
        importlib.import_module(SUBCOMMANDS[name]).handle(self, options)
