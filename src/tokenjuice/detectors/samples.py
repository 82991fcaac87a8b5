"""Fake secrets of every kind the redactor knows, generated from a seed.

Each sample is well formed (a valid checksum where the format has one, the right
alphabet and length, a JWT whose header is JSON), and comes with the output line a
tool would print it in and a shell command line that carries it. The recall
benchmark (`scripts/redaction_bench.py`) and the tests run them through the real CLI
and check that no secret survives anywhere; nothing here is a real credential.
"""

from __future__ import annotations

import base64
import json
import random
import string
import zlib

_ALNUM = string.ascii_letters + string.digits
_LOWER_HEX = "0123456789abcdef"
_B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    _Add = Callable[..., None]  # samples()'s `add(name, kind, secret, output, command, core="")`


class Sample:
    """`secret` must vanish from everything tokenjuice shows or keeps; `core` is the
    part that must not survive even when the rest of the line does."""

    __slots__ = ("command", "core", "kind", "name", "output", "secret")

    def __init__(self, name: str, kind: str, secret: str, output: str, command: str, core: str = "") -> None:
        self.name = name
        self.kind = kind
        self.secret = secret
        self.output = output
        self.command = command
        self.core = core or secret

    def __repr__(self) -> str:
        return f"Sample({self.name!r}, {self.kind!r})"


def _s(rnd: random.Random, n: int, alphabet: str = _ALNUM) -> str:
    while True:
        v = "".join(rnd.choice(alphabet) for _ in range(n))
        # Mixed enough to be what a generator gives (never a run of one class).
        if alphabet != _ALNUM or (any(c.isdigit() for c in v) and any(c.isupper() for c in v)):
            return v


def _b62(n: int) -> str:
    out = ""
    while n:
        n, r = divmod(n, 62)
        out = _B62[r] + out
    return out.rjust(6, "0")


def checksummed(prefix: str, rnd: random.Random) -> str:
    """`prefix` + 30 random base62 characters + their CRC32 in base62 (GitHub, npm)."""
    body = _s(rnd, 30)
    return prefix + body + _b62(zlib.crc32(body.encode()))


def _password(rnd: random.Random, n: int = 14) -> str:
    while True:
        v = "".join(rnd.choice(_ALNUM + "-_.%^+") for _ in range(n))
        if v[0].isalnum() and v[-1].isalnum() and any(c.isdigit() for c in v) and any(c.isupper() for c in v):
            return v


def _jwt(rnd: random.Random) -> str:
    def part(obj: object) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj, separators=(",", ":")).encode()).decode().rstrip("=")

    claims = {"sub": str(rnd.randrange(10**9)), "iat": 1700000000 + rnd.randrange(10**6), "scope": "deploy"}
    return f"{part({'alg': 'HS256', 'typ': 'JWT'})}.{part(claims)}.{_s(rnd, 43, _ALNUM + '-_')}"


def _pem(rnd: random.Random) -> tuple[str, list[str]]:
    lines = ["MIIEow" + _s(rnd, 58, _ALNUM + "+/")] + [_s(rnd, 64, _ALNUM + "+/") for _ in range(5)]
    lines.append(_s(rnd, 40, _ALNUM + "+/") + "==")
    return "-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(lines) + "\n-----END RSA PRIVATE KEY-----", lines


def samples(seed: int = 20) -> list[Sample]:
    """One sample per secret form, the same for the same seed."""
    rnd = random.Random(seed)
    out: list[Sample] = []

    def add(name: str, kind: str, secret: str, output: str, command: str, core: str = "") -> None:
        out.append(Sample(name, kind, secret, output, command, core))

    _prefixed_tokens(add, rnd)
    _service_tokens(add, rnd)
    _credentials_in_context(add, rnd)
    return out


def _prefixed_tokens(add: _Add, rnd: random.Random) -> None:
    """Code hosts, chat, payments and AI providers: tokens with a vendor prefix."""
    t = checksummed("ghp_", rnd)
    add("github-classic", "github-token", t, f"GITHUB_TOKEN={t}", f"git push https://{t}@github.com/acme/app.git")
    t = checksummed("ghs_", rnd)
    add("github-app", "github-token", t, f"remote: using installation token {t}", f"gh api --token={t} /user")
    t = f"github_pat_{_s(rnd, 22)}_{_s(rnd, 59)}"
    add("github-fine-grained", "github-token", t, f'  "token": "{t}",', f"export GH_TOKEN={t}")
    t = "glpat-" + _s(rnd, 20, _ALNUM + "-_")
    add("gitlab", "gitlab-token", t, f"CI_JOB_TOKEN {t} used for clone", f"glab auth login --token {t}")
    t = f"xoxb-{rnd.randrange(10**10, 10**11)}-{rnd.randrange(10**12, 10**13)}-{_s(rnd, 24)}"
    add("slack-bot", "slack-token", t, f"posting to #deploys with {t}", f"SLACK_BOT_TOKEN={t} ./notify")
    path = f"T{_s(rnd, 8, string.ascii_uppercase + string.digits)}/B{_s(rnd, 10, string.ascii_uppercase)}/{_s(rnd, 24)}"
    t = f"https://hooks.slack.com/services/{path}"
    add("slack-webhook", "slack-webhook", t, f"webhook: {t}", f"curl -X POST -d @msg.json {t}", core=path)
    t = "sk_live_" + _s(rnd, 99)
    add("stripe", "stripe-key", t, f"Stripe.api_key = '{t}'", f"stripe listen --api-key {t}")
    t = "sk-proj-" + _s(rnd, 48, _ALNUM + "-_") + "T3BlbkFJ" + _s(rnd, 48, _ALNUM + "-_")
    add(
        "openai",
        "openai-key",
        t,
        f"openai.api_key set to {t}",
        f'curl -H "Authorization: Bearer {t}" https://api.openai.com',
    )
    t = "sk-ant-api03-" + _s(rnd, 93, _ALNUM + "-_") + "AA"
    add("anthropic", "anthropic-key", t, f"x-api-key: {t}", f"ANTHROPIC_API_KEY={t} claude")
    t = "sk-or-v1-" + _s(rnd, 64, _LOWER_HEX)
    add("openrouter", "openrouter-key", t, f"key: {t}", f"llm keys set openrouter --value {t}")
    t = "AIza" + _s(rnd, 35, _ALNUM + "-_")
    add(
        "google-api",
        "google-api-key",
        t,
        f"GET /maps/api/geocode/json?key={t} 200",
        f"curl 'https://maps.googleapis.com/x?key={t}'",
    )
    t = "GOCSPX-" + _s(rnd, 28, _ALNUM + "-_")
    add("google-oauth", "google-oauth", t, f'"client_secret":"{t}"', f"gcloud auth --client-secret={t}")
    t = "hf_" + _s(rnd, 34)
    add("huggingface", "huggingface-token", t, f"token: {t} (cached)", f"huggingface-cli login --token {t}")
    t = checksummed("npm_", rnd)
    add(
        "npm",
        "npm-token",
        t,
        f"//registry.npmjs.org/:_authToken={t}",
        f"npm config set //registry.npmjs.org/:_authToken {t}",
    )


def _service_tokens(add: _Add, rnd: random.Random) -> None:
    """Package registries, SaaS and infrastructure services."""
    t = "pypi-AgEIcHlwaS5vcmc" + _s(rnd, 120, _ALNUM + "-_")
    add("pypi", "pypi-token", t, f"password = {t}", f"twine upload -u __token__ -p {t} dist/*")
    t = f"SG.{_s(rnd, 22, _ALNUM + '-_')}.{_s(rnd, 43, _ALNUM + '-_')}"
    add("sendgrid", "sendgrid-key", t, f"SENDGRID={t}", f"sendgrid-cli --key {t}")
    t = "dop_v1_" + _s(rnd, 64, _LOWER_HEX)
    add("digitalocean", "digitalocean-token", t, f"access-token: {t}", f"doctl auth init -t {t}")
    t = "shpat_" + _s(rnd, 32, _LOWER_HEX)
    add("shopify", "shopify-token", t, f"X-Shopify-Access-Token: {t}", f"shopify app deploy --token {t}")
    t = "dapi" + _s(rnd, 32, _LOWER_HEX)
    add("databricks", "databricks-token", t, f"host = x\ntoken = {t}", f"databricks configure --token {t}")
    t = "ATATT3xFfGF0" + _s(rnd, 180, _ALNUM + "-_") + "=" + _s(rnd, 8, "0123456789ABCDEF")
    add("atlassian", "atlassian-token", t, f"jira: token {t}", f"acli login --token {t}")
    t = "lin_api_" + _s(rnd, 40)
    add("linear", "linear-key", t, f"LINEAR={t}", f"linear --api-key {t} issues")
    t = "dp.st.prd." + _s(rnd, 43)
    add("doppler", "doppler-token", t, f"service token {t}", f"doppler run --token {t} -- env")
    t = "AGE-SECRET-KEY-1" + _s(rnd, 58, _BECH32.upper())
    add("age", "age-secret-key", t, f"# created: 2024-01-01\n{t}", f"echo {t} > key.txt")
    t = "hvs." + _s(rnd, 90, _ALNUM + "-_")
    add("vault", "vault-token", t, f"token               {t}", f"VAULT_TOKEN={t} vault kv get secret/app")
    t = f"{_s(rnd, 14)}.atlasv1.{_s(rnd, 67, _ALNUM + '-_')}"
    add(
        "terraform", "terraform-token", t, f'credentials "app.terraform.io" {{ token = "{t}" }}', f"tfc-cli --token {t}"
    )
    t = "glsa_" + _s(rnd, 32) + "_" + _s(rnd, 8, _LOWER_HEX)
    add("grafana", "grafana-token", t, f"GF_TOKEN={t}", f"grafana-cli --token {t} dashboards")
    t = "sntryu_" + _s(rnd, 64, _LOWER_HEX)
    add("sentry", "sentry-token", t, f"auth.token={t}", f"sentry-cli --auth-token {t} releases list")
    t = "NRAK-" + _s(rnd, 27, string.ascii_uppercase + string.digits)
    add("newrelic", "newrelic-key", t, f"apiKey: {t}", f"newrelic profile add --apiKey {t}")
    t = f"PMAK-{_s(rnd, 24, _LOWER_HEX)}-{_s(rnd, 34, _LOWER_HEX)}"
    add("postman", "postman-key", t, f"X-Api-Key: {t}", f"postman login --with-api-key {t}")
    t = "pul-" + _s(rnd, 40, _LOWER_HEX)
    add("pulumi", "pulumi-token", t, f"PULUMI_ACCESS_TOKEN={t}", f"pulumi login --token {t}")
    t = "key-" + _s(rnd, 32, _LOWER_HEX)
    add("mailgun", "mailgun-key", t, f"mailgun api {t}", f"curl -s --user api:{t} https://api.mailgun.net/v3")
    t = "sl." + _s(rnd, 138, _ALNUM + "-_")
    add("dropbox", "dropbox-token", t, f"access {t}", f"dbxcli --token {t} ls")
    t = f"{rnd.randrange(10**8, 10**10)}:AA{_s(rnd, 33, _ALNUM + '-_')}"
    add("telegram", "telegram-token", t, f"bot token {t}", f"curl https://api.telegram.org/bot{t}/getMe")
    path = f"{rnd.randrange(10**17, 10**18)}/{_s(rnd, 68, _ALNUM + '-_')}"
    t = f"https://discord.com/api/webhooks/{path}"
    add("discord-webhook", "discord-webhook", t, f"POST {t}", f"curl -d @m.json {t}", core=path.split("/")[1])
    t = "sq0atp-" + _s(rnd, 22, _ALNUM + "-_")
    add("square", "square-token", t, f"SQUARE_ACCESS={t}", f"square --access-token {t}")
    t = _s(rnd, 86, _ALNUM + "+/") + "=="
    add(
        "azure-storage",
        "azure-key",
        t,
        f"DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={t};EndpointSuffix=core.windows.net",
        f'az storage blob list --connection-string "AccountName=acme;AccountKey={t}"',
    )


def _credentials_in_context(add: _Add, rnd: random.Random) -> None:
    """Keys without a prefix, passwords and credentials recognised by their context."""
    t = _jwt(rnd)
    add("jwt", "jwt", t, f"Set-Cookie: session={t}; HttpOnly", f"curl -b session={t} https://app.example.org")
    pem, lines = _pem(rnd)
    add("private-key", "private-key", lines[2], pem, "echo '" + pem.replace("\n", "\\n") + "' > id_rsa", core=lines[2])
    kid = "AKIA" + _s(rnd, 16, string.ascii_uppercase + "234567")
    add("aws-key-id", "aws-access-key", kid, f"aws_access_key_id = {kid}", f"AWS_ACCESS_KEY_ID={kid} aws s3 ls")
    sec = _s(rnd, 40, _ALNUM + "/+")
    add(
        "aws-secret",
        "aws-secret-key",
        sec,
        f"[default]\naws_access_key_id = {kid}\n{sec}",
        f"aws configure set aws_secret_access_key {sec} && echo {kid}",
    )
    t = _s(rnd, 40, _ALNUM + "-._~")
    add(
        "bearer",
        "bearer-token",
        t,
        f"> Authorization: Bearer {t}",
        f'curl -H "Authorization: Bearer {t}" https://api.example.org',
    )
    user_pw = f"deploy:{_password(rnd)}"
    t = base64.b64encode(user_pw.encode()).decode()
    add("basic", "basic-auth", t, f"> Authorization: Basic {t}", f"curl -H 'Authorization: Basic {t}' https://x.org")
    t = _s(rnd, 40, _LOWER_HEX)
    add(
        "token-header",
        "authorization",
        t,
        f"Authorization: Token {t}",
        f'http GET api.example.org "Authorization: Token {t}"',
    )
    pw = _password(rnd)
    add(
        "url",
        "url-password",
        pw,
        f"Connecting to postgres://app:{pw}@db.internal:5432/app",
        f"psql postgres://app:{pw}@db/app",
    )
    pw = _password(rnd)
    add(
        "url-empty-user",
        "url-password",
        pw,
        f"REDIS_URL=redis://:{pw}@cache:6379/0",
        f"redis-cli -u redis://:{pw}@cache:6379",
    )
    sig = _s(rnd, 64, _LOWER_HEX)
    add(
        "presigned-url",
        "url-signature",
        sig,
        f"https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=3600&X-Amz-Signature={sig}",
        f"curl 'https://b.s3.amazonaws.com/k?X-Amz-Expires=3600&X-Amz-Signature={sig}'",
    )
    pw = _password(rnd)
    add("mysql-p", "cli-password", pw, f"+ mysql -uroot -p{pw} app", f"mysqldump -u root -p{pw} app > dump.sql")
    pw = _password(rnd)
    add("sshpass", "cli-password", pw, f"+ sshpass -p {pw} ssh deploy@host", f"sshpass -p {pw} scp a host:")
    pw = _password(rnd)
    add("curl-u", "cli-password", pw, f"+ curl -u admin:{pw} https://x.org", f"curl -u admin:{pw} https://x.org/api")
    pw = _password(rnd)
    add("password-flag", "cli-password", pw, f"+ mongosh --password {pw} db", f"mongosh --username app --password {pw}")
    pw = _password(rnd)
    add("password-eq", "cli-password", pw, f"ARGS=--password={pw}", f"wget --http-password={pw} https://x.org/f")
    pw = _password(rnd)
    add(
        "docker-login", "cli-password", pw, f"+ docker login -u ci -p {pw} reg.io", f"docker login -u ci -p {pw} reg.io"
    )
    pw = _password(rnd)
    add("pgpassword", "secret-assignment", pw, f"PGPASSWORD={pw}", f"PGPASSWORD={pw} psql -h db -U app")
    pw = _password(rnd)
    add("env-assignment", "secret-assignment", pw, f"export DB_PASSWORD={pw}", f"DB_PASSWORD={pw} ./migrate")
    pw = _password(rnd)
    add(
        "json-secret",
        "secret-assignment",
        pw,
        f'{{"client_secret": "{pw}"}}',
        f'app --config \'{{"client_secret": "{pw}"}}\'',
    )
    pw = _password(rnd)
    add("yaml-password", "secret-assignment", pw, f"  password: {pw}", f"helm install app --set db.password={pw}")
    pw = _password(rnd)
    add(
        "k8s-env",
        "secret-assignment",
        pw,
        f"- name: API_TOKEN\n  value: {pw}",
        f"kubectl set env deploy/app API_TOKEN={pw}",
    )
    pw = _password(rnd)
    add(
        "netrc",
        "netrc-password",
        pw,
        f"machine api.example.org login bob password {pw}",
        f"echo 'machine h login u password {pw}' >> ~/.netrc",
    )
    t = base64.b64encode(f"ci:{_password(rnd)}".encode()).decode()
    add(
        "docker-config",
        "docker-auth",
        t,
        f'{{"auths": {{"reg.io": {{"auth": "{t}"}}}}}}',
        f'echo \'{{"auth": "{t}"}}\' > config.json',
    )
