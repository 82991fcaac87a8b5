"""docker build / ps / images / logs / pull and docker-compose, against a real engine.

The capture starts its own Docker engine (Debian's docker.io: dockerd on a private
socket, no bridge, no iptables) so nothing on the machine changes; images come from a
busybox root filesystem imported locally, since no registry is reachable. The 20.10
client that ships with docker.io drives BuildKit (`--progress=plain`) and the classic
builder; the newer client on the PATH runs ps/images/logs. What cannot run here (the
current buildx output, a successful pull, Compose v2) is synthesized from the
documented formats.

Signals come from the data the projects were built with (the failing RUN command and
the error it prints, the log generator's error records) and from `--format '{{json .}}'`
listings and `docker image inspect`.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from capture._lib import Skip, Workspace, sig, synthesized

FAMILY = "docker"
BUSYBOX_APPLETS = [
    "sh",
    "ls",
    "cat",
    "echo",
    "mkdir",
    "sleep",
    "true",
    "false",
    "printf",
    "seq",
    "wc",
    "grep",
    "sed",
    "awk",
    "head",
    "tail",
    "tr",
    "date",
    "cp",
    "mv",
    "rm",
    "touch",
    "env",
    "sort",
    "uniq",
    "cut",
    "test",
    "expr",
]


class Engine:
    """A private dockerd: started for the capture, stopped (with its containers) at the end."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        # A short path: unix socket paths are limited to 108 bytes.
        self.dir = Path(tempfile.mkdtemp(prefix="tjd-", dir="/tmp"))
        self.sock = f"unix://{self.dir}/docker.sock"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        log = (self.dir / "dockerd.log").open("wb")
        self.proc = subprocess.Popen(
            [
                "/usr/sbin/dockerd",
                "-H",
                self.sock,
                "--data-root",
                str(self.dir / "data"),
                "--exec-root",
                str(self.dir / "exec"),
                "--pidfile",
                str(self.dir / "dockerd.pid"),
                "--iptables=false",
                "--ip6tables=false",
                "--bridge=none",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        for _ in range(60):
            r = subprocess.run(["/usr/bin/docker", "-H", self.sock, "info"], capture_output=True)
            if r.returncode == 0:
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.5)
        self.stop()
        raise Skip("dockerd did not start: " + (self.dir / "dockerd.log").read_text(errors="replace")[-400:])

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            ids = subprocess.run(
                ["/usr/bin/docker", "-H", self.sock, "ps", "-aq"], capture_output=True, text=True
            ).stdout.split()
            if ids:
                subprocess.run(["/usr/bin/docker", "-H", self.sock, "rm", "-f", *ids], capture_output=True)
            self.proc.terminate()
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)
        shutil.rmtree(self.dir, ignore_errors=True)


# ------------------------------------------------------------------ projects

SHOP_DOCKERFILE = """
FROM tj/busybox:1.35 AS base
ENV APP_HOME=/srv/shop PYTHONUNBUFFERED=1
WORKDIR /srv/shop
COPY requirements.txt install-deps.sh ./
RUN sh install-deps.sh

FROM base AS build
COPY . .
RUN sh scripts/compile.sh
RUN sh scripts/test.sh

FROM base AS runtime
COPY --from=build /srv/shop/dist /srv/shop/dist
RUN mkdir -p /var/log/shop && echo "runtime ready"
EXPOSE 8080
CMD ["sh", "-c", "cat /srv/shop/dist/VERSION"]
"""

INSTALL_DEPS = """
set -e
n=0
while read pkg; do
  n=$((n + 1))
  echo "Collecting $pkg"
  echo "  Downloading ${pkg%%=*}-${pkg##*=}-py3-none-any.whl (${n}4 kB)"
done < requirements.txt
echo "Installing collected packages: $(cut -d= -f1 requirements.txt | tr '\\n' ' ')"
echo "Successfully installed $(tr '\\n' ' ' < requirements.txt)"
"""

COMPILE_OK = """
set -e
mkdir -p dist
for m in $(cat modules.txt); do
  echo "compiling shop/$m.py -> dist/$m.pyc"
done
echo "1.4.0" > dist/VERSION
echo "compiled $(wc -l < modules.txt) modules"
"""

COMPILE_FAIL = """
mkdir -p dist
for m in $(cat modules.txt); do
  if [ "$m" = "payments_gateway" ]; then
    echo "compiling shop/$m.py -> dist/$m.pyc"
    echo "shop/payments_gateway.py:88: error: name 'settle_batch' is not defined" >&2
    echo "build failed: 1 module did not compile (payments_gateway)" >&2
    exit 2
  fi
  echo "compiling shop/$m.py -> dist/$m.pyc"
done
"""

TESTS = """
set -e
i=0
for m in $(cat modules.txt); do
  i=$((i + 1))
  echo "test_$m ... ok"
done
echo "Ran $i tests: OK"
"""

REQUIREMENTS = [
    "flask==3.0.3",
    "werkzeug==3.0.4",
    "jinja2==3.1.4",
    "itsdangerous==2.2.0",
    "click==8.1.7",
    "blinker==1.8.2",
    "markupsafe==2.1.5",
    "sqlalchemy==2.0.35",
    "greenlet==3.1.1",
    "typing-extensions==4.12.2",
    "psycopg2-binary==2.9.9",
    "redis==5.1.1",
    "celery==5.4.0",
    "kombu==5.4.2",
    "billiard==4.2.1",
    "vine==5.1.0",
    "amqp==5.2.0",
    "gunicorn==23.0.0",
    "requests==2.32.3",
    "urllib3==2.2.3",
    "idna==3.10",
    "certifi==2024.8.30",
    "charset-normalizer==3.4.0",
    "pydantic==2.9.2",
    "pydantic-core==2.23.4",
    "annotated-types==0.7.0",
    "structlog==24.4.0",
    "sentry-sdk==2.17.0",
    "boto3==1.35.44",
    "botocore==1.35.44",
]


def _modules(n: int) -> list[str]:
    rng = random.Random(5)
    areas = ["cart", "orders", "catalog", "inventory", "users", "auth", "search", "shipping", "tax", "reports"]
    kinds = ["api", "models", "views", "service", "tasks", "schemas", "utils", "admin"]
    names = {f"{rng.choice(areas)}_{rng.choice(kinds)}_{k}" for k in range(n)}
    out = sorted(names)
    out.insert(len(out) * 3 // 4, "payments_gateway")
    return out


def _shop(ws: Workspace, rel: str, failing: bool, n_modules: int) -> list[str]:
    mods = _modules(n_modules)
    ws.write(f"{rel}/Dockerfile", SHOP_DOCKERFILE)
    ws.write(f"{rel}/requirements.txt", "\n".join(REQUIREMENTS) + "\n")
    ws.write(f"{rel}/install-deps.sh", INSTALL_DEPS)
    ws.write(f"{rel}/modules.txt", "\n".join(mods) + "\n")
    ws.write(f"{rel}/scripts/compile.sh", COMPILE_FAIL if failing else COMPILE_OK)
    ws.write(f"{rel}/scripts/test.sh", TESTS)
    ws.write(f"{rel}/.dockerignore", "*.log\n")
    return mods


# ------------------------------------------------------------------ logs

LOG_SCRIPT = """
while IFS= read -r line; do
  case "$line" in
    *" ERROR "*|*" FATAL "*|"Traceback"*|"  "*) echo "$line" >&2 ;;
    *) echo "$line" ;;
  esac
done < /app/app.log
"""


def _app_log(n: int, seed: int) -> tuple[str, list[str], list[str]]:
    """A web service log; returns (text, error lines, warning lines)."""
    rng = random.Random(seed)
    out: list[str] = []
    errors: list[str] = []
    warns: list[str] = []
    error_at = set(rng.sample(range(50, n - 20), 5))
    warn_at = set(rng.sample(range(50, n - 20), 4)) - error_at
    paths = ["/api/v1/orders", "/api/v1/cart", "/api/v1/catalog/items", "/healthz", "/api/v1/users/me", "/metrics"]
    for i in range(n):
        ts = f"2026-03-14T09:{(i // 60) % 60:02d}:{i % 60:02d}.{(i * 37) % 1000:03d}Z"
        if i in error_at:
            k = len(errors)
            if k % 2 == 0:
                msg = f"{ts} ERROR [orders] failed to settle order {rng.randint(10000, 99999)}: psycopg2.OperationalError: could not connect to server: Connection refused"
                out.append(msg)
                errors.append(msg)
                out += [
                    "Traceback (most recent call last):",
                    '  File "/srv/shop/orders/service.py", line 142, in settle',
                    "    conn = pool.getconn()",
                    '  File "/usr/local/lib/python3.12/site-packages/psycopg2/pool.py", line 169, in getconn',
                    "    return self._connect(key)",
                    "psycopg2.OperationalError: could not connect to server: Connection refused",
                ]
            else:
                msg = f"{ts} ERROR [payments] gateway timeout after 30000ms for charge ch_{rng.randint(10**7, 10**8)}"
                out.append(msg)
                errors.append(msg)
            continue
        if i in warn_at:
            msg = f"{ts} WARN  [cache] redis latency {rng.randint(250, 900)}ms above threshold 200ms"
            out.append(msg)
            warns.append(msg)
            continue
        r = rng.random()
        if r < 0.7:
            p = rng.choice(paths)
            out.append(
                f'{ts} INFO  [http] 10.42.{rng.randint(0, 3)}.{rng.randint(2, 250)} "GET {p} HTTP/1.1" 200 '
                f"{rng.randint(90, 8000)} {rng.uniform(0.8, 60):.1f}ms"
            )
        elif r < 0.9:
            out.append(f"{ts} DEBUG [db] pool stats size=20 idle={rng.randint(2, 18)} waiting=0")
        else:
            out.append(f"{ts} INFO  [worker] job sync-inventory finished in {rng.uniform(0.3, 4):.2f}s")
    return "\n".join(out) + "\n", errors, warns


# ------------------------------------------------------------------ capture


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.apt_install("docker.io", "busybox-static", "docker-compose")
    for tool in ("/usr/sbin/dockerd", "/usr/bin/docker", "/bin/busybox"):
        if not Path(tool).exists():
            raise Skip(f"{tool} is missing")
    fixtures: list[dict[str, Any]] = []
    fixtures += _no_daemon(ws)
    eng = Engine(ws)
    eng.start()
    try:
        fixtures += _with_engine(ws, eng)
    finally:
        eng.stop()
    fixtures += _synthesized()
    return fixtures


def _no_daemon(ws: Workspace) -> list[dict[str, Any]]:
    """The client with no engine behind it: the everyday failure."""
    env = dict(ws.env, DOCKER_HOST="unix:///var/run/docker.sock")
    if Path("/var/run/docker.sock").exists():
        return []
    r = ws.run("docker ps -a", env=env)
    return [
        ws.fixture(
            "docker-ps-no-daemon",
            "devops/docker-ps",
            r,
            family=FAMILY,
            signals=[sig("error", "Cannot connect to the Docker daemon at unix:///var/run/docker.sock")],
            signal_source="the socket the client was pointed at (DOCKER_HOST) with no engine listening",
            tool_version=ws.version(["docker", "--version"]),
        )
    ]


def _with_engine(ws: Workspace, eng: Engine) -> list[dict[str, Any]]:
    fixtures: list[dict[str, Any]] = []
    bindir = ws.path("bin")
    bindir.mkdir(parents=True, exist_ok=True)
    # `docker build` with the 20.10 client, which drives BuildKit itself; the newer
    # client has no buildx plugin here.
    os.symlink("/usr/bin/docker", bindir / "docker")
    base_env = dict(ws.env, DOCKER_HOST=eng.sock)
    build_env = dict(base_env, DOCKER_BUILDKIT="1", PATH=f"{bindir}{os.pathsep}{ws.env['PATH']}")
    legacy_client = ws.version(["/usr/bin/docker", "--version"])
    client = ws.version(["docker", "--version"])
    server = subprocess.run(
        ["docker", "-H", eng.sock, "version", "--format", "{{.Server.Version}}"], capture_output=True, text=True
    ).stdout.strip()

    def sh(cmd: str, cwd: str | None = None) -> str:
        where = ws.path(cwd) if cwd else ws.root
        r = subprocess.run(cmd, shell=True, cwd=where, capture_output=True, text=True, env=base_env)
        if r.returncode != 0:
            raise RuntimeError(f"setup failed: {cmd}\n{r.stdout}\n{r.stderr}")
        return r.stdout

    # A base image from Debian's static busybox.
    root = ws.path("rootfs")
    for d in ("bin", "tmp", "etc", "app"):
        (root / d).mkdir(parents=True, exist_ok=True)
    shutil.copy("/bin/busybox", root / "bin" / "busybox")
    for a in BUSYBOX_APPLETS:
        os.symlink("busybox", root / "bin" / a)
    (root / "etc" / "passwd").write_text("root:x:0:0:root:/root:/bin/sh\n")
    sh("tar -C rootfs -c . | docker import - tj/busybox:1.35")

    versions = {"client": legacy_client, "server": server}

    # ---- BuildKit, failing RUN step
    mods = _shop(ws, "shop-fail", True, 160)
    r = ws.run("docker build --progress=plain --network none -t shop:dev .", "shop-fail", env=build_env)
    fail_cmd = "RUN sh scripts/compile.sh"
    fixtures.append(
        ws.fixture(
            "docker-build-buildkit-fail",
            "devops/docker-build",
            r,
            family=FAMILY,
            signals=[
                sig("failing_step", fail_cmd),
                sig("error", "shop/payments_gateway.py:88: error: name 'settle_batch' is not defined"),
                sig("error", "build failed: 1 module did not compile (payments_gateway)"),
                sig("exit", "exit code: 2"),
            ],
            signal_source="the Dockerfile's failing RUN instruction and the lines its script writes to stderr "
            "before `exit 2`",
            tool_version=dict(versions, builder="BuildKit (DOCKER_BUILDKIT=1, --progress=plain)"),
            notes=f"{len(mods)} modules compiled before the failure",
        )
    )

    # ---- BuildKit, success with long step output
    _shop(ws, "shop-ok", False, 900)
    r = ws.run(
        "docker build --progress=plain --network none -t registry.example.com/shop/web:1.4.0 .",
        "shop-ok",
        env=build_env,
    )
    if r.exit_code != 0:
        raise RuntimeError("shop build failed:\n" + r.combined[-2000:])
    image_id = sh("docker image inspect --format '{{.Id}}' registry.example.com/shop/web:1.4.0").strip()
    fixtures.append(
        ws.fixture(
            "docker-build-buildkit-ok",
            "devops/docker-build",
            r,
            family=FAMILY,
            signals=[
                sig("image_id", image_id.split(":", 1)[1][:12]),
                sig("tag", "registry.example.com/shop/web:1.4.0"),
                sig("step", "RUN sh scripts/compile.sh"),
                sig("step", "RUN mkdir -p /var/log/shop"),
            ],
            signal_source="`docker image inspect --format {{.Id}}` of the tag built, and the Dockerfile's RUN steps",
            tool_version=dict(versions, builder="BuildKit (DOCKER_BUILDKIT=1, --progress=plain)"),
        )
    )

    # ---- classic builder, failing and passing
    legacy_env = dict(build_env, DOCKER_BUILDKIT="0")
    r = ws.run("docker build -t shop:dev .", "shop-fail", env=legacy_env)
    fixtures.append(
        ws.fixture(
            "docker-build-classic-fail",
            "devops/docker-build",
            r,
            family=FAMILY,
            signals=[
                sig("failing_step", "RUN sh scripts/compile.sh"),
                sig("error", "shop/payments_gateway.py:88: error: name 'settle_batch' is not defined"),
                sig("exit", "returned a non-zero code: 2"),
            ],
            signal_source="the Dockerfile's failing RUN instruction and its stderr before `exit 2`",
            tool_version=dict(versions, builder="classic (DOCKER_BUILDKIT=0)"),
        )
    )
    r = ws.run("docker build -t registry.example.com/shop/web:1.4.1 .", "shop-ok", env=legacy_env)
    short_id = sh("docker image inspect --format '{{.Id}}' registry.example.com/shop/web:1.4.1").strip()[7:19]
    fixtures.append(
        ws.fixture(
            "docker-build-classic-ok",
            "devops/docker-build",
            r,
            family=FAMILY,
            signals=[
                sig("image_id", f"Successfully built {short_id}"),
                sig("tag", "Successfully tagged registry.example.com/shop/web:1.4.1"),
            ],
            signal_source="`docker image inspect --format {{.Id}}` of the tag built",
            tool_version=dict(versions, builder="classic (DOCKER_BUILDKIT=0)"),
        )
    )

    # ---- images: many repositories and tags, a few dangling images
    rng = random.Random(21)
    repos = [
        "registry.example.com/shop/web",
        "registry.example.com/shop/worker",
        "registry.example.com/shop/api",
        "registry.example.com/platform/gateway",
        "registry.example.com/platform/auth",
        "registry.example.com/data/etl",
        "ghcr.io/acme/metrics-exporter",
        "local/dev-tools",
    ]
    ws.write("tiny/Dockerfile", "FROM tj/busybox:1.35\nARG REV\nRUN echo $REV > /rev\n")
    built: list[str] = []
    for k in range(36):
        repo = repos[k % len(repos)]
        tag = f"{1 + k // 16}.{(k * 7) % 10}.{k % 5}"
        ref = f"{repo}:{tag}"
        sh(f"/usr/bin/docker build -q --network none --build-arg REV={k} -t {ref} tiny", None)
        built.append(ref)
        if rng.random() < 0.3:
            sh(f"docker tag {ref} {repo}:latest")
    # Rebuilding a tag leaves the previous image dangling (<none>).
    for k in range(4):
        sh(f"/usr/bin/docker build -q --network none --build-arg REV=again{k} -t local/dev-tools:scratch tiny")
    r = ws.run("docker images", env=base_env)
    listing = [json.loads(x) for x in sh("docker images --format '{{json .}}'").splitlines() if x.strip()]
    isigs = [sig("repository", repo) for repo in sorted({row["Repository"] for row in listing})]
    dangling = sum(1 for row in listing if row["Repository"] == "<none>")
    fixtures.append(
        ws.fixture(
            "docker-images-many",
            "devops/docker-images",
            r,
            family=FAMILY,
            signals=[*isigs, sig("tag", "registry.example.com/shop/web", "local/dev-tools")],
            signal_source="`docker images --format {{json .}}`: every repository listed",
            tool_version=dict(versions, client=client),
            notes=f"{len(listing)} rows, {dangling} dangling",
        )
    )

    # ---- ps -a: many containers in every state
    names: list[str] = []
    services = ["web", "api", "worker", "scheduler", "cache-warmer", "mailer", "search-indexer", "thumbnailer"]
    for k in range(48):
        svc = services[k % len(services)]
        name = f"shop-{svc}-{k // len(services) + 1}"
        names.append(name)
        image = repos[k % 3] + ":1.0.0" if k % 5 else "tj/busybox:1.35"
        sh(f"docker tag tj/busybox:1.35 {repos[k % 3]}:1.0.0")
        health = ""
        if k % 11 == 3:
            health = "--health-cmd 'test -f /nope' --health-interval 1s --health-retries 1"
        elif k % 4 == 0:
            health = "--health-cmd true --health-interval 1s"
        sh(f"docker run -d --name {name} --network none {health} {image} sleep 3600")
    for k in range(10):
        sh(f"docker run --name batch-import-{k:02d} --network none tj/busybox:1.35 true")
    failed = {
        "migrate-db": 1,
        "report-nightly": 2,
        "backfill-orders": 137,
        "seed-catalog": 127,
    }
    for name, code in failed.items():
        subprocess.run(
            f"docker run --name {name} --network none tj/busybox:1.35 sh -c 'exit {code}'",
            shell=True,
            env=base_env,
            capture_output=True,
        )
    for name in ("payments-consumer", "webhook-relay"):
        sh(f"docker run -d --name {name} --restart always --network none tj/busybox:1.35 sh -c 'sleep 0.3; exit 3'")
    for name in ("ops-debug-shell", "load-test-runner"):
        sh(f"docker create --name {name} --network none tj/busybox:1.35 sleep 60")
    sh("docker pause shop-mailer-2")
    time.sleep(5)
    r = ws.run("docker ps -a", env=base_env)
    rows = [json.loads(x) for x in sh("docker ps -a --format '{{json .}}'").splitlines() if x.strip()]
    psigs = []
    for row in rows:
        status = row["Status"]
        healthy_up = row["State"] == "running" and "unhealthy" not in status and "starting" not in status
        if healthy_up or status.startswith("Exited (0)"):
            continue
        psigs.append(sig("container", row["Names"]))
    psigs.append(sig("state", "Restarting (3)"))
    psigs.append(sig("state", "Exited (137)"))
    psigs.append(sig("state", "(unhealthy)"))
    fixtures.append(
        ws.fixture(
            "docker-ps-a-many",
            "devops/docker-ps",
            r,
            family=FAMILY,
            signals=psigs,
            signal_source="`docker ps -a --format {{json .}}`: every container not running healthy "
            "(exited non-zero, restarting, unhealthy, paused, created)",
            tool_version=dict(versions, client=client),
            notes=f"{len(rows)} containers",
        )
    )
    r = ws.run("docker ps --filter name=shop-web", env=base_env)
    fixtures.append(
        ws.fixture(
            "docker-ps-few",
            "devops/docker-ps",
            r,
            family=FAMILY,
            signals=[sig("container", n) for n in names if n.startswith("shop-web")],
            signal_source="the names the containers were started with",
            tool_version=dict(versions, client=client),
        )
    )

    # ---- logs: a long service log on stdout/stderr
    text, errors, warns = _app_log(3500, 9)
    ws.write("logapp/app.log", text)
    ws.write("logapp/run.sh", LOG_SCRIPT)
    ws.write("logapp/Dockerfile", 'FROM tj/busybox:1.35\nCOPY app.log run.sh /app/\nCMD ["sh", "/app/run.sh"]\n')
    sh("/usr/bin/docker build -q --network none -t shop/logdemo:1 logapp")
    sh("docker run --name shop-orders-api --network none shop/logdemo:1")
    r = ws.run("docker logs shop-orders-api", env=base_env)
    fixtures.append(
        ws.fixture(
            "docker-logs-errors",
            "devops/docker-logs",
            r,
            family=FAMILY,
            signals=[sig("error", e) for e in errors]
            + [sig("warning", w) for w in warns]
            + [sig("exception", "psycopg2.OperationalError: could not connect to server: Connection refused")],
            signal_source="the log generator's ERROR and WARN records and the exception it appended",
            tool_version=dict(versions, client=client),
        )
    )
    r = ws.run("docker logs --tail 30 shop-orders-api", env=base_env)
    tail_lines = text.splitlines()[-30:]
    fixtures.append(
        ws.fixture(
            "docker-logs-tail",
            "devops/docker-logs",
            r,
            family=FAMILY,
            signals=[sig("line", tail_lines[-1])] + [sig("error", e) for e in errors if e in tail_lines],
            signal_source="the last line the log generator wrote",
            tool_version=dict(versions, client=client),
        )
    )
    r = ws.run("docker logs shop-does-not-exist", env=base_env)
    fixtures.append(
        ws.fixture(
            "docker-logs-no-such-container",
            "devops/docker-logs",
            r,
            family=FAMILY,
            signals=[sig("error", "No such container: shop-does-not-exist")],
            signal_source="the container name asked for, which was never created",
            tool_version=dict(versions, client=client),
        )
    )

    # ---- pull with no registry reachable
    r = ws.run("docker pull nginx:1.25", env=base_env)
    fixtures.append(
        ws.fixture(
            "docker-pull-unreachable",
            "devops/docker-pull",
            r,
            family=FAMILY,
            signals=[sig("error", "Error response from daemon"), sig("host", "registry-1.docker.io")],
            signal_source="the registry the image name resolves to (Docker Hub), unreachable from this machine",
            tool_version=dict(versions, client=client),
        )
    )

    # ---- docker-compose (v1, Debian's package)
    fixtures += _compose_v1(ws, base_env, sh)
    return fixtures


COMPOSE_V1 = """
version: "3.8"
services:
  db:
    image: tj/busybox:1.35
    network_mode: none
    command: ["sh", "/app/svc.sh", "db", "40", "0"]
    volumes: ["./svc.sh:/app/svc.sh:ro"]
  api:
    image: tj/busybox:1.35
    network_mode: none
    depends_on: [db]
    command: ["sh", "/app/svc.sh", "api", "120", "0"]
    volumes: ["./svc.sh:/app/svc.sh:ro"]
  worker:
    image: tj/busybox:1.35
    network_mode: none
    depends_on: [db]
    command: ["sh", "/app/svc.sh", "worker", "60", "3"]
    volumes: ["./svc.sh:/app/svc.sh:ro"]
  web:
    image: tj/busybox:1.35
    network_mode: none
    depends_on: [api]
    command: ["sh", "/app/svc.sh", "web", "90", "0"]
    volumes: ["./svc.sh:/app/svc.sh:ro"]
"""

# Each service logs N lines; the worker hits an error and exits with its code.
SVC_SH = """
name=$1; n=$2; code=$3
i=0
while [ $i -lt $n ]; do
  i=$((i + 1))
  case $name in
    db) echo "LOG:  checkpoint complete: wrote $i buffers (0.$i%); 0 WAL file(s) added" ;;
    api) echo "INFO  [api] GET /api/v1/items?page=$i 200 in $((i % 40 + 3))ms" ;;
    worker) echo "INFO  [worker] processed job email-$i in 0.$((i % 9))s" ;;
    web) echo "$((i % 250 + 1)).0.0.10 - - \\"GET /static/app.$i.js HTTP/1.1\\" 200 5120" ;;
  esac
  if [ "$name" = worker ] && [ $i -eq $((n / 2)) ]; then
    echo "WARN  [worker] retrying job email-$i (attempt 2/3): SMTP 451 temporary failure"
  fi
  sleep 0.0$((i % 3))
done
if [ "$code" != 0 ]; then
  echo "ERROR [worker] job email-$n failed permanently: SMTP 550 mailbox unavailable" >&2
  echo "FATAL [worker] too many failures, shutting down" >&2
fi
exit $code
"""


def _compose_v1(ws: Workspace, env: dict[str, str], sh: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    ws.write("stack/docker-compose.yml", COMPOSE_V1)
    ws.write("stack/svc.sh", SVC_SH)
    version = ws.version(["docker-compose", "version", "--short"])
    fatal = "FATAL [worker] too many failures, shutting down"
    r = ws.run("docker-compose up", "stack", env=env, timeout=300)
    out.append(
        ws.fixture(
            "docker-compose-v1-up",
            "devops/docker-compose",
            r,
            family=FAMILY,
            signals=[
                sig("error", "ERROR [worker] job email-60 failed permanently: SMTP 550 mailbox unavailable"),
                sig("error", fatal),
                sig("warning", "WARN  [worker] retrying job email-30 (attempt 2/3): SMTP 451 temporary failure"),
                sig("exit", "stack_worker_1 exited with code 3"),
            ],
            signal_source="the service script's WARN/ERROR/FATAL lines and the worker's exit code (3)",
            tool_version=f"docker-compose {version}",
        )
    )
    r = ws.run("docker-compose ps", "stack", env=env)
    out.append(
        ws.fixture(
            "docker-compose-v1-ps",
            "devops/docker-compose-ps",
            r,
            family=FAMILY,
            signals=[sig("container", "stack_worker_1"), sig("state", "Exit 3")],
            signal_source="the service that was made to exit with code 3",
            tool_version=f"docker-compose {version}",
        )
    )
    r = ws.run("docker-compose logs --no-color", "stack", env=env)
    out.append(
        ws.fixture(
            "docker-compose-v1-logs",
            "devops/docker-compose",
            r,
            family=FAMILY,
            signals=[
                sig("error", "ERROR [worker] job email-60 failed permanently: SMTP 550 mailbox unavailable"),
                sig("error", fatal),
            ],
            signal_source="the service script's ERROR/FATAL lines",
            tool_version=f"docker-compose {version}",
        )
    )
    sh("docker-compose down", "stack")
    return out


# ------------------------------------------------------------------ synthesized

BUILDX_DOC = (
    "https://docs.docker.com/build/building/variables/#buildkit_progress (plain progress), docker/buildx printer"
)


def _synthesized() -> list[dict[str, Any]]:
    return [_buildx_fail(), _pull_ok(), _compose_v2_up(), _compose_v2_ps()]


def _buildx_fail() -> dict[str, Any]:
    """The current buildx plain output: `#N` vertexes, then the Dockerfile excerpt with `>>>`."""
    rng = random.Random(3)
    lines = ['#0 building with "default" instance using docker driver', ""]
    lines += [
        "#1 [internal] load build definition from Dockerfile",
        "#1 transferring dockerfile: 1.38kB done",
        "#1 DONE 0.0s",
        "",
        "#2 [internal] load metadata for docker.io/library/python:3.12-slim",
        "#2 DONE 1.4s",
        "",
        "#3 [internal] load .dockerignore",
        "#3 transferring context: 214B done",
        "#3 DONE 0.0s",
        "",
        "#4 [base 1/4] FROM docker.io/library/python:3.12-slim@sha256:2b0079146a74e23bf4ae8f6a28e1b484c6292f6fb904cbb51825b4a19812fcd8",
        "#4 resolve docker.io/library/python:3.12-slim@sha256:2b0079146a74e23bf4ae8f6a28e1b484c6292f6fb904cbb51825b4a19812fcd8 0.0s done",
    ]
    layers = [f"{rng.getrandbits(256):064x}" for _ in range(4)]
    sizes = [29.13, 3.51, 12.83, 0.25]
    for lay, size in zip(layers, sizes, strict=True):
        done, elapsed = 0.0, 0.0
        while done < size:
            done = min(size, round(done + max(size / 4, 0.25), 2))
            elapsed += rng.uniform(0.2, 0.9)
            lines.append(f"#4 sha256:{lay} {done:.2f}MB / {size:.2f}MB {elapsed:.1f}s")
        lines.append(f"#4 sha256:{lay} {size:.2f}MB / {size:.2f}MB {elapsed + 0.1:.1f}s done")
    for lay in layers:
        lines.append(f"#4 extracting sha256:{lay} {rng.uniform(0.1, 1.5):.1f}s done")
    lines += ["#4 DONE 6.2s", ""]
    lines += [
        "#5 [internal] load build context",
        "#5 transferring context: 2.91MB 0.2s done",
        "#5 DONE 0.2s",
        "",
        "#6 [base 2/4] WORKDIR /app",
        "#6 DONE 0.1s",
        "",
        "#7 [base 3/4] COPY requirements.txt .",
        "#7 DONE 0.0s",
        "",
        "#8 [base 4/4] RUN pip install --no-cache-dir -r requirements.txt",
    ]
    t = 0.9
    for pkg in REQUIREMENTS[:22]:
        name, ver = pkg.split("==")
        t += rng.uniform(0.05, 0.4)
        lines.append(
            f"#8 {t:.3f} Collecting {name}=={ver} (from -r requirements.txt (line {REQUIREMENTS.index(pkg) + 1}))"
        )
        t += rng.uniform(0.02, 0.2)
        lines.append(
            f"#8 {t:.3f}   Downloading {name.replace('-', '_')}-{ver}-py3-none-any.whl.metadata ({rng.randint(2, 9)}.{rng.randint(0, 9)} kB)"
        )
    t += 0.4
    err = "ERROR: Could not find a version that satisfies the requirement pydantic-settings==9.1.0 (from versions: 0.1.0, 0.2.0, 2.0.0, 2.0.1, 2.0.2, 2.0.3, 2.1.0, 2.2.0, 2.2.1, 2.3.0, 2.3.1, 2.3.2, 2.3.3, 2.3.4, 2.4.0, 2.5.0, 2.5.1, 2.5.2, 2.6.0)"
    err2 = "ERROR: No matching distribution found for pydantic-settings==9.1.0"
    lines += [
        f"#8 {t:.3f} Collecting pydantic-settings==9.1.0 (from -r requirements.txt (line 23))",
        f"#8 {t + 0.2:.3f} {err}",
        f"#8 {t + 0.2:.3f} {err2}",
        f"#8 {t + 0.5:.3f} ",
        f"#8 {t + 0.5:.3f} [notice] A new release of pip is available: 24.0 -> 24.3.1",
        f"#8 {t + 0.5:.3f} [notice] To update, run: pip install --upgrade pip",
        '#8 ERROR: process "/bin/sh -c pip install --no-cache-dir -r requirements.txt" did not complete successfully: exit code: 1',
        "------",
        " > [base 4/4] RUN pip install --no-cache-dir -r requirements.txt:",
        f"{t:.3f} Collecting pydantic-settings==9.1.0 (from -r requirements.txt (line 23))",
        f"{t + 0.2:.3f} {err}",
        f"{t + 0.2:.3f} {err2}",
        f"{t + 0.5:.3f} ",
        f"{t + 0.5:.3f} [notice] A new release of pip is available: 24.0 -> 24.3.1",
        f"{t + 0.5:.3f} [notice] To update, run: pip install --upgrade pip",
        "------",
        "Dockerfile:9",
        "--------------------",
        "   7 |     WORKDIR /app",
        "   8 |     COPY requirements.txt .",
        "   9 | >>> RUN pip install --no-cache-dir -r requirements.txt",
        "  10 |     ",
        "  11 |     FROM base AS runtime",
        "--------------------",
        'ERROR: failed to solve: process "/bin/sh -c pip install --no-cache-dir -r requirements.txt" did not complete successfully: exit code: 1',
    ]
    return synthesized(
        "docker-buildx-plain-fail",
        "devops/docker-build",
        family=FAMILY,
        command="docker buildx build --progress=plain -t shop/api:dev .",
        exit_code=1,
        stdout="",
        stderr="\n".join(lines) + "\n",
        signals=[
            sig("failing_step", "[base 4/4] RUN pip install --no-cache-dir -r requirements.txt"),
            sig("error", err2),
            sig("location", "Dockerfile:9"),
            sig("error", "ERROR: failed to solve"),
            sig("exit", "exit code: 1"),
        ],
        format_source=BUILDX_DOC
        + "; https://docs.docker.com/build/building/best-practices/ (build failure excerpts with Dockerfile:N and >>>)",
        tool_version="docker 27.3.1, buildx v0.17.1",
    )


def _pull_ok() -> dict[str, Any]:
    """Non-interactive pull: one line per layer event (no TTY redraws)."""
    rng = random.Random(8)
    layers = [f"{rng.getrandbits(48):012x}" for _ in range(7)]
    lines = ["1.27.2: Pulling from library/nginx"]
    lines += [f"{lay}: Pulling fs layer" for lay in layers]
    lines += [f"{lay}: Waiting" for lay in layers[3:]]
    for lay in layers:
        lines += [f"{lay}: Verifying Checksum", f"{lay}: Download complete"]
    for lay in layers:
        lines.append(f"{lay}: Pull complete")
    digest = "sha256:" + "".join(f"{rng.getrandbits(32):08x}" for _ in range(8))
    lines += [
        f"Digest: {digest}",
        "Status: Downloaded newer image for nginx:1.27.2",
        "docker.io/library/nginx:1.27.2",
    ]
    return synthesized(
        "docker-pull-ok",
        "devops/docker-pull",
        family=FAMILY,
        command="docker pull nginx:1.27.2",
        exit_code=0,
        stdout="\n".join(lines) + "\n",
        signals=[sig("digest", digest), sig("status", "Status: Downloaded newer image for nginx:1.27.2")],
        format_source="https://docs.docker.com/reference/cli/docker/image/pull/ (examples of pull output)",
        tool_version="Docker version 27.3.1",
    )


def _compose_v2_up() -> dict[str, Any]:
    """Compose v2 `up` (attached): creation status, then `service-N  | line` logs."""
    rng = random.Random(17)
    services = {"db": "postgres-1", "cache": "redis-1", "api": "api-1", "web": "web-1", "worker": "worker-1"}
    pad = max(len(s) for s in services.values())
    out = [
        " Network shop_default  Creating",
        " Network shop_default  Created",
        ' Volume "shop_pgdata"  Creating',
        ' Volume "shop_pgdata"  Created',
    ]
    for c in services.values():
        out += [f" Container shop-{c}  Creating", f" Container shop-{c}  Created"]
    out.append("Attaching to " + ", ".join(services.values()))
    errors = []
    for i in range(900):
        svc = rng.choice(list(services))
        c = services[svc]
        prefix = f"{c:<{pad}}  | "
        if svc == "db":
            line = f"2026-03-14 09:12:{i % 60:02d}.{i:03d} UTC [{60 + i % 7}] LOG:  checkpoint starting: time"
        elif svc == "cache":
            line = f"1:M 14 Mar 2026 09:12:{i % 60:02d}.{i:03d} * 100 changes in 300 seconds. Saving..."
        elif svc == "api":
            line = f'INFO:     172.18.0.{rng.randint(2, 9)}:{rng.randint(30000, 60000)} - "GET /api/v1/items/{rng.randint(1, 999)} HTTP/1.1" 200 OK'
        elif svc == "web":
            line = f'172.18.0.1 - - [14/Mar/2026:09:12:{i % 60:02d} +0000] "GET /assets/app.{rng.randint(1, 99)}.js HTTP/1.1" 200 51234 "-" "Mozilla/5.0"'
        else:
            line = f"[2026-03-14 09:12:{i % 60:02d},{i:03d}: INFO/ForkPoolWorker-{rng.randint(1, 4)}] Task shop.tasks.sync_stock[{rng.getrandbits(32):08x}] succeeded in {rng.uniform(0.01, 0.9):.3f}s: None"
        out.append(prefix + line)
        if i == 610:
            e = f'{"api-1":<{pad}}  | sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at "db" (172.18.0.2), port 5432 failed: FATAL:  the database system is shutting down'
            out.append(e)
            errors.append(e.split("| ", 1)[1])
        if i == 611:
            e = f"{'worker-1':<{pad}}  | [2026-03-14 09:13:01,611: ERROR/MainProcess] consumer: Cannot connect to redis://cache:6379/0: Error 111 connecting to cache:6379. Connection refused."
            out.append(e)
            errors.append(e.split("| ", 1)[1])
    out.append(f"{'worker-1':<{pad}} exited with code 1")
    out += ["Gracefully stopping... (press Ctrl+C again to force)", "Aborting on container exit..."]
    for c in services.values():
        out += [f" Container shop-{c}  Stopping", f" Container shop-{c}  Stopped"]
    return synthesized(
        "docker-compose-v2-up",
        "devops/docker-compose",
        family=FAMILY,
        command="docker compose up --abort-on-container-exit",
        exit_code=1,
        stdout="\n".join(out) + "\n",
        signals=[sig("error", e) for e in errors] + [sig("exit", "worker-1 exited with code 1")],
        format_source="https://docs.docker.com/reference/cli/docker/compose/up/ and the Compose v2 log "
        "prefix format `<service>-<index>  | ` (docs.docker.com/compose/how-tos/startup-order)",
        tool_version="Docker Compose version v2.29.7",
    )


def _compose_v2_ps() -> dict[str, Any]:
    rows = [
        (
            "shop-api-1",
            "shop/api:dev",
            '"uvicorn app.main:a…"',
            "api",
            "12 minutes ago",
            "Up 12 minutes (healthy)",
            "0.0.0.0:8000->8000/tcp",
        ),
        ("shop-cache-1", "redis:7.4", '"docker-entrypoint.s…"', "cache", "12 minutes ago", "Up 12 minutes", "6379/tcp"),
        (
            "shop-postgres-1",
            "postgres:16.4",
            '"docker-entrypoint.s…"',
            "db",
            "12 minutes ago",
            "Up 12 minutes (healthy)",
            "5432/tcp",
        ),
        (
            "shop-web-1",
            "nginx:1.27.2",
            '"/docker-entrypoint.…"',
            "web",
            "12 minutes ago",
            "Up 11 minutes",
            "0.0.0.0:8080->80/tcp",
        ),
        (
            "shop-worker-1",
            "shop/api:dev",
            '"celery -A shop.tas…"',
            "worker",
            "12 minutes ago",
            "Restarting (1) 8 seconds ago",
            "",
        ),
    ]
    cols = ["NAME", "IMAGE", "COMMAND", "SERVICE", "CREATED", "STATUS", "PORTS"]
    # tabwriter layout: each column as wide as its widest cell plus 3 spaces.
    widths = [max(len(c), *(len(r[k]) for r in rows)) + 3 for k, c in enumerate(cols)]
    text = ["".join(c.ljust(w) for c, w in zip(cols, widths, strict=True))]
    for row in rows:
        text.append("".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))
    return synthesized(
        "docker-compose-v2-ps",
        "devops/docker-compose-ps",
        family=FAMILY,
        command="docker compose ps",
        exit_code=0,
        stdout="\n".join(x.rstrip() for x in text) + "\n",
        signals=[sig("container", r[0]) for r in rows] + [sig("state", "Restarting (1)")],
        format_source="https://docs.docker.com/reference/cli/docker/compose/ps/ (table columns NAME IMAGE "
        "COMMAND SERVICE CREATED STATUS PORTS)",
        tool_version="Docker Compose version v2.29.7",
    )
