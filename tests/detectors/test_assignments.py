"""Secrets found by their name: only literal values that look like secrets, never code
(identifiers, attributes, calls, annotations, lookups), placeholders or empty values."""

from __future__ import annotations

import pytest

from tokenjuice.detectors.assignments import strength
from tokenjuice.redact import Redactor

R = Redactor()


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("DB_PASSWORD=Tr0ub4dor&3x", "Tr0ub4dor&3x"),
        ("export PGPASSWORD=postgres", "postgres"),  # an upper-case environment name: a literal
        ("PGPASSWORD=hunter2 psql -h db", "hunter2"),
        ('"client_secret": "f00ba4f00ba4f00ba4"', "f00ba4f00ba4f00ba4"),
        ("password = 'hunter2'", "hunter2"),
        ('password: str = "correcthorse9"', "correcthorse9"),
        ("  password: s3cr3t!", "s3cr3t!"),
        ("POSTGRES_PASSWORD: postgres", "postgres"),
        ("X-Auth-Token: abc123def456", "abc123def456"),
        ("https://api.example.org/v1/items?access_token=ya5Tq9mZ&page=2", "ya5Tq9mZ"),
        ("Server=db;User Id=app;Password=Sup3rS3cret;", "Sup3rS3cret"),
        ("psql 'host=db password=Hx7kq2p dbname=app'", "Hx7kq2p"),
        ("helm install app --set db.password=Hx7-kq2p; echo", "Hx7-kq2p"),
        ("tool --password hunter22 --verbose", "hunter22"),
        ("tool --api-key=AbCd1234EfGh5678", "AbCd1234EfGh5678"),
        ("keytool -list -storepass Chang3d1t", "Chang3d1t"),
        ('{\\"password\\":\\"Tr0ub4dor3\\"}', "Tr0ub4dor3"),
        ("apiKey: 'f177061e2354c50a97bfc635'", "f177061e2354c50a97bfc635"),
        ("SIGNING_KEY=8c2f9a71d04be5f3a6c9e1b27d8f4a05", "8c2f9a71d04be5f3a6c9e1b27d8f4a05"),
        ("- name: DB_PASSWORD\n  value: hunter2", "hunter2"),
        ('{"name": "API_TOKEN", "value": "abc123def456"}', "abc123def456"),
        ("openssl enc -pass pass:Zx9-k2Lm", "Zx9-k2Lm"),
    ],
)
def test_literal_secrets_by_name(text: str, secret: str) -> None:
    out, found = R.redact(text)
    assert secret not in out, out
    assert set(found) <= {"secret-assignment", "cli-password"} and sum(found.values()) == 1, found


@pytest.mark.parametrize(
    "text",
    [
        # Code: identifiers, attributes, calls, subscripts, annotations, lookups.
        "def login(user: str, password: str) -> bool:",
        "    token = self._next_token()",
        '    api_key = os.environ["API_KEY"]',
        "secret: str) -> None:",
        "+        token = rest[i]",
        "    password = getpass.getpass()",
        '    password = input("Password: ")',
        "    token: Optional[str] = None",
        "    private_key: Ed25519PrivateKey | Ed448PrivateKey",
        "    secret_key = settings.SECRET_KEY",
        "    login(user=user, password=password)",
        "    kwargs = dict(token=token_value_2,",
        '    headers = {"Authorization": f"Bearer {token}"}',
        "    pygments.token.Token: 'primary',",
        "    # token          = 1*tchar",
        "<Secret: 'any_name'>",
        "class Token:",
        "password:",
        # References and templates.
        "PASSWORD=${DB_PASSWORD}",
        "TOKEN=$(gh auth token)",
        "token: ${{ secrets.GITHUB_TOKEN }}",
        "password = '%s' % pw",
        'api_key: "{{ vault_api_key }}"',
        # Placeholders, masked and empty values.
        "api_key: <your-key-here>",
        "GITHUB_TOKEN=***",
        'datadog.initialize(api_key="YOUR_API_KEY")',
        "export OPENAI_API_KEY=your-key-here",
        "password: example-password",
        "secret='SWMTKN-1-redacted'",
        "url = 'http://user:wrong_password@' + rest",
        "password=",
        'password = ""',
        "--password PASSWORD --token <token>",
        "psql --no-password -h db",
        "docker login --password-stdin",
        # Not credentials: counts, handles, versions, paths, statuses.
        "max_tokens=4096",
        "next_token: 8f14e45f-ceea-467f-a9b4-4b2f1f2c2a11",
        '"ClientToken": "a43f09b5-05d4-49e3-ad55-56f7c519ef05",',
        "osslsigncode=2.9-1~bpo12+1 passwd=1:4.13+dfsg1-1+deb12u1 patch=2.7.6-7",
        "GOOGLE_APPLICATION_CREDENTIALS=/etc/gcp/service-account.json",
        "PWD=/home/dev/project",
        "--- PASS: TestLogin (0.00s)",
        'BUCKETS = {"fail": "failing", "pass": "passed"}',
        "cache_key = 'a3f9c2e8b7d14e6f'",
        "public_key: ssh-ed25519-AAAAC3NzaC1lZDI1NTE5",
        # Prose.
        "error: invalid token: expired",
        "the password: hello world",
        "-token budget is given explicitly.",
    ],
)
def test_code_placeholders_and_prose_are_left_alone(text: str) -> None:
    assert R.redact(text) == (text, {})


def test_a_masked_value_keeps_its_name_and_quotes() -> None:
    assert R.redact('{"password": "Tr0ub4dor3"}')[0] == '{"password": "[REDACTED:secret-assignment]"}'
    assert R.redact("password='Tr0ub4dor3'")[0] == "password='[REDACTED:secret-assignment]'"


@pytest.mark.parametrize(
    ("name", "keyword", "expected"),
    [
        ("DB_PASSWORD", "password", "strong"),
        ("dbPassword", "password", "strong"),
        ("db-password", "password", "strong"),
        ("self.password", "password", "strong"),
        ("apiKey", "key", "strong"),
        ("apikey", "key", "strong"),
        ("STRIPE_SECRET_KEY", "key", "strong"),
        ("cache_key", "key", None),
        ("publicKey", "key", None),
        ("monkey", "key", None),
        ("key", "key", None),
        ("SSH_KEY", "key", "weak"),
        ("bypass", "pass", None),
        ("userPass", "pass", "strong"),
        ("next_token", "token", None),
        ("ClientToken", "token", None),
        ("access_token", "token", "strong"),
        ("oauth", "auth", None),
        ("basic_auth", "auth", "weak"),
        ("PWD", "pwd", None),
        ("MYSQL_PWD", "pwd", "strong"),
    ],
)
def test_which_names_name_a_secret(name: str, keyword: str, expected: str | None) -> None:
    assert strength(name, keyword) == expected


def test_flags_that_switch_instead_of_taking_a_value() -> None:
    assert strength("no-password", "password", flag=True) is None
    assert strength("ask-pass", "pass", flag=True) is None
    assert strength("storepass", "pass", flag=True) == "strong"


def test_a_weak_name_holding_encoded_credentials() -> None:
    import base64

    auth = base64.b64encode(b"ci:Hx7kq2p").decode()
    out, found = R.redact(f"_auth={auth}")
    assert out == "_auth=[REDACTED:secret-assignment]" and found == {"secret-assignment": 1}
    assert R.redact("auth=basic")[1] == {}
