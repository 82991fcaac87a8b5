"""Secret redaction: every detector on realistic text, the false-positive filters, config,
and that no detected secret reaches the model's text, the store or the ledger when a real
command prints one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenjuice import config, redact
from tokenjuice.redact import Redactor

# Fake but well-formed credentials (never real ones).
AWS = "AKIAIOSFODNN7EXAMPLE"
GITHUB = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
OPENAI = "sk-proj-" + "Zx9" * 12
ANTHROPIC = "sk-ant-api03-" + "Qw3rTy" * 8
SLACK = "xoxb-" + "1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx"
STRIPE = "sk_live_" + "51HxYz" * 4
GOOGLE = "AIza" + "SyD" + "x" * 32
JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
PEM = (
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7V1bX2+abcdefghijklmnopqrstuvwx\n"
    "QWERTYUIOPASDFGHJKL==\n-----END RSA PRIVATE KEY-----"
)
BEARER = "abcdef0123456789abcdef0123456789"


@pytest.mark.parametrize(
    ("text", "kind", "secret"),
    [
        (f"export AWS_ACCESS_KEY_ID={AWS}", "aws-access-key", AWS),
        (f"remote: https://{GITHUB}@github.com/acme/app.git", "github-token", GITHUB),
        (f"OPENAI_API_KEY={OPENAI}", "openai-key", OPENAI),
        (f"using key {ANTHROPIC} for requests", "anthropic-key", ANTHROPIC),
        (f"token: {SLACK}", "slack-token", SLACK),
        (f"Stripe.api_key = '{STRIPE}'", "stripe-key", STRIPE),
        (f"maps key={GOOGLE}", "google-api-key", GOOGLE),
        (f"cookie session={JWT}", "jwt", JWT),
        (
            "> Authorization: Bearer abcdef0123456789abcdef0123456789",
            "bearer-token",
            "abcdef0123456789abcdef0123456789",
        ),
        ("DATABASE_URL=postgres://app:hunter2hunter2@db:5432/app", "url-password", "hunter2hunter2"),
        ("DB_PASSWORD=Tr0ub4dor&3x", "secret-assignment", "Tr0ub4dor"),
        ('"client_secret": "f00ba4f00ba4f00ba4"', "secret-assignment", "f00ba4f00ba4f00ba4"),
        (PEM, "private-key", "MIIEowIBAAKCAQEA"),
        # Names the trigger list once missed (only `access_key` / `private_key` were there).
        ("accesskey: Zq8wXk29Lm3N", "secret-assignment", "Zq8wXk29Lm3N"),
        ("access-key=Zq8wXk29Lm3N", "secret-assignment", "Zq8wXk29Lm3N"),
        ("privatekey = Zq8wXk29Lm3N", "secret-assignment", "Zq8wXk29Lm3N"),
        ("private-key: Zq8wXk29Lm3N", "secret-assignment", "Zq8wXk29Lm3N"),
    ],
)
def test_detectors(text: str, kind: str, secret: str) -> None:
    out, found = Redactor().redact(text)
    assert secret not in out
    assert f"[REDACTED:{kind}]" in out
    assert found.get(kind, 0) >= 1


@pytest.mark.parametrize(
    "text",
    [
        "max_tokens=4096",
        "next_token: 8f14e45f-ceea-467f-a9b4-4b2f1f2c2a11",
        "PASSWORD=${DB_PASSWORD}",
        "api_key: <your-key-here>",
        "GITHUB_TOKEN=***",
        "postgres://user@localhost:5432/db",
        "test_token_refresh PASSED [ 42%]",
        "secret_key = settings.SECRET_KEY",
        "AKIAEXAMPLE is too short to be a key",
        'datadog.initialize(api_key="YOUR_API_KEY")',
        "export OPENAI_API_KEY=your-key-here",
        "password: example-password",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert Redactor().redact(text) == (text, {})


def test_surrounding_text_stays() -> None:
    out, _ = Redactor().redact(f"export GITHUB_TOKEN={GITHUB}  # for CI")
    assert out == "export GITHUB_TOKEN=[REDACTED:github-token]  # for CI"


def test_config_extra_patterns_and_allow(monkeypatch: pytest.MonkeyPatch) -> None:
    conf = Path(config.path())
    conf.parent.mkdir(parents=True, exist_ok=True)
    conf.write_text('[redaction]\nextra_patterns = ["ACME-[0-9]{6}"]\nallow = ["AKIAIOSFODNN7EXAMPLE"]\n')
    redact.reset()
    r = redact.default_redactor()
    assert r is not None
    out, found = r.redact(f"ticket ACME-123456 key {AWS}")
    assert "ACME-123456" not in out and AWS in out
    assert found == {"custom": 1}
    conf.write_text("[redaction]\nenabled = false\n")
    redact.reset()
    assert redact.default_redactor() is None
    conf.unlink()
    redact.reset()
    monkeypatch.setenv("TOKENJUICE_REDACT", "0")
    assert redact.default_redactor() is None


def test_false_positive_rate_on_captured_fixtures() -> None:
    """The captured outputs (builds, tests, lints, installs, logs) hold no real secrets,
    so nearly everything the redactor finds there is a false positive; keep it rare."""
    from tokenjuice.rules.fixtures import default_dir, fixture_run, iter_fixture_files, load_fixture

    r = Redactor()
    files = list(iter_fixture_files(default_dir()))
    hit = {str(p.name): found for p in files if (found := r.redact(fixture_run(load_fixture(p)).combined)[1])}
    assert len(files) > 500
    # At most 1% of fixtures; each hit reviewed by `python scripts/redaction_fp.py -v`.
    assert len(hit) <= len(files) // 100, hit


# ---------------------------------------------------- real commands, end to end


def _tj(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tokenjuice", *args], cwd=cwd, env={**os.environ, **env}, capture_output=True, text=True
    )


def test_secrets_printed_by_real_commands_never_reach_model_store_or_ledger(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run(
        ["git", "remote", "add", "origin", f"https://ci:{GITHUB}@github.com/acme/app.git"], cwd=repo, check=True
    )
    (repo / ".env").write_text(
        "\n".join(
            [f"AWS_ACCESS_KEY_ID={AWS}", f"OPENAI_API_KEY={OPENAI}", "DB_PASSWORD=s3cr3t-Pa55word"]
            + [f"FEATURE_FLAG_{i}=on" for i in range(400)]
        )
        + "\n"
    )
    (repo / "key.pem").write_text(PEM + "\n")
    secrets = [GITHUB, AWS, OPENAI, "s3cr3t-Pa55word", "MIIEowIBAAKCAQEA"]
    env = {"TOKENJUICE_LEDGER_COMMANDS": "1"}
    outputs = [
        _tj(["wrap", "--", "git", "remote", "-v"], repo, env),
        _tj(["wrap", "--", "bash", "-c", "cat .env | sort"], repo, env),
        _tj(["wrap", "--", "bash", "-c", "cat key.pem; for i in $(seq 300); do echo line $i; done; exit 1"], repo, env),
        _tj(["wrap", "--", "env"], repo, {**env, "STRIPE_SECRET_KEY": STRIPE, "SLACK_BOT_TOKEN": SLACK}),
        # The secret is in the command line itself, which the store and ledger record.
        _tj(["wrap", "--", "bash", "-c", f"echo deploying with GH_TOKEN={GITHUB}; seq 500; exit 3"], repo, env),
    ]
    for p in outputs:
        for s in [*secrets, STRIPE, SLACK]:
            assert s not in p.stdout, (s, p.stdout[:500])
    assert "[REDACTED:github-token]" in outputs[0].stdout
    state = Path(os.environ["TOKENJUICE_HOME"]) / "state"
    blobs = b""
    for path in state.rglob("*"):
        if path.is_file():
            blobs += path.read_bytes()
    from tokenjuice.store.artifacts import Store

    store = Store(str(state))
    stored = [b"".join(store.iter_bytes(a.id)) for a in store.list()]
    assert stored, "the long outputs were offloaded"
    for s in [*secrets, STRIPE, SLACK]:
        assert s.encode() not in blobs
        assert all(s.encode() not in data for data in stored)
    ledger_text = "".join(p.read_text() for p in (state / "ledger").glob("*.jsonl"))
    assert ledger_text and all(s not in ledger_text for s in secrets)
    assert json.loads(ledger_text.splitlines()[0])


# One fake secret of every kind the redactor knows, each in a line as real tools print it.
CORPUS = {
    "private-key": (PEM, "MIIEowIBAAKCAQEA"),
    "aws-access-key": (f"aws_access_key_id = {AWS}", AWS),
    "anthropic-key": (f'[config] using key "{ANTHROPIC}"', ANTHROPIC),
    "openai-key": (f"openai.api_key set to {OPENAI}", OPENAI),
    "github-token": (f"remote: https://x-access-token:{GITHUB}@github.com/acme/app.git", GITHUB),
    "gitlab-token": ("CI_JOB_TOKEN glpat-" + "Ab3dEf6hIj9kLm2nOp5q" + " used for clone", "glpat-Ab3dEf6hIj9kLm2nOp5q"),
    "slack-token": (f"posting to #deploys with {SLACK}", SLACK),
    "slack-webhook": (
        "curl -X POST https://hooks.slack.com/services/T0123ABCD/B0456EFGH/abcdefghijklmnopqrstuvwx",
        "T0123ABCD/B0456EFGH/abcdefghijklmnopqrstuvwx",
    ),
    "stripe-key": (f"Stripe: sk={STRIPE}", STRIPE),
    "google-api-key": (f"GET /maps/api/geocode/json?key={GOOGLE} 200", GOOGLE),
    "google-oauth": ("client secret GOCSPX-" + "AbCdEfGhIjKlMnOpQrStUvWx", "GOCSPX-AbCdEfGhIjKlMnOpQrStUvWx"),
    "huggingface-token": ("hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 cached", "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123"),
    "npm-token": ("//registry.npmjs.org/:_authToken=npm_" + "A" * 36, "npm_" + "A" * 36),
    "pypi-token": ("password = pypi-AgE" + "Ii" * 30, "pypi-AgE" + "Ii" * 30),
    "sendgrid-key": ("SENDGRID=SG." + "a" * 22 + "." + "b" * 43, "SG." + "a" * 22),
    "digitalocean-token": ("doctl auth init -t dop_v1_" + "ab" * 32, "dop_v1_" + "ab" * 32),
    "jwt": (f"Set-Cookie: session={JWT}; HttpOnly", JWT),
    "bearer-token": (f"> Authorization: Bearer {BEARER}", BEARER),
    "basic-auth": ("> Authorization: Basic dXNlcjpodW50ZXIyaHVudGVyMg==", "dXNlcjpodW50ZXIyaHVudGVyMg=="),
    "url-password": ("Connecting to postgres://app:s3cret-pw-42@db.internal:5432/app", "s3cret-pw-42"),
    "secret-assignment": ("DB_PASSWORD=Tr0ub4dor-and-3", "Tr0ub4dor-and-3"),
}


def test_the_corpus_covers_every_kind() -> None:
    from tokenjuice.redact import _DETECTORS

    assert {det.kind for det in _DETECTORS} == set(CORPUS)
    for kind, (line, secret) in CORPUS.items():
        out, found = Redactor().redact(line)
        assert secret not in out, kind
        assert kind in found, (kind, found)


def test_no_secret_of_any_kind_reaches_text_artifact_or_ledger(tmp_path: Path) -> None:
    lines = [f"step {i}: ok" for i in range(1500)]
    for i, (line, _) in enumerate(CORPUS.values()):
        lines.insert(60 * i + 30, line)
    (tmp_path / "out.txt").write_text("\n".join(lines) + "\nerror: deploy failed\n")
    env = {"TOKENJUICE_LEDGER_COMMANDS": "1"}
    p = _tj(["wrap", "--", "bash", "-c", "awk '{print}' out.txt; exit 1"], tmp_path, env)
    assert p.returncode == 1 and "error: deploy failed" in p.stdout
    state = Path(os.environ["TOKENJUICE_HOME"]) / "state"
    from tokenjuice.store.artifacts import Store

    store = Store(str(state))
    stored = b"".join(b"".join(store.iter_bytes(a.id)) for a in store.list())
    assert stored.count(b"step ") == 1500  # the whole output was kept, masked
    files = b"".join(f.read_bytes() for f in state.rglob("*") if f.is_file())
    for kind, (_, secret) in CORPUS.items():
        assert secret not in p.stdout, kind
        assert secret.encode() not in stored, kind
        assert secret.encode() not in files, kind


# ------------------------------------------- trigger positions (Aho-Corasick) path


def _without_automaton() -> Redactor:
    """A redactor that scans the whole text with each pattern (the reference)."""
    r = Redactor()
    r._triggers = redact._Triggers(t for det in redact._DETECTORS for t in det.triggers)
    r._triggers._automata = lambda: False  # type: ignore[method-assign]
    return r


SLOW = _without_automaton()


FRAGMENTS = [
    *(line for line, _ in CORPUS.values()),
    "token",
    "TOKEN",
    "Token: ",
    "password=",
    "PASSWORD = hunter2hunter2",
    "api-key: abcd1234efgh",
    "AccessKey=zzzzyyyyxxxx",
    "https://user:pw@host/x",
    "git+ssh://git@github.com/a/b",
    "://",
    "sk-",
    "sk-ant-",
    "-----BEGIN",
    "Bearer ",
    "Authorization: Basic ",
    "ghp_",
    "next_token=abcdefgh",
    "İstanbul",
    "straße",
    "K-kelvin",
    "\n",
    " ",
    "x" * 50,
]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40), st.integers(0, 20_000))
def test_trigger_positions_give_the_same_result_as_whole_text_scans(parts: list[str], pad: int) -> None:
    # Padding moves fragments across the 16 KB scan pieces and past the size where the
    # automaton is used at all.
    text = "y" * pad + " ".join(parts) + "\n" + " ".join(reversed(parts))
    assert Redactor().redact(text) == SLOW.redact(text)


def test_trigger_positions_on_real_outputs() -> None:
    from tokenjuice.rules.fixtures import default_dir, fixture_run, iter_fixture_files, load_fixture

    fast = Redactor()
    slow = SLOW
    texts = [fixture_run(load_fixture(p)).combined for p in iter_fixture_files(default_dir())]
    texts += [t * 3 for t in texts if 3000 < len(t) < 50_000]  # past the automaton's threshold
    differ = [t[:80] for t in texts if fast.redact(t) != slow.redact(t)]
    assert not differ


@pytest.mark.parametrize("det", redact._DETECTORS, ids=lambda d: d.kind)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_every_match_holds_a_trigger(det: redact._Detector, data: st.DataObject) -> None:
    """What the positions rest on: a text a detector's pattern matches contains one of
    its triggers (lower-case ones in any case)."""
    text = data.draw(st.from_regex(det.pattern, fullmatch=True))
    m = __import__("re").search(det.pattern, text)
    if m is None:  # from_regex approximates \\b; nothing to check then
        return
    found = m.group(0)
    assert any((t in found.lower()) if t == t.lower() else (t in found) for t in det.triggers), (det.kind, found)


def test_overlapping_triggers_are_all_listed() -> None:
    keys = sorted({t.lower() for det in redact._DETECTORS for t in det.triggers})
    expected = []
    for a in keys:
        pairs = []
        for bi, b in enumerate(keys):
            for off in range(1 if b == a else 0, len(a)):
                rest = a[off:]
                if b.startswith(rest) or rest.startswith(b):
                    pairs.append((bi, off))
        expected.append(sorted(pairs))
    index = redact._by_first(keys)
    assert [sorted(redact._overlaps_of(a, keys, index)) for a in keys] == expected


def test_dotted_capital_i_keeps_trigger_offsets() -> None:
    """`İ` lower-cases to two characters: the trigger scan must still find where each
    secret starts (it used to give up on positions and rescan the whole text)."""
    from tokenjuice.redact import Redactor

    filler = "İstanbul build log line with nothing secret in it\n" * 4000
    text = filler + 'api_token = "hJ8s2kLq9ZxY4mNb7VcR1tWp"\n' + filler
    out, found = Redactor().redact(text)
    assert "hJ8s2kLq9ZxY4mNb7VcR1tWp" not in out
    assert found.get("secret-assignment") == 1
    assert out.count("İstanbul") == 8000
