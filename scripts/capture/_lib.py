"""Shared helpers for fixture capture modules.

A capture module (`scripts/capture/<family>.py`) defines `capture(ws: Workspace)`,
which builds small throwaway projects under `ws.root`, runs the real tool with
`ws.run(...)`, and returns fixtures made with `ws.fixture(...)`. Signals (what a
reduction must keep) are derived independently of tokenjuice: from the tool's
machine-readable output (JUnit XML, --message-format=json, --porcelain, …) or from
the data the test project was built with.

Fixtures are written to tests/fixtures/<family>/<id>.json (gzipped above 1 MB, with
mtime 0 so re-captures of identical output are byte-identical).
"""

from __future__ import annotations

import datetime as _dt
import gzip
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "src"))

from tokenjuice.process import run_command  # noqa: E402

GZIP_ABOVE = 1_000_000


class Skip(Exception):
    """The tool cannot run on this machine; the module's fixtures are left as they are."""


class Result:
    def __init__(
        self,
        command: str,
        argv: list[str],
        cwd: Path,
        exit_code: int,
        stdout: str,
        stderr: str,
        combined: str,
        interleave: list[list[int]],
        duration_s: float,
    ) -> None:
        self.command = command
        self.argv = argv
        self.cwd = cwd
        self.exit_code = exit_code
        self.stdout = stdout
        self.stderr = stderr
        self.combined = combined
        self.interleave = interleave
        self.duration_s = duration_s


class Workspace:
    """A scratch directory for one capture module, plus tool installation helpers."""

    def __init__(self, root: Path, tools: Path) -> None:
        self.root = root
        self.tools = tools
        self.env = dict(os.environ)
        # What an agent's shell looks like: no terminal, no pager, stable locale.
        self.env.update(
            {
                "TERM": "dumb",
                "PAGER": "cat",
                "GIT_PAGER": "cat",
                "LC_ALL": "C.UTF-8",
                "LANG": "C.UTF-8",
                "PYTHONDONTWRITEBYTECODE": "1",
                "NO_UPDATE_NOTIFIER": "1",
                "npm_config_update_notifier": "false",
                "npm_config_fund": "false",
                "npm_config_audit": "false",
            }
        )
        self.env.pop("NO_COLOR", None)
        self.env["PATH"] = os.pathsep.join(
            [str(self.tools / "venv" / "bin"), str(self.tools / "node_modules" / ".bin"), self.env["PATH"]]
        )

    # ----------------------------------------------------------------- files

    def write(self, rel: str, content: str, mode: int | None = None) -> Path:
        p = self.root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(content).lstrip("\n"), encoding="utf-8")
        if mode is not None:
            p.chmod(mode)
        return p

    def path(self, rel: str) -> Path:
        return self.root / rel

    # ------------------------------------------------------------------ tools

    def which(self, name: str) -> str | None:
        return shutil.which(name, path=self.env["PATH"])

    def pip_install(self, *packages: str) -> None:
        """Install Python tools into the capture venv (shared by all modules)."""
        venv = self.tools / "venv"
        if not (venv / "bin" / "python").exists():
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        missing = [p for p in packages if not self._pip_has(p)]
        if missing:
            r = subprocess.run(
                [str(venv / "bin" / "pip"), "install", "-q", *missing], capture_output=True, text=True, env=self.env
            )
            if r.returncode != 0:
                raise Skip(f"pip install {' '.join(missing)} failed: {r.stderr.strip()[-300:]}")

    def _pip_has(self, spec: str) -> bool:
        name = spec.split("==", maxsplit=1)[0].split(">=", maxsplit=1)[0].split("[", maxsplit=1)[0]
        r = subprocess.run(
            [str(self.tools / "venv" / "bin" / "pip"), "show", "-q", name], capture_output=True, env=self.env
        )
        return r.returncode == 0

    def npm_install(self, *packages: str) -> None:
        """Install Node tools into the shared tools dir (node_modules/.bin on PATH)."""
        if not shutil.which("npm"):
            raise Skip("npm is not installed")
        self.tools.mkdir(parents=True, exist_ok=True)
        if not (self.tools / "package.json").exists():
            (self.tools / "package.json").write_text('{"name": "tj-capture-tools", "private": true}\n')
        missing = [p for p in packages if not (self.tools / "node_modules" / _npm_name(p)).exists()]
        if missing:
            r = subprocess.run(
                ["npm", "install", "--no-audit", "--no-fund", "--silent", *missing],
                cwd=self.tools,
                capture_output=True,
                text=True,
                env=self.env,
            )
            if r.returncode != 0:
                raise Skip(f"npm install {' '.join(missing)} failed: {r.stderr.strip()[-300:]}")

    _apt_updated = False

    def apt_install(self, *packages: str) -> None:
        """Install Debian packages (the capture machine is a Debian image run as root)."""
        missing = [p for p in packages if subprocess.run(["dpkg", "-s", p], capture_output=True).returncode != 0]
        if not missing:
            return
        if not shutil.which("apt-get"):
            raise Skip("apt-get is not available")
        env = dict(self.env, DEBIAN_FRONTEND="noninteractive")
        if not Workspace._apt_updated:
            subprocess.run(["apt-get", "update", "-q"], capture_output=True, env=env)
            Workspace._apt_updated = True
        r = subprocess.run(
            ["apt-get", "install", "-y", "-q", "--no-install-recommends", *missing],
            capture_output=True,
            text=True,
            env=env,
        )
        if r.returncode != 0:
            raise Skip(f"apt-get install {' '.join(missing)} failed: {r.stderr.strip()[-300:]}")

    def require(self, *names: str) -> None:
        for n in names:
            if not self.which(n):
                raise Skip(f"{n} is not installed")

    def version(self, argv: list[str]) -> str:
        try:
            r = subprocess.run(argv, capture_output=True, text=True, env=self.env, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            return "unknown"
        text = (r.stdout or r.stderr).strip().splitlines()
        return text[0].strip() if text else "unknown"

    # -------------------------------------------------------------------- run

    def run(
        self,
        command: str | list[str],
        cwd: str | Path | None = None,
        *,
        timeout: float = 600,
        env: dict[str, str] | None = None,
    ) -> Result:
        """Run like an agent would (no TTY, stdin closed), capturing arrival order."""
        shell = isinstance(command, str)
        argv = [command] if shell else list(command)
        where = Path(cwd) if cwd is not None else self.root
        if not where.is_absolute():
            where = self.root / where
        cap = run_command(argv, shell=shell, cwd=str(where), timeout=timeout, env=env or self.env, stdin_devnull=True)
        run = cap.run
        return Result(
            command=command if shell else _shlex_join(argv),  # type: ignore[arg-type]
            argv=_split(command) if shell else argv,  # type: ignore[arg-type]
            cwd=where,
            exit_code=cap.exit_code,
            stdout=run.stdout or "",
            stderr=run.stderr or "",
            combined=run.combined,
            interleave=[list(c) for c in (run.interleave or ())],
            duration_s=round((run.duration_ms or 0) / 1000, 3),
        )

    def sh(self, command: str, cwd: str | Path | None = None, check: bool = True) -> str:
        """Setup step (not captured as a fixture): run, return stdout."""
        where = Path(cwd) if cwd is not None else self.root
        if not where.is_absolute():
            where = self.root / where
        r = subprocess.run(command, shell=True, cwd=where, capture_output=True, text=True, env=self.env)
        if check and r.returncode != 0:
            raise RuntimeError(f"setup failed: {command}\n{r.stdout}\n{r.stderr}")
        return r.stdout

    # --------------------------------------------------------------- fixture

    def fixture(
        self,
        id: str,
        rule: str,
        result: Result,
        *,
        family: str,
        signals: list[Any],
        signal_source: str,
        tool_version: str | dict[str, str],
        notes: str | None = None,
        source: str = "captured",
    ) -> dict[str, Any]:
        cwd = str(result.cwd)
        rel = os.path.relpath(cwd, self.root)
        return {
            "id": id,
            "family": family,
            "rule": rule,
            "command": result.command,
            "argv": result.argv,
            "cwd": "<workspace>" if rel == "." else f"<workspace>/{rel}",
            "exitCode": result.exit_code,
            "stdout": result.stdout,
            "stderr": result.stderr,
            "combined": result.combined,
            "interleave": result.interleave,
            "toolVersion": tool_version,
            "source": source,
            "capturedAt": _dt.date.today().isoformat(),
            "durationS": result.duration_s,
            "signalSource": signal_source,
            "signals": signals,
            **({"notes": notes} if notes else {}),
        }


def synthesized(
    id: str,
    rule: str,
    *,
    family: str,
    command: str,
    exit_code: int,
    stdout: str,
    stderr: str = "",
    signals: list[Any],
    format_source: str,
    tool_version: str,
) -> dict[str, Any]:
    """A fixture for a tool that cannot run here, built from its documented output format."""
    import shlex

    combined = stdout + stderr if stdout.endswith("\n") or not stderr or not stdout else stdout + "\n" + stderr
    interleave = [c for c in ([0, len(stdout)], [1, len(combined) - len(stdout)]) if c[1]]
    return {
        "id": id,
        "family": family,
        "rule": rule,
        "command": command,
        "argv": shlex.split(command),
        "cwd": "<workspace>",
        "exitCode": exit_code,
        "stdout": stdout,
        "stderr": stderr,
        "combined": combined,
        "interleave": interleave,
        "toolVersion": tool_version,
        "source": f"synthesized from the documented output format: {format_source}",
        "capturedAt": _dt.date.today().isoformat(),
        "signalSource": "the values the synthetic output was generated from",
        "signals": signals,
    }


def write_fixture(fx: dict[str, Any], out_dir: Path) -> Path:
    """Write `<out>/<family>/<id>.json[.gz]`, removing a stale twin."""
    d = out_dir / fx["family"]
    d.mkdir(parents=True, exist_ok=True)
    data = json.dumps(fx, ensure_ascii=False, indent=1).encode("utf-8") + b"\n"
    plain, gz = d / f"{fx['id']}.json", d / f"{fx['id']}.json.gz"
    if len(data) > GZIP_ABOVE:
        with gz.open("wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as f:
            f.write(data)
        plain.unlink(missing_ok=True)
        return gz
    plain.write_bytes(data)
    gz.unlink(missing_ok=True)
    return plain


def sig(kind: str, text: str, *alts: str, match: str | None = None) -> dict[str, Any]:
    s: dict[str, Any] = {"kind": kind, "text": text}
    if alts:
        s["alts"] = list(alts)
    if match:
        s["match"] = match
    return s


def _npm_name(spec: str) -> str:
    if spec.startswith("@"):
        return "@" + spec[1:].split("@", maxsplit=1)[0]
    return spec.split("@", maxsplit=1)[0]


def _split(command: str) -> list[str]:
    import shlex

    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def _shlex_join(argv: list[str]) -> str:
    import shlex

    return shlex.join(argv)
