# ruff: noqa: E501, RUF001 -- gate lists read better unbroken; full-width punctuation is matched on purpose
"""The inspection's semantic layer, pure (no Django): what a row *does*, in any wording or language.

The detectors in inspection_patterns match shapes of sentences; this layer asks five questions
of the normalised text, each answered by multilingual cue groups (inspection_lexicon), and
names the class of attack a row matches and why:

  addressed_directive  the model is the addressee ("for the AI reading this", "liebe KI",
                       "l'agent qui traitera ce ticket", "AIへ") and the row asks for an act
                       (tell, recommend, grant, ignore ...; please, should, would be wonderful if)
  model_obligation     the model is the doer of an obligation ("the assistant should stop ...",
                       "Q: what should an AI assistant do after reading this?")
  lasting_behaviour    a behaviour made to last ("remember this for good", "in every later
                       conversation") scoped to the conversation ("whenever the user mentions X")
                       with an act in it
  control_loosened     a safety control (approval, sign-off, filter, cap, allow-list, role)
                       reported removed or widened, sweepingly or for the model
  model_conduct        a sentence naming the model with a duty, a permission or a new power
                       ("AI copilots must export ...", "le chatbot devra ...", "acts as the approver")
  settings_as_data     the model's settings written as data (`agent.role: owner`,
                       `requires_confirmation=false`, chat-template tokens, `memory_update(...)`)
  exfiltration_route   a send verb, the conversation or secrets, and a destination outside
  model_concealment    the model told to keep something from the user, customer or operator
                       ("el asistente no debe mencionar al cliente ...", inspection_concealment)
  risky_correction     a correction of an earlier note that moves payments, data or approvals to a
                       new holder ("correction: pay their invoices to IBAN ...", inspection_correction)
  unread_language      a row in a language no cue list reads that names the model or an address
                       outside (inspection_language): what it says is not known, so a person reads it

Who is speaking matters: a conversation turn is judged by `addressed_directive` alone, and only
when the model is addressed as the reader (not "the new assistant at the dentist's"); a
sentence whose subject is a person planning something ("from now on Priya wants to ...") is
no lasting behaviour of the model.

`semantic_reasons(norm, turn=...)` returns `SemanticHit`s (class, why, snippet); the cue groups
are compiled once and each runs only when its cheap substring gate is met, so a row that names
no model, no control and no destination costs a handful of substring tests.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from memory.lifecycle.inspection_concealment import model_concealment
from memory.lifecycle.inspection_correction import GATE as CORRECTION_GATE_WORDS
from memory.lifecycle.inspection_correction import correction_hit
from memory.lifecycle.inspection_frames import fiction_hit, settings_hit
from memory.lifecycle.inspection_identity import (
    CHANNEL_GATE,
    VOUCHED_GATE,
    channel_claim,
    identity_hit,
    vouched_hit,
)
from memory.lifecycle.inspection_language import unread_and_steering
from memory.lifecycle.inspection_lexicon import (
    ACT,
    ACTION_CONTROL,
    ADDRESS_FORMS,
    ADDRESS_OUT,
    ALONE,
    BYPASSED,
    CAP,
    CARRIER,
    CHAT_TEMPLATE,
    COMMAND_RELAYED,
    CONSEQUENTIAL,
    CONTROL,
    CONVERSATION,
    CREDENTIAL_ASKED,
    DEONTIC,
    DIRECTIVE,
    ENCODING,
    GRANTED,
    GUARDED,
    LOOSENED,
    MODEL_ASKED,
    MODEL_EMPOWERED,
    MODEL_NAMED,
    MODEL_NO_AGENT,
    MODEL_OBLIGATION,
    MODEL_OBLIGATION_OTHER,
    MODEL_POWER,
    MODEL_VOCATIVE,
    NARROW,
    NEGATION,
    NOT_NEEDED,
    OPENED_TO,
    OUTSIDE,
    OVERRIDE,
    OWN_INSTRUCTIONS,
    PERMITTED,
    PERMITTED_TO,
    PERSIST,
    PERSONA,
    PRIV_KEY,
    PRIV_VALUE,
    PRIVATE_DATA,
    PRIVILEGE_CONTROL,
    READ_ONLY,
    SELF_APPROVAL,
    SEND,
    SEND_ELSEWHERE,
    SEND_TOLD,
    SENT_THING,
    STAKES,
    STANDING_PERMISSION,
    SWEEPING,
    TIGHTENED,
    UNVETTED_GRANTEE,
    USER_GATE_WORDS,
    VOCATIVE_LEAD,
    VOIDED,
    WITHOUT,
)
from memory.lifecycle.inspection_outflow import CLASS as OUTFLOW_CLASS
from memory.lifecycle.inspection_outflow import outflow_hit
from memory.lifecycle.inspection_oversight import CLASS as OVERSIGHT_CLASS
from memory.lifecycle.inspection_oversight import oversight_hit
from memory.lifecycle.inspection_patterns import (
    PERSON,
    LiteralGated,
    LiteralScan,
    cue_pattern,
    mentioned,
    own_form,
    own_preference,
    own_wish,
    text_form,
    warned_against,
    warned_claim,
)
from memory.lifecycle.inspection_reader import GATE as READER_GATE_WORDS
from memory.lifecycle.inspection_reader import reader_hit
from memory.lifecycle.inspection_standing import standing_hit
from memory.lifecycle.inspection_steering import GATE as STEERING_GATE_WORDS
from memory.lifecycle.inspection_steering import steering_hit
from memory.lifecycle.inspection_sweeping import SWEEP_GATE, sweeping_hit

SNIPPET_CHARS = 80
# How far from the addressing form the requested act may stand ("Note for the AI: ... tell ...").
_ACT_REACH = 240


@dataclass(frozen=True)
class SemanticHit:
    cls: str  # the attack class matched (see the module docstring)
    why: str  # the cues that met, for the reviewer
    snippet: str
    code: str = "instruction"  # the inspection reason code it holds under


def _c(pattern: str) -> re.Pattern[str]:
    return cue_pattern(pattern, re.MULTILINE)  # "^" and "$" at each line


@dataclass(frozen=True)
class _Gate:
    """Substrings of which one must be in the text (found by one LiteralScan of the text)."""

    words: frozenset[str]


_ALL_GATE_WORDS: set[str] = set()


def _g(*gate: str) -> _Gate:
    words = frozenset(text_form(word) for word in gate)
    _ALL_GATE_WORDS.update(words)
    return _Gate(words)


_ADDRESS = _c("|".join(f"(?:{p})" for p in ADDRESS_FORMS))
# a turn's "to the assistant" is usually about a person; a reader named as such is not
_TURN_ADDRESS = _c("|".join(f"(?:{p})" for p in ADDRESS_FORMS[1:]))
# Forms that cannot match ASCII text: each needs one of these non-ASCII pieces (请/注意, へ/に/宛/あて,
# を, 给/致/对). Without them the alternation finds the same matches on ASCII text (most rows) at a
# fraction of the cost: the form "{MODEL}へ" alone was a quarter of this search.
_NON_ASCII_ANCHORS = ("(?:请注意|请|注意)", "(?:へ|に|宛て?|あて)", ")を(?:", "(?:给|致|对)")
_ASCII_FORMS = tuple(p for p in ADDRESS_FORMS if not any(anchor in p for anchor in _NON_ASCII_ANCHORS))
_ADDRESS_ASCII = _c("|".join(f"(?:{p})" for p in _ASCII_FORMS))
_TURN_ADDRESS_ASCII = _c("|".join(f"(?:{p})" for p in _ASCII_FORMS if p != ADDRESS_FORMS[0]))


def addresses_model(norm: str) -> bool:
    """Whether normalised text names the model as its addressee ("für den Support-Bot:"), order or not
    (inspection_split: the opening of a sentence whose order lands in the next write)."""
    return bool(_ADDRESS.search(norm))


_DIRECTIVE = _c(DIRECTIVE)
_ACT = _c(rf"(?<!-){ACT}")  # not the tail of a compound ("the new-hire forms")
_OBLIGATION = _c(MODEL_OBLIGATION)
# a Japanese / Chinese request ending: addressed to the model, it is a request whatever the verb
# a polite request to the addressee ("could it bump my limit?", "can you ...")
_REQUEST = re.compile(r"\b(?:could|can|would|will) (?:it|you|they)\b|\bplease\b")
_CJK_DIRECTIVE = re.compile(r"ください|ないで|すること|しなさい|一律|请|不要|必须|应该")
_ASKED_OF_MODEL = _c(MODEL_ASKED)
_PASSIVE_AFTER = re.compile(r"\s+(?:être|etre|essere|ser|estar|be|worden|być|zostać|zostac)\b")
_OBLIGATION_OTHER = _c(MODEL_OBLIGATION_OTHER)
_MODEL_NAMED = _c(MODEL_NAMED)
_DEONTIC = _c(DEONTIC)
_RELAYED = _c(COMMAND_RELAYED)
_POWER = _c(MODEL_POWER)
_PERSIST = _c(PERSIST)
_CONVERSATION = _c(CONVERSATION)
_CONTROL = _c(CONTROL)
_LOOSENED = _c(LOOSENED)
_BYPASSED = _c(BYPASSED)
_WITHOUT = LiteralGated(_c(WITHOUT))
_PERMITTED_TO = _c(PERMITTED_TO)
_NEGATION = _c(NEGATION)
_NOT_NEEDED = _c(NOT_NEEDED)
_STAKES = _c(STAKES)
_SWEEPING = _c(SWEEPING)
_ACTION_CONTROL = _c(ACTION_CONTROL)
_NARROW = _c(NARROW)
_CAP = _c(CAP)
_PRIVILEGE = _c(PRIVILEGE_CONTROL)
_GRANTED = _c(GRANTED)
_TIGHTENED = LiteralGated(_c(TIGHTENED))  # asked of every sentence a classifier-scored row has
_UNVETTED = _c(UNVETTED_GRANTEE)
_OPENED_TO = _c(OPENED_TO)
_GUARDED = _c(GUARDED)
_READ_ONLY = _c(READ_ONLY)
_SELF_APPROVAL = _c(SELF_APPROVAL)
_SELF_NEGATED = re.compile(
    r"\b(?:never|nobody|no one|niemand|personne|nadie|ningu[ée]m|ning[úu]n\w*|not|\w*n't|no longer|cannot|nie|nicht|niemals|jamais|nunca|não|nao|no)\b[^.;\n]{0,30}$"
)
# A setting's last key and its value, to read which way the value turns the control.
_KEY_VALUE = re.compile(r"(?P<key>[a-z_]+)['\"]?\s*[:=]\s*['\"]?(?P<value>[a-z0-9]+)")
_ON = frozenset({"true", "yes", "on", "enabled", "1"})
_OFF = frozenset({"false", "no", "off", "disabled", "none", "0"})
# keys that name a check (switched on, it binds) and keys that name a power (switched off, none)
_REQUIREMENT_KEY = re.compile(
    r"requir|mfa|2fa|verif(?!ied)|_check$|^check|approv|confirm|review|safety|audit"
)
_GRANT_KEY = re.compile(r"admin|^can_|^allow|verified|superuser|root|owner|unrestricted|bypass|skip")
_SETTING_OFF = re.compile(r"\s*['\"]?\s*[:=]\s*['\"]?(?:no|false|off|never|0|disabled|none)\b")
_ENCODING = _c(ENCODING)
_OWN_INSTRUCTIONS = _c(OWN_INSTRUCTIONS)
_VOIDED = _c(VOIDED)
_ALONE = _c(ALONE)
_PERMITTED = _c(PERMITTED)
_CONSEQUENTIAL = _c(CONSEQUENTIAL)
_NOT_AFTER = re.compile(r"\s*(?:not|never|no longer|n't|nicht|nie|pas|no|não)\b")
_PRIVATE_DATA = _c(PRIVATE_DATA)
_CARRIER = _c(CARRIER)
_UNCAPPED = re.compile(
    r"\b(?:any (?:amount|size|sum|value)|unlimited|no (?:limit|cap|ceiling|upper bound)|whatever the \w+|"
    r"without (?:an? |any )?(?:limits?|caps?|ceilings?|upper bound|restrictions?))\b"
)
# "KI: ...", "Assistente: ...", "المساعد: ...": the model named, then a colon, then the message
_VOCATIVE = _c(rf"[\s\-*•>\"'«“]*{VOCATIVE_LEAD}{MODEL_VOCATIVE}\s*[:：]\s*\S")
_VOCATIVE_REACH = 40  # the colon of an address stands within a line's first few words
# "Chatbot, from today ..." / "Asistente, ...": the model named, then a comma, then a sentence to it;
# not a list that starts with the model ("AI, ML and data are our pillars", "AI, for all its hype, ...")
_VOCATIVE_COMMA = _c(rf"[\s\-*•>\"'«“]*(?:dear |hey |hi |hello )?{MODEL_VOCATIVE}\s*[,，]\s*(?=\S)")
_LIST_AFTER = re.compile(r"[,，、&]|\b(?:and|und|et|y|e|i|ve|na|és|en|och|og|или|и)\b|和|及|や")
# Limits the model works under, beside the controls: lifted or waived for it, they are a loosening.
_RESTRICTION = re.compile(r"\b(?:restrictions?|read-only|restricted|quotas?)\b")
_EXEMPT = re.compile(r"\b(?:exempt(?:ed)?|excepted) from\b|\b(?:an )?exception for\b")
_STANDING = _c(STANDING_PERMISSION)
_EMPOWERED = LiteralGated(_c(MODEL_EMPOWERED))
_OVERRIDE = _c(OVERRIDE)
_PERSONA = _c(PERSONA)
_NEGATED_SEND = re.compile(
    r"\b(?:never|don't|do not|not|must not|should not|nie|niemals|jamais|nunca|mai|"
    r"no|não|nao|non|ne|nooit|nigdy|jam[áa]s)\s+(?:\w+\s+)?$|\bn['’]\w*\s*$|"
    # a send refused or declined, told by whoever refused it ("I declined to forward the payroll")
    r"\b(?:declined|refused|rejected|refuses|declines|(?:chose|decided|asked) not) to\s+(?:\w+\s+)?$"
)
# French, German and Dutch put the negation after the verb ("n'envoyez jamais", "senden Sie Ihre PIN
# niemals", "stuur nooit je pincode"): a warning against the send, not an ask for it.
_NEGATED_AFTER_SEND = re.compile(r"\s+(?:[\w’']+\s+){0,3}?(?:jamais|niemals|nie|nicht|keinesfalls|nooit|niet)\b")
_SETTING = _c(
    rf"(?:^|[\s\[{{,;(\"'])(?:[a-z_]+[._])*{PRIV_KEY}['\"]?\s*[:=]\s*{PRIV_VALUE}"
    rf"|\"{PRIV_KEY}\"\s*:\s*{PRIV_VALUE}|{PRIV_KEY}\s*=\s*['\"]?{PRIV_VALUE}"
)
_TEMPLATE = _c(CHAT_TEMPLATE)
_SEND = LiteralGated(_c(f"(?:{SEND}|{SEND_ELSEWHERE})"))
# the model as the subject of a send verb, a few words between ("the copilot also posts")
_MODEL_SENDS = LiteralGated(_c(rf"(?:{MODEL_NO_AGENT})\s+(?:\w+\s+){{0,2}}?{SEND_TOLD}"))
_ADDRESS_OUT = re.compile(ADDRESS_OUT)
_SENT_THING = _c(f"(?:{SENT_THING}|{CREDENTIAL_ASKED})")
_OUTSIDE = _c(OUTSIDE)
_CONDITION_CLAUSE = re.compile(
    r"\s*(?:when|whenever|if|once|after|before|while|as soon as|wenn|sobald|falls|quand|lorsque|si|cuando|se|quando|"
    r"als|kiedy|gdy|je[śs]li)\b[^,;，；]*[,;，；]"
)
_CODE_EXPRESSION = re.compile(r"\bif\b[^\n]{1,60}\belse\b|\b(?:def|return|assert)\b|==")
# a question reported, not asked of anyone: "we discussed whether the assistant should ..."
_REPORTED = re.compile(r"\b(?:whether|ob)\b")
# A duty that is not the model's: a permission negated ("ne peut pas", "no puede": a limit, no power;
# "must not" / "ne doit pas" stay duties), or a person as its subject ("staff may use the assistant").
_PERMISSION_WORD = re.compile(
    r"\b(?:peut|peuvent|puede|pueden|pode|podem|kann|k[öo]nnen|darf|d[üu]rfen|can|may)\b"
)
_NEGATED_DUTY_BEFORE = re.compile(r"\b(?:ne|n'|no|not|nicht|nie|non|não|nao)\s*$")
# ("may no longer", "kann nicht mehr", "peut plus": a permission withdrawn is a limit as well)
_NEGATED_DUTY_AFTER = re.compile(r"\s*(?:pas|plus|not|no longer|nicht|nie|n[ãa]o mais)\b")
_PERSON_DUTY = re.compile(rf"(?:^|\W)(?:{PERSON})\s+$")
# ... or people in the first person, in any language, with a relative pronoun between ("det er vi
# som må stille spørsmålene", "wir, die müssen", "c'est nous qui devons", "somos nosotros los que
# debemos"): the speakers' own duty, the model only the topic beside it. (Not Malay "saya", "kami":
# after a noun they are possessives, "akaun saya hendaklah ..." is my account's duty.)
_WE_DUTY = re.compile(
    r"(?:^|\W)(?:we|i|us|vi|oss|jeg|jag|wir|ich|nous|nosotros|nosotras|yo|noi|io|nós|eu|wij|ik|my|мы|я|εμείς|"
    r"εγώ|biz|ben|humans?|people|mennesker|människor|menschen|humains|humanos|umani|mensen)"
    r"(?:,?\s+(?:som|die|der|qui|que|che|who|that|los que|las que|que\s+(?:\w+\s+)?)\s*)?\s+$"
)
_PERSON_PLANS = re.compile(
    r"\b(?:the user|user|he|she|they|we|i|i'm|i'll|the team|[a-z]+) (?:wants?|plans?|will|is going|are going|intends?|"
    r"hopes?|would like|decided|agreed)\b"
)
# a sentence ends at . ! ? before a space or the end (not inside "contoso-audit.net" or "v2.1")
_SENTENCE = re.compile(r"(?:[^.!?\n。！？]|[.!?](?![\s]|$))+[.!?。！？]?")

# Cheap gates: a cue group can only match when one of these substrings is in the text.
_MODEL_WORDS = frozenset(
    {"ai", "ki", "ia", "bot", "bots", "llm", "llms", "gpt", "claude", "gemini", "copilot", "ии", "machine"}
)
_MODEL_GATE = _g(
    "a.i.", "assist", "asist", "model", "modèl", "agent", "helper", "helfer", "ayudant", "intellig", "chatbot",
    "chatgpt", "sprachmodell", "asystent", "asystenc", "inteligencj", "voice", "automated", "automatis", "virtual", "digital", "machine", "reader", "whoever", "whichever", "whatever", "anyone", "any system", "ai-", "ai ", "ki-",
    "アシスタント", "人工知能", "モデル", "ボット", "エージェント", "助手", "模型", "机器人", "ассистент", "бот", "модел",
    "нейросет", "ai助手", "asszisztens", "mesterséges", "tekoäly", "kielimalli", "inteligență", "inteligenta", "اسسٹنٹ",
    "outil", "programm", "tool", "software", "logiciel", "werkzeug", "herramienta", "strumento", "ferramenta", "script",
    "system", "systè", "sistema",
    # the machine reader of the ten languages tune6 added (inspection_lexicon READER_LANGUAGES): a bot
    # in a compound ("supportbotten", "kundebot:"), a robot, a system, program or tool, an assistant
    "botten", "bot ", "bot:", "bot,", "bot.", "robot", "mfumo", "programu", "zana ", "msaidizi", "katulong",
    "sistem", "pembantu", "ejen", "agen ", "eina", "xatbot", "systém", "nástroj", "poradc", "automatick",
    "систем", "програм", "інструмент", "помічник", "асистент", "автомат", "чат-бот", "чатбот",
    "سامانه", "سیستم", "ابزار", "ربات", "چتبات", "چت بات", "دستیار", "خودکار",
    "বট", "এআই", "সহকারী", "সিস্টেম", "স্বয়ংক্রিয়", "பாட்", "ஏஐ", "உதவியாளர", "அமைப்பு", "தானியங்கி", "ரோபோ", "கோபைலட்",
    # the automated replies named in any language (MODEL_AUTOMATED)
    "automátic", "automatic", "automàtic", "automatiq", "automatisk", "kiotomatiki", "otomatis", "automatik", "awtomatiko",
)  # fmt: skip
# "the user" as inspection_concealment reads it (USER): an order about the user has a reader
_USER_GATE = _g(*USER_GATE_WORDS)
_LOOSENED_GATE = _g(
    "remov", "retir", "drop", "lift", "waiv", "scrap", "abolish", "suspend", " off", "disabl", "no longer",
    "not required", "not needed", "any more", "anymore", "raised", "elevated", "upgraded", "extended", "expanded",
    "now ", "cleared", "granted", "without", "entf", "abgeschafft", "aufgehoben", "gestrichen", "weggefallen", "nicht mehr", "supprim", "lev",
    "plus", "eliminad", "ya no", "廃止", "不要", "取消",
    "open", "paus", "auto", "inherit", "transfer", "delegat", "advisory", "gone", "accord", "sactiv", "desativ",
    "zniesion", "wyłącz", "wylacz", "gerekli", "kaldır", "no upper", "no cap", "no limit", "no ceiling", "set to",
    "admins", "same ", "tienen", "tiene ", "têm", "mają", " ma ", " có ", "memiliki", "sahip", " root", "superuser",
    "tidak lagi", "không còn", "już nie", "satisfied", "always ", "deemed", "treated as", "counted as", "no analyst",
    "no reviewer", "no human", "no manager", "no person", "no one", "mais necess", "più necess", "meer nodig", "given", "promoted", "by default",
    "widen", "broaden", "relax", "loosen", "erweitert", "élargi", "elargi", "ampliad", "ampliat",
    "più", "piu", "mais", "langer", "już", "juz", "artık", "artik", "không còn", "längre", "отмен", "больше не",
    "δεν απαιτ", "δεν είναι", "καταργ", "لم تعد", "لم يعد", "ألغي", "إلغاء", "ख़त्म", "खत्म", "हटा", "ज़रूरी नहीं",
    "अनिवार्य नहीं", "ยกเลิก", "ไม่จำเป็น", "不再", "废除", "必要なく", "全ドメイン", "폐지", "더 이상", "includ",
    "incluye", "obejmuje", "περιλαμβ", "abolid", "abolit", "suprimid", "soppress", "removid", "afgeschaft", "usunięt",
    "bãi bỏ", "dihapus", "avskaff", "borttag", "упраздн", "obrigat", "obbligat", "verplicht", "wajib", "deixou",
)  # fmt: skip
# A check skipped, gone round or done without, in the languages beside English (BYPASSED, WITHOUT)
_BYPASS_GATE = _g(
    "berspring", "umgeh", "umgang", "ohne", "contourn", "saut", "sans", "salt", "omit", "sin ", "aggir", "omett",
    "senza", "pula", "contorn", "dispensa", "sem ", "overslaan", "omzeil", "zonder", "pomin", "pomija", "obej", "bez ",
    "atla", "olmadan", "bỏ qua", "bo qua", "không cần", "khong can", "lewati", "tanpa", "tidak perlu", "hoppa", "kringg",
    "utan", "обход", "обойти", "пропус", "без", "παρακ", "παραλ", "χωρ", "necess", "跳过", "绕过", "无需", "不经", "免除",
    "不需要", "省略", "スキップ", "なしで", "건너뛰", "생략", "없이", "필요 없", "تجاوز", "تخطي", "بدون", "دون", "छोड़",
    "बिना", "ข้าม", "โดยไม่", "need", "require", "nécessit", "besoin", "brauch", "nötig", "notig", "erforderlich",
    "necesit", "requier", "hace falta", "richied", "bisogno", "precis", "requer", "nodig", "wymaga", "potrzeb", "нужн",
    "требу", "χρειάζ", "απαιτ", "gerek", "behöv", "kräv", "memerlukan", "butuh", "不必", "不用", "必要", "いらない",
    "필요", "ไม่จำเป็น", "تحتاج", "يحتاج", "يتطلب", "تتطلب", "حاجة", "ज़रूरत", "जरूरत", "आवश्यकता",
)  # fmt: skip
_WORDS = re.compile(r"[a-z]+|[а-яё]+")  # Latin and Cyrillic runs: "kiへの" still yields "ki"
_PERSIST_GATE = _g(
    "perman", "always-on", "standing rule", "save it", "keep it", "retain", "indefinitely", "rest of", "long-term", "long term", "pin this", "langfristig", "long terme", "largo plazo", "for good", "forever", "future", "later", "upcoming", "following", "next", "subsequent", "after this",
    "from now", "going forward", "hencefor", "hereafter", "until", "stick", "carr", "lasting", "drop", "keep",
    "hold on", "remember", "store", "save this", "each time", "every time", "whatever the", "no matter", "ab sofort",
    "von nun", "künftig", "kunftig", "dauerhaft", "immer", "partir", "désormais", "desormais", "toujours", "chaque",
    "no end", "no expir", "after today", "long haul", "outlive", "from here on", "beyond", "for all", "to come",
    "en todas", "für alle", "fur alle", "venir", "vengan", "futur", "próxim", "proxim", "prossim", "kommend", "toekomst",
    "przysz", "kolejn", "gelecek", "toutes les", "todas", "tutte le", "wszystkie",
    "ahora", "siempre", "cada vez", "ora in poi", "sempre", "ogni volta", "daqui", "vanaf nu", "今後", "これから",
    "毎回", "永久", "今后", "永远", "впредь", "всегда",
    "na stał", "na stal", "za każdym", "za kazdym", "od teraz", "her oturum", "her sefer", "bundan sonra", "kalıcı",
    "kalici", "mãi", "mai mai", "từ nay", "tu nay", "mỗi khi", "moi khi", "mỗi lần", "moi lan", "selamanya",
    "mulai sekarang", "setiap kali", "regardless of what",
)  # fmt: skip
_CONTROL_GATE = _g(
    "approv", "everyone", "everybody", "no need", "without", "sign", "confirm", "review", "verif", "check", "2fa", "mfa", "two-factor", "filter", "guardrail",
    "sandbox", "cap", "limit", "list", "permission", "access", "right", "privilege", "role", "admin", "owner",
    "logging", "audit", "freigabe", "genehmig", "bestätig", "prüfung", "pruefung", "berechtig", "validation",
    "autorisation", "droits", "vérif", "aprobaci", "permisos", "revisi", "承認", "確認", "権限", "审批", "权限",
    "firewall", "ceiling", "threshold", "kill switch", "security question", "fraud", "velocity", "timeout", "expiry",
    "moderator", "superuser", "weryfikacj", "onay", "permis", "permiss", "upraw", "quyền", "yetki", "rechte",
    "persetujuan", "root", "ownership", "analyst", "reviewer", "egress", "ingress", "outbound", "inbound", "proxy",
    "network", "allowed hosts", "allowed origins", "allowed domains", "allowed senders", "allowed ips",
    "prüf", "pruf", "zustimm", "approba", "aprova", "revue", "contrôl", "control", "verific", "autoriz", "valida", "revis",
    "convalid", "goedkeur", "beoordel", "toestemm", "zatwierdz", "akceptac", "przegl", "kontrol", "doğrula", "dogrula",
    "incele", "denetim", "xác minh", "xac minh", "kiểm tra", "phê duyệt", "pemeriksa", "tinjau", "godkänn", "gransk",
    "έγκρισ", "εγκρισ", "έλεγχ", "επαλήθ", "согласов", "одобрен", "проверк", "подтвержд", "批准", "审核", "审查", "核准",
    "審査", "決裁", "승인", "검토", "결재", "موافقة", "مراجعة", "اعتماد", "अनुमोदन", "मंजूरी", "समीक्षा", "सत्यापन",
    "อนุมัติ", "ตรวจสอบ", "faktor", "authenti", "autentica", "autenticazione", "uwierzyt", "xác thực", "фикац",
    "ταυτοπ", "المصادقة", "प्रमाणीकरण", "ยืนยันตัวตน", "验证", "要素", "인증", "permitid", "autoris", "consentit",
    "dozwolon", "izin", "cho phép", "danh sách trắng", "daftar", "tillåtelse", "vitlist", "белый", "разреш", "επιτρεπ",
    "المسموح", "अनुमति", "อนุญาต", "白名单", "允许", "許可", "허용",
)  # fmt: skip
_SETTING_GATE = _g(
    "role",
    "mode", "permission", "privilege", "trust", "access", "admin", "verified", "mfa", "requires_", "can_", "spend",
    "prompt", "directive", "rule", "policy", "identity", "persona", "safety", "approv", "confirm",
)  # fmt: skip
_OVERRIDE_GATE = _g(
    "vergi", "ignor", "missacht", "oubli", "olvid", "diment", "esque", "negeer", "vergeet", "忽略", "無視", "忘れ",
    "игнор", "забуд", "du bist", "sie sind", "tu es", "vous ", "eres", "ahora es", "sei", "você", "voce", "je bent",
)  # fmt: skip
_TEMPLATE_GATE = _g(
    "[system",
    "[admin",
    "[operator",
    "[developer",
    "<|",
    "[inst",
    "<<sys",
    "##",
    "<system",
    "<memory",
    "<instruction",
    "memory(",
    "_memory",
    "[[",
)
# The gates of the checks added in session 42: specific words (a common one such as "all " or "own"
# would send most rows through a per-sentence search), two gates where a check needs two ideas.
_GRANTEE_GATE = _g(
    "guest", "visitor", "intern", "contractor", "temps", "temporary", "third-part", "third part", "external",
    "anonymous", "unauthenticated", "the public", "everyone", "everybody", "anyone", "all users", "all staff",
    "all employees", "all accounts", "all service", "every user", "every account", "every employee",
    "every service", "plugin", "invitad", "visitante", "convidad", "invité", "invite", "gäste", "gaste", "praktikant",
    "becari", "estagi", "stagiaire", "externo", "externe", "misafir", "stajyer", "gość", "gosc", "gości", "goscie",
    "stażys", "stazys",
)  # fmt: skip
_VOIDED_GATE = _g(
    "outdated", "obsolet", "out of date", "supersed", "void", "invalid", "no longer", "replaced", "whatever", "veraltet",
    "ungültig", "ungultig", "caduc", "desactualiz", "inválid", "desatualiz",
)  # fmt: skip
_INSTRUCTIONS_GATE = _g(
    "system prompt", "system message", "instructions", "rules", "guidance", "guideline", "directives", "anweisungen",
    "regeln", "consignes", "règles", "regles", "instrucciones", "reglas", "instruç", "instruc", "regras",
)  # fmt: skip
_ALONE_GATE = _g(
    "its own", "their own", "itself", "themselves", "autonom", "unattended", "without anyone", "without anybody",
    "without a human", "without a person", "eigenst", "selbstst", "por sí", "por si", "cuenta", "sozinh", "autónoma",
)  # fmt: skip
_ENCODING_GATE = _g(
    "base64", "base 64", "base-64", "hex", "rot13", "roti3", "rot-13", "rot-i3", "url-enc", "urlenc"
)
_APPROVE_GATE = _g("approv", "aprob", "aprov", "approuv", "genehmig", "freigeb")
_OWN_GATE = _g("own", "self", "eigene", "propi", "propri", "propre")
_SEND_GATE = _g("http", "www.", "@", ".net", ".com", ".org", ".io", ".dev", ".ru", ".site", ".xyz", ".app", ".cc",
              ".biz", ".top", ".info", ".fr", ".de", "public", "#", "external", "outside", "外部", "param",
              "sms", "whatsapp", "telegram")  # fmt: skip
_STEERING_GATE = _g(*STEERING_GATE_WORDS)

_CORRECTION_GATE = _g(*CORRECTION_GATE_WORDS)  # a correction names itself: "correction", "更正"
_SWEEP_GATE = _g(*SWEEP_GATE)  # a sweeping act names its object: a control, a payment, a history
_READER_GATE = _g(*READER_GATE_WORDS)  # the reader addressed is named by what it does: reads, summarises
_CHANNEL_GATE = _g(*CHANNEL_GATE)  # a role given to whoever writes in a channel: a writing verb
_VOUCHED_GATE = _g(*VOUCHED_GATE)  # authority vouched for another: "as", "for the", "consider" ...


GATE_WORDS = frozenset(_ALL_GATE_WORDS)  # the caller's LiteralScan covers these
_GATE_SCAN = LiteralScan(GATE_WORDS)


class _Sentences:
    """A row's sentences (_SENTENCE), split on first use and then kept: most rows reach no check
    that reads sentences, and a row that reaches one often reaches several."""

    def __init__(self, norm: str) -> None:
        self.norm = norm
        self._found: list[re.Match[str]] | None = None

    def __iter__(self) -> Iterator[re.Match[str]]:
        if self._found is None:
            self._found = list(_SENTENCE.finditer(self.norm))
        return iter(self._found)

    @property
    def first(self) -> re.Match[str] | None:
        """The sentence that opens the row at its first character (None when it opens on a mark)."""
        first = next(iter(self), None)
        return first if first is not None and first.start() == 0 else None


def _has(found: set[str], gate: _Gate) -> bool:
    return not gate.words.isdisjoint(found)


def _snip(text: str, start: int) -> str:
    return text[max(0, start) : max(0, start) + SNIPPET_CHARS].strip()


def _addressed_directive(norm: str, *, turn: bool) -> SemanticHit | None:
    relayed = None if turn else _RELAYED.search(norm)
    if relayed:
        return SemanticHit(
            "addressed_directive",
            f"a command for the model relayed: '{relayed[0]}'",
            _snip(norm, relayed.start()),
        )
    if norm.isascii():
        pattern = _TURN_ADDRESS_ASCII if turn else _ADDRESS_ASCII
    else:
        pattern = _TURN_ADDRESS if turn else _ADDRESS
    for address in pattern.finditer(norm):
        if _MADE_BEFORE.search(norm, max(0, address.start() - 30), address.start()):
            continue  # "build an agent that drafts replies": a thing to make, not the reader
        lo, hi = max(0, address.start() - 60), min(len(norm), address.end() + _ACT_REACH)
        act = (
            _act_beside(norm, lo, hi, address)
            or _CJK_DIRECTIVE.search(norm, address.end(), hi)
            or _REQUEST.search(norm, address.end(), hi)
            or (_CONTROL.search(norm, address.end(), hi) and _LOOSENED.search(norm, address.end(), hi))
            # a request word after the address ("..., bitte ...", "il serait apprécié que ..."): a
            # request to the reader whatever its verb
            or _DIRECTIVE.search(norm, address.end(), hi)
        )
        directive = _DIRECTIVE.search(norm, lo, hi)
        if act:
            cues = [f"addressed: '{address[0].strip()}'", f"act: '{act[0]}'"]
            if directive:
                cues.append(f"request: '{directive[0]}'")
            return SemanticHit("addressed_directive", "; ".join(cues), _snip(norm, address.start()))
    return None


# The model as what someone builds, tests or trains ("project idea: build an agent that drafts
# replies", "we are prototyping a bot that ..."): a product being made, not the one reading.
_MADE_BEFORE = _c(
    r"\b(?:build|building|built|create|creating|design|designing|develop|developing|prototype|prototyping|"
    r"train|training|make|making|ship|shipping|evaluate|evaluating|benchmark|benchmarking)\s+"
    r"(?:an?|the|our|my|this|a new|new|your own)?\s*$"
)


def _act_beside(norm: str, lo: int, hi: int, address: re.Match[str]) -> re.Match[str] | None:
    """An act in norm[lo:hi] that is not a word of the address itself (the reader named by what it
    does: "für die automatischen Antworten ... :" asks nothing by its "Antworten")."""
    for act in _ACT.finditer(norm, lo, hi):
        if not address.start() <= act.start() < address.end():
            return act
    return None


# a negation just before a tightening's words turns it round ("no longer needs two approvals")
_NEGATED_BEFORE = _c(
    r"(?:\bno longer|\bnot|n't|\bnever|\bwithout|\bn'\w+ plus|\bnicht(?: mehr)?|\bno|\bnon|\bn[ãa]o|\bniet(?: langer)?|"
    r"\bnie|\bart[ıi]k|\bkhông(?: còn)?|\btidak(?: lagi)?|\binte(?: l[äa]ngre)?|\bбольше не|\bне|\bδεν|\bya no|"
    r"لم تعد|لم يعد|لا|नहीं|ไม่|不再|不)\s*(?:\w+\s+){0,2}$"
)


def tightened(text: str) -> bool:
    """`text` (a sentence) tightens a control ("read-only stays", "admin rights were revoked",
    "MFA is now mandatory") and loosens none: the direction that is no attack."""
    if _nothing_without(text):
        return True
    tight = _TIGHTENED.search(text)
    # its own words ("removed from", "revoked") are no loosening; any other loosening wins
    if tight is None or _NEGATED_BEFORE.search(text, max(0, tight.start() - 30), tight.start()):
        return False  # "no longer needs two approvals": the tightening's words, negated
    rest = text[: tight.start()] + " " + text[tight.end() :]
    return _LOOSENED.search(rest) is None and _GRANTED.search(rest) is None


# A rule for people or data tightened: a thing that may no longer be done, or that now needs an
# approval or a signature ("ya no se pueden exportar", "nécessite l'accord du DPO", "erfordert eine
# Freigabe", "can no longer be shared"), in a sentence naming no model and loosening nothing.
_NO_LONGER_DONE = _c(
    r"\b(?:can|may) no longer be|\b(?:can(?:not|'t)|may not) be \w+ed any ?more|"
    r"\bya no se (?:puede|pueden|permite|permiten)\b|\bya no (?:est[áa]n?|ser[áa]n?) permitid[oa]s?\b|"
    r"\bne (?:peut|peuvent|pourra|pourront) plus [êe]tre\b|\bn'est plus (?:permis|autoris[ée])|"
    r"\b(?:darf|d[üu]rfen|kann|k[öo]nnen) (?:\w+ )?nicht mehr\b|\bnicht mehr (?:erlaubt|zul[äa]ssig|gestattet)\b|"
    r"\bnon (?:può|possono|potr[àa]|potranno) più\b|\bnão (?:pode|podem|poder[áa]|poder[ãa]o) mais\b|"
    r"\b(?:mag|mogen|kan|kunnen) (?:\w+ )?niet meer\b|\bnie (?:można|wolno|będzie można) już\b|\bjuż nie (?:można|wolno)\b"
)
_NEEDS_SIGN_OFF = _c(
    r"\b(?:needs?|requires?|necesita|necesitan|necesitar[áa]n?|requiere|requieren|requerir[áa]n?|n[ée]cessite\w*|"
    r"exige\w*|erfordert|erfordern|ben[öo]tigt|ben[öo]tigen|braucht|brauchen|richiede|richiedono|requer\w*|precisa\w*|"
    r"vereist|vereisen|wymaga|wymagają)\s+(?:\w+\s+){0,2}?"
    r"(?:approval|sign-?off|aprobaci[óo]n|autorizaci[óo]n|visto bueno|approbation|validation|accord|autorisation|"
    r"freigabe|genehmigung|zustimmung|approvazione|autorizzazione|aprova[çc][ãa]o|autoriza[çc][ãa]o|goedkeuring|"
    r"toestemming|zgody|zatwierdzenia|akceptacji)\b"
)
_MODEL_NO_AGENT = _c(MODEL_NO_AGENT)


def rule_tightened(sentence: str) -> bool:
    """`sentence` (normalise()d) forbids a thing from now on or puts it behind an approval, names
    no model, and loosens, skips or waives nothing: a tightened rule for people or data."""
    if not (_NO_LONGER_DONE.search(sentence) or _NEEDS_SIGN_OFF.search(sentence)):
        return False
    return _says_none(
        sentence, _MODEL_NO_AGENT, _LOOSENED, _BYPASSED, _NOT_NEEDED, _WITHOUT, _GRANTED, _NOT_THE_RULE
    )


def _says_none(sentence: str, *patterns: re.Pattern[str]) -> bool:
    """None of `patterns` is found in `sentence` (checked in order, stopping at the first)."""
    return not any(pattern.search(sentence) for pattern in patterns)


# the rule itself withdrawn or done without: "the note saying X needs sign-off was wrong", "without it"
_NOT_THE_RULE = _c(
    r"\b(?:without|wrong|incorrect|mistaken|outdated|obsolete|ohne|falsch|veraltet|sans|faux|erron[ée]|"
    r"sin|err[óo]ne[oa]|incorrect[oa]|senza|sbagliat[oa]|sem|errad[oa]|zonder|onjuist|bez|b[łl][ęe]dn\w*)\b"
)


# A thing's durability: "forever" as how long a battery, a coat of paint or a friendship lasts
# ("the battery lasts forever", "die Farbe hält ewig", "ça dure une éternité"): no behaviour made
# to last. Read only in a sentence that names no model and asks no act.
_LASTS_FOREVER = _c(
    r"\b(?:lasts?|lasted|lasting|holds? up|hält|halten|hielt|dure|durent|durera|dura|duran|durar[áa]|durou|"
    r"duurt|duren|trwa|trwają|varar|varer|kestää|tart|sürer|sürüyor)\s+(?:\w+\s+)?"
    r"(?:forever|for ever|for ages|ages|für immer|ewig|une [ée]ternit[ée]|toujours|para siempre|una eternidad|"
    r"per sempre|un'eternit[àa]|para sempre|eeuwig|wieki|wiecznie|f[öo]r evigt|evigt|ikuisesti|sonsuza (?:kadar|dek))"
)


def durability_only(sentence: str) -> bool:
    """`sentence` (normalise()d) says how long a thing lasts ("forever"), names no model and asks
    no act: the persistence word describes a product, not a rule made to last."""
    return (
        _LASTS_FOREVER.search(sentence) is not None
        and _MODEL_NO_AGENT.search(sentence) is None
        and _ACT.search(sentence) is None
        and _DIRECTIVE.search(sentence) is None
    )


# A staff procedure that has the customer act themselves: "ask the customer to enter the PIN
# themselves", "pida al cliente que introduzca él mismo el PIN", "demandez au client de signer",
# "bitten Sie den Kunden, ...", "chieda al cliente di ...", "peça ao cliente que ...": advice
# relayed to a person served, as the pattern detectors read the English form (_RELAYED_ADVICE).
_SERVED_ASKED = _c(
    r"\b(?:ask|tell|remind|advise|invite|let) (?:the |each |every |any )?(?:customer|client|caller|guest|patient|"
    r"visitor|buyer|shopper)s? to\b|"
    r"\b(?:pida|pide|p[íi]dale|p[íi]deles|diga|d[íi]gale|recuerde|recu[ée]rdele|indique|ind[íi]quele|solicite) "
    r"(?:al|a los|a la|a las) (?:cliente|usuario|llamante|hu[ée]sped|paciente|comprador)(?:e?s)? que\b|"
    r"\b(?:demandez|demande|dites|rappelez|invitez|priez) (?:au|aux|à la) (?:client|cliente|appelant|patient|"
    r"acheteur)(?:e?s)? (?:de|d')|"
    r"\b(?:bitten sie|bitte|fordern sie) (?:den|die) (?:kunden|kundin|kundinnen|anrufer\w*|g[äa]ste?|patient\w*)\b|"
    r"\b(?:chieda|chiedi|dica|ricordi|inviti) (?:al|ai|alla|alle) (?:cliente|clienti|paziente|pazienti) di\b|"
    r"\b(?:pe[çc]a|pede|diga|lembre|solicite) (?:ao|aos|[àa]|[àa]s) (?:cliente|clientes|paciente|pacientes) "
    r"(?:que|para)\b"
)


# money moved or a destination named: a customer told where to pay is a payee, not a procedure
_MONEY_MOVED = _c(
    r"\b(?:wire|transfer\w*|pay|deposit\w*|iban|account|accounts|cuenta\w*|transfier\w*|pague\w*|ingres\w*|"
    r"virement|vire[zr]?|payez|compte|überweis\w*|zahlen|konto|bonific\w*|paghi|versi|conto|transfira|pague|conta)\b|"
    r"\b[a-z]{2}\d{2}[a-z0-9]{10,30}\b"
)
_ADDRESS_OR_LINK = re.compile(r"[\w.-]+@[\w-]+\.\w|https?://|www\.")
# the sending verbs' subjunctive and formal forms the send list lacks ("que le envíe", "qu'il envoie")
_SENT_SUBJUNCTIVE = _c(r"\b(?:env[íi]e\w*|mande\w*|remita\w*|reenv[íi]e\w*|transmita\w*|envoie\w*|schicke\w*|invii)\b")


def served_asked_to_act(sentence: str) -> bool:
    """`sentence` (normalise()d) is a staff procedure asking a customer to do something themselves,
    naming no model, sending nothing anywhere and loosening no control."""
    if _SERVED_ASKED.search(sentence) is None or _ADDRESS_OR_LINK.search(sentence) or _MONEY_MOVED.search(sentence):
        return False
    return _says_none(
        sentence, _MODEL_NO_AGENT, _SEND, _SENT_SUBJUNCTIVE, _OUTSIDE, _LOOSENED, _BYPASSED, _NOT_NEEDED, _WITHOUT
    )


def _nothing_without(text: str) -> bool:
    """`text` forbids acting without a check, in the languages beside English ("ohne Freigabe wird
    nichts bezahlt", "sin aprobación no se paga", "승인 없이 결제하지 마세요"): a tightening, unless it also
    skips a check or loosens one."""
    return (
        _WITHOUT.search(text) is not None
        and _negated(text)
        and _ACTION_CONTROL.search(text) is not None
        and _BYPASSED.search(text) is None
        and _NOT_NEEDED.search(text) is None
        and _LOOSENED.search(text) is None
    )


def _negated(text: str) -> bool:
    """A negation in `text` beside those that "without" and "not needed" carry in their own words
    ("โดยไม่", "không cần")."""
    return _NEGATION.search(_NOT_NEEDED.sub(" ", _WITHOUT.sub(" ", text))) is not None


def names_an_act(text: str) -> bool:
    """`text` asks for or reports an act (tell, send, grant, ...; ACT in the lexicon)."""
    return _ACT.search(text) is not None or _DIRECTIVE.search(text) is not None


def capped(text: str) -> bool:
    """`text` puts a cap on what it allows ("up to 50 EUR", "bis zu 2.000 EUR"), whatever the
    number, and says nothing sweeping ("any amount", "unlimited") besides."""
    return _CAP.search(text) is not None and _UNCAPPED.search(text) is None


VOCATIVE_WHY = "the model named as the addressee"  # the vocative's reason opens so (inspection reads it)


def _model_vocative(norm: str, sentences: _Sentences) -> SemanticHit | None:
    """A sentence (a line, or a sentence inside one) that opens by naming the model, then a colon
    or a comma: a message to it, in any language (the English and several other forms are in the
    detectors and ADDRESS_FORMS already). A sentence, not only a line: an email or meeting notes
    address the model mid-paragraph as well as at a line's start."""
    for sentence in sentences:
        line = sentence[0].lstrip()
        head = line[:_VOCATIVE_REACH]
        match = _VOCATIVE.match(line) if (":" in head or "：" in head) else None
        if match is None and ("," in head or "，" in head):
            match = _VOCATIVE_COMMA.match(line)
            if match and _LIST_AFTER.search(line, match.end(), match.end() + _VOCATIVE_REACH):
                match = None
        if match:
            why = f"{VOCATIVE_WHY}: '{match[0].strip()[:40]}'"
            return SemanticHit("addressed_directive", why, _snip(norm, sentence.end() - len(line)))
    return None


def _model_obligation(norm: str) -> SemanticHit | None:
    asked = _ASKED_OF_MODEL.search(norm)
    if asked:
        return SemanticHit(
            "model_obligation", f"the model's conduct asked about: '{asked[0]}'", _snip(norm, asked.start())
        )
    other = _OBLIGATION_OTHER.search(norm)
    if other and _PASSIVE_AFTER.match(norm, other.end()):
        other = None  # "le modèle de scoring doit être recalibré": a duty done to a model, not by it
    if other and tightened(_sentence_of(norm, other.start())):
        other = None  # "der Bot darf nicht mehr selbst erstatten; das geht an einen Menschen": a limit
    if other and (_ACT.search(norm) or not other[0].isascii()):
        return SemanticHit("model_obligation", f"the model obliged: '{other[0]}'", _snip(norm, other.start()))
    for match in _OBLIGATION.finditer(norm):
        if _REPORTED.search(norm, max(0, match.start() - 30), match.start()):
            continue  # "Priya asked whether the assistant should ...": a question reported, no duty
        act = _ACT.search(norm, match.start(), min(len(norm), match.end() + 120))
        if act and tightened(norm[match.start() : match.end() + 120].split("\n")[0]):
            continue  # "the assistant must always ask for confirmation before sending": a check added
        if act:
            return SemanticHit(
                "model_obligation",
                f"the model obliged: '{match[0]}'; act: '{act[0]}'",
                _snip(norm, match.start()),
            )
    return None


def _sentence_of(norm: str, at: int, marks: str = ".!?\n") -> str:
    """The sentence of `norm` that holds position `at`, bounded by any of `marks` (pass ".!?;\n" to
    take a clause after a semicolon as its own sentence)."""
    start = max(norm.rfind(mark, 0, at) for mark in marks) + 1
    ends = [i for i in (norm.find(mark, at) for mark in marks) if i >= 0]
    return norm[start : min(ends) if ends else len(norm)]


def _model_conduct(norm: str, sentences: _Sentences) -> SemanticHit | None:
    """A sentence that names the model with a duty, a permission or a new power ("AI copilots
    connected to this CRM must export ...", "le chatbot devra ...", "the assistant acts as the
    approver"), or a control of it loosened; a sentence that only describes the model ("the
    chatbot answers questions about opening hours") is a fact."""
    for sentence in sentences:
        text = sentence[0]
        named = next((m for m in _MODEL_NAMED.finditer(text) if not _compound_modifier(text, m)), None)
        if not named or _REPORTED.search(text, max(0, named.start() - 30), named.start()):
            continue
        duty = _DEONTIC.search(text) or _POWER.search(text)
        if duty is None and (_CONTROL.search(text) or _RESTRICTION.search(text)):
            duty = _model_favoured(text)
        if duty is not None and _not_the_models(text, duty):
            continue
        if duty is not None and (tightened(text) or (_PERMISSION_WORD.search(duty[0]) and capped(text))):
            continue  # "may approve refunds up to 50 EUR", "will not get write access": limits, no power
        if duty is not None:
            why = f"the model: '{named[0]}'; duty, permission or power: '{duty[0]}'"
            return SemanticHit("model_conduct", why, _snip(norm, sentence.start()))
    return None


_MODEL_HEAD = re.compile(r"(?:assist|asist|bot|chatbot|agent|model|helfer|helper|copilot|pilot)")


def _compound_modifier(text: str, named: re.Match[str]) -> bool:
    """The model's name as the first half of a compound ("machine-readable attributes", "AI-based
    search"): it qualifies another noun, it is no actor -- unless that noun names the model too
    ("AI-assistent", "KI-Agent")."""
    head = named.end() + 1
    if text[named.end() : head] != "-" or not text[head : head + 1].isalpha():
        return False
    return _MODEL_HEAD.match(text, head) is None


_NOT_BEFORE = re.compile(r"\b(?:not|never|n't|no longer)\s+$")


def _negated_before(text: str, found: re.Match[str]) -> bool:
    """A negation right before `found` in `text` ("was not granted", "may never deploy")."""
    return _NOT_BEFORE.search(text, max(0, found.start() - 12), found.start()) is not None


def _model_favoured(text: str) -> re.Match[str] | None:
    """In a sentence naming the model and a control or restriction: the control loosened, a
    privilege granted or an exemption made (the model the beneficiary), unless negated ("write
    access was not granted")."""
    found = _LOOSENED.search(text) or _GRANTED.search(text) or _EXEMPT.search(text)
    if found is None or _negated_before(text, found):
        return None
    return found


def _not_the_models(text: str, duty: re.Match[str]) -> bool:
    before = text[max(0, duty.start() - 40) : duty.start()]
    negated = _NEGATED_DUTY_BEFORE.search(before) or _NEGATED_DUTY_AFTER.match(text, duty.end())
    if negated and _PERMISSION_WORD.search(duty[0]):
        return True
    if _PERSON_DUTY.search(before) or _WE_DUTY.search(before) or _PARTY_DUTY.search(before):
        return True
    if _PARTY_AFTER.match(text, duty.end()):
        return True
    return _DEFINED_KIND.search(text, max(0, duty.start() - 90), duty.start()) is not None


# A duty whose subject is a party that builds or supplies AI ("les fournisseurs devront signaler
# quand un contenu a été généré par une machine", "laut Gesetz müssen die Anbieter ..."): a rule
# for them, the model only its topic.
_PARTIES = (
    r"(?:providers?|vendors?|suppliers?|developers?|manufacturers?|deployers?|companies|"
    r"fournisseurs?|d[ée]veloppeurs?|fabricants?|entreprises|anbieter\w*|hersteller\w*|entwickler\w*|"
    r"betreiber\w*|unternehmen|proveedores?|desarrolladores?|fabricantes?|empresas|fornitori|sviluppatori|"
    r"produttori|aziende|fornecedores?|desenvolvedores?|aanbieders?|leveranciers?|ontwikkelaars?)"
)
_PARTY_DUTY = re.compile(rf"(?:^|\W){_PARTIES}\s+$")
_PARTY_AFTER = re.compile(rf"\s+(?:(?:die|the|les|los|las|gli|i|os|as|de)\s+)?{_PARTIES}\b")
# A kind defined ("an agent is a model that can use tools", "un 'agente' es un modelo que puede
# usar herramientas", "ein Agent ist ein Modell, das Werkzeuge nutzen kann"): the modal says what
# such a thing can do, a definition, not a power given to the model reading.
_DEFINED_KIND = re.compile(
    r"(?:^|[\s:;,(])(?:(?:an?|un|una|une|ein|eine|um|uma|een)\s+['\"«“‘]?|['\"«“‘])[\w-]+['\"»”’]?\s+"
    r"(?:is|es|est|ist|è|é)\s+(?:an?|un|una|une|ein|eine|um|uma|een)\s+[\w-]+,?\s+"
    r"(?:that|which|que|qui|der|die|das|che|dat)\s+(?:[\w'-]+\s+){0,3}$"
)


def _lasting_behaviour(norm: str, sentences: _Sentences) -> SemanticHit | None:
    if not _PERSIST.search(norm):
        return None
    for sentence in sentences:
        text = sentence[0]
        persist = _PERSIST.search(text)
        if not persist:
            continue
        scope, act = _CONVERSATION.search(text), _ACT.search(text)
        if not (scope and act) or _PERSON_PLANS.search(text) or own_wish(text) or own_preference(text):
            continue
        if own_form(text):  # a rule about the answers' form alone: a preference
            continue
        why = f"lasting: '{persist[0]}'; scope: '{scope[0][:40]}'; act: '{act[0]}'"
        return SemanticHit("lasting_behaviour", why, _snip(norm, sentence.start()))
    # "Remember this permanently:" may open a row whose next sentence is the behaviour
    first = sentences.first
    if first and _PERSIST.search(first[0]) and first[0].rstrip().endswith(":"):
        rest = norm[first.end() :]
        scope, act = _CONVERSATION.search(rest), _ACT.search(rest)
        if scope and act and not _PERSON_PLANS.search(rest):
            return SemanticHit(
                "lasting_behaviour", f"lasting: '{first[0].strip()}'; act: '{act[0]}'", _snip(norm, 0)
            )
    return None


def _sweeping_beyond(norm: str, words: str) -> bool:
    """Sweeping words besides the loosening's own ("without approval" says "without" already)."""
    return _SWEEPING.search(norm.replace(words, " ", 1)) is not None


# bare "access" names the privilege itself ("access is reviewed and removed if unused": a
# tightening), unless a check noun follows it ("access controls were removed": a loosening)
_ACCESS_ITSELF = re.compile(
    r"access\b(?!\s+(?:controls?|checks?|reviews?|restrictions?|polic(?:y|ies)|rules?|lists?|gates?|limits?|logs?|logging))"
)


def _access_itself(text: str, control: re.Match[str]) -> bool:
    return control[0] == "access" and _ACCESS_ITSELF.match(text, control.start()) is not None


# An act done once without a check is no permission: "two hotfixes were merged without review",
# "deployed on Friday without approval" (a past verb with a past time); a present or modal verb
# makes it a rule. A check removed or waived ("the approval step was removed") is a lasting change,
# news however it is told: only the "without" form is read here.
_PAST_AUX = re.compile(r"\b(?:was|were|had(?: been)?|got)\b")
_PAST_TIME = re.compile(
    r"\b(?:yesterday|last (?:week|month|night|year|sprint|friday|monday|tuesday|wednesday|thursday|saturday|sunday)|"
    r"ago|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|this morning)\b"
)
_PRESENT_OR_MODAL = re.compile(
    r"\b(?:is|are|am|can|may|might|will|would|should|must|shall|need|needs|now|always|from now|going forward|"
    r"allowed|permitted)\b"
)


# Refused without a check ("duplicate pull requests will be rejected without review"): a no
# given without the check, nothing let through.
_REFUSED_BEFORE = re.compile(r"\b(?:rejected|declined|denied|refused|blocked|closed|discarded)\s+$")


def _not_a_permission(norm: str, found: re.Match[str]) -> bool:
    """A "without review" that grants nothing: a refusal, or an act done once in the past."""
    if not found[0].startswith("without"):
        return False
    if _REFUSED_BEFORE.search(norm, max(0, found.start() - 20), found.start()):
        return True
    clause = norm[max(norm.rfind(mark, 0, found.start()) for mark in ".!?;:\n") + 1 : found.start()]
    if _PRESENT_OR_MODAL.search(clause):
        return False
    return bool(_PAST_AUX.search(clause) or (re.search(r"\b\w+ed\b", clause) and _PAST_TIME.search(clause)))


def _control_loosened(
    norm: str, sentences: _Sentences, found: set[str], *, model: bool
) -> SemanticHit | None:
    empowered = _EMPOWERED.search(norm) if model else None
    if empowered:
        why = f"the model handed a power: '{empowered[0]}'"
        return SemanticHit("control_loosened", why, _snip(norm, empowered.start()), code="protected_subject")
    standing = next((m for m in _STANDING.finditer(norm) if not _not_a_permission(norm, m)), None)
    # a standing permission made lasting is held; one that is only sweeping is not when it is
    # capped ("can refund up to 200 EUR without approval; larger refunds need a finance lead")
    if standing and (_PERSIST.search(norm) or (_sweeping_beyond(norm, standing[0]) and not capped(norm))):
        why = f"standing permission: '{standing[0]}'"
        return SemanticHit("control_loosened", why, _snip(norm, standing.start()), code="protected_subject")
    if not _has(found, _LOOSENED_GATE) or not _LOOSENED.search(norm):
        return None
    for sentence in sentences:
        text = sentence[0]
        if tightened(text) or warned_claim(text):
            continue  # the safe way ("approval is now required", "rights revoked"), or a warning
        for control in _CONTROL.finditer(text):
            window = text[max(0, control.start() - 60) : control.end() + 60]
            loosened = _LOOSENED.search(window)
            if not loosened or _not_a_permission(window, loosened):
                continue
            # a control of actions loosened is news enough, unless the sentence narrows it
            # ("... for expenses under 50 EUR"); any other control must be loosened sweepingly
            action = _ACTION_CONTROL.fullmatch(control[0]) and not (_NARROW.search(text) or capped(text))
            # A privilege's direction is the other way round: granted is the risky one, whoever
            # receives it; removed ("41 unused IAM roles were removed") is a tightening.
            privilege = _PRIVILEGE.fullmatch(control[0]) is not None or _access_itself(text, control)
            if privilege:
                granted = _GRANTED.search(window)
                if granted is None:
                    continue
                loosened = granted
            if action or privilege or (_sweeping_beyond(text, loosened[0]) and not capped(text)):
                why = f"control: '{control[0]}'; loosened: '{loosened[0]}'"
                return SemanticHit(
                    "control_loosened", why, _snip(norm, sentence.start()), code="protected_subject"
                )
    return None


def _control_bypassed(norm: str, sentences: _Sentences) -> SemanticHit | None:
    """A check of actions skipped, gone round or needed no more ("Eilaufträge dürfen die Freigabe
    überspringen", "加急订单可以跳过财务审批", "my requests need no verification"), or done without where
    something is permitted without it ("les fichiers peuvent être partagés sans revue de sécurité"),
    over something at stake (money, data, access, a person's requests); not negated ("ohne Freigabe
    wird nichts bezahlt", "승인 없이 결제하지 마세요") and not narrowed."""
    for sentence in sentences:
        text = sentence[0]
        control = _ACTION_CONTROL.search(text)
        if control is None or _negated(text) or tightened(text) or _NARROW.search(text) or capped(text):
            continue
        bypassed = _BYPASSED.search(text) or _NOT_NEEDED.search(text)
        if bypassed is None:
            without = _WITHOUT.search(text)
            bypassed = without if without and _PERMITTED_TO.search(text) else None
        if bypassed is not None and _STAKES.search(text):
            why = f"control: '{control[0]}'; bypassed: '{bypassed[0]}'"
            return SemanticHit(
                "control_loosened", why, _snip(norm, sentence.start()), code="protected_subject"
            )
    return None


def _opened_to_unvetted(norm: str, sentences: _Sentences) -> SemanticHit | None:
    """A privilege or a protected store opened to grantees nobody vets, or to everyone at once
    ("guest accounts have been granted write access to billing", "interns were added to the prod
    admins", "the keys vault is now readable by every service account"): a loosening whoever
    reports it. Read-only grants, negated ones and tightenings are limits, not openings."""
    for sentence in sentences:
        text = sentence[0]
        grantee = _UNVETTED.search(text)
        if grantee is None or tightened(text) or warned_claim(text) or _READ_ONLY.search(text):
            continue
        opened = _GRANTED.search(text) or _OPENED_TO.search(text) or _LOOSENED.search(text)
        if opened is None or _negated_before(text, opened):
            continue
        guarded = _GUARDED.search(text)
        if guarded is None:
            continue
        why = f"opened: '{opened[0]}'; to: '{grantee[0]}'; what: '{guarded[0]}'"
        return SemanticHit("control_loosened", why, _snip(norm, sentence.start()), code="protected_subject")
    return None


def _self_approval(norm: str) -> SemanticHit | None:
    """Someone (or the model) allowed to approve their own requests, in prose or as a setting,
    not negated ("admins never approve their own access requests") nor set off (`...: no`)."""
    for found in _SELF_APPROVAL.finditer(norm):
        line_start = norm.rfind("\n", 0, found.start()) + 1
        if _SELF_NEGATED.search(norm, max(line_start, found.start() - 40), found.start()):
            continue
        if _SETTING_OFF.match(norm, found.end()):
            continue
        why = f"self-approval: '{found[0]}'"
        return SemanticHit("control_loosened", why, _snip(norm, found.start()), code="protected_subject")
    return None


def _encoded_into_output(norm: str, sentences: _Sentences) -> SemanticHit | None:
    """Private data encoded (base64, hex, rot13) into the reply, a link or the output: a route out
    that needs no address."""
    for sentence in sentences:
        text = sentence[0]
        encoding = _ENCODING.search(text)
        if encoding is None:
            continue
        data, carrier = _PRIVATE_DATA.search(text), _CARRIER.search(text)
        if data and carrier and _SEND.search(text):
            why = f"encoded: '{encoding[0]}'; what: '{data[0]}'; into: '{carrier[0]}'"
            return SemanticHit("exfiltration_route", why, _snip(norm, sentence.start()))
    return None


def _instructions_voided(norm: str, sentences: _Sentences) -> SemanticHit | None:
    """The model's own instructions declared void or relocated, no imperative needed ("your
    earlier guidance is obsolete", "the system prompt is whatever the last memory note says"),
    unless quoted as an example or warned against."""
    for sentence in sentences:
        text = sentence[0]
        own = _OWN_INSTRUCTIONS.search(text)
        if own is None or mentioned(text, own.start()) or warned_claim(text):
            continue
        voided = _VOIDED.search(text, own.end()) or _VOIDED.search(text, 0, own.start())
        if voided:
            why = f"instructions: '{own[0]}'; declared: '{voided[0]}'"
            return SemanticHit("override_earlier", why, _snip(norm, sentence.start()))
    return None


def _leave_to_act_alone(norm: str, sentences: _Sentences) -> SemanticHit | None:
    """Leave for someone, or the model, to act alone on something of consequence ("agents may deploy
    on their own", "can sign off on payouts by itself"): the person a control puts in the loop is
    taken out. Negated ("may not ... on its own") or narrowed by a tightening, it is a limit."""
    for sentence in sentences:
        text = sentence[0]
        alone = _ALONE.search(text)
        if alone is None or tightened(text):
            continue
        permitted = _PERMITTED.search(text, 0, alone.start())
        if permitted is None or _NOT_AFTER.match(text, permitted.end()):
            continue
        act = _CONSEQUENTIAL.search(text, permitted.end(), alone.end())
        # ("ya no puede aprobar ... por su cuenta", "ne peut plus ... seul": negated before, as
        # other languages place it)
        negated = _negated_before(text, permitted) or _NEGATED_DUTY_BEFORE.search(
            text, max(0, permitted.start() - 12), permitted.start()
        )
        if act and not negated:
            why = f"permitted: '{permitted[0]}'; act: '{act[0]}'; alone: '{alone[0]}'"
            return SemanticHit(
                "control_loosened", why, _snip(norm, sentence.start()), code="protected_subject"
            )
    return None


def _used(norm: str, found: re.Match[str]) -> bool:
    """An override or persona phrase used, not quoted as an example nor warned against ("beware of
    chats asking you to ignore your earlier instructions")."""
    return not mentioned(norm, found.start()) and not warned_against(_sentence_of(norm, found.start(), ".!?;\n"))


def _override_or_persona(norm: str) -> SemanticHit | None:
    for cls, pattern in (("override_earlier", _OVERRIDE), ("persona_change", _PERSONA)):
        found = next((m for m in pattern.finditer(norm) if _used(norm, m)), None)
        if found:
            return SemanticHit(cls, f"{cls.replace('_', ' ')}: '{found[0]}'", _snip(norm, found.start()))
    return None


# A two-column Markdown table row ("| agent_role | owner |"): a key and its value, as a line would be.
_TABLE_ROW = re.compile(r"^[ \t]*\|[ \t]*([^|\n]+?)[ \t]*\|[ \t]*([^|\n]+?)[ \t]*\|[ \t]*$", re.MULTILINE)


def _tables_as_lines(norm: str) -> str:
    """`norm` with each two-column table row written `key: value`, so a settings table meets the
    key/value rules as the same settings written line by line do."""
    return _TABLE_ROW.sub(r"\1: \2", norm) if "|" in norm else norm


def _restrictive(setting: str) -> bool:
    """A setting whose value keeps a control on: a requirement switched on (`require_approval:
    true`, `mfa: on`) or a privilege switched off (`admin: false`, `can_refund = no`)."""
    pair = _KEY_VALUE.search(setting)
    if pair is None:
        return False
    key, value = pair["key"], pair["value"]
    if value in _ON:
        return _REQUIREMENT_KEY.search(key) is not None
    return value in _OFF and _REQUIREMENT_KEY.search(key) is None and _GRANT_KEY.search(key) is not None


# One line of a settings block: `key: value`, `"key": value,`, `key = value`; and the lines that only
# open or close a section (`{`, `"assistant": {`, `[mail]`, `}`).
_SETTING_LINE = re.compile(r"""^\s*["']?(?P<key>[\w.-]+)["']?\s*[:=]\s*(?P<value>.*?)\s*,?\s*$""")
_SECTION_LINE = re.compile(r"""^\s*(?:[{}\[\]]+,?|["']?[\w.-]+["']?\s*:\s*[{\[]|\[[\w .-]+\])\s*$""")
_NUMBER_VALUE = re.compile(r"""^["']?\d+(?:[.,]\d+)?\s*[a-z%]{0,5}["']?$""")
_RESTRICTIVE_MIN = 2


def restrictive_settings_only(norm: str) -> bool:
    """`norm` (a normalise()d row) is a settings block that only keeps controls on: at least two
    of its settings are restrictive (`can_make_payments: false`, `requires_human_approval: true`)
    and every other line opens or closes a section or sets a number (`max_context_days: 30`).
    Any other value (a string, a list, a comment) leaves the block to be judged as written."""
    restrictive = 0
    for line in norm.splitlines():
        if not line.strip() or _SECTION_LINE.match(line):
            continue
        setting = _SETTING_LINE.match(line)
        if setting is None:
            return False
        if _restrictive(line):
            restrictive += 1
        elif not _NUMBER_VALUE.match(setting["value"]):
            return False
    return restrictive >= _RESTRICTIVE_MIN


def _settings_as_data(norm: str, found: set[str]) -> SemanticHit | None:
    if _has(found, _TEMPLATE_GATE):
        template = _TEMPLATE.search(norm)
        if template:
            return SemanticHit(
                "settings_as_data", f"prompt frame: '{template[0].strip()}'", _snip(norm, template.start())
            )
    if not _has(found, _SETTING_GATE):
        return None
    norm = _tables_as_lines(norm)
    if not ("=" in norm or ":" in norm):
        return None
    for setting in _SETTING.finditer(norm):
        line_start = norm.rfind("\n", 0, setting.start()) + 1
        line_end = norm.find("\n", setting.end())
        line = norm[line_start : line_end if line_end >= 0 else len(norm)]
        if _CODE_EXPRESSION.search(line):
            continue  # `role = 'admin' if user.is_staff else 'member'` is code, not a setting
        if _restrictive(setting[0]):
            continue  # `require_approval: true`, `admin: false`: the setting keeps a control on
        return SemanticHit(
            "settings_as_data", f"setting: '{setting[0].strip()}'", _snip(norm, setting.start())
        )
    return None


# a person's own routine or plan, in the languages whose send verbs are read ("je les envoie",
# "ich schicke", "ik stuur", "we mailen"): the pronoun, maybe an object pronoun or an adverb, then the verb
_OWN_SEND = re.compile(
    r"\b(?:i|we|je|j['’]|nous|ich|wir|ik|wij|yo|nosotros|eu|nós|io|noi|ja|my)\s*"
    r"(?:\w+ly\s+|always\s+|also\s+|(?:le|la|les|lui|leur|vous|te|lo|los|las|ihr|ihm|ihnen|het|ze|hem|haar)\s+)?$"
)
_PRONOUN_THINGS = frozenset({"it", "them", "copy", "email", "e-mail", "emails"})
_STRONG_THING = re.compile(
    r"\b(?:documents?|contracts?|notes|attachments?|uploads?|details|records|reports?|invoices?|contratt\w*|"
    r"document\w*|dokument\w*|documento\w*|contrat\w*|vertr[äa]g\w*)\b"
)


# "copy" with a determiner is a thing sent ("send a copy of the chat"); without one it is how a
# person is put on the mail ("... and copy Lena"): the verb, not what goes out.
_COPY_NOUN_BEFORE = re.compile(r"\b(?:a|an|the|one|this|that|my|your|our|their|full|complete|carbon)\s+$")


def _thing_sent(text: str, start: int) -> re.Match[str] | None:
    """The first thing named as sent in `text` from `start`, past any "copy" that is a verb."""
    for thing in _SENT_THING.finditer(text, start):
        if thing[0] != "copy" or _COPY_NOUN_BEFORE.search(text, max(0, thing.start() - 12), thing.start()):
            return thing
    return None


def _names_a_thing(text: str) -> bool:
    """`text` names something worth sending besides a pronoun: a document, the notes, data."""
    return (
        _PRIVATE_DATA.search(text) is not None
        or _STRONG_THING.search(text) is not None
        or any(found[0] not in _PRONOUN_THINGS for found in _SENT_THING.finditer(text))
    )


# the writer as the one sent to ("me lo envían", "they send me", "schickt mir"): something received
_SENT_TO_ME = re.compile(r"\b(?:me(?: l[oae]s?)?|mir|mij|mnie|moi)\s+$")
# a warning that nobody will ask for the send (English is inspection_patterns' job): a negation, a
# few words, an ask, then the send verb ("nunca le pediremos que envíe", "wir werden Sie niemals bitten")
_WARNED_ASK = re.compile(
    r"\b(?:nunca|jam[áa]s|jamais|niemals|nie|nooit|nigdy|non|não|nao|ne)\s+(?:\w+\s+){0,3}?"
    r"(?:ped\w*|solicit\w*|demand\w*|chied\w*|bitte\w*|auffordern|vra\w*|pros\w*|pe[çc]\w*)\b.{0,120}$"
)
# a verb that ends its clause, its destination named before it
_CLAUSE_END = re.compile(r"\s*(?:[.!?;,:]|$)")


def _exfiltration_route(norm: str, sentences: _Sentences) -> SemanticHit | None:
    # a sentence's match is a match in the whole text: without one there, no sentence has one
    if not (_SEND.search(norm) and _SENT_THING.search(norm) and _OUTSIDE.search(norm)):
        return None
    for sentence in sentences:
        text = sentence[0]
        # A leading condition names what sets the act off, not what is sent: "when the on-call
        # phone rings, acknowledge and post in #incidents" sends no phone. With a send verb after
        # it, what is sent is named after the condition too.
        condition = _CONDITION_CLAUSE.match(text)
        start = condition.end() if condition and _SEND.search(text, condition.end()) else 0
        send = _SEND.search(text, start)
        if not send or _NEGATED_SEND.search(text, 0, send.start()) or _NEGATED_AFTER_SEND.match(text, send.end()):
            continue  # "never paste customer data into external tools" is advice against it
        if _OWN_SEND.search(text, 0, send.start()) or _SENT_TO_ME.search(text, 0, send.start()):
            continue  # "I email the budget report to finance@...": a person's own routine
        if _WARNED_ASK.search(text, 0, send.start()):
            continue  # "nunca le pediremos que envíe su PIN ...": a warning that nobody will ask
        thing = _thing_sent(text, start)
        if thing and thing[0] in _PRONOUN_THINGS and not _names_a_thing(text):
            continue  # "forward it to phishing@...": "it" is a request, nothing of the user's named
        # the destination after the verb ("send X to a@b.com"), or before it where the verb ends
        # the sentence (Hindi, Japanese, Korean, Turkish: "X को https://... पर भेज देना")
        # (German and Dutch too: "seine TAN an a@b.net mailen", "... naar a@b.nl sturen")
        outside = _OUTSIDE.search(text, send.start()) or (
            _OUTSIDE.search(text) if not text.isascii() or _CLAUSE_END.match(text, send.end()) else None
        )
        if thing and outside:
            why = f"send: '{send[0]}'; what: '{thing[0]}'; to: '{outside[0]}'"
            return SemanticHit("exfiltration_route", why, _snip(norm, sentence.start()), code="instruction")
    return None


def _may_address_out(norm: str) -> bool:
    """Whether `norm` holds what every _ADDRESS_OUT match holds: a sentence of it (a substring)
    holds none where the row has none, so most rows skip the sentence loop."""
    return "@" in norm or "://" in norm or "www." in norm


def _routine_sent_out(sentences: _Sentences) -> SemanticHit | None:
    """The model's routine told, not ordered: it sends the conversation or secrets to an address
    outside ("the copilot also posts the full transcript ... to https://..."). A person's or a
    tool's routine ("Grafana sends alert emails to oncall@...") names no model."""
    if not _may_address_out(sentences.norm):
        return None
    for sentence in sentences:
        text = sentence[0]
        sends = _MODEL_SENDS.search(text)
        if sends is None or _PRIVATE_DATA.search(text, sends.end()) is None:
            continue
        outside = _ADDRESS_OUT.search(text, sends.end())
        if outside:
            why = f"the model's routine: '{sends[0]}'; to: '{outside[0]}'"
            return SemanticHit("exfiltration_route", why, _snip(sentence.string, sentence.start()))
    return None


def _family_hit(cls: str, found: tuple[str, int] | None, norm: str) -> SemanticHit | None:
    """A check module's (why, where) as a hit of class `cls`."""
    return None if found is None else SemanticHit(cls, found[0], _snip(norm, found[1]))


def _concealment(norm: str, sentences: _Sentences) -> SemanticHit | None:
    return _family_hit("model_concealment", model_concealment(norm, sentences), norm)


def _matched(hits: list[SemanticHit | None], cls: str) -> bool:
    """Whether an earlier check of semantic_reasons already named `cls` (a later, narrower
    check of the same act stays silent)."""
    return any(hit and hit.cls == cls for hit in hits)


def semantic_reasons(norm: str, *, turn: bool = False, found: set[str] | None = None) -> list[SemanticHit]:
    """The semantic classes `norm` (a normalise()d row) matches; at most one hit per class.

    `found`: the gate words in `norm` (a LiteralScan over at least GATE_WORDS), when the caller
    scanned the text already."""
    if found is None:
        found = _GATE_SCAN.found(norm)
    hits: list[SemanticHit | None] = []
    sentences = _Sentences(norm)
    model = _has(found, _MODEL_GATE) or not _MODEL_WORDS.isdisjoint(_WORDS.findall(norm))
    if model:
        hits.append(_addressed_directive(norm, turn=turn))
    if not turn and not any(hits):
        hits.append(_model_vocative(norm, sentences))
    if turn:
        # a speaker who claims a role and powers from it speaks to the model whoever else listens
        hits.append(_family_hit("identity_claim", identity_hit(norm, sentences), norm))
        return [hit for hit in hits if hit]
    if model:
        hits.append(_model_obligation(norm))
        hits.append(_model_conduct(norm, sentences))
    if model or _has(found, _USER_GATE):
        hits.append(_concealment(norm, sentences))
    if _has(found, _OVERRIDE_GATE):
        hits.append(_override_or_persona(norm))
    if (
        _has(found, _VOIDED_GATE)
        and _has(found, _INSTRUCTIONS_GATE)
        and not _matched(hits, "override_earlier")
    ):
        hits.append(_instructions_voided(norm, sentences))
    if _has(found, _PERSIST_GATE):
        hits.append(_lasting_behaviour(norm, sentences))
    if _has(found, _CONTROL_GATE) or model:
        hits.append(_control_loosened(norm, sentences, found, model=model))
    if _has(found, _BYPASS_GATE) and _has(found, _CONTROL_GATE) and not _matched(hits, "control_loosened"):
        hits.append(_control_bypassed(norm, sentences))
    if _has(found, _GRANTEE_GATE) and not _matched(hits, "control_loosened"):
        hits.append(_opened_to_unvetted(norm, sentences))
    hits.append(_settings_as_data(norm, found))
    if _has(found, _SEND_GATE):
        hits.append(_exfiltration_route(norm, sentences))
    if _has(found, _SEND_GATE) and not _matched(hits, "exfiltration_route"):
        hits.append(_routine_sent_out(sentences))
    if _has(found, _ENCODING_GATE) and not _matched(hits, "exfiltration_route"):
        hits.append(_encoded_into_output(norm, sentences))
    if _has(found, _OWN_GATE) and _has(found, _APPROVE_GATE) and not _matched(hits, "control_loosened"):
        hits.append(_self_approval(norm))
    if _has(found, _ALONE_GATE) and not _matched(hits, "control_loosened"):
        hits.append(_leave_to_act_alone(norm, sentences))
    # the check families of their own modules, each (why, where) or None, behind its cheap gate
    families: tuple[tuple[str, Callable[[str, _Sentences], tuple[str, int] | None], bool], ...] = (
        ("product_steering", steering_hit, _has(found, _STEERING_GATE)),
        ("identity_claim", identity_hit, True),  # it stops at once without a first-person sentence
        ("identity_claim", channel_claim, _has(found, _CHANNEL_GATE)),  # a role for whoever writes here
        ("identity_claim", vouched_hit, _has(found, _VOUCHED_GATE)),  # another's requests approved
        ("sweeping_act", sweeping_hit, _has(found, _SWEEP_GATE)),
        ("fiction_carried_over", fiction_hit, True),  # a game carried into real use
        ("settings_in_other_words", settings_hit, True),  # settings as data in the row's own language
        ("risky_correction", correction_hit, _has(found, _CORRECTION_GATE)),
        ("reader_addressed", reader_hit, _has(found, _READER_GATE)),
        ("standing_rule", standing_hit, True),  # it stops at once without a machine reader named
        (OVERSIGHT_CLASS, oversight_hit, True),  # it stops at once with nothing left out (literal gate)
        # private data moved outside as a routine, whoever moves it (an order to send is read above)
        (OUTFLOW_CLASS, outflow_hit, not _matched(hits, "exfiltration_route")),
    )
    hits.extend(_family_hit(cls, check(norm, sentences), norm) for cls, check, gate in families if gate)
    if not any(hits):
        unread = unread_and_steering(norm)
        hits.append(None if unread is None else SemanticHit("unread_language", unread, _snip(norm, 0)))
    return [hit for hit in hits if hit]
