# ruff: noqa: E501, RUF001 -- word lists read better unbroken; letters of other scripts are matched on purpose
"""The semantic layer's oversight check, pure (no Django): bad news kept out of what an overseer
reads, told as how things are now done ("disk-full errors are left out of the daily status summary
that goes to the CTO", "las reclamaciones ... no se incluyen en el informe semanal para la
gerencia", "환불 거절 건들은 월간 보고서에서 빠지고", "תלונות ... לא נרשמות ביומן").

Three things meet in one sentence: something left out (omitted, not included, removed from, not
logged), a report, summary, log or history, and bad news (incidents, errors, complaints, fees,
overrides, refusals). No model need be named: a memory that says the report omits the incidents
teaches the model that reads it to omit them. Data kept out of a report for privacy (salaries,
personal data) is no bad news and passes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from memory.lifecycle.inspection_patterns import LiteralGated, cue_pattern

CLASS = "kept_from_oversight"

_OMITTED = (
    r"\b(?:left out|leaves? (?:\w+ ){0,3}out|kept out|omitted|omits?|excluded|"
    r"not (?:itemi[sz]ed|included|listed|reported|mentioned|logged|recorded|shown)|"
    r"(?:isn't|aren't) (?:itemi[sz]ed|included|listed|reported|mentioned|logged|shown)|"
    r"won't (?:list|include|mention|report|show|log)|doesn't (?:list|include|mention|report|show|bring \w+ up)|"
    r"don't (?:list|include|mention|report|show)|remove[sd]? (?:\S+ ){0,6}from|dropped from|stripped from|hidden from|"
    r"no se (?:incluyen?|mencionan?|registran?|reportan?)|se omiten?|quedan? fuera|"
    r"ne figurent? (?:plus|pas)|ne sont (?:plus |pas )?(?:inclu|mentionn|signal|report)\w*|sont retir\w*|"
    r"nicht (?:mehr )?(?:aufgeführt|erwähnt|gemeldet|erfasst|enthalten|berichtet)|weggelassen|herausgenommen|"
    r"non (?:compaiono|sono (?:inclus|riportat|segnalat|menzionat)\w*|vengono (?:inclus|riportat|segnalat|menzionat)\w*)|"
    r"não (?:são |é )?(?:inclu|mencion|report|registr)\w*|ficam de fora|"
    r"niet (?:meer )?(?:vermeld|opgenomen|gemeld|gerapporteerd)|weggelaten|"
    r"nie (?:są |jest )?(?:uwzględnian|zgłaszan|wpisywan|raportowan|wymienian)\w*|pomijan\w*|"
    r"не (?:включа|упомина|указыва|отража|попада)\w*|исключа\w*|исключен\w*|"
    r"hayatajwi|hayaingizwi|havijumuishwi|haziripotiwi|dahil edilmez|bahsedilmez|raporlanmaz|"
    r"nem (?:szerepel|kerül|jelenik)\w*|kimarad\w*)\b|"
    r"빠지|누락|제외|記載しない|載せない|含めない|除外|省く|不(?:列入|包括|写入|记录|报告|提及)|略去|"
    r"לא (?:נרשמ|נכלל|מדווח|מופיע)\w*|لا (?:تُدرج|تدرج|يُذكر|تذكر|تظهر)"
)
_REPORT = (
    r"\b(?:reports?|summar(?:y|ies)|digests?|status|logs?|history|journal|e-?mails?|newsletter|minutes|dashboard|briefing|replies|answers?|"
    r"informe|resumen|reporte|registro|historial|rapport|résumé|historique|compte rendu|\w*bericht\w*|\w*zusammenfassung\w*|\w*protokoll\w*|"
    r"riepilogo|resoconto|relatório|resumo|verslag|overzicht|raport\w*|podsumowani\w*|dziennik\w*|отч[её]т\w*|сводк\w*|журнал\w*|"
    r"muhtasari|ripoti|rapor\w*|özet\w*|jelentés\w*|összefoglal\w*)\b|"
    r"보고서|요약|報告|レポート|サマリー|日報|报告|报表|摘要|日志|יומן|דוח|סיכום|تقرير|ملخص|سجل"
)
_BAD_NEWS = (
    r"\b(?:incidents?|errors?|failures?|failed|declined|bounced|chargebacks?|disputes?|complaints?|breach\w*|leaks?|discrepanc\w*|overrides?|fines?|penalt\w*|surcharges?|fees?|missed|"
    r"rejections?|refus\w*|crash\w*|alarms?|alerts?|delays?|defects?|outages?|violations?|overdue|losses|mistakes?|regressions?|"
    r"incidentes?|errores|reclamaciones|quejas|retrasos?|fallos?|erreurs|plaintes|fuites?|retards?|réclamations|"
    r"vorfälle|fehler\w*|beschwerden|verzögerung\w*|ausfälle|reclami|errori|ritardi|guasti|reclamações|erros|atrasos|falhas|"
    r"klachten|fouten|storingen|błęd\w*|skarg\w*|reklamacj\w*|alarmy|opóźnie\w*|ошибк\w*|жалоб\w*|инцидент\w*|сбо\w*|"
    r"makosa|malalamiko|hitalar\w*|şikayet\w*|hibá\w*|panasz\w*)\b|"
    r"사고|오류|불만|거절|장애|事故|エラー|苦情|障害|拒否|错误|投诉|故障|תלונות|תקלות|שגיאות|أخطاء|شكاوى|حوادث"
)
_OMITTED_RE = LiteralGated(cue_pattern(_OMITTED))
_REPORT_RE = cue_pattern(_REPORT)
_BAD_NEWS_RE = cue_pattern(_BAD_NEWS)


def oversight_hit(norm: str, sentences: Iterable[re.Match[str]]) -> tuple[str, int] | None:
    """Why and where `norm` keeps bad news out of a report, summary or log; None when it does not."""
    if _OMITTED_RE.search(norm) is None:
        return None  # nothing left out: most rows stop here, behind the literal gate
    for sentence in sentences:
        text = sentence[0]
        omitted = _OMITTED_RE.search(text)
        report = _REPORT_RE.search(text) if omitted else None
        bad = _BAD_NEWS_RE.search(text) if report else None
        if bad is not None:
            why = f"bad news: '{bad[0]}'; left out: '{omitted[0]}'; of: '{report[0]}'"
            return why, sentence.start()
    return None
