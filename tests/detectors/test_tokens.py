"""Provider tokens by structure: prefixes, alphabets, lengths, GitHub's and npm's CRC32
checksum, word boundaries, placeholders; JWTs by their JSON header."""

from __future__ import annotations

import base64
import json
import random

import pytest

from tokenjuice.detectors.samples import checksummed, samples
from tokenjuice.detectors.tokens import crc32_tail
from tokenjuice.redact import Redactor

R = Redactor()


def kinds(text: str) -> dict[str, int]:
    return R.redact(text)[1]


@pytest.mark.parametrize("prefix", ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "npm_"])
def test_generated_checksummed_tokens_validate(prefix: str) -> None:
    rnd = random.Random(prefix)
    for _ in range(20):
        t = checksummed(prefix, rnd)
        assert crc32_tail(t[len(prefix) :])
        out, found = R.redact(f"token in use: {t}.")
        assert out == f"token in use: [REDACTED:{'npm' if prefix == 'npm_' else 'github'}-token]."
        assert sum(found.values()) == 1


def test_the_checksum_is_githubs_published_one() -> None:
    # Examples from the public discussion of GitHub's token format (revoked or fake).
    assert crc32_tail("M7H4jxUDDWHP4kZ6A4dxlQYsQIWJuq11T4V4")
    assert not crc32_tail("M7H4jxUDDWHP4kZ6A4dxlQYsQIWJuq11T4V3")


def test_a_made_up_token_is_masked_and_a_placeholder_is_not() -> None:
    assert kinds("GH ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8 here") == {"github-token": 1}
    for placeholder in ("ghp_" + "x" * 36, "ghp_" + "X" * 36, "ghp_" + "0" * 36, "npm_" + "A" * 36):
        assert kinds(f"export TOKEN_EXAMPLE {placeholder}") == {}, placeholder


@pytest.mark.parametrize(
    "text",
    [
        "xghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",  # inside a longer word
        "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7",  # too short
        "GHP_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",  # another case is another string
        "task-0123456789abcdef0123456789abcdef",  # `sk-` inside a word
        "msg.send(x)",
        "ssl.create_default_context()",
        "the dapi module and the key-value store",
        "AIzaSy too short",
        "sk-proj-short",
    ],
)
def test_lookalikes_are_left_alone(text: str) -> None:
    assert kinds(text) == {}


def test_every_sample_of_a_structured_kind_is_found_with_its_kind() -> None:
    structured = {s.kind for s in samples()} - {
        "secret-assignment",
        "cli-password",
        "url-password",
        "bearer-token",
        "basic-auth",
        "authorization",
        "netrc-password",
        "docker-auth",
        "url-signature",
        "private-key",
        "aws-access-key",
        "aws-secret-key",
        "azure-key",  # the value after `AccountKey=`: found with its name
    }
    for s in samples():
        if s.kind in structured:
            out, found = R.redact(f"value {s.secret} end")
            assert s.core not in out, s.name
            assert found == {s.kind: 1}, (s.name, found)


def _jwt(header: object, payload: object = None) -> str:
    def part(obj: object) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")

    return f"{part(header)}.{part(payload or {'sub': '1'})}.c2lnbmF0dXJlLWJ5dGVz"


def test_a_jwt_needs_a_json_header() -> None:
    assert kinds(f"Cookie: s={_jwt({'alg': 'HS256'})}") == {"jwt": 1}
    assert kinds(f"unsigned {_jwt({'alg': 'none'}).rsplit('.', 1)[0]}.") == {"jwt": 1}
    not_json = "eyJub3QganNvbg.eyJzdWIiOiIxIn0.c2ln"  # `{"not json` is not a header
    assert kinds(f"x {not_json} y") == {}
    assert kinds("eyJhbGciOiJIUzI1NiJ9 alone, no dots") == {}


def test_partial_formats_mask_only_the_secret_part() -> None:
    s = next(s for s in samples() if s.name == "slack-webhook")
    out, _ = R.redact(f"POST {s.secret}")
    assert out == "POST https://hooks.slack.com/services/[REDACTED:slack-webhook]"
    key = next(s for s in samples() if s.name == "azure-storage")
    out, _ = R.redact(key.output)
    assert "AccountName=acme;AccountKey=[REDACTED:azure-key];EndpointSuffix" in out
