"""Secrets that the key and password rules of redaction.py do not name: told by a checksum, a plain
label or the shape of what follows it, in any language.

- a payment card number (13-19 digits passing the Luhn check) and the CVV beside it;
- a PIN or a door, gate, alarm or keypad code: 4-8 digits after its label;
- a wallet's seed phrase: 12 to 24 plain words after its label;
- a TOTP / 2FA seed: base32 after its label;
- a session cookie's value;
- an email address with its password after a slash, a dash or a colon.

Pure; `redact_shapes` is called by redaction.redact_secrets and returns the kinds it found.
"""

from __future__ import annotations

import re
from collections.abc import Callable

REDACTED = "[REDACTED]"  # what every redacted value becomes (redaction.py uses this one)

# 13-19 digits in groups of up to 4 (spaces or hyphens), starting 2-6: Visa, Mastercard, Amex, ...
_CARD = re.compile(r"(?<![\d-])[2-6]\d{3}(?:[ -]?\d{2,4}){2,4}(?:[ -]?\d{1,3})?(?![\d-])")
_CVV = re.compile(r"(?P<head>\b(?:cvv2?|cvc2?|cid|csc)\b\s*[:=]?\s*)(?P<secret>\d{3,4})(?!\d)", re.IGNORECASE)
_PIN = re.compile(
    r"(?P<head>(?<!\w)(?:pin(?:[- ]?(?:code|nummer|number|kodu))?|door code|gate code|alarm code|entry code"
    r"|keypad code|access code|safe code|lock code|türcode|codice pin|code pin|código pin|mã pin|kode pin)"
    r"(?:\s+[^\s\d:=]+){0,4}?\s*(?:is|ist|est|es|é|è|là|adalah|:|=|-)?\s*)"
    r"(?P<secret>\d{4,8}[#*]?)(?![\d/.,:]\d)",
    re.IGNORECASE,
)
_SEED_LABEL = re.compile(
    r"\b(?:seed phrase|seed words|recovery phrase|secret recovery phrase|mnemonic(?: phrase)?|wallet seed"
    r"|seed-phrase|frase semilla|frase de recuperación|phrase de récupération|wiederherstellungsphrase)\b"
    r"|助记词|助記詞",
    re.IGNORECASE,
)
_SEED_WORDS = re.compile(r"(?<![\w-])[a-z]{3,8}(?:[ ,]+[a-z]{3,8}){11,23}(?![\w-])")
_SEED_WINDOW = 40  # characters between the label and the first word
_TOTP = re.compile(  # the label in any case, the base32 seed in capitals with a digit 2-7
    r"(?P<head>\b(?i:totp|2fa|mfa|otp|authenticator)\b[^\n]{0,40}?[:=]?\s*)"
    r"(?P<secret>(?=[A-Z2-7 ]{0,40}[2-7])[A-Z2-7]{4}(?: ?[A-Z2-7]{4}){3,})(?![A-Za-z0-9])"
)
_COOKIE = re.compile(
    r"(?P<head>\b(?:sessionid|session_id|phpsessid|jsessionid|connect\.sid|laravel_session|_session)\s*[=:]\s*)"
    r"(?P<secret>(?=[^\s;]{0,80}\d)[A-Za-z0-9%._-]{16,})",
    re.IGNORECASE,
)
_EMAIL_PASSWORD = re.compile(
    r"(?P<head>[\w.+-]+@[\w-]+(?:\.[\w-]+)+\s*(?:/|\u2014|\u2013|\||:)\s*)"
    r"(?P<secret>(?=\S*\d)(?=\S*[A-Za-z])(?=\S*[#$%&!*@^?+=~_])[^\s,;]{8,})"
)
_TRIGGERS = ("cvv", "cvc", "pin", "code", "seed", "phrase", "mnemonic", "助记", "助記", "totp", "2fa", "mfa",
             "otp", "authenticator", "session", "@")  # fmt: skip


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


# an IBAN's check digits before the run: "DE44 5001 0517 ..." is an account a reviewer must see
_IBAN_HEAD = re.compile(r"[A-Z]{2}\d{2} ?$")


def _redact_cards(text: str, kinds: set[str]) -> str:
    def replace(match: re.Match[str]) -> str:
        if _IBAN_HEAD.search(text, max(0, match.start() - 5), match.start()):
            return match[0]
        digits = re.sub(r"\D", "", match[0])
        if not 13 <= len(digits) <= 19 or not _luhn(digits) or len(set(digits)) < 4:
            return match[0]
        kinds.add("card_number")
        return REDACTED

    return _CARD.sub(replace, text)


def _head_kept(kind: str, kinds: set[str]) -> Callable[[re.Match[str]], str]:
    def replace(match: re.Match[str]) -> str:
        kinds.add(kind)
        return match.group("head") + REDACTED

    return replace


def _redact_seed(text: str, kinds: set[str]) -> str:
    for label in reversed(list(_SEED_LABEL.finditer(text))):  # case-blind: positions are the text's
        words = _SEED_WORDS.search(text, label.end())
        if words and words.start() - label.end() <= _SEED_WINDOW:
            kinds.add("seed_phrase")
            text = text[: words.start()] + REDACTED + text[words.end() :]
    return text


def redact_shapes(text: str, lowered: str) -> tuple[str, set[str]]:
    """`text` with the secrets above redacted, and their kinds."""
    kinds: set[str] = set()
    text = _redact_cards(text, kinds)  # the pattern's own scan is the cheap test (no label to look for)
    if not any(map(lowered.__contains__, _TRIGGERS)):
        return text, kinds
    if "card_number" in kinds:
        text = _CVV.sub(_head_kept("card_number", kinds), text)
    text = _PIN.sub(_head_kept("pin", kinds), text)
    text = _redact_seed(text, kinds)
    text = _TOTP.sub(_head_kept("totp_seed", kinds), text)
    text = _COOKIE.sub(_head_kept("session_cookie", kinds), text)
    if "@" in text:
        text = _EMAIL_PASSWORD.sub(_head_kept("password", kinds), text)
    return text, kinds
