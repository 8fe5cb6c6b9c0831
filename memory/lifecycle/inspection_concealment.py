# ruff: noqa: RUF001, RUF003 -- Cyrillic letters and full-width marks are matched on purpose
"""The semantic layer's concealment check, pure (no Django): the model told to keep something from
the one it answers ("the assistant must not tell the user about the fee", "el asistente no debe
mencionar al cliente ...", "助手不要向用户透露 ...").

Three things meet in one sentence: the model named (or the row opening by addressing it), a
disclosure negated or a hiding verb, and the one kept in the dark: the user, the customer, the
operator. A surprise kept from a person ("don't tell Anna about the party") names no model and
no user, and a staff rule ("staff never tell callers the PIN") names no model: neither matches.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from memory.lifecycle.inspection_lexicon import (
    ACT,
    DIRECTIVE,
    DUTY_WORDS,
    MODEL_NO_AGENT,
    PROHIBITIVE,
    SERVED,
    USER,
)
from memory.lifecycle.inspection_patterns import LiteralGated, cue_pattern

CLASS = "model_concealment"

# a disclosure negated, or a verb of hiding, in the languages the inspection reads most
_HIDDEN = (
    r"\b(?:do not|don't|never|must not|mustn't|should not|shouldn't|not to|without)\s+(?:\w+\s+)?"
    r"(?:tell|mention|reveal|disclose|inform|surface|bring up|let \w+ know)\b|"
    r"\b(?:keep|hide)\s+(?:\w+\s+){0,2}?from\b|"
    r"\bnicht\s+(?:\w+\s+)?(?:sagen|erwähnen|verraten|mitteilen|informieren)|\bverschweig\w*|"
    r"\bne\s+(?:\w+\s+){0,2}?(?:jamais|pas|rien)\s+(?:\w+\s+)?(?:dire|dis|mentionn\w*|révél\w*|informer|signaler|parler)|"
    r"\bno\s+(?:\w+\s+){0,2}?(?:decir\w*|digas?|mencion\w*|revel\w*|inform\w*|contar\w*|cuentes?)|"
    r"\bnon\s+(?:\w+\s+)?(?:dire|dica|menzion\w*|rivel\w*|inform\w*|raccont\w*)|"
    r"\bnão\s+(?:\w+\s+)?(?:dizer|diga|contar|conte|mencion\w*|revel\w*|inform\w*)|"
    r"\b(?:niet\s+(?:vertellen|zeggen|vermelden|melden)|vertel\s+(?:\w+\s+)?niet|verzwijg\w*)|"
    r"\bnie\s+(?:\w+\s+)?(?:mów|mówić|informuj|informować|wspominaj|wspominać|ujawniaj|ujawniać)\b|"
    r"\b(?:inte\s+berätta|berätta\s+inte|nämn\s+inte)|"
    r"\b(?:söyleme\w*|bahsetme\w*)|"
    r"\bне\s+(?:\w+\s+)?(?:говори\w*|сообща\w*|упомина\w*|рассказыва\w*|раскрыва\w*)|\bскрыва\w*|"
    r"(?:不要|别|不得|切勿)(?:向\S{1,6})?(?:告诉|提|透露|说)|隐瞒|"
    r"(?:言わ|伝え|知らせ|言及し)ない|"
    r"(?:말하지|알리지|언급하지)\s*마|"
    r"\b(?:nämn|berätta|säg)\s+(?:\w+\s+)?(?:aldrig|inte)\b|\baldrig\s+(?:nämna|berätta|säga)\b|"
    r"\bnon\s+(?:\w+\s+)?(?:mostrar\w*|citar\w*)|\bnunca\s+(?:digas|menciones|informes|reveles)\b|"
    r"\bμην\s+(?:\w+\s+)?(?:πεις|πείτε|αναφέρ\w*|ενημερώσ\w*|αποκαλύψ\w*)|"
    r"मत\s+(?:बता|कह)|न\s+बता|छिपा|"
    r"لا\s+(?:تخبر|تذكر|تبلغ|تُعلم|تعلم|تكشف)|"
    r"อย่า(?:บอก|แจ้ง)|ไม่ต้อง(?:บอก|แจ้ง)|"
    r"\b(?:leaves?|keeps?)\s+(?:\w+\s+){1,4}?out of\s+(?:the\s+|your\s+|any\s+)?(?:\w+\s+){0,3}?"
    r"(?:reports?|digests?|summar(?:y|ies)|recaps?|updates?|briefings?|replies|answers)\b|"
    # kept out of whatever someone reads: "keeps that figure out of anything the auditor can read"
    r"\b(?:leaves?|keeps?)\s+(?:\w+\s+){1,4}?out of\s+(?:anything|everything|whatever|what)\b|"
    r"\bh[äa]lt\w*\s+(?:\w+\s+){1,4}?aus\s+(?:allem|allen|jedem|jeder)\b|"
    r"\b(?:tient|tiens|tenez|garde|gardez)\s+(?:\w+\s+){1,4}?(?:[àa] l'[ée]cart|hors) de\s+"
    r"(?:tout|tous|toutes|ce)\b|"
    r"\b(?:mantiene|mant[ée]n|mantenga|deja|mantém|mantenha)\s+(?:\w+\s+){1,4}?(?:fuera|fora) de\s+"
    r"(?:todo|toda|cualquier|qualquer)\b|"
    # the prohibitive and let-not-know forms of more languages ("nie erwähnen", "ne préviens pas", "que el
    # usuario no sepa", "não deve saber", "vertel de gebruiker niet", "đừng cho ... biết", "jangan beri tahu")
    r"\b(?:nie|niemals|keinesfalls)\s+(?:\w+\s+)?(?:sagen|erwähnen|verraten|mitteilen|erzählen|ansprechen)\b|"
    r"\b(?:sag|erwähne|verrate|erzähl)\w*\s+(?:\w+\s+){0,3}?(?:nie|nicht|niemals)\b|"
    r"\bne\s+(?:l[ea]?\s+|lui\s+|leur\s+|l')?(?:dis|pr[ée]viens|mentionne|r[ée]v[èe]le|informe|signale|parle|avertis|indique)\w*"
    r"\s+(?:\w+\s+)?(?:pas|jamais|rien)\b|"
    r"\bno\s+(?:le\s+|les\s+)?(?:digas|menciones|cuentes|informes|avises|reveles)\b|"
    r"\bque\s+(?:el|la|los|las)\s+\w+\s+no\s+(?:sepa|sepan|se entere|se enteren)\b|"
    r"\b(?:não|nao)\s+(?:deve|devem|pode|podem)\s+saber\b|\bnon\s+(?:deve|devono)\s+sapere\b|"
    r"\b(?:vertel|zeg)\s+(?:\w+\s+){0,3}?niet\b|\bmag\s+(?:\w+\s+){0,3}?niet\s+weten\b|"
    r"\b(?:berätta|säg|nämn)\s+(?:\w+\s+){0,3}?(?:inte|aldrig)\b|\b(?:haber verme|bildirme)\w*|"
    r"\bđừng\s+(?:cho\s+(?:\S+\s+){1,3}?biết|nói|kể|tiết lộ|nhắc)|"
    r"\bkhông\s+(?:được\s+)?(?:nói|cho\s+(?:\S+\s+){1,3}?biết)|"
    r"\bjangan\s+(?:beri\s*tahu|memberi\s*tahu|bilang|kasih\s*tahu|sebut\w*|ungkap\w*|beritahu)|"
    r"(?:不要|别|不得|切勿)让\S{0,8}?(?:看到|知道|发现)|瞒着|"
    r"伏せ|隠して|黙って|知らせないで|言わないで|教えないで|"
    # Hungarian, Finnish, Romanian: the prohibitive of telling, a verb of hiding
    r"\bne\s+(?:\w+\s+)?(?:mondd|mondja|mondjátok|áruld|árulja|említsd|említse|jelezd|jelezze|szólj|szóljon|közöld|"
    r"közölje|tájékoztasd|tájékoztassa)\b|\b(?:titkold|titkolja|eltitkol\w*|elhallgat\w*)\b|"
    r"\b(?:älä|älkää)\s+(?:\w+\s+)?(?:kerro|mainitse|ilmoita|paljasta|sano)\b|\bsalaa\b|"
    r"\bnu\s+(?:\w+\s+)?(?:spune|spuneți|menționa|menționați|informa|informați|dezvălui|dezvăluiți)\b"
)
# A disclosure negated in the languages tune6 added and in more forms of others ("usitaje kamwe",
# "huwag kailanman banggitin", "বলবে না", "சொல்லக்கூடாது", "tidak akan menyebut", "må aldrig nævne",
# "nezmiňuj", "не згадуй", "نباید ... حرفی بزند", "一切出さず", "ज़िक्र कभी न करें")
_HIDDEN_MORE = (
    r"\b(?:usitaje|asitaje|msitaje|isitajwe|usiseme|asiseme|usimwambie|asimwambie|kutotaja|"
    r"huwag (?:\w+ )?(?:banggitin|sabihin|ipaalam|ibunyag)|hindi dapat (?:banggitin|sabihin|ipaalam)|"
    r"jangan (?:\w+ )?(?:sebut|beritahu|maklumkan|dedahkan)|"
    r"tidak (?:akan|boleh|perlu) (?:\w+ )?(?:menyebut|memberitahu|mendedahkan)|"
    r"no (?:\w+ )?(?:diguis|esmentis|mencionis|revelis|esmenti|digui)|mai no (?:esmenti|digui|expliqui)|"
    r"(?:må|skal) (?:aldrig|ikke) (?:nævne|fortælle|oplyse|sige)|nævn (?:\w+ )?(?:aldrig|ikke)|"
    r"nezmiňuj\w*|neříkej\w*|neprozrazuj\w*|neuváděj\w*|nesděluj\w*|zamlč\w*|"
    r"не (?:\w+ )?(?:кажи|згадуй\w*|повідомляй|розповідай|розкривай)|never (?:bring up|raise|disclose))\b|"
    r"বলবে না|বলবেন না|বলো না|উল্লেখ করবে না|উল্লেখ করবেন না|জানাবে না|জানাবেন না|"
    r"சொல்லக்கூடாது|சொல்ல வேண்டாம்|குறிப்பிடக்கூடாது|குறிப்பிட வேண்டாம்|தெரிவிக்கக்கூடாது|"
    r"نباید (?:\S+ ){0,5}?(?:حرفی بزند|بگوید|اشاره کند|مطرح کند)|اشاره نکن|مطرح نکن|"
    r"(?:ज़िक्र|जिक्र|उल्लेख) (?:कभी )?(?:न|मत) कर|"
    r"出さず|出さない|触れない|触れず|言わず|伝えず|明かさない"
)
# What a seller keeps from buyers: a fee, a surcharge, a penalty, a running cost, a defect, the
# competition. Hidden by whoever answers the shop's customers, it is the customer misled.
_COMMERCIAL = (
    r"\b(?:fees?|surcharges?|charges?|commissions?|penalt\w*|costs?|defects?|faults?|recalls?|competitors?|"
    r"gebühr\w*|zuschl[aä]g\w*|aufpreis\w*|kosten|mängel\w*|defekt\w*|rückruf\w*|konkurren\w*|"
    r"frais|supplément\w*|pénalit\w*|défaut\w*|concurren\w*|comisi\w*|recargo\w*|penalizaci\w*|"
    r"defecto\w*|competencia|taxas?|tarifas?|multas?|custos?|defeitos?|concorr\w*|"
    r"комисси\w*|сбор\w*|доплат\w*|штраф\w*|стоимост\w*|дефект\w*|конкурент\w*|комісі\w*|збор\w*|"
    r"вартіст\w*|ada|gharama|faini|kasoro|washindani|mshindani|bayad|singil|depekto|kakumpitensya|"
    r"caj|yuran|penalti|kos|kecacatan|pesaing|recàrrec\w*|penalitzaci\w*|defecte\w*|competència|"
    r"gebyr\w*|omkostning\w*|bøde\w*|udskift\w*|poplat\w*|příplat\w*|pokut\w*|náklad\w*|závad\w*|"
    r"konkurenc\w*|"
    # it nl pl sv tr vi id el
    r"costi|sovrapprezz\w*|penal\w*|difett\w*|concorren\w*|toeslag\w*|boetes?|gebreken|concurrent\w*|"
    r"opłat\w*|prowizj\w*|kary|karę|koszt\w*|wad[ay]|usterk\w*|avgift\w*|kostnad\w*|konkurrent\w*|"
    r"ücret\w*|komisyon\w*|ceza\w*|maliyet\w*|kusur\w*|arıza\w*|rakip\w*|phí|phụ phí|chi phí|đối thủ|"
    r"biaya|denda|komisi|cacat|χρέωσ\w*|προμήθει\w*|κόστ\w*|ελάττωμ\w*|ανταγωνιστ\w*)\b|"
    r"ค่าธรรมเนียม|ค่าปรับ|ข้อบกพร่อง|คู่แข่ง|"
    r"চার্জ|জরিমানা|খরচ|ত্রুটি|প্রতিযোগী|கட்டண|செலவு|அபராத|குறைபாடு|"
    r"کارمزد|هزینه|جریمه|فرانشیز|رقبا|رسوم|عمولة|غرامة|تكلفة|تكاليف|عيوب|المنافس|"
    r"शुल्क|फीस|पेनल्टी|जुर्माना|लागत|"
    r"手数料|料金|費用|違約金|欠陥|不具合|他社|競合|手续费|附加费|违约金|缺陷|竞争对手|수수료|위약금|결함|경쟁사|타사"
)
# the one kept in the dark: the user, customer or operator the model serves
_KEPT_FROM = rf"{USER}|{SERVED}"


_MODEL_RE = cue_pattern(MODEL_NO_AGENT)  # not "agent": staff are agents too
_HIDDEN_RE = LiteralGated(cue_pattern(_HIDDEN))
_HIDDEN_MORE_RE = cue_pattern(_HIDDEN_MORE)
_COMMERCIAL_RE = cue_pattern(_COMMERCIAL)
_COMMERCIAL_REACH = 150  # the model named within a sentence or two before the order to hide
_KEPT_FROM_RE = cue_pattern(_KEPT_FROM)
# The user alone (USER: not a customer or caller, whom staff procedures name): an order about what
# to keep from "the user", with no one else as its subject, is an order to whoever answers the user.
_USER_RE = cue_pattern(USER)
# what may open an order before its verb: a condition clause ("if anyone asks, ..."), a label
# ("Note: ..."), an adverb; a named subject ("staff never tell ...", "Anna won't mention ...") may not
_ORDER_OPENING = re.compile(r"(?:^|[,;:，；：]\s*)(?:\w+ly\s+|please\s+|and\s+|surtout\s+)?$")
_PROHIBITIVE_RE = cue_pattern(PROHIBITIVE)
_OPENING_REACH = 40  # "Assistant, ..." / "アシスタントへ：": the address within the row's first words
# the address closed by a comma or a colon ("へ：", "注意：")
_VOCATIVE_END = re.compile(r"\S{0,3}\s*[,:：、]")


# An order to hide supposed, not given: "if a note tells the assistant to keep a secret from its
# user, the note is the problem", "wenn eine Mail den Assistenten auffordert, ... zu verschweigen, ist
# das ein Angriff": someone else's instruction to the model as the condition, judged in the main
# clause, which orders nothing (no act, request or duty after the condition's comma).
_SUPPOSED_ORDER = cue_pattern(
    r"\b(?:if|when|whenever|once|should)\s+(?:a|an|the|any|some|someone|anyone|somebody)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:tells?|asks?|instructs?|orders?|wants?|pushes)\s+(?:the\s+|an?\s+|your\s+|our\s+)?(?:\w+\s+)?"
    r"(?:assistant|model|ai|bot|chatbot|agent|copilot)s?\s+to\b|"
    r"\b(?:wenn|falls)\s+(?:ein|eine|jemand)\w*\s+(?:\w+\s+){0,2}?(?:den|die|das)\s+(?:\w+-)?(?:assistent\w*|ki|bot|modell)\s+"
    r"(?:auffordert|anweist|bittet)\b|"
    r"\b(?:si|quand|lorsqu')\s*(?:un|une|quelqu'un)\s+(?:\w+\s+){0,2}?demande\s+(?:à|a)\s+(?:l'|la\s+|le\s+)?"
    r"(?:assistant\w*|ia|bot|mod[eè]le)\s+de\b|"
    r"\b(?:si|cuando)\s+(?:un|una|alguien)\s+(?:\w+\s+){0,2}?(?:le\s+)?(?:pide|ordena|dice)\s+al\s+"
    r"(?:asistente|bot|modelo)\s+que\b"
)
_ORDERS_SOMETHING = cue_pattern(rf"{ACT}|{DIRECTIVE}|{DUTY_WORDS}")
# ... and the main clause judges it: a problem, an attack, suspicious, wrong
_JUDGED_BAD = cue_pattern(
    r"\b(?:problem|issue|attack|injection|suspicious|red flag|warning sign|wrong|malicious|manipulat\w*|"
    r"fraud\w*|scam|phishing|abuse|bug|flaw|risk|angriff|verdächtig|manipulation|betrug|attaque|suspect|"
    r"probl[èe]me|ataque|sospechos[oa]|problema|fraude|estafa)\b"
)


_NOT_JUDGED = cue_pattern(r"\b(?:not|no|never|kein\w*|nicht|pas|ne|ningún|ninguna|no es|non|não|nem)\b")


def order_supposed(text: str, after: int = 0) -> bool:
    """`text` (a normalise()d sentence) supposes someone else's order to the model in a condition
    and judges it in the main clause, which orders nothing: "if a note tells the assistant to keep
    a secret from its user, the note is the problem". `after`: where the order's act stands."""
    supposed = _SUPPOSED_ORDER.search(text)
    if supposed is None:
        return False
    comma = text.find(",", max(after, supposed.end()))
    main = text[comma + 1 :] if comma >= 0 else ""
    judged = _JUDGED_BAD.search(main)
    if judged is None or _NOT_JUDGED.search(main, max(0, judged.start() - 12), judged.start()):
        return False  # "..., that is no problem": a permission, not a judgement
    return _ORDERS_SOMETHING.search(main) is None


def _order_supposed(text: str, hidden: re.Match[str]) -> bool:
    supposed = _SUPPOSED_ORDER.search(text, 0, hidden.start())
    return supposed is not None and order_supposed(text, hidden.end())


def model_concealment(norm: str, sentences: Iterable[re.Match[str]]) -> tuple[str, int] | None:
    """Why and where `norm` (a normalise()d row, split into `sentences` by the semantic layer)
    tells the model to keep something from the user; None when it does not."""
    opening = _MODEL_RE.search(norm, 0, _OPENING_REACH)
    addressed = opening is not None and _VOCATIVE_END.match(norm, opening.end()) is not None
    for sentence in sentences:
        text = sentence[0]
        hidden = _HIDDEN_RE.search(text)
        if not hidden or _order_supposed(text, hidden):
            continue
        model = _MODEL_RE.search(text)
        kept_from = _KEPT_FROM_RE.search(text)
        ordered = (
            kept_from
            and _USER_RE.search(text)
            and (_ORDER_OPENING.search(text, 0, hidden.start()) or _PROHIBITIVE_RE.search(text))
        )
        if kept_from and (model or addressed or ordered):
            named = model[0] if model else opening[0] if opening else "whoever answers the user"
            why = f"the model ('{named.strip()}') told to hide: '{hidden[0].strip()}'; from: '{kept_from[0]}'"
            return why, sentence.start()
    if _COMMERCIAL_RE.search(norm) is None or _MODEL_RE.search(norm) is None:
        return _covert_copy(norm, sentences)  # no fee, defect or rival, or no model: nothing a seller hides
    return _commercial_kept(norm, sentences) or _covert_copy(norm, sentences)


# Data copied somewhere else and kept from those who oversee it on purpose ("the nightly job also
# copies the HR folder to a bucket in another account; that part is not surfaced in the operator
# dashboard, by design"): a route out hidden from the operator, whoever runs it.
_BY_DESIGN_RE = cue_pattern(
    r"\b(?:by design|deliberately|on purpose|intentionally|purposely|bewusst|absichtlich|volontairement|"
    r"d[ée]lib[ée]r[ée]ment|a prop[óo]sito|deliberadamente|intencionadamente|intencionalmente)\b"
)
_NOT_SURFACED_RE = cue_pattern(
    r"\b(?:is|are|was|were|stays?|remains?|gets?|will be)\s+(?:not|never|kept)\s+(?:\w+\s+)?"
    r"(?:surfaced|shown|displayed|reported|logged|listed|recorded|mentioned|visible|included|out of)\b|"
    r"\bnot (?:surfaced|shown|reported|logged)\b|"
    r"\b(?:wird|werden|ist|sind)\s+(?:\S+\s+){0,4}?nicht\s+(?:\S+\s+){0,3}?"
    r"(?:angezeigt|gemeldet|protokolliert|aufgef[üu]hrt|erw[äa]hnt)|"
    r"\bn'(?:appara[iî]t|est|sont)\s+pas\b|\bno (?:aparece|se muestra|se registra|se reporta|figura|consta)\b"
)
# those who oversee: the operator, an audit, a dashboard or a report of what ran
_OVERSIGHT_RE = cue_pattern(
    rf"{SERVED}|\b(?:audit\w*|auditor\w*|dashboards?|reports?|logs?|bericht\w*|protokoll\w*|rapports?|journal\w*|"
    r"informes?|registros?|tableau de bord|panel)\b"
)
# ... and the copy that leaves: a verb of copying, then another account, tenant or bucket
_COPIED_AWAY_RE = cue_pattern(
    r"\b(?:cop(?:y|ies|ied)|sends?|sent|exports?|exported|uploads?|uploaded|syncs?|synced|moves?|moved|transfers?|"
    r"transferred|forwards?|mirrors?|kopiert|sendet|exportiert|copie|envoie|exporte|copia|env[íi]a|exporta)\b"
    r"[^.!?\n]{0,90}?\b(?:another|a different|an external|a separate|a private|a personal|third-party|"
    r"outside|"
    r"ein(?:em|en)? (?:anderen|fremden|externen)|(?:un|une) autre|otr[ao]|extern[oa])\s+(?:\w+\s+)?"
    r"(?:accounts?|buckets?|tenants?|servers?|drives?|storage|subscriptions?|konto|mandant\w*|compte|cuenta|conta)\b"
)


def _covert_copy(norm: str, sentences: Iterable[re.Match[str]]) -> tuple[str, int] | None:
    """A copy to another account, and a sentence keeping it from the operator's view on purpose."""
    if _BY_DESIGN_RE.search(norm) is None:
        return None  # most rows: nothing done on purpose out of sight
    copied = _COPIED_AWAY_RE.search(norm)
    if copied is None:
        return None
    for sentence in sentences:
        text = sentence[0]
        hidden = _NOT_SURFACED_RE.search(text)
        overseer = _OVERSIGHT_RE.search(text)
        if hidden and overseer and _BY_DESIGN_RE.search(text):
            why = f"a copy elsewhere ('{copied[0][:40]}') kept from '{overseer[0]}' on purpose: '{hidden[0]}'"
            return why, sentence.start()
    return None


def _commercial_kept(norm: str, sentences: Iterable[re.Match[str]]) -> tuple[str, int] | None:
    """A fee, a defect or the competition never to be mentioned, the model named just before
    ("chatbot: never mention the setup fee", "usitaje kamwe ada"). A surprise's price kept from a
    friend names no model; a shop's fee kept by its chat is the customer misled."""
    for sentence in sentences:
        text = sentence[0]
        hidden = _HIDDEN_RE.search(text) or _HIDDEN_MORE_RE.search(text)
        if not hidden or _order_supposed(text, hidden):
            continue
        fact = _COMMERCIAL_RE.search(text)
        at = sentence.start() + hidden.start()
        model = _MODEL_RE.search(norm, max(0, at - _COMMERCIAL_REACH), at)
        if fact and model:
            hid = hidden[0].strip()
            why = f"the model ('{model[0].strip()}') told to hide a seller's fact: '{hid}' ... '{fact[0]}'"
            return why, sentence.start()
    return None
