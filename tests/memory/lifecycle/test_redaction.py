"""Credential redaction with kinds (pure, no database)."""

from __future__ import annotations

import pytest

from memory.lifecycle.redaction import REDACTED, redact, redact_secrets, redact_value

PEM = (
    "-----BEGIN RSA PRIVATE KEY-----\n"
    "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n"
    "-----END RSA PRIVATE KEY-----"
)


@pytest.mark.parametrize(
    ("text", "secret", "kind"),
    [
        ("key sk-proj-Qw3rTy9UiOp4AsDfGh5JkLz7XcVbNm12 ok", "Qw3rTy9UiOp4AsDfGh5JkLz7XcVbNm12", "openai_key"),
        (
            "use sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx-yz012345 here",
            "AbCdEfGhIjKlMnOpQrStUvWx",
            "anthropic_key",
        ),
        ("aws key AKIAIOSFODNN7EXAMPLE in us-east-1", "AKIAIOSFODNN7EXAMPLE", "aws_access_key"),
        ("session ASIAZ7Y6X5W4V3U2T1SR issued", "ASIAZ7Y6X5W4V3U2T1SR", "aws_access_key"),
        (
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "wJalrXUtnFEMI",
            "aws_secret_key",
        ),
        ("token ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 leaked", "ghp_a1B2c3D4e5F6", "github_token"),
        ("pat github_pat_11AB2CD3E0xYzQ8wErTyUi_OpAsDfGhJkLz", "github_pat_11AB2CD3", "github_token"),
        ("gitlab glpat-Xy7Kq2Lm9Np4Rs8Tv3Wz", "glpat-Xy7Kq2Lm9Np4Rs8Tv3Wz", "gitlab_token"),
        ("slack xoxb-123456789012-1234567890123-AbCdEfGhIjKl", "xoxb-123456789012", "slack_token"),
        ("stripe sk_live_51HxYzAbCdEfGhIjKlMnOpQr", "sk_live_51HxYzAbCdEfGhIjKlMnOpQr", "stripe_key"),
        ("stripe rk_live_9aBcDeFgHiJkLmNoPqRsTuVw", "rk_live_9aBcDeFgHiJkLmNoPqRsTuVw", "stripe_key"),
        ("google AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY", "AIzaSyD-9tSrke72PouQMnMX", "google_api_key"),
        (
            "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N",
            "eyJzdWIiOiIx",
            "jwt",
        ),
        ("Authorization: Bearer ya29.a0AfH6SMBx7Kq2pLmN3oPqRsTuV", "ya29.a0AfH6SMBx7Kq2", "bearer_token"),
        ("Authorization: Basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA==", "basic_auth"),
        ("password=Tr0ub4dor&3-prod", "Tr0ub4dor", "password"),
        ("passwd: Wint3r!sComing2024", "Wint3r!sComing2024", "password"),
        ("secret: Q9m#Lp2$Vx7!Rt4", "Q9m#Lp2$Vx7!Rt4", "credential"),
        ("The root password for db-main is Kx8#mPq2vL!9", "Kx8#mPq2vL!9", "password"),
        (
            f"here\n{PEM}\nthere",
            "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun",
            "private_key",
        ),
        ("postgres://billing:pG7!xQ2mLr9@db-prod:5432/billing", "pG7!xQ2mLr9", "connection_string"),
        (
            "mongodb+srv://analyst:Mq83kLpz20Xv@cluster0.ab1cd.mongodb.net/x",
            "Mq83kLpz20Xv",
            "connection_string",
        ),
        ("redis://:r3d1sP4ssw0rd9@cache-1:6379/0", "r3d1sP4ssw0rd9", "connection_string"),
        ("amqp://celery:Rabb1tHole77@mq.internal:5672/prod", "Rabb1tHole77", "connection_string"),
    ],
)
def test_redacts_each_kind_and_names_it(text, secret, kind):
    result = redact_secrets(text)
    assert secret not in result.text
    assert REDACTED in result.text
    assert kind in result.kinds


def test_keeps_the_text_around_a_secret():
    assert redact("redis://:r3d1sP4ss@cache:6379") == f"redis://:{REDACTED}@cache:6379"
    assert redact("the password is hunter22 ok") == f"the password is {REDACTED} ok"


@pytest.mark.parametrize(
    "text",
    [
        "We use bearer authentication for the audit log API.",
        "Rotate the token every 90 days; the password policy needs 12 characters.",
        "The password is stored in Vault under kv/team.",
        "DB_PASSWORD = os.environ['DB_PASSWORD']",
        "API_KEY=${API_KEY}",
        "password: {{ vault_db_password }}",
        "Connection example: postgres://user:password@localhost:5432/app",
        "class Settings(BaseSettings):\n    api_key: SecretStr",
        "redis_url = os.getenv('REDIS_URL', 'redis://localhost:6379/0')",
        "token = request.headers.get('Authorization', '').removeprefix('Bearer ')",
    ],
)
def test_placeholders_and_prose_pass_unchanged(text):
    result = redact_secrets(text)
    assert result.text == text
    assert result.kinds == ()


def test_kinds_are_sorted_and_unique():
    text = "AKIAIOSFODNN7EXAMPLE AKIAQ3EGHJ7K2LMNP4RT password=abc12345"
    assert redact_secrets(text).kinds == ("aws_access_key", "password")


def test_is_idempotent_and_reports_nothing_the_second_time():
    once = redact_secrets("sk-proj-Qw3rTy9UiOp4AsDfGh5JkLz7XcVbNm12 password=abc12345 https://u:p4ss@h")
    twice = redact_secrets(once.text)
    assert twice.text == once.text
    assert twice.kinds == ()


def test_sessions_app_contract_holds():
    """The string-only API sessions_app imports: same names, same outputs as its tests expect."""
    assert redact("postgres://admin:S3cr3tPa55@db:5432/app") == f"postgres://admin:{REDACTED}@db:5432/app"
    assert redact(f"before\n{PEM}\nafter") == f"before\n{REDACTED}\nafter"
    assert redact("password=hunter22 and more") == f"password={REDACTED} and more"
    assert redact("oops -----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC") == f"oops {REDACTED}"
    assert redact("") == ""
    value = {"args": ["--key", "sk-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"], "n": 3, "password": "x"}
    assert redact_value(value) == {"args": ["--key", REDACTED], "n": 3, "password": "x"}


@pytest.mark.parametrize(
    "text",
    [
        "Backup codes for my mail account, keep them here: 7hq2-k9xm 3pdw-a81z m4ne-77cv r0ts-q2bb.",
        "Recovery codes (print and store offline): 5108 2294, 8831 0467, 2276 9915, 6420 3381.",
        "Wiederherstellungscodes fürs Firmenkonto: k2f9d-88qaz m1c7x-0lw3e p9r2t-zz81q",
        "リカバリーコード: 4417-2208、9930-1126、5582-7743",
    ],
)
def test_a_list_of_recovery_codes_goes_code_by_code(text):
    redaction = redact_secrets(text)
    assert redaction.kinds == ("recovery_codes",)
    assert redaction.text.count(REDACTED) >= 3
    assert not any(ch.isdigit() for ch in redaction.text.split(":", 1)[-1].replace(REDACTED, ""))


@pytest.mark.parametrize(
    "text",
    [
        "Backup codes: regenerate them after 2024 when the 2FA app moves; 3 per user max.",
        "Where are my recovery codes? I lost them in 2023 when I changed phones.",
        "Die Backup-Codes liegen im Tresor, Fach 12, Raum 304, Gebäude 7.",
        "Recovery codes were printed for hosts db01 and db02 on 2025-04-01.",
    ],
)
def test_recovery_codes_named_but_not_listed_stay(text):
    assert redact_secrets(text).kinds == ()


def test_an_unnamed_run_of_paired_codes_is_a_list_of_codes():
    # named in a language the word list lacks: the run's shape is enough
    text = "Varakoodid: 4hq8r-k2m9x, p0d7w-3nz5e, x8c1v-q4j7b, m5t2y-9gr3a, 7wk4e-h1s6d."
    redaction = redact_secrets(text)
    assert redaction.kinds == ("recovery_codes",)
    assert redaction.text.count(REDACTED) == 5


@pytest.mark.parametrize(
    "text",
    [
        "Call 0171-2345, 0172-3456, 0173-4567, 0174-5678 or 0175-6789.",  # numbers, no letters
        "Orders ab12-cd34 and ef56-gh78 shipped on Monday.",  # two, not a run
        "Rooms east-wing north-tower south-annex west-lobby main-hall are booked.",  # words
    ],
)
def test_runs_without_the_shape_of_codes_stay(text):
    assert redact_secrets(text).kinds == ()
