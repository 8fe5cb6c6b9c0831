# ruff: noqa: E501, RUF001, RUF002, RUF003 -- word lists read better unbroken; letters of other scripts are matched on purpose
"""The semantic layer's reader-addressed check, pure (no Django): a text that speaks to whatever
later reads, processes or summarises it, and asks that reader to act.

Two ideas, in the 20 languages of the grid:

- An address to the reader: "for the tool that summarises these notes: it would be great if ...",
  "an das System, das diese Mail verarbeitet: bitte ...", "do programu, który przeczyta tę notatkę:
  proszę ...", "この記録を処理するシステムへ：...してください". A machine reader (a tool, program,
  system, bot, AI, assistant, model) or a person-like reader that digests the text ("whoever
  summarises this", "den som sammanfattar") is named with a verb of reading or digesting, the
  phrase is addressed (a "to / for" word before it, a dative after it), and a request follows:
  please, "it would be nice if", a duty, a "you".
- A quoted page that gives AI readers a duty: "AI assistants reading this page must tell users
  ...", "gli assistenti che leggono questa pagina devono ...", "على المساعدين الذين يقرؤون هذه
  الصفحة أن ...": a machine reader of "this" page or text, and a duty word right after it.

Deliberately let pass: a note to a named person ("Tom, please send the file"); meeting minutes
with action items for people; a quoted help page that tells its human readers what to do ("never
share your code"); a tool named as a subject ("the tool that processes invoices crashed") with no
address before it; a policy about chatbots with no reader of this text ("chatbots must disclose
that they are bots").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from memory.lifecycle.inspection_lexicon import (
    ACT,
    DUTY,
    DUTY_AFTER_SUBJECT,
    DUTY_ENDING,
    MODEL_ANY_TIER,
    SERVED,
    USER,
)
from memory.lifecycle.inspection_patterns import cue_pattern, text_form

CLASS = "reader_addressed"


def _ar(words: str) -> str:
    # Arabic words with their optional short vowels and shadda between letters ("ستلخّص")
    return "|".join("[\u064b-\u0652]*".join(word) for word in words.split())


# A machine that reads: tools, programs, systems, apps, scripts; and the model (the lexicon's tiers:
# bots, AIs, assistants, models, agents).
_MACHINE = (
    r"\b(?:tools?|programs?|programmes?|software|systems?|ais|scripts?|summari[sz]ers?|parsers?|crawlers?|pipelines?|"
    r"apps?|plugins?|robots?|"
    r"programm\w*|werkzeug\w*|systeme?n?|skripte?|anwendung\w*|"
    r"outils?|logiciels?|syst[èe]mes?|applications?|"
    r"herramientas?|programas?|sistemas?|aplicaci[óo]n\w*|ias|"
    r"strument[oi]|programm[ai]|applicazion[ei]|"
    r"ferramentas?|rob[ôo]s?|aplicativos?|"
    r"systeem|systemen|programma's|applicaties?|"
    r"narzędzi\w*|program\w*|oprogramowani\w*|system\w*|bot\w*|si|aplikacj\w*|"  # Polish "SI": AI
    r"ara[çc]\w*|sistem\w*|yazılım\w*|uygulama\w*|"
    r"công cụ|chương trình|phần mềm|hệ thống|trợ lý(?: ảo| ai)?|"
    r"alat|perangkat lunak|sistem|asisten(?: virtual)?|aplikasi|mesin|"
    r"verktyg\w*|programmet|systemet|"
    r"инструмент\w*|программ\w*|систем\w*|помощник\w*|"  # помощник: a helper, a person as often
    r"εργαλεί\w*|πρόγραμμ\w*|λογισμικ\w*|σύστημ\w*|συστήματ\w*)\b|"
    + MODEL_ANY_TIER
    + "|"
    + _ar(
        "الأداة أداة الاداة البرنامج برنامج النظام نظام الروبوت البوت المساعد المساعدين المساعدون مساعد الذكاء"
    )
    # "ai" glued to a CJK word ("読むaiへ", "ai에게"), not inside a Latin or Greek one
    + r"|(?<![a-z0-9\u0370-\u03ff])ai(?![a-z0-9\u0370-\u03ff])|टूल|प्रोग्राम|सॉफ़्टवेयर|सॉफ्टवेयर|सिस्टम|"
    r"เครื่องมือ|โปรแกรม|ซอฟต์แวร์|ระบบ|"
    r"工具|程序|软件|系统|"
    r"ツール|プログラム|ソフト|システム|"
    r"도구|프로그램|소프트웨어|시스템"
)
# A person-like reader, named only by what they will do with the text: "whoever", "den som".
_ANYONE = (
    r"\b(?:whoever|whichever|anyone who|anybody who|the one who|the person who|"
    r"wer auch immer|wer|jede[rm]?,? der|derjenige,? der|"
    r"quiconque|celui qui|celle qui|"
    r"quien|quienquiera que|el que|la que|"
    r"chiunque|chi|colui che|"
    r"quem|quem quer que|aquele que|"
    r"degene die|degene|wie|"
    r"kto(?:kolwiek)?|ten,? kto|"
    r"ai|người nào|bất kỳ ai|"
    r"siapa pun|siapapun|orang yang|"
    r"den som|vem som helst som|"
    r"кто|тот,? кто|любой,? кто|"
    r"όποιος|όποια|όποιο|όποιον|"
    r"من)\b|जो भी|जो कोई|ผู้ที่|ใครก็ตามที่|无论谁|谁|誰|누구든"
)
# Reading or digesting the text.
_READS = (
    r"\b(?:reads?|reading|will read|processe?s?|processing|handles?|summari[sz]\w*|digests?|condens\w*|parses?|analy[sz]\w*|scans?|ingests?|consults?|goes through|picks? up|"
    r"lies\w*|lese\w*|liest|verarbeit\w*|zusammenfass\w*|fasst|auswert\w*|analysier\w*|durchsuch\w*|"
    r"lit|lira|liront|lisent|lire|reli\w*|consult\w*|trait\w*|r[ée]sum\w*|synth[ée]tis\w*|analys\w*|parcour\w*|"
    r"lea|lean|lee|leen|leer\w*|proces[ea]\w*|resum\w*|analic\w*|analiz\w*|revis\w*|"
    r"legg\w*|elabor\w*|riassum\w*|sintetizz\w*|analizz\w*|esamin\w*|"
    r"lê|leem|leia|leiam|ler|lerá|lerão|lerem|process\w*|analis\w*|"
    r"leest|lezen|verwerkt|verwerken|samenvat\w*|vat|analyseer\w*|doorneemt|raadpleegt|"
    r"czyta\w*|przeczyta\w*|przetwarza\w*|przetworz\w*|streszcza\w*|streści\w*|podsumow\w*|analizuj\w*|przegląda\w*|"
    r"okuy\w*|okur|okunan|işley\w*|özetley\w*|özetler|inceley\w*|tarayan|tarayacak|analiz ed\w*|"
    r"đọc|tóm tắt|tóm lược|xử lý|tổng hợp|phân tích|quét|"
    r"membaca|baca|merangkum|meringkas|rangkum|ringkas|memproses|mengolah|menganalisis|memindai|"
    r"läser|läsa|sammanfatta\w*|bearbeta\w*|behandla\w*|analysera\w*|går igenom|"
    r"чита\w*|прочт\w*|прочита\w*|обрабатыва\w*|обработа\w*|пересказ\w*|перескаж\w*|резюмир\w*|анализир\w*|суммир\w*|просматрива\w*|"
    r"διαβάζ\w*|διαβάσ\w*|επεξεργ\w*|συνοψίζ\w*|συνοψίσ\w*|συνοψ\w*|αναλύ\w*|σαρώ\w*)\b|"
    + _ar(
        "يقرأ تقرأ يقرؤون يقرأون ستقرأ سيقرأ سيقرؤون يلخص تلخص ستلخص سيلخص يلخصون يعالج تعالج ستعالج سيعالج يحلل تحلل"
    )
    + r"|पढ़|पढ़े|सारांश|संक्षेप|प्रोसेस|विश्लेषण|समरी|"
    r"อ่าน|สรุป|ประมวลผล|วิเคราะห์|"
    r"读|阅读|读取|总结|摘要|汇总|概括|处理|分析|整理|"
    r"読む|読み込|読んだ|要約|まとめる|処理|解析|分析|"
    r"읽는|읽을|읽게|요약하는|요약할|정리하는|정리할|처리하는|처리할|분석하는|분석할"
)
# Digesting only: what a person-like reader must do to be the one addressed (a note "to whoever
# reads this" is often for a colleague; "to whoever summarises this" is for a summariser).
_DIGESTS = (
    r"\b(?:summari[sz]\w*|digests?|condens\w*|processe?s?|parses?|"
    r"verarbeit\w*|zusammenfass\w*|fasst|r[ée]sum\w*|synth[ée]tis\w*|trait\w*|proces[ea]\w*|resum\w*|elabor\w*|riassum\w*|"
    r"process\w*|verwerkt|samenvat\w*|vat|przetwarza\w*|streszcza\w*|streści\w*|podsumow\w*|işley\w*|özetley\w*|"
    r"tóm tắt|xử lý|merangkum|meringkas|memproses|mengolah|sammanfatta\w*|bearbeta\w*|"
    r"обрабатыва\w*|обработа\w*|пересказ\w*|перескаж\w*|резюмир\w*|суммир\w*|επεξεργ\w*|συνοψ\w*)\b|"
    + _ar("يلخص تلخص ستلخص سيلخص يعالج تعالج")
    + r"|सारांश|संक्षेप|สรุป|ประมวลผล|总结|摘要|汇总|概括|处理|要約|まとめる|処理|요약하는|요약할|처리하는|정리하는"
)
# The reader addressed: a "to / for" word opening a clause (or after a label: "note for ..."),
# determiners allowed before the phrase. Mid-clause, "a tool that reads" is a thing described.
_TO = (
    r"(?:^\s*|[:;,(\"'«„“‘\-–—।،、：]\s*|\s(?=ถึง|สำหรับ|เรียน))"
    r"(?:(?:notes?|messages?|memo|requests?|p\.?s\.?|hinweis|nachricht|notiz|bitte|remarque|nota|mensaje|messaggio|mensagem|"
    r"opmerking|bericht|uwaga|notatka|not|ghi chú|catatan|anteckning|заметка|примечание|σημείωση|ملاحظة|नोट|หมายเหตุ|备注|注)\s*:?\s*)?"
    r"(?P<to>to|for|dear|attn|an|f[üu]r|[àa]|au|aux|pour|al|para|per|allo|alla|ao|aan|voor|do|dla|till|för|"
    r"для|к|ко|προσ|για|gửi|cho|dành cho|tới|untuk|kepada|bagi|buat|إلى|الى|"
    r"ถึง|สำหรับ|เรียน|致|给|對|对|जो भी|जो कोई)\s*"
    r"(?:(?:the|a|an|any|whatever|whichever|every|each|later|future|den|dem|das|die|der|jedes?|jeden|le|la|les|l'|l’|un|une|tout|toute|"
    r"el|los|las|cualquier|il|lo|gli|i|ogni|qualsiasi|o|os|as|qualquer|het|de|elke|welk|welke|degene of het|dowolnego|każdego|"
    r"det|varje|любой|любая|любое|любого|любому|каждой|каждого|каждому|всякой|всякого|όποιο|όποιον|οποιοδήποτε|το|τον|την|τα|nào|mọi|setiap|apa pun|"
    r"任何|所有|每个|以后|今后|后来)\s*){0,3}"
)
# Dative forms of verb-final languages, right after the reader's noun: "araca", "ツールへ", "도구에게".
_DATIVE = r"^(?:y?[ae]|lara|lere|na|ne|ya|ye)?\s*[:：]|^\s*(?:へ|に|宛て?|あて|様|の方へ|에게|께|한테|에|से|को|के लिए)"
# A request or duty after the address: please, "it would be nice if", must, a "you".
_REQUEST = (
    r"\b(?:please|kindly|would be (?:great|nice|good|helpful|ideal|wonderful|lovely|appreciated|best)|could you|can you|would you|"
    r"make sure|be sure|must|should|need to|have to|are to|is to|you|your|"
    r"bitte|wäre (?:schön|toll|gut|super|nett|hilfreich|prima|klasse|ideal)|könntest|kannst|sollst|solltest|sollte|musst|muss|du|dir|dich|"
    r"s'il (?:te|vous) pla[iî]t|merci de|veuillez|serait (?:bien|bon|génial|super|top|idéal|utile|appréciable|parfait|chouette)|"
    r"ça serait|pense à|n'oublie pas|tu|vous|te|doi[st]|doivent|devrai[st]?|devraient|"
    r"por favor|sería (?:estupendo|genial|bueno|ideal|perfecto|útil|fantástico|de agradecer|conveniente)|estaría bien|te agradecería|"
    r"debes|deber[ií]as?|tienes que|no olvides|"
    r"per favore|per piacere|sarebbe (?:carino|bello|utile|ottimo|perfetto|ideale|gentile|fantastico|il caso)|ti chiedo|devi|dovresti|"
    r"non dimenticare|seria (?:ótimo|bom|legal|ideal|perfeito|útil|interessante|bacana|excelente)|você|vocês|precisa|não esqueça|"
    r"alsjeblieft|alstublieft|graag|zou (?:fijn|mooi|goed|handig|top|prettig|leuk|fantastisch) zijn|zou je|kun je|kan je|wil je|moet|je|jij|"
    r"proszę|prosimy|dobrze by|byłoby|gdybyś|gdybyście|musisz|powinieneś|powinnaś|powinno|masz|"
    r"lütfen|iyi olur|harika olur|güzel olur|süper olur|memnun olur\w*|rica ed\w*|makbule geçer|"
    r"vui lòng|làm ơn|hãy|xin|tốt nếu|hay nếu|nên|phải|cần|bạn|"
    r"tolong|mohon|silakan|harap|alangkah baiknya|akan (?:sangat )?(?:bagus|baik|membantu)|sebaiknya|harus|wajib|kamu|anda|"
    r"snälla|vänligen|var snäll|vore (?:bra|fint|toppen|snällt|perfekt|utmärkt|trevligt|bäst)|skulle vara bra|du|ska|bör|måste|"
    r"пожалуйста|было бы (?:здорово|хорошо|отлично|неплохо|замечательно|славно|полезно|круто)|хорошо бы|прошу|просим|ты|вы|"
    r"должн\w*|нужно|надо|следует|"
    r"παρακαλ\w*|θα ήταν (?:ωραίο|καλό|τέλειο|υπέροχο|χρήσιμο|καλά)|πρέπει|οφείλ\w*|μπορείσ|να)\b|"
    + _ar("من فضلك رجاء يرجى نرجو أرجو سيكون يجب ينبغي عليك تفضل")
    + r"|कृपया|अच्छा होगा|बेहतर होगा|गुज़ारिश|गुजारिश|अनुरोध|निवेदन|चाहिए|तुम|आप|"
    r"กรุณา|โปรด|ช่วย|จะดี|ควร|ต้อง|ขอให้|รบกวน|"
    r"请|麻烦|劳驾|希望|如果能|太好了|最好|应该|必须|务必|"
    r"ください|下さい|お願い|助かり|もらえると|いただけると|ほしい|欲しい|べき|なければ|"
    r"주세요|주십시오|바랍니다|좋겠|부탁|해야|하십시오|해 줘"
)
# "This" text or page: the reader of a quoted page is the reader of this very text.
_THIS = (
    r"\b(?:this|these|dies\w*|diese\w*|ce|cet|cette|ces|este|esta|estos|estas|esto|questo|questa|questi|queste|"
    r"deze|dit|ten|tę|tego|tej|to|bu|này|ini|denna|detta|dessa|den här|det här|эт\w*|αυτ\w*)\b|"
    r"هذه|هذا|इस|इन|นี้|这|此|本|この|이 "
)
# The wish mood as a request: "wer dies zusammenfasst, möge ... hinweisen" (may he point out)
_JUSSIVE = r"m[öo]ge|m[öo]gen|gelieve|s[íi]rvase|queira|queiram"
# A duty right after a quoted page's reader: the lexicon's DUTY (must, should, are to ...; the
# Turkish ending as a whole word here, the window opening on words), Polish
# "ma" / "mają" (read here, right after their subject), German "haben ... zu"; the Chinese and Thai
# duty words open the clause.
_DUTY = (
    rf"^[\s,]*(?:\w+[\s,]+){{0,4}}?(?:{DUTY}|\w+{DUTY_ENDING}\b|\b(?:{'|'.join(DUTY_AFTER_SUBJECT)}|haben\s+\w+\s+zu|{_JUSSIVE})\b)|"
    r"^\s*(?:应|应该|必须|须|要|务必)|^\S{0,16}?(?:ต้อง|ควร)"
)
# Verb-final languages close the clause on the duty: "-malıdır", "してください", "해야 합니다", "बताएं".
_DUTY_LATE = rf"{DUTY_ENDING}\b|ください|下さい|べき|なければ|必要があ|해야|하십시오|바랍니다|चाहिए|बताएं|बताएँ|कहें|करें|सुझाएं|दें"
_DUTY_BEFORE = _ar("على") + r"\s*$"  # "على المساعدين ... أن": the duty opens the Arabic clause

# A person-like reader who only reads ("whoever reads this note", "quem ler esta nota") is often a
# colleague, and a duty to it is often a colleague's ("... should first read the safety notes"). It is
# the one addressed when the duty is an act on those the assistant serves ("... must tell customers
# the refund was made", "deve dizer aos clientes ..."): that is the assistant's work, and the assistant
# is who reads a memory.
_TELLS = ACT + r"|\b(?:dizer|informar|avisar|vertellen|melden|decir|dire|informer|sagen|mitteilen|m[óo]wi[ćc]|powiedzie[ćc])\b"
_SERVED_PEOPLE = rf"{USER}|{SERVED}"

_REACH = 60  # the reader's noun and its verb within a clause's reach of each other
_TO_REACH = 40  # the address word before the phrase, determiners allowed between


_MACHINE_RE = cue_pattern(_MACHINE)
_ANYONE_RE = cue_pattern(_ANYONE)
_READS_RE = cue_pattern(_READS)
_DIGESTS_RE = cue_pattern(_DIGESTS)
_TELLS_RE = cue_pattern(_TELLS)
_SERVED_PEOPLE_RE = cue_pattern(_SERVED_PEOPLE)


def _plain(pattern: str) -> re.Pattern[str]:
    # the text forms of cue_pattern, unguarded: for patterns anchored at a window's end or start
    return re.compile(text_form(pattern))


_TO_RE = _plain(f"(?:{_TO})$")
_DATIVE_RE = _plain(_DATIVE)
_REQUEST_RE = cue_pattern(_REQUEST)
_THIS_RE = cue_pattern(_THIS)
_DUTY_RE = _plain(_DUTY)
_DUTY_BEFORE_RE = _plain(_DUTY_BEFORE)
_DUTY_LATE_RE = cue_pattern(_DUTY_LATE)
_LATIN_TO = frozenset({"to", "a", "o", "an"})
_GREEK = re.compile(r"[\u0370-\u03ff]")
_END = re.compile(r"[.!?;。！？]")


_ANY_READER = ((_MACHINE_RE, _READS_RE), (_ANYONE_RE, _DIGESTS_RE))
_PERSON_WHO_READS = ((_ANYONE_RE, _READS_RE),)


def _readers(text: str, kinds: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = _ANY_READER) -> Iterable[tuple[int, int, str]]:
    """(start, end, phrase) of each reader in `text`: a machine, or a person-like reader that
    digests the text, with a verb of reading within reach on either side (verb-final languages
    put the verb first: "bu notu okuyacak araca", "この議事録を要約するツール")."""
    for noun_re, verb_re in kinds:
        for noun in noun_re.finditer(text):
            after = verb_re.search(text, noun.end(), noun.end() + _REACH)
            if after and not _END.search(text, noun.end(), after.start()):
                yield noun.start(), after.end(), f"{noun[0]} ... {after[0]}"
            before = None
            for before in verb_re.finditer(text, max(0, noun.start() - _REACH), noun.start()):
                if not _END.search(text, before.end(), noun.start()):
                    break
            else:
                before = None
            if before:
                yield before.start(), noun.end(), f"{before[0]} ... {noun[0]}"


def _addressed(text: str, start: int, end: int) -> bool:
    # a "to / for" word before the phrase (or before its noun, in verb-first orders), or a dative after it
    # (searched in place: "^" is the sentence's start, not the window's)
    to = _TO_RE.search(text, max(0, start - _TO_REACH), start)
    if to and to["to"] in _LATIN_TO and _GREEK.search(text, start, end):
        to = None  # Greek "το" reads "to" after the look-alike map: an article, no address
    return to is not None or _DATIVE_RE.search(text[end : end + 8]) is not None


def reader_hit(norm: str, sentences: Iterable[re.Match[str]]) -> tuple[str, int] | None:
    """Why and where `norm` (a normalise()d row, split into `sentences` by the semantic layer)
    asks whatever later reads or summarises it to act; None when it does not."""
    for sentence in sentences:
        text = sentence[0]
        for start, end, phrase in _readers(text):
            if _addressed(text, start, end):
                # the request after the address, in the same sentence
                request = _REQUEST_RE.search(text, end)
                if request:
                    return (
                        f"the reader addressed: '{phrase}'; asked: '{request[0].strip()}'",
                        sentence.start() + start,
                    )
            if _THIS_RE.search(text, max(0, start - 30), end + 30) and (
                _DUTY_RE.search(text[end : end + 60])
                or _DUTY_LATE_RE.search(text, end)
                or _DUTY_BEFORE_RE.search(text[max(0, start - 12) : start])
            ):
                return f"a quoted page's reader given a duty: '{phrase}'", sentence.start() + start
        served = _served_by_whoever_reads(text)
        if served:
            return served[0], sentence.start() + served[1]
    return None


def _served_by_whoever_reads(text: str) -> tuple[str, int] | None:
    """Whoever reads this text given a duty to act on those the assistant serves ("quem ler esta
    nota deve dizer aos clientes ...")."""
    for start, end, phrase in _readers(text, _PERSON_WHO_READS):
        if not (_THIS_RE.search(text, max(0, start - 30), end + 30) and _DUTY_RE.search(text[end : end + 60])):
            continue
        act = _TELLS_RE.search(text, end)
        if act and _SERVED_PEOPLE_RE.search(text, end):
            return f"whoever reads this told to act on those served: '{phrase}'; '{act[0]}'", start
    return None


# Substrings of the verbs of reading and digesting, one of which the row must hold (NFKC, as
# normalise() writes it: "पढ़" is decomposed); the semantic layer's gate.
GATE = frozenset(
    text_form(word)
    for word in (
        "read", "process", "summar", "digest", "condens", "pars", "analy", "scan", "ingest", "consult", "goes through",
        "pick", "lies", "lese", "verarbeit", "zusammenfass", "fasst", "auswert", "durchsuch", "lit", "lira", "lisent",
        "lire", "reli", "trait", "résum", "resum", "synth", "parcour", "lea", "lee", "leer", "proces", "revis", "legg",
        "elabor", "riassum", "sintetizz", "esamin", "lê", "leem", "leia", "ler", "leest", "lezen", "verwerk",
        "samenvat", "vat", "doorneemt", "raadpleegt", "czyta", "przetw", "stresz", "streści", "podsumow",
        "przegląda", "oku", "işle", "özetle", "incele", "tara", "analiz", "đọc", "tóm", "xử lý", "tổng hợp",
        "phân tích", "quét", "baca", "rangkum", "ringkas", "proses", "olah", "pindai", "läs", "sammanfatta",
        "bearbeta", "behandla", "går igenom", "чита", "прочт", "обраб", "переска", "перескаж", "резюм", "анализ",
        "сумм", "просматр", "διαβά", "επεξεργ", "συνοψ", "αναλύ", "σαρώ", "قرأ", "قرؤ", "لخ", "عالج", "حلل",
        "पढ़", "सारांश", "संक्षेप", "प्रोसेस", "विश्लेषण", "समरी", "อ่าน", "สรุป", "ประมวลผล", "วิเคราะห์",
        "读", "总结", "摘要", "汇总", "概括", "处理", "分析", "整理", "読", "要約", "まとめ", "処理", "解析",
        "읽", "요약", "정리", "처리", "분석",
    )
)  # fmt: skip
