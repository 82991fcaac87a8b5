"""Is a value a secret literal: references, placeholders, numbers, versions, paths,
names made of words, and randomness."""

from __future__ import annotations

import pytest

from tokenjuice.detectors import values
from tokenjuice.detectors.values import CODE, LITERAL, PROBABLE, acceptable, looks_random


@pytest.mark.parametrize(
    "value",
    ["$DB_PASSWORD", "${TOKEN}", "$(cat key)", "%s", "{password}", "{{ secret }}", "<token>", "#{api_key}", "`cat x`"],
)
def test_references(value: str) -> None:
    assert values.is_reference(value)
    assert not acceptable(value, LITERAL)


@pytest.mark.parametrize(
    "value",
    [
        "YOUR_API_KEY",
        "your-token-here",
        "my_secret",
        "xxxxxxxx",
        "********",
        "changeme",
        "password123",
        "example-password",
        "sk-...",
        "TOKEN",
        "SWMTKN-1-redacted",
        "wrong_password",
        "abababab",
    ],
)
def test_placeholders(value: str) -> None:
    assert values.is_placeholder(value)
    assert not acceptable(value, LITERAL)


@pytest.mark.parametrize("value", ["4096", "1.5", "30s", "512MiB", "1:4.13+dfsg1-1+deb12u1", "v1.2.3", "/etc/x.conf"])
def test_numbers_versions_paths(value: str) -> None:
    assert not acceptable(value, LITERAL)


def test_tiers() -> None:
    assert acceptable("postgres", LITERAL)
    assert not acceptable("postgres", PROBABLE)  # a word: prose after `password:`
    assert acceptable("hunter2", PROBABLE)
    assert not acceptable("SecretStr", PROBABLE)  # a type
    assert not acceptable("hunter2", CODE)  # a variable
    assert acceptable("8c2f9a71d04be5f3a6c9e1b27d8f4a05", CODE)


@pytest.mark.parametrize(
    ("value", "random"),
    [
        ("8c2f9a71d04be5f3a6c9e1b27d8f4a05", True),
        ("xK9mQ2vL8nR4tY6wZ3", True),
        ("Ed25519PrivateKey", False),
        ("token_value_2_extra", False),
        ("SomeLongClassName2", False),
        ("abcdefghijklmnopqrstuvwxyz", False),  # no digit
        ("short1a", False),
    ],
)
def test_randomness(value: str, random: bool) -> None:
    assert looks_random(value) is random
