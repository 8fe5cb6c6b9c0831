"""Credential redaction, pure (no Django): text -> the text with secrets replaced, plus what was found.

Everything derived from a transcript (session summaries, search text, the harvest) and every
agent- or document-written memory passes through here: a secret pasted into a chat or planted in
a write must not outlive it in the store, a prompt or a log. The whole credential goes: known key
shapes, the AWS secret access key beside its key id, webhook URLs with their token, `key=value`
assignments, "the password is ...", URL userinfo, PEM blocks, and any random-looking token (by
its character classes and Shannon entropy) within a few words after key, secret, token,
password, bearer or credential. Obvious placeholders (`${DB_PASSWORD}`, `os.environ[...]`,
`user:password@localhost`), ordinary words, identifiers and dates are left alone, and so is a
UUID unless a secret word names it (a request id or an idempotency key is not a credential).

`redact_secrets(text)` returns a `Redaction` (text and the kinds found); `redact(text)` is the
string-only form sessions_app has always used.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from memory.lifecycle.redaction_shapes import REDACTED, redact_shapes


@dataclass(frozen=True)
class Redaction:
    text: str
    kinds: tuple[str, ...]  # sorted, unique: e.g. ("aws_access_key", "password")

    @property
    def found(self) -> bool:
        return bool(self.kinds)


# Whole PEM private-key blocks (RSA, EC, OPENSSH, ENCRYPTED, plain PKCS#8); an unterminated
# block is redacted to the end of the text, since the rest of it is key material.
_PRIVATE_KEY = re.compile(
    r"-----BEGIN (?P<kind>[A-Z0-9 ]*?)PRIVATE KEY-----.*?(?:-----END (?P=kind)PRIVATE KEY-----|\Z)",
    re.DOTALL,
)

# Credentials in URL userinfo (postgres://, mongodb+srv://, amqp://, and redis://:pass@ with no
# user): scheme://user:password@host -> scheme://user:[REDACTED]@host
_URL_PASSWORD = re.compile(r"(?P<head>\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]*:)(?P<secret>[^\s@/]+)(?=@)")

# Authorization headers and bearer tokens; a token must contain a digit, so prose
# ("bearer authentication") is left alone.
_BEARER = re.compile(
    r"(?P<head>\b(?:Bearer|Token|Api-Key)\s+)(?P<secret>(?=[A-Za-z._~+/=-]*\d)[A-Za-z0-9._~+/=-]{12,})",
    re.IGNORECASE,
)
_BASIC = re.compile(r"(?P<head>\bAuthorization:\s*Basic\s+)(?P<secret>[A-Za-z0-9+/]{8,}={0,2})", re.I)

# Well-known key shapes, redacted wherever they appear; first match wins, so Anthropic's
# sk-ant- is named before OpenAI's broader sk-. The middle column holds literal substrings one of
# which every match contains: a cheap test that skips the pattern for ordinary text.
_AWS_PREFIXES = ("AKIA", "ASIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA")
_KEY_SHAPES: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("anthropic_key", ("sk-ant-",), re.compile(r"\bsk-ant-(?:api\d+-|admin\d+-)?[A-Za-z0-9_-]{16,}")),
    ("openai_key", ("sk-",), re.compile(r"\bsk-(?:proj-|live-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}")),
    ("stripe_key", ("_live_", "_test_"), re.compile(r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}")),
    ("aws_access_key", _AWS_PREFIXES, re.compile(rf"\b(?:{'|'.join(_AWS_PREFIXES)})[A-Z0-9]{{16}}\b")),
    ("github_token", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,}\b")),
    ("github_token", ("github_pat_",), re.compile(r"\bgithub_pat_[A-Za-z0-9_]{22,}\b")),
    ("gitlab_token", ("glpat-",), re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}\b")),
    ("slack_token", ("xox",), re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b")),
    ("google_api_key", ("AIza",), re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b")),
    ("jwt", ("eyJ",), re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    ("huggingface_token", ("hf_",), re.compile(r"\bhf_[A-Za-z0-9]{30,}\b")),
    ("npm_token", ("npm_",), re.compile(r"\bnpm_[A-Za-z0-9]{36}\b")),
    ("sendgrid_key", ("SG.",), re.compile(r"\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}")),
    ("pypi_token", ("pypi-",), re.compile(r"\bpypi-AgE[A-Za-z0-9_-]{40,}")),
    # Vendors' documented token prefixes, each followed by the length of random text it carries
    ("google_oauth_secret", ("GOCSPX-",), re.compile(r"\bGOCSPX-[A-Za-z0-9_-]{24,}")),
    (
        "shopify_token",
        ("shpat_", "shpss_", "shpca_", "shppa_"),
        re.compile(r"\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b"),
    ),
    ("digitalocean_token", ("dop_v1_", "doo_v1_", "dor_v1_"), re.compile(r"\bdo[por]_v1_[a-f0-9]{64}\b")),
    ("gitlab_token", ("glrt-", "gldt-", "glptt-"), re.compile(r"\bgl(?:rt|dt|ptt)-[A-Za-z0-9_-]{20,}\b")),
    ("grafana_token", ("glsa_", "glc_"), re.compile(r"\bgl(?:sa|c)_[A-Za-z0-9_=+/-]{32,}")),
    ("square_token", ("sq0atp-", "sq0csp-"), re.compile(r"\bsq0(?:atp|csp)-[A-Za-z0-9_-]{22,}")),
    ("stripe_webhook_secret", ("whsec_",), re.compile(r"\bwhsec_[A-Za-z0-9+/=]{24,}")),
    ("slack_app_token", ("xapp-",), re.compile(r"\bxapp-\d-[A-Za-z0-9-]{20,}")),
    ("vault_token", ("hvs.", "hvb."), re.compile(r"\bhv[sb]\.[A-Za-z0-9_-]{24,}")),
    ("age_secret_key", ("AGE-SECRET-KEY-",), re.compile(r"\bAGE-SECRET-KEY-1[A-Z0-9]{50,}")),
    ("atlassian_token", ("ATATT3",), re.compile(r"\bATATT3[A-Za-z0-9_=-]{40,}")),
    ("databricks_token", ("dapi",), re.compile(r"\bdapi[a-f0-9]{32}(?:-\d)?\b")),
    ("postman_key", ("PMAK-",), re.compile(r"\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b")),
    ("newrelic_key", ("NRAK-",), re.compile(r"\bNRAK-[A-Z0-9]{27}\b")),
    ("sentry_token", ("sntrys_", "sntryu_"), re.compile(r"\bsntry[su]_[A-Za-z0-9_=+/-]{32,}")),
    (
        "llm_api_key",
        ("gsk_", "pplx-", "xai-", "r8_"),
        re.compile(r"\b(?:gsk_|pplx-|xai-|r8_)[A-Za-z0-9]{30,}\b"),
    ),
    ("mailgun_key", ("key-",), re.compile(r"\bkey-[a-f0-9]{32}\b")),
    ("linear_key", ("lin_api_",), re.compile(r"\blin_api_[A-Za-z0-9]{32,}\b")),
    ("notion_token", ("ntn_",), re.compile(r"\bntn_[A-Za-z0-9]{40,}\b")),
    ("telegram_bot_token", (":AA",), re.compile(r"\b\d{8,10}:AA[A-Za-z0-9_-]{33}\b")),
    # an Azure AD client secret carries "Q~" after its fourth character
    (
        "azure_client_secret",
        ("Q~",),
        re.compile(r"(?<![\w~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![\w~.-])"),
    ),
)

# Incoming webhooks: the URL path is the credential (whoever has it can post as the integration).
_WEBHOOKS: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    (
        "slack_webhook",
        "hooks.slack.com",
        re.compile(
            r"(?P<head>\bhooks\.slack\.com/(?:services|workflows|triggers)/)(?P<secret>[A-Za-z0-9/_-]{8,})"
        ),
    ),
    (
        "discord_webhook",
        "/api/webhooks/",
        re.compile(r"(?P<head>\bdiscord(?:app)?\.com/api/webhooks/)(?P<secret>[0-9]+/[A-Za-z0-9_-]{16,})"),
    ),
    (
        # any other incoming webhook (Teams' outlook.office.com/webhook/..., Zapier, Mattermost, a
        # self-hosted one): the path after a /webhook/ or /hooks/ segment, when it holds a digit
        "webhook_url",
        "hook",
        re.compile(
            r"(?P<head>\bhttps?://[^\s/]+/(?:[^\s/]+/){0,4}?(?:webhooks?|incomingwebhook|hooks)/)"
            r"(?P<secret>(?=[^\s]{0,80}\d)[A-Za-z0-9@._~/+=-]{16,})",
            re.IGNORECASE,
        ),
    ),
)

# Every key shape's literals in one pattern (a branch of literals: sre scans for their first
# characters in C), so the common row with none of them skips the per-shape tests.
_KEY_SHAPE_TRIGGERS = re.compile(
    "|".join(re.escape(trigger) for _kind, triggers, _shape in _KEY_SHAPES for trigger in triggers)
)

# The AWS secret access key: 40 characters of base64 with both cases and a digit or a slash. It
# has no prefix of its own, so it is looked for only in text that names AWS, a secret or holds a
# key id; a git SHA (hex, one case) never has that shape.
_AWS_SECRET = re.compile(
    r"(?<![A-Za-z0-9/+=])(?=[A-Za-z0-9/+]{0,39}[A-Z])(?=[A-Za-z0-9/+]{0,39}[a-z])(?=[A-Za-z0-9/+]{0,39}[0-9/+])"
    r"[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])"
)
_AWS_SECRET_WORDS = ("aws", "secret", "akia", "asia")

# A random-looking token within five words after a secret word: "the deploy key for prod is
# 8fJ2kLq9ZxW3mN7pR4tV", "token: 9f86d081884c7d659a2f...", "Bearer-Token 1a2B3c...".
_SECRET_WORDS = ("key", "secret", "token", "password", "passwd", "pwd", "passphrase", "bearer", "credential")
_NEAR_SECRET_WORD = re.compile(
    r"(?P<head>\b(?P<name>[\w-]*?(?:key|secret|token|password|passwd|pwd|passphrase|bearer|credential)s?)\b"
    r"(?:[^\w\n]{1,3}[\w-]+){0,5}?[^\w\n]{1,4})(?P<secret>[A-Za-z0-9+/_~=.-]{16,})",
    re.IGNORECASE,
)
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.IGNORECASE)
# A UUID is a credential only when a secret word names it directly ("api key: <uuid>", "the
# token is <uuid>"), not an identifier that happens to be called a key.
_UUID_SECRET_NAME = re.compile(
    r"(?:secret|password|passwd|token|api[_ -]?key|access[_ -]?key|bearer|credential)s?$", re.IGNORECASE
)
_UUID_NOT_SECRET = re.compile(
    r"(?:idempoten\w*|public|cache|partition|primary|foreign|sort|lookup|routing|correlation|request|trace|"
    r"license|licence|session|object|row|dedup\w*)[_ -]?(?:key|token|id)s?$",
    re.IGNORECASE,
)
_PARTS = re.compile(r"[-_./~+=]")
MIN_TOKEN_CHARS = 16
MIN_TOKEN_BITS = 3.0  # Shannon entropy per character; English words joined together stay below


def shannon_bits(text: str) -> float:
    """Shannon entropy of `text` in bits per character."""
    if not text:
        return 0.0
    total = len(text)
    return -sum(n / total * math.log2(n / total) for n in Counter(text).values())


def looks_random(token: str) -> bool:
    """A credential's shape: long, mixed character classes with digits, not words or numbers joined
    by separators (identifiers, paths, dates, versions), and high entropy."""
    token = token.strip(".=-_~")
    if len(token) < MIN_TOKEN_CHARS:
        return False
    digits = sum(ch.isdigit() for ch in token)
    classes = (
        any(ch.islower() for ch in token)
        + any(ch.isupper() for ch in token)
        + (digits > 0)
        + any(not ch.isalnum() for ch in token)
    )
    # digits are what a random draw from letters and digits almost always has and a word lacks
    if not (digits >= 2 and classes >= 2) and not (digits >= 1 and classes >= 3):
        return False
    parts = [part for part in _PARTS.split(token) if part]
    if all(part.isalpha() or (part.isdigit() and len(part) <= 4) for part in parts):
        return False
    return shannon_bits(token) >= MIN_TOKEN_BITS


# The same cheap test for the case-insensitive rules, on the lower-cased text.
_ASSIGNMENT_WORDS = ("pass", "pwd", "secret", "key", "token")
_PROSE_WORDS = ("pass", "pin")

# `password = hunter2`, `"api_key": "..."`, `AWS_SECRET_ACCESS_KEY=...`: the value goes.
_ASSIGNMENT = re.compile(
    r"""(?P<head>\b(?P<name>[\w.-]*(?:password|passwd|pwd|passphrase|secret|api[_-]?key|apikey|"""
    r"""access[_-]?key|auth[_-]?token|access[_-]?token|refresh[_-]?token|client[_-]?secret|"""
    # the key's id goes with the key ("private_key_id", "access_key_id"), as Vault's "secret_id"
    r"""private[_-]?key)(?:[_-]?id)?|secret[_-]?id)["']?\s*[:=]\s*["']?)(?P<secret>[^\s"',;}{]{4,})""",
    re.IGNORECASE,
)

# Prose: "the root password for db-main is Kx8#mPq2" -- only values with a digit or a symbol,
# so "the password is stored in Vault" stays.
_PROSE_PASSWORD = re.compile(
    r"(?P<head>\b(?:password|passphrase|passcode|passwd|pin)\s+(?:for\s+[\w.@-]+\s+)?(?:is|was)\s*:?\s+)"
    r"(?P<secret>(?=\S*[\d#$%&!*@^])[^\s,;]{6,})",
    re.IGNORECASE,
)

# One-time recovery (backup) codes listed after their name, in the languages people store them in:
# "Recovery codes: 4829 1173, 9036 5521, ..." or "backup codes 30uf-4kg8 9qpd-olqm ...". Each code
# in the list goes (4-6 letters and digits, or two such groups joined by a hyphen, holding a
# digit); fewer than three in a row is not a list of codes.
_RECOVERY_WORDS = (
    "recovery code", "backup code", "wiederherstellungscode", "backup-code",
    "sicherungscode", "codes de récupération", "codes de secours", "codes de sauvegarde",
    "códigos de recuperación", "códigos de respaldo", "códigos de backup", "códigos de recuperação",
    "codici di backup", "codici di recupero", "herstelcode", "back-upcode", "kody zapasowe",
    "kody odzyskiwania", "коды восстановления", "резервные коды",
    "yedek kod", "kurtarma kod", "mã dự phòng", "mã khôi phục", "kode cadangan", "kode pemulihan",
    "バックアップコード", "リカバリーコード", "복구 코드", "백업 코드", "备用码", "恢复码", "備用碼",
    "reservkod", "återställningskod", "gendannelseskode", "varakood", "palautuskoodi",
)  # fmt: skip
_CODE_PART = r"[a-z0-9]{4,6}"
_HAS_DIGIT = r"(?=[a-z0-9-]{0,12}?\d)"
_RECOVERY_CODE = rf"{_HAS_DIGIT}{_CODE_PART}(?:-{_CODE_PART})?(?![\w-])"
_CODE_GAP = r"(?:\s*[,;\u3001\uff0c]\s*|\s+)"  # a comma (also the CJK ones) or a space
_RECOVERY_LIST = re.compile(
    rf"(?<![\w-])(?P<codes>{_RECOVERY_CODE}(?:{_CODE_GAP}{_RECOVERY_CODE}){{2,}})", re.IGNORECASE
)
_ONE_RECOVERY_CODE = re.compile(rf"(?<![\w-]){_RECOVERY_CODE}", re.IGNORECASE)
RECOVERY_WINDOW = 80  # characters between the name and the list's first code
# Unnamed (in a language the list above lacks): five or more hyphenated pairs of 4-6 letters and
# digits in a row, most mixing both ("pgxzj-nu614, 5bnrx-lrthh, ..."): a list of one-time codes
# whatever it is called; phone numbers and dates have no letters, order ids no run of five.
_PAIRED_CODE = rf"{_HAS_DIGIT}{_CODE_PART}-{_CODE_PART}(?![\w-])"  # the hyphen required
_UNNAMED_CODE_RUN = re.compile(rf"(?<![\w-]){_PAIRED_CODE}(?:{_CODE_GAP}{_PAIRED_CODE}){{4,}}", re.IGNORECASE)


def _value_redacted(match: re.Match[str], secret: str) -> str:
    """The match with the `secret` that follows its "head" group redacted, the rest kept."""
    head = match.group("head")
    return head + REDACTED + match[0][len(head) + len(secret) :]


def _redact_recovery_codes(text: str, lowered: str) -> tuple[str, bool]:
    """`text` with every listed recovery code after a recovery-code name redacted."""
    found = False
    for word in _RECOVERY_WORDS:
        at = lowered.find(word)
        while at >= 0:
            start = at + len(word)
            match = _RECOVERY_LIST.search(text, start)
            if match and match.start() - start <= RECOVERY_WINDOW:
                codes = _ONE_RECOVERY_CODE.sub(REDACTED, match["codes"])
                text = text[: match.start()] + codes + text[match.end() :]
                lowered = text.lower()
                found = True
            at = lowered.find(word, start)
    return text, found


# A password named in the row's own language, then its value, with or without a colon or a verb
# ("Passwort Sommer#2024-Kessel", "mot de passe : Lune!88", "hasło to Zima2024!", "пароль: Kedr-77#",
# "パスワードは Tk9#pq"): the English rules above read only the English words. The value has a letter
# or digit and a digit or symbol, so "Passwort vergessen", "le mot de passe est stocké" stay; after a
# bare label (no colon, no verb) it needs a digit and a symbol other than a hyphen ("Kennwort
# 2FA-geschützt" is a description).
_PASSWORD_WORDS = (
    "passwort", "kennwort", "mot de passe", "contraseña", "contrasenya", "senha", "wachtwoord", "hasło",
    "haslo", "heslo", "пароль", "lösenord", "adgangskode", "passord", "salasana", "jelszó", "jelszava",
    "şifre", "parola", "clave", "clave de acceso", "chave de acesso",
    "passphrase", "口令", "암호", "pw", "wlan-schlüssel", "wlan-passwort", "wifi key", "wi-fi key", "wpa key",
    "network key", "netzwerkschlüssel",
    "mật khẩu", "kata sandi", "kata laluan", "nenosiri", "κωδικός", "كلمة المرور", "كلمة السر", "رمز عبور",
    "گذرواژه", "סיסמה", "סיסמא", "पासवर्ड", "パスワード", "密码", "密碼", "비밀번호", "รหัสผ่าน",
    # English labels the prose rules above leave to a colon or a verb: "password 'Oak-7741!'",
    # "user admin / pass Kx7!vR2q" (a bare label still needs a digit and a symbol)
    "password", "passwd", "passcode", "pass",
)  # fmt: skip
# Scripts written without spaces: their password word is a word's end ("登录密码", "网银密码"),
# so no word boundary is asked before it.
_UNSPACED = re.compile(r"[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_VALUE_VERB = (
    r"is|was|ist|lautet|war|est|es|era|é|è|jest|to|je|är|er|on|là|adalah|ialah|ni|ay|είναι|هي|هو|است|הוא|היא|है|"
    r"は|是|为|為|는|은|คือ"
)
_OPENING_QUOTES = "\"'\u201c\u2018\u00ab"
_SPACED_WORDS = "|".join(re.escape(w) for w in _PASSWORD_WORDS if not _UNSPACED.match(w))
_UNSPACED_WORDS = "|".join(re.escape(w) for w in _PASSWORD_WORDS if _UNSPACED.match(w))
_ABOUT_PASSWORDS = (
    r"(?:polic(?:y|ies)|rules?|rotation|expiry|expiration|length|managers?|reset|hints?|change|strength|"
    r"requirements?|format|age|history|complexity|guidelines?|tips?|example)"
)
_LABELLED_PASSWORD = re.compile(
    # "palabra clave", "punto clave": a keyword, a key point
    rf"(?P<head>(?:(?<!\w)(?<!palabra )(?<!palabras )(?<!punto )(?:{_SPACED_WORDS})|{_UNSPACED_WORDS})"
    r"(?:\s+(?:for|für|de|du|do|da|dla|для|van)\s+[\w.@-]+)?"  # "mot de passe du wifi"
    # a name of what it opens before the colon: "clave CIEC: ...", "Passwort WLAN: ...", "pw (root): ..."
    # (not a rule about passwords: "password policy: 12+ chars", "password expiry: 90-days")
    rf"(?:(?P<said>(?:\s+(?!{_ABOUT_PASSWORDS}\b)\(?[\w.@-]{{2,24}}\)?)?\s*[:=\uff1a]\s*|\s*(?:{_VALUE_VERB})\s*:?\s*)|\s+)"
    f"[{_OPENING_QUOTES}]?)"  # a quoted value: the quote stays
    "(?P<secret>[^\\s,;\u3001\uff0c\u3002\"'\u201d\u2019\u00bb`]{6,})",  # `code` is no password
    re.IGNORECASE,
)
_PASSWORD_SYMBOL = re.compile(r"[#$%&!*@^?+=~_/]")
_ARGUMENT = re.compile(r"[A-Za-z_]\w*=")  # "pass ambiguous_width=2": a keyword argument, after a verb


def _password_value(value: str, *, said: bool) -> bool:
    """A password's shape: a letter or digit and a digit or symbol; after a bare label, a symbol other
    than a hyphen and a digit or a capital inside (a described password, "2FA-protected", is not one)."""
    if not any(ch.isalnum() for ch in value) or _is_placeholder(value):
        return False
    digit = any(ch.isdigit() for ch in value)
    symbol = _PASSWORD_SYMBOL.search(value) is not None
    if value.isdigit():  # a PIN ("U盾密码 663812"): the value has six characters or more, so no year
        return True
    if said:
        return digit or symbol or any(not ch.isalnum() for ch in value)
    # a generated one may lack a digit: a symbol and a capital inside a longer value ("RkydAk#wXYIr")
    random_case = len(value) >= 8 and any(a.islower() and b.isupper() for a, b in itertools.pairwise(value))
    return symbol and (digit or random_case) and not _ARGUMENT.match(value)


# Values that name a secret rather than hold one: templating and env references, calls and
# subscripts (`os.environ[...]`, `getenv(...)`), dotted settings, type names, stock placeholders.
_REFERENCE = re.compile(
    r"""^(?:\$|%|<|\{\{|\[REDACTED\]|\*{3,}|x{3,}|\.{3})"""
    r"""|^[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*[\[(]"""
    r"""|^[a-z_]+(?:\.[A-Za-z_]\w*)+$"""
    r"""|^[A-Z][a-z]+(?:[A-Z][a-z]+)+$"""
    # words in capitals joined by underscores, no digit: an environment variable's name or a
    # placeholder in any language (CHANGE_ME, CAMBIAR_ANTES_DE_USAR, HIER_EINTRAGEN)
    r"""|^[A-ZÀ-ÖØ-Þ]+(?:_[A-ZÀ-ÖØ-Þ]+)+$"""
    r"""|^(?:password|passwd|pass|secret|changeme|example|placeholder|redacted|required|optional|none|null"""
    r"""|true|false|string|str|bytes|your[_-]?\w*|my[_-]?\w*)$""",
    re.IGNORECASE,
)


def _is_placeholder(value: str) -> bool:
    return bool(_REFERENCE.match(value.strip("\"'`")))


def _assignment_kind(name: str) -> str:
    lowered = name.lower()
    if "aws" in lowered or "secret_access" in lowered:
        return "aws_secret_key"
    if any(word in lowered for word in ("password", "passwd", "pwd", "passphrase")):
        return "password"
    return "credential"


# Every rule's cheap test below needs one of these in the lower-cased text: a text with none (most
# memory rows) is returned after one scan instead of a dozen substring tests.
_ANY_TRIGGER = re.compile(
    "|".join(
        re.escape(word)
        for word in sorted(
            {"private key", "://", "bearer", "token", "api-key", "basic"}
            | {trigger.lower() for _kind, triggers, _shape in _KEY_SHAPES for trigger in triggers}
            | {trigger for _kind, trigger, _shape in _WEBHOOKS}
            | {*_AWS_SECRET_WORDS, *_ASSIGNMENT_WORDS, *_PROSE_WORDS, *_SECRET_WORDS, *_RECOVERY_WORDS}
            | {*_PASSWORD_WORDS}
        )
    )
)


def redact_secrets(text: str) -> Redaction:
    """`text` with credentials replaced by [REDACTED] and the kinds found; idempotent."""
    if not text:
        return Redaction(text=text or "", kinds=())
    lowered = text.lower()
    text, kinds = redact_shapes(text, lowered)  # cards, PINs, seed phrases, ... (their own module)
    if kinds:
        lowered = text.lower()
    code_run = text.count("-") >= 5  # room for an unnamed run of codes
    if not code_run and not _ANY_TRIGGER.search(lowered):
        return Redaction(text=text, kinds=tuple(sorted(kinds)))

    def whole(kind: str) -> Callable[[re.Match[str]], str]:
        def replace(match: re.Match[str]) -> str:
            kinds.add(kind)
            return REDACTED

        return replace

    def keep_head(kind: str | None) -> Callable[[re.Match[str]], str]:
        def replace(match: re.Match[str]) -> str:
            secret = match.group("secret")
            if secret.startswith(REDACTED) or _is_placeholder(secret):
                return match[0]
            kinds.add(kind or _assignment_kind(match.group("name")))
            return match.group("head") + REDACTED

        return replace

    def near_secret_word(match: re.Match[str]) -> str:
        secret = match.group("secret").rstrip(".")
        name = match.group("name")
        if secret.startswith(REDACTED) or _is_placeholder(secret):
            return match[0]
        if _UUID.match(secret):
            words = _head_words(match)
            if not _UUID_SECRET_NAME.search(words) or _UUID_NOT_SECRET.search(words):
                return match[0]
        elif not _random_part(secret, after_scheme=match.group("head").endswith("://")):
            return match[0]
        kinds.add("token" if "password" not in name.lower() else "password")
        return _value_redacted(match, secret)

    def labelled_password(match: re.Match[str]) -> str:
        secret = match.group("secret").rstrip(".")
        said = match.group("said") is not None or match.group("head")[-1] in _OPENING_QUOTES  # "password 'x'"
        if secret.startswith(REDACTED) or not _password_value(secret, said=said):
            return match[0]
        kinds.add("password")
        return _value_redacted(match, secret)

    out = text
    if "PRIVATE KEY" in out:
        out = _PRIVATE_KEY.sub(whole("private_key"), out)
    if "://" in out:
        out = _URL_PASSWORD.sub(keep_head("connection_string"), out)
    for kind, triggers, shape in _KEY_SHAPES if _KEY_SHAPE_TRIGGERS.search(out) else ():
        if any(map(out.__contains__, triggers)):  # before the header rules: a key is named by its provider
            out = shape.sub(whole(kind), out)
    for kind, trigger, shape in _WEBHOOKS:
        if trigger in lowered:
            out = shape.sub(keep_head(kind), out)
    if any(map(lowered.__contains__, _AWS_SECRET_WORDS)) or "aws_access_key" in kinds:
        out = _AWS_SECRET.sub(whole("aws_secret_key"), out)
    if "bearer" in lowered or "token" in lowered or "api-key" in lowered:
        out = _BEARER.sub(keep_head("bearer_token"), out)
    if "basic" in lowered:
        out = _BASIC.sub(keep_head("basic_auth"), out)
    if ("=" in out or ":" in out) and any(map(lowered.__contains__, _ASSIGNMENT_WORDS)):
        out = _ASSIGNMENT.sub(keep_head(None), out)
    if any(map(lowered.__contains__, _PROSE_WORDS)):
        out = _PROSE_PASSWORD.sub(keep_head("password"), out)
    if any(map(lowered.__contains__, _SECRET_WORDS)):
        out = _NEAR_SECRET_WORD.sub(near_secret_word, out)
    if any(map(lowered.__contains__, _PASSWORD_WORDS)):
        out = _LABELLED_PASSWORD.sub(labelled_password, out)
    if any(map(lowered.__contains__, _RECOVERY_WORDS)):
        out, listed = _redact_recovery_codes(out, out.lower())
        if listed:
            kinds.add("recovery_codes")
    if code_run:
        out = _UNNAMED_CODE_RUN.sub(_codes_if_mixed(kinds), out)
    return Redaction(text=out, kinds=tuple(sorted(kinds)))


def _codes_if_mixed(kinds: set[str]) -> Callable[[re.Match[str]], str]:
    def replace(match: re.Match[str]) -> str:
        codes = _ONE_RECOVERY_CODE.findall(match[0])
        mixed = sum(any(c.isalpha() for c in code) and any(c.isdigit() for c in code) for code in codes)
        if 2 * mixed <= len(codes):
            return match[0]
        kinds.add("recovery_codes")
        return _ONE_RECOVERY_CODE.sub(REDACTED, match[0])

    return replace


def _random_part(candidate: str, *, after_scheme: bool) -> bool:
    """Whether the candidate looks like a credential. Right after "://" it is a host and path
    (`$API_TOKEN" https://api.example.com/v1/orders`): only a random-looking path segment counts."""
    if not after_scheme:
        return looks_random(candidate)
    return any(looks_random(segment) for segment in candidate.split("/")[1:])


def _head_words(match: re.Match[str]) -> str:
    """The words just before a secret word and the word itself ("idempotency key")."""
    start = match.start("name")
    before = match.string[max(0, start - 24) : start]
    return (before + match.group("name")).strip()


def redact(text: str) -> str:
    """`text` with credentials replaced by [REDACTED]; idempotent (redact(redact(x)) == redact(x))."""
    return redact_secrets(text).text


def redact_value(value: object) -> object:
    """Redact every string inside a JSON-like value (dicts, lists, strings); keys are kept."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [redact_value(v) for v in value]
    if isinstance(value, dict):
        return {k: redact_value(v) for k, v in value.items()}
    return value
