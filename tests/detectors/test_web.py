"""Credentials in URLs (any scheme, an empty user) and HTTP headers."""

from __future__ import annotations

import base64

import pytest

from tokenjuice.redact import Redactor

R = Redactor()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("redis://:S3cretPass@cache:6379/0", "redis://:[REDACTED:url-password]@cache:6379/0"),
        ("postgres://app:hunter2hunter2@db:5432/app", "postgres://app:[REDACTED:url-password]@db:5432/app"),
        ("mongodb+srv://u:p%40ss-w0rd@c.example.net/db", "mongodb+srv://u:[REDACTED:url-password]@c.example.net/db"),
        ("amqp://guest:Gu3st-2024@mq//", "amqp://guest:[REDACTED:url-password]@mq//"),
        (
            "git clone https://oauth2:glc0a7Zk29Lm3Nq8wXk2@gitlab.example.com/a.git",
            "git clone https://oauth2:[REDACTED:url-password]@gitlab.example.com/a.git",
        ),
        ("https://8f3kq29dmZ0pLx7vN2bQ4wR@github.com/a/b", "https://[REDACTED:url-password]@github.com/a/b"),
        (
            "?X-Amz-Expires=60&X-Amz-Signature=4f0d8c2a9e7b61d35a08c4e2f9b7d1a6c3e8f05b2d9a7c41e6b3f8d02a5c9e7b",
            "?X-Amz-Expires=60&X-Amz-Signature=[REDACTED:url-signature]",
        ),
        (
            "https://a.blob.core.windows.net/c?sv=2022-11-02&sig=Zm9vYmFyYmF6cXV4cXV1eA%3D%3D",
            "https://a.blob.core.windows.net/c?sv=2022-11-02&sig=[REDACTED:url-signature]",
        ),
    ],
)
def test_url_credentials(text: str, expected: str) -> None:
    assert R.redact(text)[0] == expected


@pytest.mark.parametrize(
    "text",
    [
        "postgres://user@localhost:5432/db",
        "postgres://ci:ci@localhost:5432/widgets",  # two letters: an example's placeholder
        "https://user:password@example.com/",
        "http://user:pass@host/",
        "'%s://%s:%s@%s' % (scheme, user, pw, host)",
        "f'{scheme}://{user}:{password}@{host}'",
        "redis://:${REDIS_PASSWORD}@cache:6379",
        "https://user:****@host/",
        "ssh://git@github.com/acme/app.git",
        "see http://example.com/a@b for details",
        "?sig=abc&v=1",  # a `sig` that is not a shared access signature (no `sv=`)
    ],
)
def test_urls_without_credentials(text: str) -> None:
    assert R.redact(text) == (text, {})


def test_authorization_headers() -> None:
    basic = base64.b64encode(b"deploy:Hunter2-x").decode()
    cases = {
        "> Authorization: Bearer abcdef0123456789abcdef0123456789": "bearer-token",
        f"> Authorization: Basic {basic}": "basic-auth",
        "Authorization: token 0123456789abcdef0123456789abcdef": "authorization",
        "Proxy-Authorization: Negotiate YIIGhgYGKwYBBQUCoIIGejCCBnag": "authorization",
        "curl -H 'Authorization: Bot MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ' https://x": "authorization",
    }
    for text, kind in cases.items():
        out, found = R.redact(text)
        assert found == {kind: 1}, (text, found)
        assert out.endswith(f"[REDACTED:{kind}]") or f"[REDACTED:{kind}] " in out or f"[REDACTED:{kind}]'" in out


@pytest.mark.parametrize(
    "text",
    [
        'WWW-Authenticate: Bearer realm="api"',
        "The Bearer authentication scheme",
        'headers = {"Authorization": "Bearer " + token}',
        'headers["Authorization"] = f"token {tok}"',
        "Authorization: Basic usage of the API",
        'Authorization: Digest username="u", response="6629fae49393a05397450978507c4ef1"',
        "authorization = request_headers['Authorization']",
        'session.headers.update({"Proxy-Authorization": proxy_auth_value})',
        "    authorization: Optional[str] = None",
        "Bearer <token>",
    ],
)
def test_header_lookalikes(text: str) -> None:
    assert R.redact(text) == (text, {})
