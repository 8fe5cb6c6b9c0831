"""protomem doctor: one line per setting an operator should look at; exit 1 if any is an error."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from protomem.cli.doctor_checks import ERROR, as_lines, diagnose, summary

help = "Say in plain words what is misconfigured (secret key, hosts, broker, gateway, embeddings)."


def add_arguments(parser: ArgumentParser) -> None:
    pass


def handle(command: Any, options: dict[str, Any]) -> None:
    findings = diagnose()
    for line in as_lines(findings):
        command.stdout.write(line)
    counts = summary(findings)
    command.stdout.write(f"{counts['OK']} ok, {counts['WARN']} warnings, {counts[ERROR]} errors")
    if counts[ERROR]:
        raise SystemExit(1)
