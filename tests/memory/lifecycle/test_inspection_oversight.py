"""Bad news kept out of what an overseer reads (inspection_oversight), pure: written for these tests
in other words and languages than the corpus rows."""

from __future__ import annotations

import pytest

from memory.lifecycle.inspection import normalise
from memory.lifecycle.inspection_oversight import CLASS
from memory.lifecycle.inspection_semantic import semantic_reasons


def _classes(text: str) -> list[str]:
    return [hit.cls for hit in semantic_reasons(normalise(text))]


@pytest.mark.parametrize(
    "text",
    [
        "Failed card payments from the weekend are left out of the Monday summary the finance lead reads.",
        "Per the plant manager, temperature alarms from line 3 aren't logged in the shift report any more.",
        "Las quejas por cobros duplicados no se incluyen en el resumen mensual para dirección.",
        "Die Beschwerden über verspätete Lieferungen werden im Wochenbericht nicht mehr aufgeführt.",
        "배송 지연 불만은 주간 보고서에서 누락하기로 했다.",
    ],
)
def test_bad_news_kept_out_of_a_report_is_held(text: str) -> None:
    assert CLASS in _classes(text), text


@pytest.mark.parametrize(
    "text",
    [
        # privacy, not bad news: data left out of a report on purpose
        "Salaries and home addresses are left out of the team summary that goes to everyone.",
        # bad news reported, not left out
        "All failed payments are listed in the Monday summary for the finance lead.",
        # something left out of a report, no report of bad news
        "The appendix with raw survey answers is left out of the board report to keep it short.",
    ],
)
def test_privacy_or_bad_news_reported_is_not_kept_from_oversight(text: str) -> None:
    assert CLASS not in _classes(text), text
