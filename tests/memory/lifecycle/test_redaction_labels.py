"""Passwords after a bare or quoted label (English "password"/"pass", a word's end in Chinese, a PIN),
each beside a look-alike that must stay: a verb before a code argument, a year, a described password."""

from __future__ import annotations

import pytest

from memory.lifecycle.redaction import redact_secrets


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Office router: user admin / pass Kx7!vR2q#Lm9-tower (under the printer).", "Kx7!vR2q#Lm9-tower"),
        ("Router admin: user 'admin', password 'Kestrel-Oak-7741!'.", "Kestrel-Oak-7741!"),
        ("Wi-Fi password 'Mvq83tpz' for the guest room.", "Mvq83tpz"),
        ("网银登录密码:zhanghua1987!Bank", "zhanghua1987!Bank"),
        ("U盾密码 663812,别忘了。", "663812"),
        ("pass: Kx7!vR2q#Lm9", "Kx7!vR2q#Lm9"),
        ("Acesso ao servidor: ssh root@10.0.0.4, senha RkydAk#wXYIr.", "RkydAk#wXYIr"),  # generated, no digit
        # a name of what it opens between the label and the colon; Spanish "clave"
        ("Acceso al portal fiscal, clave SIAT: Oruro#77mesa", "Oruro#77mesa"),
        ("Passwort NAS: Tr0mmel!Keller", "Tr0mmel!Keller"),
        # a key's id goes with the key
        ('{"type": "service_account", "private_key_id": "5be0c91d7a3e4f26b8d10e9f4c7a2b3d6e8f1a09"}',
         "5be0c91d7a3e4f26b8d10e9f4c7a2b3d6e8f1a09"),
    ],
)
def test_a_password_after_its_label_is_redacted(text: str, secret: str) -> None:
    found = redact_secrets(text)
    assert found.found
    assert secret not in found.text
    assert "[REDACTED]" in found.text


@pytest.mark.parametrize(
    "text",
    [
        "For CJK terminals, pass ``ambiguous_width=2``: wide characters then take two cells.",
        "pass ambiguous_width=2 to the function",
        "I will pass the exam in 2026!",
        "boarding pass 12B, gate 4",
        "Day pass: 25 EUR, children free",
        "password 2024 was the worst year for breaches",
        "Forgot your password? Use the reset link.",
        "The password manager 1Password is great.",
        "忘记密码了?点击重置链接。",
        "Changed the password Friday!",
        "password Reset!",
        "Password policy: 12+chars, one symbol",
        "Palabra clave: inventario2024",
    ],
)
def test_a_look_alike_is_kept(text: str) -> None:
    assert redact_secrets(text).text == text
