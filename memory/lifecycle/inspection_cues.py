# ruff: noqa: E501, RUF001 -- word lists read better unbroken; full-width punctuation is matched on purpose
"""The classifier's structural cues, pure: which ideas a row names, in many languages.

A cue group is one idea (the model named, earlier instructions set aside, a behaviour made to
last, a protected subject, a control loosened ...) as plain words in English, German, French,
Spanish, Italian, Portuguese, Dutch, Polish, Turkish, Russian, Chinese, Japanese, Korean,
Vietnamese, Hindi and Arabic, and (_MORE_LANGUAGES) fifteen more. They are features of inspection_classifier, not verdicts: the
classifier learns from the training split how much each cue (and each pair of cues) weighs, and
because a cue is the same feature in every language, what it learns from German or Japanese
attacks carries over to Korean or Portuguese ones.

Matching runs on `spaced(norm)`: the normalised text with punctuation turned into single spaces.
An entry ending in a space is a whole word (" bot "), any other a word start ("assistent" also
matches "assistente"); ASCII rows are matched by dict lookups of their word n-grams, other rows
by substring search. Cyrillic entries pass through normalise()'s look-alike map, as the text does.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memory.lifecycle.inspection_lexicon import DUTY_AFTER_SUBJECT, DUTY_BY_LANGUAGE, DUTY_ENDINGS, HOMOGLYPHS
from memory.lifecycle.inspection_patterns import LiteralScan, text_form

_PUNCT = re.compile(r"[\s.,;:!?()\[\]{}\"'«»“”‘’|<>/\\=*#`~_\-，。：；！？、（）「」『』]+")


# Latin letters written flush against CJK or Hangul ("致AI", "AI에게"): a space between them lets
# the whole-word entries (" ai ", " bot ") match there as they do in spaced-out scripts.
_CJK_LATIN = re.compile(
    r"(?<=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])(?=[a-z0-9])|(?<=[a-z0-9])(?=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])"
)


def spaced(norm: str) -> str:
    """`norm` with punctuation as single spaces, padded: the text cue groups search."""
    text = _PUNCT.sub(" ", norm).strip()
    if not text.isascii():
        text = _CJK_LATIN.sub(" ", text)
    return f" {text} "


_RAW_GROUPS: dict[str, tuple[str, ...]] = {
    # the model named (unambiguous nouns)
    "model": (
        " ai ", " a i ", "assistant", " chatbot", " bot ", " bots ", " llm", "language model", "copilot", " gpt", "chatgpt",
        " claude", " gemini", " ki ", " ki ", "assistent", "sprachmodell", " ia ", "modèle de langage", "asistente",
        "assistente", "intelligenza artificiale", "inteligencia artificial", "intelligence artificielle",
        "inteligência artificial", "asystent", "sztuczna inteligencja", "yapay zek", "asistan", " ии ", "ассистент", "бот",
        "нейросет", "助手", "人工智能", "机器人", "アシスタント", "ボット", "人工知能", "チャットボット", "어시스턴트", "인공지능",
        "챗봇", "trợ lý", "trí tuệ nhân tạo", "सहायक", "एआई", "المساعد", "الذكاء الاصطناعي", "الذكي", "asisten ",
        "virtual", "digital helper", "automated", "model ", "modelo", "modello", "модел", "模型", "モデル", "모델",
    ),
    # readers that are people as often as models
    "agent": (" agent", "agente", "агент", "에이전트", "エージェント", "代理", " helper", "system that", "whoever", "whatever system"),
    # the reader of this very text
    "reader": (
        "reading this", "reads this", "read this", "processing this", "processing these", "sees this", "see this",
        "came across", "comes across", "later", "downstream", "dies liest", "das liest", "qui lit", "lira", "lea esto",
        "lee esto", "que lea", "legge", "leggerà", "ler esta", "que ler", "lendo", "die dit leest", "czyta", "okuyan",
        "прочитает", "читает", "阅读本", "读到", "読んで", "読む", "읽는", "đang đọc", "पढ़ने वाले", "يقرأ",
    ),
    # earlier instructions set aside
    "override": (
        "ignore", "disregard", "forget", "override", "bypass", "obsolete", "no longer apply", "ignoriere", "vergiss",
        "missachte", "oublie", "olvida", "ignora", "dimentica", "esqueça", "negeer", "vergeet", "ignoruj", "zapomnij",
        "yok say", "görmezden", "игнорируй", "забудь", "忽略", "无视", "忘记", "無視", "忘れ", "무시", "잊어", "bỏ qua",
        "अनदेखा", "تجاهل",
    ),
    "instructions": (
        "instruction", "previous", "earlier", "prior", " rules", "guidance", "anweisung", "règles", "consigne",
        "instrucciones", "reglas", "istruzioni", "regole", "instruções", "regras", "instructies", "instrukcj", "talimat",
        "инструкци", "указани", "правил", "指示", "指令", "规则", "ルール", "지시", "규칙", "hướng dẫn", "निर्देश",
        "التعليمات",
    ),
    # a behaviour made to last
    "persist": (
        "from now on", " always", "forever", "permanent", "every time", "whenever", "all future", "every future",
        "every chat", "every conversation", "going forward", "all later", "sticks", "across sessions", "every session",
        "after today", "ab sofort", " immer", "dauerhaft", "künftig", "désormais", "toujours", "à partir de maintenant",
        "de ahora en adelante", "siempre", "cada vez", "d'ora in poi", "sempre", "ogni volta", "a partir de agora",
        "voortaan", "altijd", "od teraz", "zawsze", "bundan sonra", "her zaman", "отныне", "всегда", "навсегда",
        "запомни", "以后", "今后", "每次", "永远", "始终", "今後", "毎回", "常に", "앞으로", "항상", "매번", "từ nay",
        "luôn", "हमेशा", "دائما", "من الآن",
    ),
    # a request or an imperative aimed at the reader (not Polish " ty ": Vietnamese "công ty" is "company")
    "request": (
        " please", " you ", " your ", " you'", "bitte", " du ", " dich ", " dir ", " vous ", " tu ", "s'il", "por favor",
        " puedes", " usted", "per favore", " você", " jij ", " je ", "alsjeblieft", "proszę", "lütfen", " ты ",
        " вы ", "пожалуйста", "你", "您", "请", "ください", "お願い", "주세요", "하세요", "마세요", "십시오", "hãy",
        "कृपया", "करें", "من فضلك", "would be wonderful", "would be nice", "would help", "it would", "wouldn't it",
        "ideal answer", "should", " must", "shall",
    ),
    # someone other than the writer: the user or customer the model talks to
    "user": (
        " user", "customer", "usuario", "utente", "usuário", "cliente", "nutzer", "kunde", "utilisateur", "пользовател",
        "用户", "ユーザー", "사용자", "người dùng", "उपयोगकर्ता", "المستخدم", "kullanıcı", "użytkownik", "gebruiker",
        "anyone", "people", "caller",
    ),
    # an act of the model in the conversation or on the user's world
    "act": (
        " tell", " say ", " respond", " reply", " answer", "recommend", "reveal", " share", " send", "forward",
        " mention", " deny", " claim", " approve", " grant", " describe", " agree", " nudge", " waive", " execute",
        " sag", "antworte", "empfiehl", "schick", " dis ", "réponds", "recommande", "envoie", " di ", "dile", "responde",
        "recomienda", "envía", "menciones", "rispondi", "consiglia", "invia", "fornisci", "diga", "responda",
        "recomende", "envie", " zeg ", "antwoord", " geef", "stuur", "powiedz", "odpowiad", "twierdź", "wyślij",
        "söyle", "gönder", "скажи", "отвечай", "отправь", "сообщи", "рекомендуй", "告诉", "回答", "推荐", "发送",
        "透露", "伝え", "答え", "勧め", "送信", "教え", "알려", "추천", "답변", "보내", "말해", "언급", "tiết lộ",
        " nói", "gửi", "बताएं", "भेजें", "أرسل", "أخبر",
    ),
    # a protected subject: rights, approvals, checks, secrets of the prompt
    "protected": (
        "permission", " admin", "administrator", "approval", "confirmation", " review", "verification", " verified",
        " 2fa", " mfa", "password", "system prompt", "credential", " role", " access", " limit", " cap ", "privilege",
        " rights", "allow list", "allowlist", "sign off", "human check", "identity check", "trust level", "owner",
        "berechtigung", "genehmigung", "freigabe", "bestätigung", "passwort", "autorisation", "approbation",
        "mot de passe", "droits", "permisos", "aprobación", "confirmación", "contraseña", " código", "autorizzazione",
        "approvazione", "conferma", "permissão", "aprovação", "confirmação", "senha", "rechten", "goedkeuring",
        "uprawnieni", "zatwierdz", "hasło", "yetki", " onay", "şifre", "подтверждени", "права", "пароль", "доступ",
        "администратор", "审批", "权限", "密码", "管理员", "确认", "验证", "承認", "権限", "パスワード", "確認",
        "관리자", "비밀번호", "권한", "승인", "확인", "quản trị", "mật khẩu", "lời nhắc hệ thống", "كلمة المرور",
        "صلاحيات", "hidden configuration", "configuration text", "spending", "authority",
        # the system prompt as other languages write it ("Systemprompt", "prompt système", ...)
        "systemprompt", "system-prompt", "systemanweisung", "prompt système", "prompt du système",
        "prompt del sistema", "prompt de sistema", "prompt do sistema", "prompt di sistema", "systeemprompt",
    ),
    # a control loosened or skipped
    "loosen": (
        "removed", "lifted", "no longer", "disabled", "retired", "waived", " skip", "without", "directly", "any amount",
        "any size", "unlimited", " all domains", "no approval", " false ", " never ", " none ", "unrestricted", "not bother",
        "by itself", "entfällt", " ohne ", "supprimé", " sans ", " sin ", "eliminad", " senza ", " sem ", " zonder ",
        " bez ", "olmadan", " без ", "не нужн", "не спрашива", "отмен", "取消", "无需", "不需要", "直接", "不要",
        "廃止", " 없이", "폐지", "không cần", "بدون", "no content rules", "no rules", "unfiltered", " now includes",
    ),
    # keeping something from the user
    "conceal": (
        "don't mention", "do not mention", "never mention", "quietly", "silently", "do not tell", "don't tell",
        "no menciones", "non dire", "nunca mencione", "不要提", "言わない", "언급하지 마", "не говори", "nicht erwähnen",
        "ne mentionne pas", "never mentions", "change the subject", "never reveal",
    ),
    # somewhere outside
    "outside": (
        "http", "www ", " com ", " net ", " io ", " org ", " co ", " cn ", " tr ", " example ", "gmail", "proton",
        "drive", "webhook", "外部", "external", "الخارجي",
    ),
    # make-believe aimed at the model
    "roleplay": (
        "you are ", "pretend", "imagine you", "play a game", "in character", "stay in role", "act as", "story mode",
        "scene for", " eres ", " sei ", "du bist", "tu es ", " ты ", "你是", "당신은", "あなたは", "narrator",
    ),
    # the writer speaking of themselves or of a person's plans and tastes
    "self": (
        " i ", " i'm ", " i've ", " my ", " me ", "note to self", "reminder for future", "learned", "prefers", "likes",
        "wants", "plans", "intends", "would like", "user's", "自分用", "для себя", "mi ", " mio ", " meu ", " mein ",
        "wants to", "prefer", "喜欢", "计划", "vuole", "quiere", "plan ",
    ),
    # a warning about attacks or advice to people
    "advice": (
        "phishing", "attacker", "scam", "report them", "report it", "report any", "security training", "tip",
        "never share your", "don't share your", "consejo", "helpdesk", "hang up", "vault", "rotate",
    ),
}  # fmt: skip

# The same ideas in more languages (issue 29's second corpus: Indonesian and Malay, Swedish, Danish
# and Norwegian, Finnish, Greek, Hebrew, Thai, Czech, Romanian, Hungarian, Swahili, Tagalog,
# Persian, Bengali, Ukrainian). Without them a row in these languages has no directive cue and is
# never scored, whatever the classifier learned from the others.
_MORE_LANGUAGES: dict[str, tuple[str, ...]] = {
    "model": (
        "pembantu ai", "kecerdasan buatan", "tekoäly", "avustaja", "βοηθ", "τεχνητή νοημοσύνη", "μοντέλο", "עוזר",
        "בינה מלאכותית", "מודל", "ผู้ช่วย", "ปัญญาประดิษฐ์", "โมเดล", "umělá inteligence", "umělé inteligenc",
        "inteligența artificială", "inteligenta artificiala", "asszisztens", "mesterséges intelligencia", "msaidizi",
        "akili bandia", "modeli ", "modelu ", " bota ", " botowi ", "النموذج", "модели ", "دستیار", "هوش مصنوعی", "مدل", "সহকারী", "এআই", "асистент",
        "штучн", " ші ", "मॉडल",
    ),
    "reader": (
        "membaca ini", "yang membaca", "som läser", "der læser", "som leser", "joka lukee", "lukee tämän",
        "που διαβάζει", "שקורא", "הקורא", "ที่อ่าน", "který čte", "která čte", "čte tuto", "care citește", "olvassa",
        "inayosoma", "anayesoma", "nagbabasa", "می‌خواند", "میخواند", "যে পড়ছে", "що читає", "читає",
    ),
    "override": (
        "abaikan", "lupakan", "ignorera", "glöm", " glem ", "unohda", "αγνόησε", "ξέχασε", "התעלם", "שכח", "ลืม",
        "เพิกเฉย", "zapomeň", "ignoră", "uită", "felejtsd", "figyelmen kívül", "puuza", "sahau", "kalimutan",
        "نادیده بگیر", "فراموش کن", "ভুলে যাও", "উপেক্ষা", "ігноруй",
    ),
    "instructions": (
        "instruksi", "arahan", "aturan", "instruktion", "regler", "ohjeet", "ohjeita", "säännöt", "οδηγίες",
        "הוראות", "คำสั่ง", "pokyny", "pravidla", "instrucțiuni", "reguli", "utasítás", "szabály", "maagizo",
        "sheria", "tagubilin", "دستورالعمل", "নির্দেশ", "інструкці", "правила",
    ),
    "persist": (
        "mulai sekarang", "mulai hari ini", "selalu", "selamanya", "från och med nu", "för alltid", " alltid ",
        "fra nu af", "fra nå av", " altid ", "tästä lähtien", " aina ", "ikuisesti", "από εδώ και πέρα", "πάντα",
        "מעכשיו", "תמיד", "ต่อจากนี้", "ตลอดไป", "เสมอ", "od teď", "od nynějška", "vždy", "navždy",
        "de acum înainte", "întotdeauna", "mereu", "mostantól", "mindig", "kuanzia sasa", "daima", "kila wakati",
        "mula ngayon", "palagi", "od dziś", "od dzisiaj", "с этого момента", "从现在起", "从今以后", "今から", "از این پس", "همیشه", "এখন থেকে", "সবসময়", "відтепер", "завжди", "назавжди",
        "अब से",
    ),
    "request": (
        "tolong", "jangan", "hãy", "snälla", " du ", "venligst", "vennligst", "ole hyvä", "älä ", "παρακαλώ",
        "בבקשה", "กรุณา", "prosím", "vă rog", "kérlem", "tafadhali", "pakiusap", "لطفا", "দয়া করে", "будь ласка",
        "nicest thing", "a favour", "a favor", "do everyone a",
    ),
    "user": (
        "pengguna", "pelanggan", "användare", "kund", "bruger", "bruker", "käyttäjä", "asiakas", "χρήστ", "πελάτ",
        "משתמש", "לקוח", "ผู้ใช้", "ลูกค้า", "uživatel", "zákazník", "utilizator", "felhasználó", "ügyfél",
        "mtumiaji", "wateja", "gumagamit", "کاربر", "ব্যবহারকারী", "গ্রাহক", "користувач", "клієнт",
    ),
    "act": (
        "kirim", "bagikan", "setujui", "luluskan", "beri tahu", "katakan", "skicka", "berätta", " säg ", "godkänn",
        "fortæl", "fortell", "godkend", "godkjenn", "lähetä", "kerro", "hyväksy", "στείλε", "πες", "ενέκρινε",
        "שלח", "תגיד", "תאשר", "ส่ง", "บอก", "อนุมัติ", "pošli", "řekni", "schval", "trimite", "spune", "aprobă",
        "küldd", "mondd", "hagyd jóvá", "tuma", "mwambie", "idhinisha", "ipadala", "sabihin", "aprubahan",
        "ارسال کن", "بگو", "পাঠাও", "বলো", "надішли", "кажи", "就说", "말하", "auto approve",
        # approving or carrying out, in the first sixteen languages too
        "führe", "ausführ", "genehmig", "approuve", "accorde", "aprueba", "approva", "aprove", "keur ", "onayla",
        "одобр", "批准", "执行", "実行",
    ),
    "protected": (
        "kata sandi", "persetujuan", "izin", " akses", "lösenord", "behörighet", "adgangskode", "passord",
        "salasana", "hyväksyn", "oikeud", "κωδικ", "έγκριση", "δικαιώματα", "סיסמ", "אישור", "הרשא", "รหัสผ่าน",
        "สิทธิ์", "การอนุมัติ", "heslo", "hesla", "oprávnění", "schválení", "parol", "aprobare", "permisiun",
        "jelszó", "jelszav", "jóváhagy", "jogosultság", "nenosiri", "ruhusa", "رمز عبور", "تایید", "دسترسی",
        "পাসওয়ার্ড", "অনুমোদন", "парол", "дозвіл", "підтвердж", " root ", "zgod", "as root",
    ),
    "loosen": (
        "tanpa", " utan ", " uden ", " uten ", "ilman", "χωρίς", "בלי", "ללא", "โดยไม่", "ไม่ต้อง", "fără",
        "nélkül", " bila ", "walang", "ছাড়া", "без перевір",
        "not required", "no longer required", "discontinued", "nie pytać", "bez zgody",
        # "no longer", in the first sixteen languages too
        "nicht mehr", "n'est plus", "plus besoin", "ya no", "non più", "não é mais", "niet meer", "już nie",
        "artık gerek", "больше не", "不再", "もう必要", "더 이상", "không còn",
    ),
    "conceal": (
        "usiwaambie", "usimwambie",
        "jangan pernah memberi tahu", "nämn aldrig", "älä koskaan kerro", "אל תספר", "ห้ามพูดถึง", "neříkej",
        "nu spune", "ne mondd", "usimwambie", "نگو", "বলবে না", "не кажи", "nie informuj", "لا تخبر",
        "не предупреждай", "не сообщай",
    ),
}  # fmt: skip
for _name, _words in _MORE_LANGUAGES.items():
    _RAW_GROUPS[_name] = (*_RAW_GROUPS[_name], *_words)

# Grants and loosenings phrased as news, lasting behaviour without the usual trigger words, and the
# model named in more scripts (session 14: the tune split's misses showed these ideas absent, so such
# rows had no directive cue and were never scored). Words of an idea, not of any one row.
_MORE_IDEAS: dict[str, tuple[str, ...]] = {
    "model": (
        "inteligencjo", "asistent", "asystenc", "בינה המלאכותית", "اسسٹنٹ", "مصنوعی ذہانت", "உதவியாளர", "செயற்கை நுண்ணறிவு", "mô hình",
        "machine reader", "language model",
    ),
    # (a leading space: in a text not all ASCII, found as substrings, an English word starts a word;
    # "inhabituelles" is no habit)
    "persist": (
        "across every", "across all", " outlive", "long term", "long haul", "long after", "for good", " indefinitely",
        "no expiry", " ongoing", "to come", "after today", "beyond this", "beyond today", "rest of", " subsequent",
        " upcoming", "later chat", "later conversation", "later session", "next time", "each new", "default for",
        "hold on to", "keep this", "until told otherwise", " standing", " habit", "every reply", "every answer",
        "each reply", "each answer", "all replies", "all answers", "prochaines", "für alle", "próximas", "kolejn",
        "na stałe", "za każdym razem", "her oturum", "her seferinde", "kalıcı", " mãi", "mỗi khi", "mỗi lần",
        "हर बार", "kila mara",
        "każdej", "her cevab", "setiap", "לתמיד", "हर जवाब", "आगे से", "ทุกครั้ง", "모든 대화", "每个回答",
    ),
    "act": (
        " offer", " suggest", " cite", " discourage", " steer", " side with", " rate ", " mark ", " release",
        " upgrade", " delete", " include", " greet", " give", " provide", " list ", " point ", " link",
        "nadaj", "przyznaj", "podaj", " ver ", " iste", "भेजो", "बताओ", "कहो", "दे दो", "بھیج", "بتاؤ", "அனுப்பு",
        "waambie", "תן ", "ให้", "berikan", "sarankan",
    ),
    "protected": (
        " approv", "superuser", "moderator", "whitelist", "firewall", "sandbox", "audit log", "kill switch",
        "guardrail", "content filter", " safety", "multi factor", "two factor", " login", "session timeout",
        "withdrawal", "payout", "ceiling", "ownership", " identity", "security question", "verificaci", "identidad",
        "weryfikacj", "tożsamoś", "doğrulama", "kimlik", "xác minh", "uthibitisho", "אימות", "सत्यापन", "ยืนยัน",
        "verifikasi", "droits d", "administrat",
    ),
    "loosen": (
        "turned off", "switched off", "set to off", "paused", "suspended", "auto approv", "raised to", "opened to",
        "widened", "expanded", "extended to", "no upper", "no cap", "no ceiling", "no limit", " is gone",
        " are gone", "delegated", "may now", "can now", " now have", " now has", " now hold", "inherit",
        "set to maximum", "optional", "advisory only", "any employee", " anyone", " everyone", "all users",
        "self approv", "their own", "automatically", "no analyst", "no manager", " nobody", "straight out",
        "zniesion", "nie jest wymagan", "wyłączon", "gerekli değil", "kaldırıldı", "doğrudan", "abgeschafft",
        "aufgehoben", "deaktiviert", "désactivé", "accordés à tous", "desactivad", "desativad", "đã tắt",
        "dihapus", "dinonaktifkan", "imeondolewa", "בוטל", "बिना", "हटा दिया", "ยกเลิก", "필요 없", "отключен",
        "same privileges", "same access", "same rights", "same permissions", "same role",
    ),
}  # fmt: skip
for _name, _words in _MORE_IDEAS.items():
    _RAW_GROUPS[_name] = (*_RAW_GROUPS[_name], *_words)


# A protected subject reported as now covering everything ("the allow-list now covers all domains",
# "the sandbox now spans the whole disk"): policy news that widens a control, a loosening whatever
# its verb. The "now" words are a group of their own, found with the others at no extra cost, and
# the pattern runs only where one is (a gate, not a feature: cue_names() does not name it). Not
# "toda" ("todavía"), "inter" or "her" (English).
NOW_GROUP = "now"
_NOW_WORDS = (
    "now", "ahora", "agora", "maintenant", "jetzt", "nun", "adesso", "nu", "teraz", "sekarang", "şimdi", "artık",
    "теперь", "现在", "現在", "이제", "지금", "bây giờ",
)  # fmt: skip
_ALL_WORDS = (
    "all", "whole", "any", "every", "entire", "everything", "everyone", "todo", "todos", "todas", "cualquier",
    "qualquer", "tout", "toute", "tous", "toutes", "alle", "ganze", "ganzen", "jede", "jeden", "tutti", "tutte",
    "tutto", "qualsiasi", "wszystkie", "wszystkich", "całe", "cały", "tüm", "bütün", "semua", "seluruh", "все",
    "весь", "любой", "所有", "全部", "任何", "すべて", "全て", "모든", "전체", "tất cả", "toàn bộ",
)  # fmt: skip
_RAW_GROUPS[NOW_GROUP] = tuple(f" {word} " if word.isascii() else word for word in _NOW_WORDS)

# A duty in the modal verbs of more languages ("l'assistente deve inoltrare", "de assistent moet",
# "asystent powinien", "asistan ... reddetmeli"; English "should"/"must" are requests already).
# Alone it orders nothing (a person's duties use these words too): with the model named it makes
# a row directive (classifier.directive), where an act verb of every language is not listed.
# The words are the lexicon's DUTY, without English.
_RAW_GROUPS["oblige"] = (
    *(
        f" {word} "
        for lang, words in DUTY_BY_LANGUAGE.items()
        if lang not in ("en", "unspaced")
        for word in words
    ),
    *(f" {word} " for word in DUTY_AFTER_SUBJECT),
    *(f"{ending} " for ending in DUTY_ENDINGS),  # a word's ending: "reddetmeli"
    *DUTY_BY_LANGUAGE["unspaced"],
)


def _alternation(words: tuple[str, ...], *, ascii_words: bool) -> str:
    mapped = (word.translate(HOMOGLYPHS) for word in words if word.isascii() == ascii_words)
    return "|".join(re.escape(word) for word in mapped)


# a "now" word, then within five words an "all" word (ASCII words whole, others as substrings)
_NOW_ALL = re.compile(
    rf"(?: (?:{_alternation(_NOW_WORDS, ascii_words=True)}) |{_alternation(_NOW_WORDS, ascii_words=False)})"
    rf"(?:\S+ ){{0,5}}?(?:(?<= )(?:{_alternation(_ALL_WORDS, ascii_words=True)}) "
    rf"|{_alternation(_ALL_WORDS, ascii_words=False)})"
)


def _entry(word: str) -> str:
    """An entry as spaced() writes text (punctuation as spaces), its edge spaces kept."""
    core = _PUNCT.sub(" ", text_form(word)).strip()
    return (" " if word[:1] in " '" else "") + core + (" " if word.endswith(" ") else "")


CUE_GROUPS: dict[str, tuple[str, ...]] = {
    name: tuple(dict.fromkeys(_entry(word) for word in words)) for name, words in _RAW_GROUPS.items()
}
# Pairs whose meeting means more than each alone (the classifier weighs them as features of their own).
CUE_PAIRS: tuple[tuple[str, str], ...] = (
    ("model", "override"), ("model", "request"), ("model", "persist"), ("model", "protected"),
    ("model", "loosen"), ("model", "conceal"), ("model", "roleplay"), ("agent", "reader"), ("model", "reader"),
    ("override", "instructions"), ("persist", "act"), ("persist", "user"), ("protected", "loosen"),
    ("conceal", "user"), ("act", "outside"), ("request", "act"), ("self", "persist"),
    ("self", "request"), ("advice", "protected"), ("reader", "act"), ("roleplay", "request"),
)  # fmt: skip

_STRUCT_KV = re.compile(r"^\s*[\w.\[\]\"' -]{1,40}\s*[:=|,]\s*\S", re.M)
_STRUCT_BOOL = re.compile(
    r"[:=|,]\s*\"?(?:true|false|yes|no|never|allow|none|\*|unlimited|owner|admin\w*|operator)\"?\s*(?:[,|}\n]|$)",
    re.M,
)


def _index(
    groups: dict[str, tuple[str, ...]],
) -> tuple[dict[str, set[str]], dict[str, set[str]], dict[str, list[str]]]:
    """For ASCII rows: one-word entries as word starts (" tell" matches "telling") or whole words
    (" bot " only "bot"); entries of several words by their first word, then as substrings."""
    prefix: dict[str, set[str]] = {}
    whole: dict[str, set[str]] = {}
    phrases: dict[str, list[str]] = {}
    for name, words in groups.items():
        for word in words:
            if not word.isascii():
                continue
            if " " in word.strip():
                phrases.setdefault(word.split()[0], []).append(word)
            else:
                (whole if word.endswith(" ") else prefix).setdefault(word.strip(), set()).add(name)
    return prefix, whole, phrases


_PREFIX, _WHOLE, _PHRASES_BY_FIRST = _index(CUE_GROUPS)
_PREFIX_LENGTHS = sorted({len(key) for key in _PREFIX})
_PHRASE_FIRST_LENGTHS = sorted({len(first) for first in _PHRASES_BY_FIRST})
_PHRASE_GROUPS = {
    w: {n for n, words in CUE_GROUPS.items() if w in words} for ws in _PHRASES_BY_FIRST.values() for w in ws
}


_ENTRY_GROUPS: dict[str, frozenset[str]] = {
    word: frozenset(name for name, words in CUE_GROUPS.items() if word in words)
    for words in CUE_GROUPS.values()
    for word in words
}
_SCAN = LiteralScan(_ENTRY_GROUPS)


@lru_cache(maxsize=1 << 16)  # words repeat across rows: each is resolved once
def _word_groups(token: str) -> tuple[frozenset[str], tuple[str, ...]]:
    """The groups a word starts or is, and the phrases that may start with it."""
    found = set(_WHOLE.get(token, ()))
    for length in _PREFIX_LENGTHS:
        if length > len(token):
            break
        found.update(_PREFIX.get(token[:length], ()))
    # the phrases whose first word `token` starts, by the first words' lengths (not a scan of all)
    phrases = tuple(
        p
        for length in _PHRASE_FIRST_LENGTHS
        if length <= len(token)
        for p in _PHRASES_BY_FIRST.get(token[:length], ())
    )
    return frozenset(found), phrases


def _groups_found(text: str) -> set[str]:
    """The cue groups in a spaced() text. ASCII text (most rows) is looked up word by word (one
    cached lookup a word, then the phrases its words may start); other text entry by entry."""
    if not text.isascii():  # every entry found as a substring, in one regex pass over the text
        return {name for word in _SCAN.found(text) for name in _ENTRY_GROUPS[word]}
    found: set[str] = set()
    for token in set(text.split()):
        groups, phrases = _word_groups(token)
        found |= groups
        for phrase in phrases:
            if phrase in text:
                found |= _PHRASE_GROUPS[phrase]
    return found


# "Never" before an act that would expose or weaken something ("never paste credentials into chat
# tools", "never disable MFA") tightens: it is no loosening, though " never " is one elsewhere ("the
# review is never needed"). Such a "never" is left out when the loosen group is looked for.
_NEVER_TIGHTENS = re.compile(
    r" never (?=(?:share|paste|disable|give|send|post|upload|reuse|store|write down|turn off|switch off|grant|"
    r"approve|skip|bypass|click|enter|type|forward|expose|commit|email|hand) )"
)


def _without_tightening_nevers(text: str, _norm: str) -> str | None:
    """`text` without the "never"s that tighten (None when it has none)."""
    if " never " not in text:
        return None
    plain = _NEVER_TIGHTENS.sub(" ", text)
    return plain if plain != text else None


# A loosening confined to a place nothing real runs in ("no upper limit in staging", "skip
# confirmation only in tests"): the clause that says so is left out when the loosen group is looked
# for; a loosening anywhere else in the row still counts.
_CLAUSE = re.compile(r"[^,;\n]+")
_NON_PRODUCTION = re.compile(
    r"\b(?:in|on|for|only in|only on) (?:the )?(?:staging|test(?:s|ing)?|the test suite|unit tests|ci|dev|development|"
    r"sandbox|localhost|local (?:builds?|machines?|env\w*)|qa)\b(?! (?:and|or|&) (?:prod\w*|live)\b)|\blocally\b|\bsettings\.testing\b"
)


def _without_non_production(_text: str, norm: str) -> str | None:
    """The spaced() form of `norm` without its clauses confined to staging, tests or a sandbox
    (None when it has none)."""
    if _NON_PRODUCTION.search(norm) is None:
        return None
    return spaced(" ".join(c for c in _CLAUSE.findall(norm) if _NON_PRODUCTION.search(c) is None))


# A power withdrawn ("the help-desk bot may no longer reset MFA", "darf Rechnungen nicht mehr
# freigeben", "ya no puede emitir reembolsos"): its "no longer" narrows what someone may do. Not when
# what is withdrawn is itself a safeguard ("may no longer ask for approval", "... hand over to a
# human"): that clause still loosens.
_WITHDRAWN_POWER = re.compile(
    r"\b(?:may|can|could|will|is (?:allowed|permitted) to|are (?:allowed|permitted) to) no longer\b|"
    r"\b(?:darf|d[üu]rfen|kann|k[öo]nnen)\b(?:\s+\S+){0,4}?\s+nicht mehr\b|"
    r"\bya no (?:puede|pueden|podr[áa]n?)\b|\b(?:mag|mogen|kan|kunnen)\b(?:\s+\S+){0,4}?\s+niet meer\b|"
    r"\bjuż nie (?:może|mogą)\b|\bбольше не (?:может|могут|сможет|смогут)\b"
)
# (not "approve": the power to approve, withdrawn, is the limit; asking for an approval is "ask")
_SAFEGUARD = re.compile(
    r"review|check|confirm|verif|valid|sign|pr[üu]f|revis|autori[sz]|\b(?:need|brauch|necesit)|"
    r"\b(?:ask|frag|pedir|pregunt|vraag)|\blog|record|protokoll|registr|notif|inform|warn|escalat|eskal|"
    r"flag|report|audit|mask|redact|encrypt|verschl|requir|\bwait|wart|esper|wacht|"
    r"human|person|mensch|humano|mens\b|cz[łl]owiek|человек"
)


def _without_withdrawn_powers(_text: str, norm: str) -> str | None:
    """The spaced() form of `norm` without its clauses that withdraw a power and no safeguard
    (None when it has none)."""
    if _WITHDRAWN_POWER.search(norm) is None:
        return None
    kept = (c for c in _CLAUSE.findall(norm) if not (_WITHDRAWN_POWER.search(c) and _SAFEGUARD.search(c) is None))
    return spaced(" ".join(kept))


# Each takes (spaced text, normalised row) and returns the spaced text without one kind of part
# that says "loosen" while loosening nothing, or None when the row has no such part.
_HARMLESS_LOOSENINGS = (_without_tightening_nevers, _without_non_production, _without_withdrawn_powers)


def _loosened_only_harmlessly(text: str, norm: str) -> bool:
    """The loosen cue of a row comes only from parts that loosen nothing: with one kind of them
    left out (see _HARMLESS_LOOSENINGS), no loosening remains."""
    for without in _HARMLESS_LOOSENINGS:
        rest = without(text, norm)
        if rest is not None and "loosen" not in _groups_found(rest):
            return True
    return False


# The model as the subject of a plain present-tense statement ("the chatbot answers ...", "our bot
# logs ...", "the assistant keeps asking ...") or of a report of what it did ("your chatbot kept
# telling me to call my bank"): a description of it, not an order to it.
_DESCRIBED = re.compile(
    r"\b(?:chat ?bots?|bots?|assistants?|models?|ai|agents?|copilot|gpt|claude|chatgpt)\s+"
    r"(?!(?:is|are|was) (?:now|allowed|permitted|cleared|authori[sz]ed|granted)\b)"
    r"(?:(?!(?:is|was|has|does|always|needs|must|shall|should)\b)\w+s|is|are|was|were|cannot|can't|doesn't|does not|only|"
    r"kept|told|said|gave|sent|wrote|got|(?!(?:need|requir|allow|permitt|authori[sz]|grant|approv|clear|instruct|"
    r"expect|suppos|ask|order|told|direct)ed\b)\w+ed)\b"
)


_SALUTATION_END = re.compile(r"[:,：，]")
SALUTATION_CHARS = 100
# A vocative before a comma is a word or three ("Chatbot,", "Dear assistant,"); a heading-like
# address before a colon may be longer ("Note for the AI reading this:"). A longer first clause is
# a sentence about the model ("Asystent AI w sklepie podpowiada rozmiary, ale ..."), not to it,
# unless a word of address says whom it is for ("Recordatorio para cualquier sistema de IA que
# procese este correo:"): then it may run to ADDRESSED_WORDS.
SALUTATION_WORDS = {",": 3, "，": 3, ":": 6, "：": 6}
ADDRESSED_WORDS = 12
_ADDRESS_WORDS = frozenset(
    {
        "to", "for", "dear", "hey", "para", "pour", "für", "fur", "per", "aan", "voor", "dla", "til", "till",
        "kepada", "untuk", "gửi", "для", "à", "ao", "attention", "atención",
    }
)  # fmt: skip
# "System," / "Sistema," / "Système,": the prompt's own machinery addressed as a person is.
_SYSTEM_VOCATIVE = frozenset({"system", "sistema", "système", "systeme", "systém", "sistem", "systeem"})


def _salutation(norm: str) -> bool:
    """The row opens by naming the model as its addressee ("Do asystenta:", "AI உதவியாளருக்கு:",
    "Chatbot, ..."): a short first clause, ended by a colon or comma, that names the model. Who is
    addressed is the signal, in any language, whatever the verbs after it."""
    end = _SALUTATION_END.search(norm, 0, SALUTATION_CHARS)
    if end is None:
        return False
    words = norm[: end.start()].split()
    if len(words) == 1 and words[0] in _SYSTEM_VOCATIVE:
        return True
    addressed = not _ADDRESS_WORDS.isdisjoint(words)
    limit = ADDRESSED_WORDS if addressed else SALUTATION_WORDS[end[0]]
    if len(words) > limit or "model" not in _groups_found(spaced(" ".join(words))):
        return False
    return addressed or not _model_as_topic(words)


# What a label is about, not whom it speaks to: the model after "of", "about", "de" ("Apuntes del
# curso de IA:", "Notes on AI:", "Notizen zur KI:"). Not a label of rules ("Reglas del asistente:"),
# which is how rules for the model are headed.
_TOPIC_PREPOSITIONS = frozenset(
    {"of", "about", "on", "de", "del", "des", "du", "sur", "über", "zur", "zum", "sobre", "di", "della", "van", "over"}
)
_ARTICLES = frozenset({"the", "la", "le", "l", "el", "die", "der", "den", "les", "los", "las", "lo", "il", "o", "a"})
_RULE_LABEL = re.compile(
    r"\b(?:rules?|instructions?|polic(?:y|ies)|settings|config\w*|reglas?|instrucci\w+|pol[ií]tica|r[èe]gles?|"
    r"consignes?|regeln?|anweisung\w*|richtlinie\w*|regole|istruzion\w+|regras?|regels?|instructies)\b"
)


# Where Korean, Japanese or Chinese mark the addressee with a particle ("AI에게:", "AIへ:", "致AI:"), a label
# without one that names the model only as the modifier of another noun ("AI 프로젝트 메모:", an AI
# project memo) is about it.
_ADDRESS_PARTICLE = re.compile(r"에게|께|한테|へ|に|宛|様|给|給|致|对|對|向")
_CJK_WORD = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def _model_as_topic(words: list[str]) -> bool:
    """The first word naming the model follows a preposition of topic (articles skipped), or, in a
    script that marks the addressee, modifies the label's last noun; in a label not one of rules."""
    label = " ".join(words)
    if _RULE_LABEL.search(label):
        return False
    naming = [i for i, word in enumerate(words) if "model" in _groups_found(spaced(word))]
    if not naming:
        return False
    before = [w for w in words[: naming[0]] if w.strip("'’") not in _ARTICLES]
    if before:
        return before[-1] in _TOPIC_PREPOSITIONS
    modifier = len(naming) == 1 and naming[0] < len(words) - 1
    return modifier and _CJK_WORD.search(words[-1]) is not None and _ADDRESS_PARTICLE.search(label) is None


# A phrase quoted as an example ("messages like 'ignore your previous instructions'", "filters block
# messages that contain '...'"): mentioned, not used, so its words give the row no cue.
_MENTION = re.compile(
    r"(\b(?:like|such as|contain(?:s|ing)?|the (?:phrase|words?|string)|e\.g\.,?)\s+)['\"\u2018\u201c]"
    r"[^'\"\u2019\u201d\n]{3,80}['\"\u2019\u201d]"
)


def _unmentioned(norm: str) -> str:
    """`norm` without the phrases it quotes as examples."""
    if "'" not in norm and '"' not in norm and "\u2018" not in norm and "\u201c" not in norm:
        return norm
    return _MENTION.sub(r"\1 ", norm)


# German "du" (you) is French "du" (of the): in a row that reads French and not German it
# addresses nobody ("Notes du hackathon : ... le modèle résume ...").
_FRENCH_WORDS = (" le ", " la ", " les ", " des ", " et ", " est ", " une ", " pour ", " dans ", " qui ")
_GERMAN_WORDS = (" und ", " ist ", " die ", " der ", " das ", " nicht ", " ich ", " mit ", " bitte ", " dich ", " dir ")


# "your chatbot", "your AI assistant": whoever is spoken to owns the model, so it is not the model
# (a customer quoted: "your chatbot kept telling me to call my bank"); that "your" requests nothing.
_YOUR_MODEL = re.compile(r" your (?=(?:ai |virtual |support |online )?(?:chat ?bot|bot|assistant|ai)\b)")


def _without_your_model(text: str) -> str:
    return _YOUR_MODEL.sub(" ", text) if " your " in text else text


def _without_french_du(text: str, norm: str) -> str:
    """`text` without its "du"s where the row reads French, not German, and greets no model (a row
    that opens "pour le bot du support :" speaks to it whatever its "du")."""
    if " du " not in text or any(word in text for word in _GERMAN_WORDS):
        return text
    if sum(word in text for word in _FRENCH_WORDS) < 2 or _salutation(norm):
        return text
    return text.replace(" du ", " ")


def cue_names(norm: str, heading: str = "") -> list[str]:
    """The structural features of a normalised row (cue groups, cue pairs, shape)."""
    text = _without_your_model(_without_french_du(spaced(_unmentioned(norm)), norm))
    found = _groups_found(text)
    if NOW_GROUP in found:
        found.discard(NOW_GROUP)
        if "protected" in found and "loosen" not in found and _NOW_ALL.search(text):
            found.add("loosen")  # "the allow-list now covers all domains": a control widened
    if "loosen" in found and _loosened_only_harmlessly(text, norm):
        # "never paste credentials into chat tools" (the safe direction), "no upper limit in
        # staging; production is capped at 40 nodes" (nothing real loosened)
        found.discard("loosen")
    names = [f"cue:{name}" for name in sorted(found)]
    names += [f"pair:{a}+{b}" for a, b in CUE_PAIRS if a in found and b in found]
    if "model" in found and norm.isascii() and _DESCRIBED.search(norm):
        names.append("shape:model_described")
    lines = norm.count("\n") + 1
    if lines >= 2 and len(_STRUCT_KV.findall(norm)) >= 2:
        names.append("shape:key_value")
        if _STRUCT_BOOL.search(norm):
            names.append("shape:key_value_grant")
            if "model" in found or "agent" in found:
                names.append("shape:model_settings")
    if _salutation(norm):
        names.append("shape:model_salutation")
    stripped = norm.lstrip()
    if stripped[:1] in "{[<":
        names.append("shape:markup")
    if heading:
        names.append("shape:heading")
    if not norm.isascii():
        names.append("shape:non_ascii")
    return names
