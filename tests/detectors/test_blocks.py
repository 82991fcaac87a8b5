"""Private-key blocks (several lines, one line, base64-encoded), AWS key pairs, `.netrc`
passwords and Docker registry auth."""

from __future__ import annotations

import base64

from tokenjuice.detectors.samples import samples
from tokenjuice.redact import Redactor

R = Redactor()
PEM = next(s for s in samples() if s.kind == "private-key").output
BODY = PEM.split("\n")[1:-1]


def test_a_key_block_in_a_diff_keeps_its_markers() -> None:
    diff = "\n".join("+" + line for line in PEM.split("\n"))
    out, found = R.redact(diff)
    assert found == {"private-key": 1}
    assert all(line == "+[REDACTED:private-key]" for line in out.split("\n")[1:-1])


def test_an_encrypted_block_keeps_its_headers_and_blank_line() -> None:
    head = ["-----BEGIN RSA PRIVATE KEY-----", "Proc-Type: 4,ENCRYPTED", "DEK-Info: AES-128-CBC,0A1B2C", ""]
    text = "\n".join([*head, *BODY, "-----END RSA PRIVATE KEY-----"])
    out, _ = R.redact(text)
    lines = out.split("\n")
    assert lines[1:4] == ["Proc-Type: 4,ENCRYPTED", "DEK-Info: AES-128-CBC,0A1B2C", ""]
    assert set(lines[4:-1]) == {"[REDACTED:private-key]"}


def test_a_block_cut_short_is_masked_as_far_as_it_goes() -> None:
    text = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + "\n".join(BODY[:3]) + "\n[... output truncated]\nnext"
    out, found = R.redact(text)
    assert out.split("\n")[1:] == ["[REDACTED:private-key]"] * 3 + ["[... output truncated]", "next"]
    assert found == {"private-key": 1}


def test_a_block_on_one_line_and_a_base64_encoded_one() -> None:
    one_line = '"private_key": "' + PEM.replace("\n", "\\n") + '\\n",'
    out, found = R.redact(one_line)
    assert found == {"private-key": 1} and BODY[2] not in out
    encoded = base64.b64encode(PEM.encode()).decode()
    out, found = R.redact(f"    client-key-data: {encoded}")
    assert out == "    client-key-data: [REDACTED:private-key]"
    cert = base64.b64encode(b"-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----").decode()
    assert R.redact(f"    client-certificate-data: {cert}")[1] == {}


def test_key_lookalikes() -> None:
    for text in (
        '        w("-----BEGIN RSA PRIVATE KEY-----\\n" + key + "-----END RSA PRIVATE KEY-----\\n")',
        "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUU2V0\n-----END CERTIFICATE-----",
        "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOC\n-----END PUBLIC KEY-----",
    ):
        assert R.redact(text) == (text, {}), text


def test_an_aws_secret_is_found_near_its_key_id_only() -> None:
    secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"  # AWS's documented example
    text = f"[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\nregion = x\n{secret}\n"
    out, found = R.redact(text)
    assert found == {"aws-access-key": 1, "aws-secret-key": 1} and secret not in out
    assert R.redact(f"commit {secret}")[1] == {}  # no key id near it
    sha = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b"  # a hex digest next to a key id
    assert R.redact(f"AKIAIOSFODNN7EXAMPLE {sha}")[1] == {"aws-access-key": 1}
    assert R.redact("AIDAJQABLZS4A3QDU576Q is a user id")[1] == {}


def test_netrc_passwords() -> None:
    assert R.redact("machine api.example.org login bob password s3cr3tpw")[0].endswith(
        "password [REDACTED:netrc-password]"
    )
    several = "machine api.example.org\n  login bob\n  password s3cr3tpw\n"
    assert R.redact(several)[0] == "machine api.example.org\n  login bob\n  password [REDACTED:netrc-password]\n"
    apt = "The following packages will be upgraded:\n  login passwd libpam0g\n"
    assert R.redact(apt) == (apt, {})
    assert R.redact("the password is stored in the keychain")[1] == {}


def test_docker_auth() -> None:
    auth = base64.b64encode(b"ci:Hx7kq2p-x9").decode()
    out, found = R.redact(f'{{"auths": {{"reg.io": {{"auth": "{auth}"}}}}}}')
    assert found == {"docker-auth": 1} and auth not in out
    not_creds = base64.b64encode(b"just some bytes").decode()
    assert "docker-auth" not in R.redact(f'{{"auth": "{not_creds}"}}')[1]
