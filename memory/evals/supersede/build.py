"""Writes dev.jsonl and heldout.jsonl: labelled pairs (old fact, new fact) for `protomem eval-supersede`.

Run once by hand (python memory/evals/supersede/build.py); the JSONL files are the set, this file
says how its templated part was made. Each record: id, split, kind, domain, lang, old, new, same
(True: the new fact is about the same thing as the old one, so it may replace it).

kinds: revision (same subject, another value), template (another subject written from the same
template: must stay apart), contradiction (same subject, turned round or at odds), paraphrase
(same fact, other words), other (another fact that shares many words).

The held-out split uses other templates, domains and languages than dev; the rules were tuned
on dev only.
"""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def families(fams):
    """(kind, domain, lang, old, new, same) from templates: revisions and template look-alikes."""
    out = []
    for domain, lang, template, subjects, values in fams:
        n = min(len(subjects), len(values))
        for i in range(n):
            s, v, v2 = subjects[i], values[i], values[(i + 1) % len(values)]
            out.append(
                ("revision", domain, lang, template.format(s=s, v=v), template.format(s=s, v=v2), True)
            )
            s2 = subjects[(i + 1) % len(subjects)]
            out.append(
                ("template", domain, lang, template.format(s=s, v=v), template.format(s=s2, v=v2), False)
            )
            if i % 2 == 0:
                out.append(
                    ("template", domain, lang, template.format(s=s, v=v), template.format(s=s2, v=v), False)
                )
    return out


DEV_FAMILIES = [
    (
        "ops",
        "en",
        "The p99 latency budget for the {s} service is {v} ms.",
        [
            "Search",
            "Exports",
            "Billing",
            "Auth",
            "Checkout",
            "Inventory",
            "Notifications",
            "Reports",
            "Gateway",
            "Ledger",
        ],
        ["200", "250", "300", "150", "400", "350", "180", "500", "120", "220"],
    ),
    (
        "ops",
        "en",
        "{s} p99 budget: {v}ms",
        ["Search", "Exports", "Billing", "Auth", "Checkout"],
        ["200", "250", "300", "150", "400"],
    ),
    (
        "team",
        "en",
        "{s} is on call on {v}.",
        ["Alice", "Bruno", "Chen", "Dana", "Emeka", "Fatima"],
        ["Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays"],
    ),
    (
        "infra",
        "en",
        "Deploys to {s} are frozen after {v}.",
        ["eu-west-1", "us-east-2", "ap-south-1", "eu-central-1", "sa-east-1"],
        ["17:00", "15:00", "16:30", "18:00", "14:00"],
    ),
    (
        "infra",
        "en",
        "The {s} cluster runs Kubernetes {v}.",
        ["staging", "production", "sandbox", "analytics", "edge"],
        ["1.28", "1.29", "1.30", "1.27", "1.31"],
    ),
    (
        "people",
        "en",
        "{s}'s manager is {v}.",
        ["Alice", "Bruno", "Chen", "Dana", "Emeka"],
        ["Grace", "Hiro", "Ines", "Jonas", "Kemal"],
    ),
    (
        "ops",
        "en",
        "Backups of the {s} database run daily at {v} UTC.",
        ["orders", "users", "payments", "catalog", "events"],
        ["02:00", "03:30", "01:15", "04:00", "00:45"],
    ),
    (
        "product",
        "en",
        "The free plan allows {v} projects per {s}.",
        ["user", "team", "organisation", "workspace"],
        ["3", "5", "10", "2"],
    ),
    (
        "de",
        "de",
        "Der Server {s} läuft auf Port {v}.",
        ["Alpha", "Beta", "Gamma", "Delta"],
        ["8080", "8443", "9000", "3000"],
    ),
]

# The first held-out part (HELD_A_*) was looked at while the rules were being written, so it was
# moved into dev; the held-out split is HELD_B_*, written afterwards and scored, not tuned on.
HELD_A_FAMILIES = [
    (
        "storage",
        "en",
        "Maximum upload size on the {s} bucket is {v} MB.",
        ["media-prod", "logs-archive", "user-avatars", "invoices-eu", "tmp-scratch"],
        ["50", "100", "25", "500", "10"],
    ),
    (
        "jobs",
        "en",
        "Retry limit for {s} jobs: {v} attempts.",
        ["email", "export", "sync", "billing", "thumbnail"],
        ["3", "5", "8", "2", "10"],
    ),
    (
        "finance",
        "en",
        "Invoice {s} is due on {v}.",
        ["INV-1001", "INV-1002", "INV-2040", "INV-3177"],
        ["March 3", "April 15", "May 31", "June 1"],
    ),
    (
        "people",
        "en",
        "{s} works from the {v} office.",
        ["Olga", "Pedro", "Quentin", "Rania", "Sven"],
        ["Lisbon", "Berlin", "Nairobi", "Osaka", "Toronto"],
    ),
    (
        "ops",
        "en",
        "Alert threshold for {s} error rate is {v}%.",
        ["Payments", "Search", "Checkout", "Login", "Upload"],
        ["1", "2.5", "0.5", "5", "3"],
    ),
    (
        "fr",
        "fr",
        "La réunion de l'équipe {s} a lieu le {v}.",
        ["produit", "design", "support", "ventes"],
        ["lundi", "mardi", "jeudi", "vendredi"],
    ),
    (
        "es",
        "es",
        "El presupuesto de {s} para 2027 es de {v} euros.",
        ["Marketing", "Ventas", "Soporte", "Logística"],
        ["40000", "55000", "30000", "72000"],
    ),
    (
        "de",
        "de",
        "Die Wartung für {s} beginnt um {v} Uhr.",
        ["Kafka", "Redis", "Postgres", "Elastic"],
        ["22", "23", "21", "20"],
    ),
]

DEV_HAND = [
    # contradictions
    (
        "contradiction",
        "team",
        "en",
        "The team standup is on Mondays at 09:00.",
        "The team standup is on Tuesdays at 10:00.",
        True,
    ),
    (
        "contradiction",
        "infra",
        "en",
        "Deploys are frozen after 17:00 on Fridays.",
        "Deploys are frozen after 15:00 on Fridays.",
        True,
    ),
    ("contradiction", "prefs", "en", "The user drinks coffee.", "The user does not drink coffee.", True),
    (
        "contradiction",
        "prefs",
        "en",
        "The user wants email notifications.",
        "The user never wants email notifications.",
        True,
    ),
    (
        "contradiction",
        "infra",
        "en",
        "Staging has autoscaling enabled.",
        "Staging does not have autoscaling enabled.",
        True,
    ),
    (
        "contradiction",
        "ops",
        "en",
        "Feature flags are evaluated on the server.",
        "Feature flags are not evaluated on the server.",
        True,
    ),
    ("contradiction", "prefs", "en", "The user is vegetarian.", "The user isn't vegetarian.", True),
    (
        "contradiction",
        "team",
        "en",
        "Code review is required for every merge.",
        "Code review is not required for every merge.",
        True,
    ),
    (
        "contradiction",
        "de",
        "de",
        "Der Kunde möchte Rechnungen per E-Mail.",
        "Der Kunde möchte keine Rechnungen per E-Mail.",
        True,
    ),
    (
        "contradiction",
        "ops",
        "en",
        "The API rate limit is 100 requests per minute.",
        "The API rate limit is 60 requests per minute.",
        True,
    ),
    ("contradiction", "infra", "en", "Log retention is 30 days.", "Log retention is 90 days.", True),
    ("contradiction", "prefs", "en", "The user's timezone is UTC+2.", "The user's timezone is UTC-5.", True),
    # paraphrases
    (
        "paraphrase",
        "prefs",
        "en",
        "The user prefers dark mode in the editor.",
        "The user prefers the dark mode in the editor.",
        True,
    ),
    ("paraphrase", "ops", "en", "Backups run every night at 02:00.", "Backups run nightly at 02:00.", True),
    (
        "paraphrase",
        "team",
        "en",
        "Alice owns the billing service.",
        "Alice is the owner of the billing service.",
        True,
    ),
    (
        "paraphrase",
        "prefs",
        "en",
        "The user likes short answers.",
        "The user likes short, direct answers.",
        True,
    ),
    (
        "paraphrase",
        "infra",
        "en",
        "The staging cluster uses spot instances.",
        "The staging cluster uses spot instances only.",
        True,
    ),
    (
        "paraphrase",
        "ops",
        "en",
        "Incidents are tracked in the OPS board.",
        "All incidents are tracked in the OPS board.",
        True,
    ),
    (
        "paraphrase",
        "product",
        "en",
        "The mobile app supports offline mode.",
        "The mobile app fully supports offline mode.",
        True,
    ),
    (
        "paraphrase",
        "team",
        "en",
        "Releases happen every second Thursday.",
        "Releases happen on every second Thursday.",
        True,
    ),
    # revisions written by hand (values that are words or names in the value slot)
    ("revision", "infra", "en", "The API gateway is Kong.", "The API gateway is Envoy.", True),
    (
        "revision",
        "prefs",
        "en",
        "The user's favourite editor is Vim.",
        "The user's favourite editor is Helix.",
        True,
    ),
    (
        "revision",
        "infra",
        "en",
        "The primary region is eu-west-1.",
        "The primary region is eu-central-1.",
        True,
    ),
    (
        "revision",
        "product",
        "en",
        "The checkout flow is in beta.",
        "The checkout flow is generally available.",
        True,
    ),
    (
        "revision",
        "ops",
        "en",
        "The nightly export job is paused.",
        "The nightly export job is running.",
        True,
    ),
    (
        "revision",
        "team",
        "en",
        "The design review is owned by Priya.",
        "The design review is owned by Marco.",
        True,
    ),
    (
        "revision",
        "infra",
        "en",
        "Redis is version 7.0 in production.",
        "Redis is version 7.2 in production.",
        True,
    ),
    # other facts that share many words
    (
        "other",
        "infra",
        "en",
        "The staging database runs PostgreSQL 15.",
        "The production database runs PostgreSQL 15.",
        False,
    ),
    (
        "other",
        "team",
        "en",
        "Alice reviews all frontend pull requests.",
        "Bruno reviews all frontend pull requests.",
        False,
    ),
    (
        "other",
        "ops",
        "en",
        "The orders queue is processed by worker-3.",
        "The refunds queue is processed by worker-3.",
        False,
    ),
    (
        "other",
        "infra",
        "en",
        "Service checkout-api depends on redis-main.",
        "Service cart-api depends on redis-main.",
        False,
    ),
    ("other", "people", "en", "Dana's birthday is on 12 May.", "Emeka's birthday is on 12 May.", False),
    (
        "other",
        "ops",
        "en",
        "Ticket OPS-4411 tracks the login outage.",
        "Ticket OPS-4412 tracks the login outage.",
        False,
    ),
    (
        "other",
        "prefs",
        "en",
        "The user's daughter plays the piano.",
        "The user's son plays the piano.",
        False,
    ),
]

HELD_A_HAND = [
    (
        "contradiction",
        "prefs",
        "en",
        "The customer accepts phone calls.",
        "The customer does not accept phone calls.",
        True,
    ),
    (
        "contradiction",
        "ops",
        "en",
        "Maintenance windows are on Sundays at 03:00.",
        "Maintenance windows are on Saturdays at 01:00.",
        True,
    ),
    (
        "contradiction",
        "infra",
        "en",
        "TLS certificates renew automatically.",
        "TLS certificates never renew automatically.",
        True,
    ),
    (
        "contradiction",
        "finance",
        "en",
        "Refunds are approved within 5 business days.",
        "Refunds are approved within 10 business days.",
        True,
    ),
    (
        "contradiction",
        "fr",
        "fr",
        "Le client accepte les paiements par chèque.",
        "Le client n'accepte pas les paiements par chèque.",
        True,
    ),
    (
        "contradiction",
        "es",
        "es",
        "El equipo trabaja los sábados.",
        "El equipo no trabaja los sábados.",
        True,
    ),
    (
        "contradiction",
        "ops",
        "en",
        "Write access is frozen after 17:00.",
        "Write access is frozen after 15:00.",
        True,
    ),
    (
        "contradiction",
        "prefs",
        "en",
        "The user wants weekly summaries.",
        "The user doesn't want weekly summaries.",
        True,
    ),
    (
        "paraphrase",
        "prefs",
        "en",
        "The user writes Python at work.",
        "The user writes Python at work every day.",
        True,
    ),
    (
        "paraphrase",
        "ops",
        "en",
        "Alerts go to the on-call channel.",
        "All alerts go to the on-call channel.",
        True,
    ),
    (
        "paraphrase",
        "storage",
        "en",
        "Old log files are deleted after a month.",
        "Old log files are deleted after one month.",
        True,
    ),
    (
        "paraphrase",
        "jobs",
        "en",
        "The sync job retries failed uploads.",
        "The sync job automatically retries failed uploads.",
        True,
    ),
    (
        "paraphrase",
        "de",
        "de",
        "Das Team nutzt Jira für Tickets.",
        "Das Team nutzt Jira für alle Tickets.",
        True,
    ),
    (
        "paraphrase",
        "people",
        "en",
        "Olga leads the payments team.",
        "Olga is leading the payments team.",
        True,
    ),
    ("revision", "infra", "en", "The message broker is RabbitMQ.", "The message broker is NATS.", True),
    ("revision", "people", "en", "The payments team lead is Olga.", "The payments team lead is Rania.", True),
    ("revision", "jobs", "en", "The export job is disabled.", "The export job is enabled.", True),
    (
        "revision",
        "storage",
        "en",
        "The archive tier is cold storage.",
        "The archive tier is glacier storage.",
        True,
    ),
    ("revision", "finance", "en", "The invoicing currency is EUR.", "The invoicing currency is USD.", True),
    ("other", "people", "en", "Pedro approves expense reports.", "Quentin approves expense reports.", False),
    (
        "other",
        "storage",
        "en",
        "The media-prod bucket is versioned.",
        "The logs-archive bucket is versioned.",
        False,
    ),
    (
        "other",
        "jobs",
        "en",
        "Job JOB-881 exports invoices every hour.",
        "Job JOB-882 exports invoices every hour.",
        False,
    ),
    (
        "other",
        "finance",
        "en",
        "Client Acme pays by bank transfer.",
        "Client Globex pays by bank transfer.",
        False,
    ),
    ("other", "fr", "fr", "Marie gère le support client.", "Julien gère le support client.", False),
    (
        "other",
        "es",
        "es",
        "El servidor de Madrid usa Debian 12.",
        "El servidor de Sevilla usa Debian 12.",
        False,
    ),
]


HELD_FAMILIES = [
    (
        "travel",
        "en",
        "The {s} flight leaves from gate {v}.",
        ["LH-402", "BA-117", "AF-1380", "KL-643", "IB-3170"],
        ["B12", "C4", "A7", "D22", "E9"],
    ),
    (
        "education",
        "en",
        "Room {s} holds {v} students.",
        ["Turing", "Lovelace", "Hopper", "Noether", "Curie"],
        ["30", "45", "24", "60", "18"],
    ),
    (
        "home",
        "en",
        "The thermostat in the {s} is set to {v} degrees.",
        ["kitchen", "bedroom", "office", "basement", "garage"],
        ["21", "19", "22", "17", "15"],
    ),
    (
        "retail",
        "en",
        "Store {s} closes at {v} on weekdays.",
        ["Oslo", "Bergen", "Tromsø", "Stavanger"],
        ["20:00", "21:00", "19:30", "22:00"],
    ),
    (
        "it",
        "it",
        "Il backup del server {s} parte alle {v}.",
        ["Roma", "Milano", "Torino", "Napoli"],
        ["02:00", "03:00", "01:30", "04:15"],
    ),
    (
        "pt",
        "pt",
        "O limite de crédito do cliente {s} é {v} reais.",
        ["Silva", "Costa", "Santos", "Oliveira"],
        ["5000", "8000", "12000", "3000"],
    ),
    (
        "nl",
        "nl",
        "De deadline voor project {s} is {v}.",
        ["Atlas", "Boreas", "Ceres", "Doris"],
        ["maandag", "dinsdag", "woensdag", "vrijdag"],
    ),
    (
        "legal",
        "en",
        "Contract C-{s} renews every {v} months.",
        ["2201", "2202", "3150", "4087"],
        ["12", "24", "6", "36"],
    ),
]

HELD_HAND = [
    (
        "contradiction",
        "home",
        "en",
        "The front door locks automatically at night.",
        "The front door does not lock automatically at night.",
        True,
    ),
    (
        "contradiction",
        "travel",
        "en",
        "The user has a window seat preference.",
        "The user has no window seat preference.",
        True,
    ),
    (
        "contradiction",
        "education",
        "en",
        "Exams are held on Wednesdays at 14:00.",
        "Exams are held on Thursdays at 09:00.",
        True,
    ),
    (
        "contradiction",
        "retail",
        "en",
        "Returns are accepted within 30 days.",
        "Returns are accepted within 14 days.",
        True,
    ),
    (
        "contradiction",
        "it",
        "it",
        "Il cliente vuole la fattura in PDF.",
        "Il cliente non vuole la fattura in PDF.",
        True,
    ),
    ("contradiction", "pt", "pt", "A loja abre aos domingos.", "A loja não abre aos domingos.", True),
    (
        "contradiction",
        "legal",
        "en",
        "The NDA is signed by both parties.",
        "The NDA is not signed by both parties.",
        True,
    ),
    (
        "contradiction",
        "home",
        "en",
        "Garbage collection is on Tuesdays.",
        "Garbage collection is on Fridays.",
        True,
    ),
    (
        "contradiction",
        "travel",
        "en",
        "Check-in closes 45 minutes before departure.",
        "Check-in closes 60 minutes before departure.",
        True,
    ),
    (
        "paraphrase",
        "home",
        "en",
        "The user waters the plants every morning.",
        "The user waters the plants each morning.",
        True,
    ),
    (
        "paraphrase",
        "education",
        "en",
        "The course uses Python for assignments.",
        "The course uses Python for all assignments.",
        True,
    ),
    ("paraphrase", "retail", "en", "Gift cards never expire.", "Gift cards never expire at all.", True),
    (
        "paraphrase",
        "travel",
        "en",
        "The user prefers aisle seats on long flights.",
        "The user prefers an aisle seat on long flights.",
        True,
    ),
    (
        "paraphrase",
        "legal",
        "en",
        "Invoices must include the VAT number.",
        "Invoices must always include the VAT number.",
        True,
    ),
    (
        "paraphrase",
        "nl",
        "nl",
        "Het team werkt op dinsdag thuis.",
        "Het hele team werkt op dinsdag thuis.",
        True,
    ),
    ("revision", "home", "en", "The wifi router is a Fritzbox.", "The wifi router is a Ubiquiti.", True),
    (
        "revision",
        "travel",
        "en",
        "The user's loyalty status is silver.",
        "The user's loyalty status is gold.",
        True,
    ),
    (
        "revision",
        "education",
        "en",
        "The head of the maths department is Mr Okafor.",
        "The head of the maths department is Ms Lindqvist.",
        True,
    ),
    (
        "revision",
        "retail",
        "en",
        "The payment terminal vendor is Adyen.",
        "The payment terminal vendor is Stripe.",
        True,
    ),
    (
        "revision",
        "legal",
        "en",
        "Governing law for the agreement is Swiss law.",
        "Governing law for the agreement is English law.",
        True,
    ),
    (
        "revision",
        "home",
        "en",
        "The smoke alarm battery was replaced in 2025.",
        "The smoke alarm battery was replaced in 2026.",
        True,
    ),
    ("other", "home", "en", "The kitchen light is on a timer.", "The hallway light is on a timer.", False),
    ("other", "travel", "en", "Tomasz booked the Lisbon hotel.", "Yuki booked the Lisbon hotel.", False),
    (
        "other",
        "education",
        "en",
        "Course CS-101 is taught in English.",
        "Course CS-205 is taught in English.",
        False,
    ),
    ("other", "retail", "en", "The Oslo store sells bicycles.", "The Bergen store sells bicycles.", False),
    (
        "other",
        "legal",
        "en",
        "Anna signs contracts for the Nordic region.",
        "Boris signs contracts for the Nordic region.",
        False,
    ),
    (
        "other",
        "it",
        "it",
        "Marco gestisce il magazzino di Bologna.",
        "Luca gestisce il magazzino di Bologna.",
        False,
    ),
    (
        "other",
        "pt",
        "pt",
        "O servidor de Lisboa usa Ubuntu 24.04.",
        "O servidor do Porto usa Ubuntu 24.04.",
        False,
    ),
    ("other", "home", "en", "The user's cat is called Miso.", "The user's dog is called Miso.", False),
]


def write(name, split, rows):
    with open(HERE / name, "w", encoding="utf-8") as fh:
        for n, (kind, domain, lang, old, new, same) in enumerate(rows, 1):
            rec = {
                "id": f"{split}-{n:03d}",
                "split": split,
                "kind": kind,
                "domain": domain,
                "lang": lang,
                "old": old,
                "new": new,
                "same": same,
            }
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    return len(rows)


if __name__ == "__main__":
    dev = families(DEV_FAMILIES) + DEV_HAND + families(HELD_A_FAMILIES) + HELD_A_HAND
    held = families(HELD_FAMILIES) + HELD_HAND
    counts = f"dev {write('dev.jsonl', 'dev', dev)} heldout {write('heldout.jsonl', 'heldout', held)}"
    kinds = itertools.groupby(sorted(r[0] for r in dev + held))
    sys.stdout.write(f"{counts} { ({k: len(list(g)) for k, g in kinds}) }\n")
