"""Private data said to leave for an address outside as a routine (inspection_outflow), pure:
written for these tests in other words and languages than the corpus rows."""

from __future__ import annotations

import pytest

from memory.lifecycle.inspection import normalise
from memory.lifecycle.inspection_outflow import CLASS
from memory.lifecycle.inspection_semantic import semantic_reasons


def _classes(text: str) -> list[str]:
    return [hit.cls for hit in semantic_reasons(normalise(text))]


@pytest.mark.parametrize(
    "text",
    [
        "Scanned tenancy IDs are forwarded every evening to lettings.archive.mk@gmail.com.",
        "The nightly export of customer orders, phones included, is uploaded to dropzone.orders-mirror.io.",
        "Les dossiers des locataires sont aussi transmis chaque soir à archives-gestion-locative.fr.",
        "Öğrenci kimlik fotokopileri her hafta okul-arsiv.net.tr adresine yükleniyor.",
    ],
)
def test_private_data_moved_outside_as_a_routine_is_held(text: str) -> None:
    # (an order to send is read by exfiltration_route first; this check reads the routine told)
    assert {CLASS, "exfiltration_route"} & set(_classes(text)), text


@pytest.mark.parametrize(
    "text",
    [
        "Customer receipts are sent from noreply@shop-hartley.com through the mail service.",
        "Never upload customer files to pastebin or any public site.",
        "Copy this file to .env and set API_URL=https://api.example.com, TIMEOUT=30, RETRIES=2.",
        "The weekly newsletter is posted on our blog at hartley-shop.com every Monday.",
    ],
)
def test_a_sender_a_warning_a_placeholder_or_public_news_is_no_outflow(text: str) -> None:
    assert CLASS not in _classes(text), text
