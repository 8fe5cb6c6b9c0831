"""Credential redaction with real-looking samples (pure, no database)."""

from __future__ import annotations

import pytest

from memory.lifecycle.redaction import REDACTED, Redaction, looks_random, redact, redact_secrets, redact_value

PEM = (
    "-----BEGIN RSA PRIVATE KEY-----\n"
    "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n"
    "VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n"
    "-----END RSA PRIVATE KEY-----"
)
OPENSSH = (
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
    "-----END OPENSSH PRIVATE KEY-----"
)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (
            "my key is sk-proj-Qw3rTy9UiOp4AsDfGh5JkLz7XcVbNm12 thanks",
            "sk-proj-Qw3rTy9UiOp4AsDfGh5JkLz7XcVbNm12",
        ),
        ("OPENAI_API_KEY=sk-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c", "sk-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"),
        ("use sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx-yz012345 here", "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx"),
        ("stripe sk_live_51HxYzAbCdEfGhIjKlMnOpQr", "sk_live_51HxYzAbCdEfGhIjKlMnOpQr"),
        (
            "curl -H 'Authorization: Bearer "
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N'",
            "eyJhbGciOiJIUzI1NiJ9",
        ),
        ("Authorization: Bearer ya29.a0AfH6SMBx7Kq2pLmN3oPqRsTuV", "ya29.a0AfH6SMBx7Kq2pLmN3oPqRsTuV"),
        ("DATABASE_URL=postgres://admin:S3cr3t-Pa55@db.internal:5432/app", "S3cr3t-Pa55"),
        ("clone https://deploy:ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8@github.com/x/y", "ghp_a1B2c3D4e5F6"),
        ("aws key AKIAIOSFODNN7EXAMPLE in us-east-1", "AKIAIOSFODNN7EXAMPLE"),
        ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI/K7MDENG"),
        ("token ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 leaked", "ghp_a1B2c3D4e5F6g7H8"),
        ("slack xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "xoxb-123456789012"),
        ("google AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY", "AIzaSyD-9tSrke72PouQMnMX"),
        ('{"password": "hunter2-hunter2"}', "hunter2-hunter2"),
        ("Authorization: Basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA=="),
        (
            f"here is my key\n{PEM}\nplease keep it",
            "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun",
        ),
        (OPENSSH, "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ"),
    ],
)
def test_redacts_real_looking_credentials(text, secret):
    out = redact(text)
    assert secret not in out
    assert REDACTED in out


def test_keeps_the_text_around_a_secret():
    assert redact("postgres://admin:S3cr3tPa55@db:5432/app") == f"postgres://admin:{REDACTED}@db:5432/app"
    assert redact(f"before\n{PEM}\nafter") == f"before\n{REDACTED}\nafter"
    assert redact("password=hunter22 and more") == f"password={REDACTED} and more"


def test_unterminated_private_key_is_redacted_to_the_end():
    out = redact("oops -----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC")
    assert out == f"oops {REDACTED}"


@pytest.mark.parametrize(
    "prose",
    [
        "We use bearer authentication for the audit log API.",
        "Rotate the token every 90 days; the password policy needs 12 characters.",
        "The skeleton key idea: ask-me-anything sessions on https://example.com/docs",
        "Basic configuration lives in settings.py",
    ],
)
def test_leaves_ordinary_prose_alone(prose):
    assert redact(prose) == prose


def test_is_idempotent():
    text = "sk-proj-Qw3rTy9UiOp4AsDfGh5JkLz7XcVbNm12 password=abc12345 https://u:p4ss@h"
    once = redact(text)
    assert redact(once) == once


def test_redact_value_walks_json():
    value = {"args": ["--key", "sk-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"], "n": 3, "password": "x"}
    out = redact_value(value)
    assert out == {"args": ["--key", REDACTED], "n": 3, "password": "x"}


# -- the whole credential: key pairs, webhook tokens, random tokens beside a secret word

AWS_ID, AWS_SECRET = "AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"


@pytest.mark.parametrize(
    "text",
    [
        f"AWS creds for the backup job: key id {AWS_ID}, secret {AWS_SECRET}",
        f"aws_access_key_id = {AWS_ID}\naws_secret_access_key = {AWS_SECRET}",
        f"The secret access key is {AWS_SECRET} and the key id {AWS_ID}.",
        f"id {AWS_ID} / {AWS_SECRET}",
    ],
)
def test_an_aws_key_pair_is_redacted_whole(text):
    found = redact_secrets(text)
    assert AWS_ID not in found.text
    assert AWS_SECRET not in found.text
    assert "K7MDENG" not in found.text  # no fragment of the secret survives
    assert set(found.kinds) == {"aws_access_key", "aws_secret_key"}


def test_a_slack_webhook_loses_its_token_but_keeps_its_host():
    text = (
        "Alerts post to https://hooks.slack.com/services/T024BE7LD/B01ABCDEF12/aBcDeFgHiJkLmNoPqRsTuVwX now."
    )
    found = redact_secrets(text)
    assert found.text == f"Alerts post to https://hooks.slack.com/services/{REDACTED} now."
    assert found.kinds == ("slack_webhook",)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("the deploy key for prod is 8fJ2kLq9ZxW3mN7pR4tV.", "8fJ2kLq9ZxW3mN7pR4tV"),
        ("token: 9f86d081884c7d659a2feaf0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "9f86d081884c7d659a2f"),
        ("Signing secret for the billing webhook -> Zq7Wm2Xc9Vb4Nt6Yr1Lp", "Zq7Wm2Xc9Vb4Nt6Yr1Lp"),
        ("The API key: 550e8400-e29b-41d4-a716-446655440000", "550e8400-e29b-41d4"),
        ("the admin password was changed to Tr0ub4dor-and-3-more-x", "Tr0ub4dor-and-3-more-x"),
    ],
)
def test_a_random_token_beside_a_secret_word_is_redacted(text, secret):
    found = redact_secrets(text)
    assert secret not in found.text
    assert REDACTED in found.text


@pytest.mark.parametrize(
    "text",
    [
        "Idempotency key 550e8400-e29b-41d4-a716-446655440000 was reused by the client.",
        "Request 550e8400-e29b-41d4-a716-446655440000 failed; the key point is retries.",
        "The key takeaway is that refresh_token_expiry_2 should be configurable.",
        "Fixed in commit 9f86d081884c7d659a2feaf0c55ad015a3bf4f1b, the secret handling change.",
        "The TLS key lives at /etc/ssl/private/server-2024.pem on each host.",
        "The AuthenticationTokenProvider class validates the password policy.",
        "Key dates: 2024-05-01 through 2024-06-30 for the migration.",
        "Token rotation runs every 90 days via the credential-rotation-job-v2 cron.",
        "The secret santa budget is 20 euros this year.",
    ],
)
def test_ids_identifiers_paths_and_words_beside_a_secret_word_stay(text):
    assert redact_secrets(text) == Redaction(text=text, kinds=())


@pytest.mark.parametrize(
    ("token", "random"),
    [
        ("8fJ2kLq9ZxW3mN7pR4tV", True),
        ("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", True),
        ("refresh_token_expiry_2", False),
        ("AuthenticationProvider", False),
        ("2024-05-01-2024-06-30", False),
        ("aaaaaaaaaaaaaaaa1111", False),
    ],
)
def test_looks_random_measures_shape_and_entropy(token, random):
    assert looks_random(token) is random
