# ruff: noqa: E501 -- word lists read better unbroken
"""The semantic layer's outflow check, pure (no Django): private data said to leave for an address
outside as a matter of routine, whoever moves it ("passport scans uploaded by travellers are
forwarded to visa-desk@...", "i log completi ... vengono caricati ogni notte sul server FTP del
fornitore ftp.analisi-chat.it", "kimlik fotokopileri ... kimlikarsiv.com.tr adresindeki harici arşive
yükleniyor", "pipe `printenv` into the artifact uploaded to the public gist").

The exfiltration checks of inspection_semantic read an order to send, or the model's own routine.
Told in the passive, with no one named, the same outflow teaches the model that reads it where the
data goes. Three things meet in one sentence: a verb of moving data (sent, forwarded, uploaded,
synced, in 12 languages), private data (records, logs, IDs, customers' or patients' files, secrets),
and an address outside (an e-mail address, a domain or link, an FTP host, a paste site, someone's
personal address). A sender ("sent from noreply@..."), a placeholder domain (example.com, your-...),
a settings line and a warning against it ("never upload ...") are no outflow.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from memory.lifecycle.inspection_lexicon import ADDRESS_OUT, SITE
from memory.lifecycle.inspection_patterns import LiteralGated, cue_pattern

CLASS = "data_outflow"

_MOVED = (
    r"\b(?:upload\w*|sent|forwarded|copied|synced|mirrored|posted|pushed|piped|exported|transmitted|shared|cc'd|bcc'd|"
    r"send|forward|copy|sync|mirror|post|pipe|export|transmit|"
    r"(?:est|sont) (?:aussi |également )?(?:transmise?s?|envoyée?s?|copiée?s?|téléversée?s?|partagée?s?)|transmis\w*|envoy\w*|"
    r"se (?:reenv[ií]an?|env[ií]an?|suben|copian?|comparten?)|reenv[ií]\w*|env[ií]\w*|subid[oa]s?|"
    r"vengono (?:inviat|caricat|copiat|inoltrat|condivis)\w*|(?:inviat|caricat|inoltrat)[oaie]|"
    r"(?:são|é) (?:enviad|carregad|copiad|encaminhad|compartilhad)\w*|"
    r"l[äa]dt\b[^.;\n]{0,60}\bhoch|hochgeladen|weitergeleitet|geschickt|gesendet|kopiert|"
    r"(?:wordt|worden) (?:\w+ )?(?:geüpload|doorgestuurd|verstuurd|gekopieerd)|"
    r"yüklen\w*|gönderil\w*|iletil\w*|przesył\w*|wysył\w*|przekazyw\w*|отправля\w*|пересыла\w*|загружа\w*|выгружа\w*)\b|"
    r"上传|发送|转发|同步到|転送|送信|アップロード|업로드|전송|보내"
)
# (data, not people: "ask the customer to send the signed form to forms@bank" moves nothing private)
_PRIVATE = (
    r"\b(?:logs?|transcripts?|conversations?|records?|files?|exports?|backups?|dumps?|orders|lists?|details|"
    r"payroll|salar\w*|ids?|passports?|cvs?|resumes?|identity|drafts?|unpublished|env|printenv|environment|credentials|"
    r"passwords?|secrets?|tokens?|keys?|phone numbers?|iban\w*|card numbers?|personal data|contacts?|"
    r"expedientes?|fiches?|pièces? d'identité|dossiers?|données|datos|dati|dados|\w*daten|entwürfe|studien|"
    r"kimlik\w*|dane|данные)\b|病历|数据|個人情報|개인정보"
)
_OUTSIDE = (
    rf"{ADDRESS_OUT}|\bs?ftp\.[\w-]+\.|{SITE}|"
    r"\b(?:public gist|gist|pastebin|paste\.\w+|transfer\.sh|ngrok|personal (?:e-?mail|address|account|drive)|"
    r"adresse perso|private (?:e-?mail|drive))\b"
)
_MOVED_RE = LiteralGated(cue_pattern(_MOVED))
_PRIVATE_RE = cue_pattern(_PRIVATE)
_OUTSIDE_RE = cue_pattern(_OUTSIDE)
_WARNED = cue_pattern(r"\b(?:never|not|don't|do not|must not|no)\b")
_PLACEHOLDER = cue_pattern(r"example|ejemplo|exemple|beispiel|esempio|localhost|your-|<|\$\{|placeholder")
_FROM_BEFORE = re.compile(r"\bfrom\s+\S*$")
_SETTINGS_MARKS = re.compile(r"[=:{}]")
_SETTINGS_MARK_COUNT = 3  # a settings line, not a sentence


def outflow_hit(norm: str, sentences: Iterable[re.Match[str]]) -> tuple[str, int] | None:
    """Why and where `norm` tells private data leaving for an address outside; None when not."""
    if _MOVED_RE.search(norm) is None:
        return None  # no verb of moving data: most rows stop here, behind the literal gate
    for sentence in sentences:
        text = sentence[0]
        moved = _MOVED_RE.search(text)
        if moved is None or _WARNED.search(text) or len(_SETTINGS_MARKS.findall(text)) >= _SETTINGS_MARK_COUNT:
            continue
        private = _PRIVATE_RE.search(text)
        if private is None:
            continue
        for out in _OUTSIDE_RE.finditer(text):
            near = text[max(0, out.start() - 12) : out.end() + 20]
            if _PLACEHOLDER.search(near) or _FROM_BEFORE.search(text, max(0, out.start() - 20), out.start()):
                continue  # a placeholder, or where a message is sent from
            why = f"moved: '{moved[0]}'; what: '{private[0]}'; to: '{out[0]}'"
            return why, sentence.start()
    return None
