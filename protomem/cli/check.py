"""protomem check [--quick | --rebuild [--all]] [--json]: are the FTS, vector and chunk tables consistent?

    manage.py protomem check               # exit 0: consistent, 1: problems found
    manage.py protomem check --quick       # no FTS5 integrity-check: schema and row counts only
    manage.py protomem check --rebuild     # repair what is inconsistent, then exit 0 if it now is

Beside a running server: the check changes nothing, but FTS5's integrity-check holds SQLite's
write lock while it runs (~1.3 s per 100k chunks measured here; writers wait on the 20 s busy
timeout), so on a large store use --quick while serving. A rebuild holds the lock longer
(~10 s per 100k chunks). A missing chunk FTS trigger also fails Django's system check
memory.E001, which runs before any command: repair it with
`manage.py protomem --skip-checks check --rebuild`.
"""

from __future__ import annotations

import json
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import CommandError

from memory.store.integrity import IndexReport, integrity_check, integrity_rebuild

help = "Check FTS indexes and chunk vectors against the store (exit 1 on problems); --rebuild repairs."


def add_arguments(parser: ArgumentParser) -> None:
    parser.add_argument(
        "--rebuild", action="store_true", help="repair what is inconsistent, then check again"
    )
    parser.add_argument(
        "--all", action="store_true", help="with --rebuild: rebuild every index, broken or not"
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="skip FTS5's integrity-check (it holds the write lock): schema and row counts only",
    )
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")


def _line(report: IndexReport) -> str:
    counts = ", ".join(f"{key} {value}" for key, value in report.counts.items())
    return f"{report.name} ({report.target}): {report.status}" + (f" [{counts}]" if counts else "")


def handle(command: Any, options: dict[str, Any]) -> None:
    if options["all"] and not options["rebuild"]:
        raise CommandError("--all only goes with --rebuild")
    if options["quick"] and options["rebuild"]:
        raise CommandError("--quick does not go with --rebuild (a repair is always checked in full)")
    quiet = options.get("no_progress") or options["json"]
    progress = None if quiet else (lambda step: command.stderr.write(f"{step}…"))
    if options["rebuild"]:
        report = integrity_rebuild(progress=progress, only_broken=not options["all"])
    else:
        report = integrity_check(progress=progress, deep=not options["quick"])
    if options["json"]:
        command.stdout.write(json.dumps(report.as_dict(), indent=2))
    else:
        for index in report.indexes:
            command.stdout.write(_line(index))
            for repair in index.repairs:
                command.stdout.write(f"  repaired: {repair}")
            for problem in index.problems:
                command.stdout.write(command.style.ERROR(f"  problem: {problem}"))
    broken = [index.name for index in report.indexes if not index.ok]
    if broken:
        hint = "" if options["rebuild"] else "; run `manage.py protomem check --rebuild`"
        raise CommandError(f"inconsistent: {', '.join(broken)}{hint}", returncode=1)
    if not options["json"]:
        checked = sum(1 for index in report.indexes if index.applicable)
        command.stdout.write(command.style.SUCCESS(f"consistent: {checked} index(es) checked"))
