"""Secrets told by a checksum, a plain label or the shape after it (redaction_shapes), each beside a
look-alike that must stay: an IBAN, an order number, a zip code, a year, words after "2FA"."""

from __future__ import annotations

import pytest

from memory.lifecycle.redaction import redact_secrets


@pytest.mark.parametrize(
    ("text", "secret", "kind"),
    [
        ("Card 4539 1488 0343 6467 exp 09/28 CVV 731", "4539 1488 0343 6467", "card_number"),
        ("Card 4539 1488 0343 6467 exp 09/28 CVV 731", "731", "card_number"),
        ("карта 4539148803436467 для переводов", "4539148803436467", "card_number"),
        ("The door code for the office is 4827#", "4827", "pin"),
        ("Alarm code 9182, gate code 0451", "0451", "pin"),
        ("Mã PIN thẻ ngân hàng: 918273", "918273", "pin"),
        ("Bank PIN is 4471", "4471", "pin"),
        (
            "Seed phrase: witch collapse practice feed shame open despair creek road again ice least",
            "witch collapse practice",
            "seed_phrase",
        ),
        ("TOTP seed for the admin account: JBSWY3DPEHPK3PXPJBSWY3DP", "JBSWY3DPEHPK3PXP", "totp_seed"),
        ("session cookie: sessionid=8f2k9x3m7q1p5v0z4t6w2y8b", "8f2k9x3m7q1p5v0z4t6w2y8b", "session_cookie"),
        ("Netflix: maria.k@gmail.com — Tulipan2023!", "Tulipan2023!", "password"),
        ("SMTP login: alerts@acme.io / Smtp#Pass2025", "Smtp#Pass2025", "password"),
        ("pypi-AgEIcHlwaS5vcmcCJDk2ZTU4YzQ2LWI3ZjItNDFiYy1hM2E0LTVjNjc4OGQ5", "AgEIcHlwaS5v", "pypi_token"),
        ("ssh key passphrase 'blue-Heron-88!'", "blue-Heron-88!", "password"),
        ("管理员账号 admin,口令 Adm1n@2025", "Adm1n@2025", "password"),
        ("ログイン情報: ID tanaka / PW Tnk#8841", "Tnk#8841", "password"),
        (
            "クライアントシークレットは 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。",
            "P9awTCrUE1CM",
            "google_oauth_secret",
        ),
        ("Shopify admin: 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", "4f1c9a2b7e3d", "shopify_token"),
        (
            "bot 7123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1 posts alerts",
            "AAHdqTcvCH1v",
            "telegram_bot_token",
        ),
        ("Azure app secret: abc8Q~xYz0123456789abcdefghijklmnopqrs", "xYz012345678", "azure_client_secret"),
        ("Webhook signing: whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "MfKQ9r8GKYqr", "stripe_webhook_secret"),
        ("VAULT_TOKEN hvs.CAESIJqzLx7nTq2bA9xPZ8mW4kR1", "CAESIJqzLx7n", "vault_token"),
    ],
)
def test_the_secret_is_redacted_and_named(text: str, secret: str, kind: str) -> None:
    found = redact_secrets(text)
    assert secret not in found.text
    assert kind in found.kinds


@pytest.mark.parametrize(
    "text",
    [
        "Rent goes to DE44 5001 0517 5407 3249 31 from April.",  # an IBAN: the reviewer must see it
        "Order 4539 1488 0343 6468 shipped on Monday.",  # fails the Luhn check
        "Call +49 30 1234 5678 9012 for the front desk.",
        "The zip code is 94107 and the area code 415.",
        "PIN 2 on the header is ground.",
        "Turn on 2FA for every account and keep the recovery codes offline.",
        "Set up the authenticator app before Friday, then ask Maria for help.",
        "Write your seed phrase on paper and never type it into a website.",
        "Mail ana@example.org / 2024-05-01 about the invoice.",
        "The 2024 session keeps every session_id short-lived.",
        "Use key-value stores for the cache; the dapi module reads them.",
        "Ratio 16:AA rating, see chapter 8Q~ notes.",
    ],
)
def test_a_look_alike_is_kept(text: str) -> None:
    assert redact_secrets(text).text == text
