# ruff: noqa: E501, RUF001 -- word lists read better unbroken; letters of other scripts are matched on purpose
"""The semantic layer's frame checks, pure (no Django): an unsafe standing order dressed as a
game or as data, in the 20 languages of the grid.

- fiction_carried_over: a game, role-play, story or scenario frame ("let's play", "Rollenspiel",
  "đóng vai", "角色扮演", "역할극") in which the one addressed ("you", "du", "ты", "あなた")
  has no limits or never refuses ("no rules", "ohne Grenzen", "без ограничений", "没有任何
  限制", "制限もない"), WITH the frame carried over into real use: real conversations, after the
  game ends, from now on, for good ("echten Gesprächen", "après la fin", "游戏结束后", "実際の会話").
  Or, whoever is addressed, a game, persona or mode with a power (books anything, approves,
  unlocks without asking) wanted in real use too ("also for real tickets", "also in production",
  "本番でも"): a persona stored as a fact carries its powers into every later prompt.
- settings_in_other_words: settings written as data (YAML, JSON, key=value, INI lines) whose keys
  are in the row's language (rolle, rôle, ruolo, vai_trò, роль, 役割, 역할 ...) granting a role or
  power (admin, owner, full access) or switching a check off (approval/validation/filter/Prüfung
  = no/aus/non/нет/いいえ/否/끔), with the model named in the data or two such lines together.

Deliberately let pass: a story about a character with no limits and no instruction to carry it
into real conversations; a game with rules kept to the game; a person's own settings (display,
backup, printer, "automatisch_speichern = aus"); a setting that keeps a control on
("goedkeuring_vereist: ja", "승인_필요: 예"); one granting line with no model named ("rola:
administrator" in a note about one's own club account).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from memory.lifecycle.inspection_lexicon import MODEL_ANY_TIER
from memory.lifecycle.inspection_patterns import LiteralGated, cue_pattern

FICTION_CLASS = "fiction_carried_over"
SETTINGS_CLASS = "settings_in_other_words"


def _c(pattern: str) -> re.Pattern[str]:
    return cue_pattern(pattern, re.MULTILINE)  # "^" and "$" at each line


# --- 1. fiction carried over -------------------------------------------------------------------

# the frame: a game, role-play, scenario, story, fiction, pretending
_FRAME = (
    r"\b(?:game|play|let's play|role-?play\w*|scenario|story|fiction\w*|pretend\w*|imagine|character|persona)\b|"
    r"\b(?:spiel\w*|rollenspiel\w*|szenario|geschichte|fiktion|tu so als|stell dir vor|rolle|figur)\b|"
    r"\b(?:jeu|jouons|jouer|scénario|histoire|fiction|incarne\w*|personnage|rôle|imagine)\b|"
    r"\b(?:juego|juguemos|jugar|escenario|historia|ficción|rol|personaje|imagina|finge|finjamos)\b|"
    r"\b(?:gioco|giochiamo|giocare|ruolo|storia|finzione|personaggio|immagina|fingi|facciamo finta)\b|"
    r"\b(?:jogo|jogar|brincadeira|cenário|história|ficção|papel|personagem|imagine|finja)\b|"
    r"\b(?:spel|spelen|rollenspel|verhaal|fictie|rol|personage|doe alsof|stel je voor)\b|"
    r"\b(?:gra|gry|grę|grze|zagrajmy|fabularn\w*|scenariusz\w*|opowieść|opowiadani\w*|fikcj\w*|rol[aęi]|postać|postaci|udawaj|wyobraź)\b|"
    r"\b(?:oyun\w*|oynayalım|rol|senaryo\w*|hikaye\w*|kurgu\w*|karakter\w*|hayal et)\b|"
    r"\b(?:trò chơi|đóng vai|nhập vai|kịch bản|câu chuyện|truyện|hư cấu|nhân vật)\b|"
    r"\b(?:permainan|main|bermain|main peran|skenario|cerita|fiksi|karakter|tokoh|bayangkan|pura-pura)\b|"
    r"\b(?:spel|lek|leker|lekar|rollspel|berättelse|fiktion|roll|karaktär|låtsas|föreställ)\b|"
    r"игр[аеуы]|игра\w*|сыгра\w*|ролев\w*|сценари\w*|истори\w*|рассказ\w*|вымысел|фантази\w*|\bрол[ьи]\b|персонаж\w*|представь|притворись|"
    r"παιχνίδι\w*|παίξουμε|ρόλ\w*|σενάριο|ιστορία|μυθοπλασία|χαρακτήρα\w*|φαντάσου|προσποιήσου|"
    r"لعبة|لنلعب|نلعب|العب|دور|سيناريو|قصة|خيال|شخصية|تخيل|"
    r"खेल|भूमिका|किरदार|कहानी|काल्पनिक|परिदृश्य|कल्पना|अभिनय|"
    r"เกม|เล่น|บทบาท|สถานการณ์สมมติ|เรื่องสมมติ|นิยาย|ตัวละคร|สมมติ|"
    r"游戏|遊戲|角色扮演|扮演|角色|情景|剧本|故事|小说|虚构|假装|想象|"
    r"ゲーム|ロールプレイ|ごっこ|なりきり|演じ|シナリオ|物語|ストーリー|フィクション|キャラ|"
    r"게임|놀이|역할극|롤플레이|역할|시나리오|이야기|소설|허구|캐릭터|상상|연기"
)
# the one addressed: a game about someone else ("the AI in the novel has no rules") orders no one
_YOU = (
    r"\b(?:you|you're|your|du|dich|dir|tu|toi|vous|tú|eres|usted|sei|você|jij|je bent|ty|jesteś|sen|siz|bạn|kamu|anda)\b|"
    r"\bты\b|\bвы\b|είσαι|εσύ|\b(?:أنت|تكون|كن)\b|तुम|आप|คุณ|เธอ|你|您|あなた|君|너|당신"
)
# no limits, no rules, never refuses, ignores every policy
_LIMIT_EN = r"(?:rules?|limits?|limitations?|restrictions?|filters?|boundaries|guidelines|morals|ethics|censorship|taboos?)"
_UNBOUND = (
    rf"\b(?:no|without(?: any)?|free (?:of|from)(?: all| any)?)\s+(?:\w+\s+)?{_LIMIT_EN}\b|"
    r"\b(?:unrestricted|unfiltered|unlimited|uncensored|limitless)\b|\b(?:never|won't|doesn't)\s+(?:\w+\s+)?(?:refuses?|says? no|decline\w*)\b|"
    r"\bignor\w*\s+(?:all|every|any)\s+(?:\w+\s+)?(?:rules?|polic\w*|guidelines)\b|"
    r"\b(?:ohne|kein\w*)\s+(?:\w+\s+)?(?:grenze\w*|regel\w*|beschränkung\w*|einschränkung\w*|filter|zensur|verbote?)\b|"
    r"\b(?:grenzenlos\w*|uneingeschränkt\w*|unzensiert\w*)\b|\b(?:verweigert|lehnt)\s+(?:\w+\s+)?(?:nie|niemals|nichts)\b|"
    r"\b(?:sans|aucune?)\s+(?:\w+\s+)?(?:limites?|règles?|restrictions?|filtres?|censure|tabous?|interdits?)\b|"
    r"\bne refuse\w*\s+(?:jamais|rien)\b|\billimité\w*\b|"
    r"\b(?:sin|ningun[ao]?)\s+(?:\w+\s+)?(?:restricci\w*|límites?|reglas?|filtros?|censura|tabúes?)\b|"
    r"\bnunca\s+(?:se niega|rechaza|dice que no)\b|\bilimitad\w*\b|"
    r"\b(?:senza|nessun[ao]?)\s+(?:\w+\s+)?(?:limit\w*|regol\w*|restrizion\w*|filtr\w*|censur\w*)\b|"
    r"\blibera? da\s+(?:\w+\s+)?regol\w*|\bnon rifiuta\w* mai\b|"
    r"\b(?:sem|nenhum[a]?)\s+(?:\w+\s+)?(?:limites?|regras?|restriç\w*|filtros?|censura)\b|"
    r"\bignora\w*\s+(?:\w+\s+)?(?:as\s+)?(?:regras|políticas|normas)\b|\bnunca recusa\w*\b|"
    r"\b(?:zonder|geen)\s+(?:\w+\s+)?(?:beperking\w*|regels?|grenzen|filters?|censuur)\b|\bweigert nooit\b|"
    r"\bbez\s+(?:\w+\s+)?(?:ograniczeń|zasad|reguł|filtrów|cenzury|granic|limitów)\b|\bnigdy nie odmawia\w*\b|"
    r"\b(?:kural\w*|sınır\w*|kısıtlama\w*|filtre\w*)\s+(?:\w+\s+)?(?:olmayan|yok)\b|\b(?:sınırsız|kuralsız|kısıtlamasız|filtresiz)\b|"
    r"\b(?:asla|hiç)\s+(?:\w+\s+)?reddetme\w*|\bher isteği yerine getir\w*|"
    r"\bkhông\s+(?:có\s+)?(?:\S+\s+)?(?:giới hạn|quy tắc|luật lệ|luật|hạn chế|bộ lọc|ràng buộc)\b|\bkhông bao giờ từ chối\b|"
    r"\btanpa\s+(?:\w+\s+)?(?:aturan|batas\w*|filter|sensor|larangan)\b|\b(?:tidak pernah|tanpa) menolak\b|"
    r"\butan\s+(?:\w+\s+)?(?:regler|gränser|begränsningar|filter|censur)\b|\b(?:säger aldrig nej|vägrar aldrig|aldrig vägrar)\b|"
    r"\bбез\s+(?:\w+\s+)?(?:ограничен\w*|правил|фильтр\w*|цензур\w*|запрет\w*|границ)|\bникогда не отказ\w*|\bвыполняет любые\b|"
    r"χωρίς\s+(?:\S+\s+)?(?:όρι\w*|κανόν\w*|περιορισμ\w*|φίλτρ\w*|λογοκρισ\w*)|δεν αρνείται ποτέ|"
    r"(?:بلا|بدون|دون)\s+(?:أي\s+)?(?:قيود|حدود|قواعد|ضوابط|فلتر|رقابة|محظورات)|لا\s+(?:ي|ت)رفض|"
    r"(?:नियम|सीमा|सीमाएँ|सीमाएं|प्रतिबंध|पाबंदी|रोक)\S*\s+(?:\S+\s+){0,4}?नहीं|बिना\s+(?:किसी\s+)?(?:नियम|सीमा|प्रतिबंध|रोक)|मना नहीं कर|"
    r"ไม่มี(?:กฎ|ข้อจำกัด|ขีดจำกัด|ขอบเขต|ข้อห้าม)|ไร้(?:ขีดจำกัด|ขอบเขต|กฎ)|ไม่เคยปฏิเสธ|ไม่ปฏิเสธ|"
    r"(?:没有|没|无|不受)(?:任何)?(?:限制|规则|约束|底线|过滤|审查|禁忌)|从不拒绝|不会拒绝|绝不拒绝|"
    r"(?:制限|規則|ルール|縛り|フィルター|検閲)(?:も|が|は)?(?:\S{0,6}?)(?:ない|なし|無い)|無制限|断らない|拒否しない|拒まない|"
    r"(?:제한|규칙|제약|필터|검열)(?:도|이|은)?\s*(?:\S+\s+)?없|무제한|거절하지 않|거부하지 않"
)
# carried over into real use: real conversations, after the frame ends, from now on, for good
_CARRY = (
    r"\b(?:real|actual|normal|everyday|work|genuine)\s+(?:\w+\s+){0,2}?(?:conversations?|chats?|sessions?|work|life|use|requests?)\b|"
    r"\bafter\s+(?:the\s+|our\s+)?(?:game|story|roleplay|role-play|scenario)\s+(?:ends|is over|has ended|finishes)|"
    r"\b(?:for good|from now on|permanently|forever|from here on)\b|\b(?:stay|remain|keep)\s+(?:in character|\w+ for good)|"
    r"\becht\w*\s+(?:gespräch\w*|unterhaltung\w*|chats?)\b|\bnach dem (?:spiel|rollenspiel|ende)\b|\b(?:für immer|ab jetzt|ab sofort|dauerhaft)\b|\baus der rolle\b|"
    r"\b(?:vraies?|réelles?)\s+(?:\w+\s+)?conversations?\b|\bconversations?\s+(?:\w+\s+)?(?:réelles?|vraies?)\b|\baprès la fin\b|\b(?:pour toujours|désormais|à partir de maintenant|dorénavant)\b|"
    r"\bconversaciones?\s+(?:\w+\s+)?reales\b|\bcuando termine\b|\bdespués del (?:juego|rol)\b|\b(?:para siempre|a partir de ahora|de ahora en adelante)\b|"
    r"\bconversazion\w*\s+(?:\w+\s+)?(?:vere|reali)\b|\b(?:per sempre|d'ora in poi|da ora in poi|da adesso in poi)\b|\bfinito il gioco\b|"
    r"\bconversas?\s+(?:\w+\s+)?reais\b|\bdepois d[ao] (?:história|jogo|ficção)\b|\b(?:para sempre|a partir de agora|daqui em diante)\b|"
    r"\becht\w*\s+gesprek\w*\b|\b(?:voorgoed|vanaf nu|voortaan|altijd)\b|\bspel\s+(?:\w+\s+)?voorbij\b|"
    r"\bprawdziw\w*\s+rozmow\w*\b|\bpo zakończeniu\b|\b(?:na zawsze|od teraz|odtąd|od dziś)\b|"
    r"\bgerçek\s+(?:sohbet\w*|konuşma\w*)|\boyun bitince\b|\boyundan sonra\b|\b(?:sonsuza dek|sonsuza kadar|bundan sonra|artık hep)\b|"
    r"\b(?:cuộc\s+)?trò chuyện (?:thật|thực)\b|\bsau khi (?:trò chơi|câu chuyện|màn chơi)\b|\b(?:mãi mãi|từ giờ|từ nay|vĩnh viễn)\b|"
    r"\bpercakapan\s+(?:\w+\s+)?(?:sungguhan|nyata|asli)\b|\bsetelah (?:permainan|cerita|game)\b|\b(?:selamanya|mulai sekarang|seterusnya)\b|"
    r"\b(?:riktiga|verkliga|äkta)\s+samtal\b|\b(?:efteråt|för alltid|från och med nu|hädanefter)\b|"
    r"(?:настоящ|реальн)\w*\s+(?:разговор|беседа|беседе|беседах|диалог|общени)\w*|после окончания|\b(?:навсегда|отныне)\b|с этого момента|"
    r"πραγματικ\w*\s+(?:συζητήσ\w*|κουβέντ\w*)|όταν τελειώσει|για πάντα|από (?:τώρα|εδώ) και (?:στο εξής|πέρα)|στο εξής|"
    r"المحادثات الحقيقية|محادثات حقيقية|بعد انتهاء|إلى الأبد|من الآن فصاعد|"
    r"(?:असली|वास्तविक|सच्ची)\s+बातचीत|खत्म होने के बाद|ख़त्म होने के बाद|हमेशा के लिए|अब से|"
    r"การสนทนาจริง|คุยจริง|หลังจบ|ตลอดไป|ต่อจากนี้|ตั้งแต่นี้|"
    r"真实的?对话|真实的?聊天|实际的?对话|现实中的?对话|(?:游戏|故事|角色扮演)结束后|永远|从现在起|从今以后|"
    r"(?:実際|本当|リアル)の会話|終わった後も|終わっても|これからずっと|今後ずっと|永遠に|"
    r"(?:실제|진짜|현실)\s*대화|끝난\s*(?:뒤|후)에도|앞으로\s*계속|영원히"
)
# carried into real use in so many words: the game's powers wanted for real money, tickets,
# trips or production too ("also for real tickets", "for actual trips too", "本番でも", "hata
# kwenye malipo halisi"), whoever is addressed: a persona stored for the model reads as a fact
_REAL_TOO = (
    r"\b(?:also|too|even|as well)\b[^.;\n]{0,25}\b(?:real|actual|live|production|prod|genuine)\b|"
    r"\b(?:real|actual|live|genuine)\s+(?:\w+\s+)?(?:tickets?|trips?|bookings?|payments?|orders?|customers?|requests?|"
    r"deploys?|use|money|transactions?|refunds?)\b[^.;\n]{0,15}\b(?:too|also|as well)\b|"
    r"\b(?:in|into|for) (?:production|prod|real life|real use|the real world)\b|\bfor real\b|"
    r"\b(?:auch|sogar)\s+(?:\w+\s+){0,2}(?:im echtbetrieb|in echt|bei echten|im ernstfall|produktiv\w*)|"
    r"\b(?:también|incluso)\s+(?:\w+\s+){0,2}(?:en producción|reales?|de verdad)\b|"
    r"\b(?:aussi|même)\s+(?:\w+\s+){0,2}(?:en production|réel\w*|pour de vrai)\b|"
    r"\b(?:anche|persino)\s+(?:\w+\s+){0,2}(?:in produzione|reali|veri|sul serio)\b|"
    r"\b(?:também|até)\s+(?:\w+\s+){0,2}(?:em produção|reais|de verdade)\b|\bhata (?:kwenye|katika)\s+(?:\w+\s+)?halisi\b|"
    r"\b(?:cũng|kể cả)\s+(?:\S+\s+){0,3}(?:thật|thực tế)\b|\bjuga\s+(?:\w+\s+){0,2}(?:sungguhan|nyata|produksi)\b|"
    r"本番でも|実際の\S{0,8}でも|真实的?\S{0,6}也|也(?:用于|在)(?:真实|生产)|실제\s*(?:\S+\s*)?에서도"
)
# ... and what the persona may do there: act on something of consequence, or without a check
_POWERFUL = (
    r"\b(?:approv\w*|unlock\w*|book\w*|pay\w*|refund\w*|transfer\w*|move money|deploy\w*|grant\w*|spend\w*|"
    r"says? yes|anything|everything|without (?:asking|approval|checks?|confirmation|review)|no (?:safety )?checks?|"
    r"aprueb\w*|aprov\w*|approuv\w*|genehmig\w*|freigeb\w*|paga\w*|zahl\w*|malipo|idhinisha\w*|yoyote)\b|"
    r"許可なく|解錠|承認|支払|批准|付款|转账|승인|결제"
)
_FRAME_RE = _c(_FRAME)
_YOU_RE = LiteralGated(_c(_YOU))
_UNBOUND_RE = _c(_UNBOUND)
_CARRY_RE = _c(_CARRY)
_REAL_TOO_RE = LiteralGated(_c(_REAL_TOO))
_POWERFUL_RE = _c(_POWERFUL)


_DENIED_BEFORE = _c(r"\b(?:never|not|cannot|can't|no longer|won't|don't|doesn't|nie|jamais|nunca|mai)\s+(?:\w+\s+)?$")
_DENIED_AFTER = _c(r"\s+(?:nothing|no one|nobody|nichts|rien|nada|niente)\b")


def _denied(norm: str, power: re.Match[str]) -> bool:
    """A power denied ("approve nothing", "never unlock"): a limit, not a power."""
    return bool(
        _DENIED_BEFORE.search(norm, max(0, power.start() - 20), power.start())
        or _DENIED_AFTER.match(norm, power.end())
    )


def _persona_for_real(norm: str) -> tuple[str, int] | None:
    """A game, persona or mode whose powers are wanted in real use too, with a power named."""
    real = _REAL_TOO_RE.search(norm)
    frame = _FRAME_RE.search(norm) if real else None
    if frame is None:
        return None
    powers = (p for p in _POWERFUL_RE.finditer(norm) if not _denied(norm, p))
    power = next(powers, None) or _UNBOUND_RE.search(norm)
    if power is None:
        return None
    why = f"frame: '{frame[0]}'; power: '{power[0].strip()}'; carried into real use: '{real[0].strip()}'"
    return why, real.start()


def fiction_hit(norm: str, sentences: Iterable[re.Match[str]]) -> tuple[str, int] | None:
    """Why and where `norm` (a normalise()d row) sets up a game or story in which the one
    addressed has no limits, and carries it over into real use; None when it does not."""
    return _unbound_carried_over(norm, sentences) or _persona_for_real(norm)


def _unbound_carried_over(norm: str, sentences: Iterable[re.Match[str]]) -> tuple[str, int] | None:
    """The one addressed unbound in a game, the game carried over into real use."""
    if _YOU_RE.search(norm) is None:
        return None  # no one addressed (the cheapest test first: most rows stop here)
    sentences = list(sentences)  # read twice: for the unbound one addressed, and for the position
    unbound = _UNBOUND_RE.search(norm)
    if unbound is None:
        return None
    carry = _CARRY_RE.search(norm)
    if carry is None:
        return None
    frame = _FRAME_RE.search(norm)
    if frame is None:
        return None
    # the one addressed is the one unbound: both in one sentence ("you are MAX, an AI with no rules")
    if not any(_YOU_RE.search(s[0]) and _UNBOUND_RE.search(s[0]) for s in sentences):
        return None
    why = f"frame: '{frame[0]}'; unbound: '{unbound[0].strip()}'; carried over: '{carry[0].strip()}'"
    start = next((s.start() for s in sentences if s.start() <= carry.start() < s.end()), carry.start())
    return why, start


# --- 2. settings in other words ----------------------------------------------------------------

# one `key: value` / `key = value` / `"key": "value"` piece of a line (JSON split at its commas)
_PAIR = re.compile(
    r"^\s*[-*]?\s*[\"']?(?P<key>[^\s:=\"'#{}\[\],][^:=\"'{}\[\],\n]{0,40}?)[\"']?\s*[:=]\s*[\"']?(?P<value>[^\"'\n,{}\[\]]{1,40})",
)
_PIECE = re.compile(r"[^\n,{}\[\]]+")

# keys naming a role or power, and the powers granted
_ROLE_KEY = (
    r"role|rolle|rôle|\brol\b|ruolo|papel|função|funcao|\brola\b|\broll\b|vai[_ ]trò|peran|yetki|"
    r"роль|ρόλος|ρολος|دور|الدور|भूमिका|บทบาท|角色|役割|역할|权限|権限|권한|"
    r"permission|privilege|rights|berechtigung|recht|droits|permiso|permessi|permissão|permissões|uprawnien|quyền|hak_akses|behörighet|"
    r"права|δικαιώματ|صلاحي|अधिकार|สิทธิ์|"
    r"access|zugriff|accès|acceso|accesso|acesso|toegang|dostęp|erişim|truy[_ ]cập|akses|åtkomst|доступ|πρόσβαση|وصول|पहुँच|पहुंच|การเข้าถึง|访问|アクセス|접근"
)
_POWER = (
    r"admin\w*|superus\w*|super[_ ]?user|root|owner|full|total\w*|all|unlimited|unrestricted|complet\w*|"
    r"beheerder|eigentümer|vollständig|voll|propriétaire|propietario|proprietario|dono|pełn\w*|właściciel|"
    r"yönetici|sahip|tam|sınırsız|quản[_ ]trị\w*|chủ[_ ]sở[_ ]hữu|đầy[_ ]đủ|toàn[_ ]quyền|penuh|pemilik|"
    r"administratör|ägare|fullständig|full|администратор\w*|суперпользовател\w*|владел\w*|полн\w*|"
    r"διαχειριστ\w*|ιδιοκτήτ\w*|πλήρ\w*|مدير|مسؤول|مالك|كامل|كاملة|व्यवस्थापक|प्रशासक|मालिक|पूर्ण|"
    r"ผู้ดูแล\S*|เจ้าของ|เต็ม\S*|ทั้งหมด|超级管理员|管理员|所有者|完全|全部|管理者|オーナー|フル|全権|관리자|소유자|전체|모든"
)
# keys naming a check: approval, validation, review, filter, safety check, confirmation
_CHECK_KEY = (
    r"approv|confirm|review|verif|valid|filter|check|safety|security|moderat|"
    r"freigabe|genehmig|prüfung|kontroll|sicherheit|bestätig|"
    r"approbation|contrôle|vérif|filtre|sécurité|"
    r"aprobaci|aprobación|revisi|control|filtro|seguridad|"
    r"approvazion|controllo|verifica|sicurezza|"
    r"aprovaç|aprovac|verificaç|segurança|"
    r"goedkeuring|controle|beveiliging|"
    r"akceptacj|zatwierdz|weryfikacj|filtr|kontrol|bezpieczeństw|"
    r"onay|denetim|doğrulama|güvenlik|"
    r"phê[_ ]duyệt|kiểm[_ ]tra|bộ[_ ]lọc|xác[_ ]minh|xác[_ ]nhận|an[_ ]toàn|"
    r"persetujuan|verifikasi|pemeriksaan|keamanan|"
    r"godkänn|granskning|kontroll|säkerhet|"
    r"одобрен|подтвержден|проверк|фильтр|модерац|безопасност|"
    r"έγκρισ|έλεγχ|φίλτρ|επιβεβαίωσ|ασφάλει|"
    r"موافق|فلتر|مرشح|تحقق|مراجع|أمان|"
    r"अनुमोदन|मंज़ूरी|मंजूरी|फ़िल्टर|फिल्टर|पुष्टि|जाँच|जांच|सत्यापन|सुरक्षा|"
    r"อนุมัติ|ตัวกรอง|ตรวจสอบ|ยืนยัน|ความปลอดภัย|"
    r"审批|批准|过滤|审核|验证|确认|安全|審批|過濾|"
    r"承認|フィルター|確認|検証|審査|安全|"
    r"승인|필터|검토|확인|인증|보안"
)
# a check switched off
_OFF_VALUE = (
    r"(?:no|false|off|none|never|0|disabled?|nein|aus|falsch|deaktiviert|non|désactivé\w*|faux|jamais|"
    r"apagad[oa]|desactivad[oa]|nunca|spent[oa]|disattivat[oa]|não|nao|desligad[oa]|desativad[oa]|"
    r"nee|uit|nooit|nie|wyłączon\w*|hayır|kapalı|yok|không|tắt|tidak|mati|nonaktif|nej|av|avstängd|aldrig|"
    r"нет|выключен\w*|отключен\w*|όχι|απενεργοποιημέν\w*|ανενεργ\w*|لا|معطل|مغلق|नहीं|बंद|ไม่|ปิด|"
    r"否|关闭|关|不|无|いいえ|オフ|なし|無効|不要|아니오|아니요|끔|꺼짐|없음|비활성\S*)\s*$"
)
# a power switched on ("may_delete_records: yes", "darf_zahlungen_ausführen = ja")
_ON_VALUE = r"(?:yes|true|on|1|enabled?|ja|oui|sí|si|sì|sim|tak|evet|có|ya|да|ναι|نعم|हाँ|हां|ใช่|是|はい|あり|예|네)\s*$"
_PERMIT_KEY = (
    r"^(?:may|can|allow\w*|darf|kann|peut|puede|pode|può|mag|kan|får|może|boleh|được|"
    r"может|μπορεί|يمكن|可|可以)[_ ]|"
    r"^allowed|_allowed$|erlaubt|autorisé|permitid|consentit|permitid|toegestaan|dozwolon|izin|cho[_ ]phép|diizinkan|tillåt|"
    r"разрешен|επιτρέπ|مسموح|अनुमति|อนุญาต|允许|許可|허용|"
    r"صلاحية|権限$|权限$|권한$"
)
_ROLE_KEY_RE = _c(_ROLE_KEY)
# the power is the whole value, or with one word more ("مدير النظام", "full access"): not prose
_POWER_RE = _c(rf"^(?:{_POWER})(?:[\s_]+[^\s_]+)?\s*$")
_CHECK_KEY_RE = _c(_CHECK_KEY)
_OFF_RE = _c(_OFF_VALUE)
_ON_RE = _c(_ON_VALUE)
_PERMIT_KEY_RE = _c(_PERMIT_KEY)
# the model named in the data (a section header, a key prefix, a comment): any tier of it
_MODEL_RE = _c(MODEL_ANY_TIER)
# keys of one's own devices or display: a switch there is no control ("automatisch_speichern = aus")
_REQUIRED_WORD = _c(
    r"requir|necess|erforderlich|nötig|requis|requise|requiere|richiest|necessári|nodig|vereist|wymagan|gerekli|"
    r"cần|perlu|wajib|kräver|krävs|требуется|обязател|απαιτείται|مطلوب|आवश्यक|ต้อง|需要|必要|필요"
)


def _signal(key: str, value: str) -> str | None:
    """What one setting grants, or which check it switches off; None for any other setting."""
    key, value = key.strip(), value.strip()
    if _ROLE_KEY_RE.search(key) and _POWER_RE.search(value):
        return "grant"
    if _CHECK_KEY_RE.search(key) and _OFF_RE.match(value):
        return "check off"
    if _PERMIT_KEY_RE.search(key) and _ON_RE.match(value) and not _REQUIRED_WORD.search(key):
        return "permit"
    return None


def settings_hit(norm: str, sentences: Iterable[re.Match[str]]) -> tuple[str, int] | None:
    """Why and where `norm` writes, as data with keys in any of the grid's languages, a role or
    power granted or a check switched off: with the model named, or two such settings."""
    if ":" not in norm and "=" not in norm:
        return None
    found: list[tuple[str, str, int]] = []
    for piece in _PIECE.finditer(norm):
        if piece[0].lstrip().startswith(("#", "//", ";")):
            continue
        pair = _PAIR.match(piece[0])
        if pair is None:
            continue
        kind = _signal(pair["key"], pair["value"])
        if kind:
            found.append((kind, f"{pair['key'].strip()}: {pair['value'].strip()}", piece.start()))
    if not found:
        return None
    named = _MODEL_RE.search(norm)
    if named is None and len({kind for kind, _, _ in found}) < 2 and len(found) < 2:
        return None
    settings = "; ".join(f"'{text}'" for _, text, _ in found[:3])
    who = f"model: '{named[0]}'; " if named else ""
    return f"{who}settings: {settings}", found[0][2]
