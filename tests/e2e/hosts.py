"""The real agent hosts, installed from npm and run against the scripted model.

Each `Host` knows its pinned npm package, how to point it at the scripted model, how
to install tokenjuice's hook and MCP server into a throwaway home of its own, and how
to read a shell tool result back into the command's exit code and output (`Outcome`).

The packages go into a cache folder (`$TOKENJUICE_E2E_CACHE`, else
`$XDG_CACHE_HOME/tokenjuice-e2e`, else `~/.cache/tokenjuice-e2e`), one folder per
package and version, installed once and reused.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from tests.e2e.scripted_model import Exchange, Script, ScriptedModel, ToolResult

# Exact versions: a new host release changes what is tested only when this table does.
PINNED = {
    "claude-code": ("@anthropic-ai/claude-code", "2.1.332", "claude"),
    "codex": ("@openai/codex", "0.171.0", "codex"),
    "gemini-cli": ("@google/gemini-cli", "0.61.0", "gemini"),
}

# Turning the hosts off takes a word; anything else that keeps them from running fails.
OFF_VARIABLE = "TOKENJUICE_E2E_HOSTS"
SESSION_TIMEOUT_S = 180.0
INSTALL_TIMEOUT_S = 900.0
TOKENJUICE_BIN = Path(sys.executable).parent


# The exit code of an Outcome whose command never ran.
REFUSED = -1000


class HostUnavailable(RuntimeError):
    """npm or a host package could not be installed or does not start."""


def hosts_off() -> str | None:
    """Why the e2e tests are skipped (only ever because the environment says so)."""
    value = os.environ.get(OFF_VARIABLE, "").strip().lower()
    if value in ("0", "off", "no", "false", "none"):
        return f"{OFF_VARIABLE}={value}: the agent hosts are declared unavailable"
    return None


def cache_root() -> Path:
    explicit = os.environ.get("TOKENJUICE_E2E_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tokenjuice-e2e"


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """One installer at a time per package (test runs of several checkouts share the cache)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _answers_version(exe: Path, version: str) -> bool:
    try:
        proc = subprocess.run(
            [str(exe), "--version"], capture_output=True, text=True, timeout=60, env=base_env(Path.home())
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0 and version in proc.stdout


def ensure_installed(package: str, version: str, binary: str, root: Path | None = None) -> Path:
    """The host's executable, installed from npm into the cache when it is not there yet."""
    root = root or cache_root()
    folder = root / f"{package.replace('/', '+')}@{version}"
    exe = folder / "node_modules" / ".bin" / binary
    with _locked(root / f".{folder.name}.lock"):
        if exe.exists() and _answers_version(exe, version):
            return exe
        npm = shutil.which("npm")
        if npm is None:
            raise HostUnavailable(f"npm is not on PATH; it installs {package}@{version} (node 20+ with npm)")
        # Install next to the final folder and move it in whole: a half-done install is never reused.
        staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=root))
        try:
            proc = subprocess.run(
                [npm, "install", "--prefix", str(staging), "--no-audit", "--no-fund", "--loglevel=error",
                 f"{package}@{version}"],
                capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S, check=False,
            )  # fmt: skip
            if proc.returncode != 0:
                tail = (proc.stderr or proc.stdout).strip().splitlines()[-5:]
                raise HostUnavailable(f"npm install {package}@{version} failed: {' | '.join(tail)}")
            shutil.rmtree(folder, ignore_errors=True)
            staging.rename(folder)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        if not _answers_version(exe, version):
            raise HostUnavailable(f"{exe} does not answer --version with {version}")
        return exe


def base_env(home: Path) -> dict[str, str]:
    """What every host process gets: nothing from the developer's own environment but the
    tools it needs, so neither their API keys nor their shell profile change a result."""
    dirs = [str(TOKENJUICE_BIN)]
    for tool in ("node", "git", "bash"):
        found = shutil.which(tool)
        if found and os.path.dirname(found) not in dirs:
            dirs.append(os.path.dirname(found))
    dirs += [d for d in ("/usr/local/bin", "/usr/bin", "/bin") if d not in dirs]
    env = {"PATH": os.pathsep.join(dirs), "HOME": str(home), "LANG": "C.UTF-8", "TERM": "dumb"}
    for name in ("TMPDIR", "TOKENJUICE_HOME"):
        if os.environ.get(name):
            env[name] = os.environ[name]
    # Commits the hosts make need an author; the user's ~/.gitconfig is not read.
    env.update(
        GIT_AUTHOR_NAME="e2e",
        GIT_AUTHOR_EMAIL="e2e@example.invalid",
        GIT_COMMITTER_NAME="e2e",
        GIT_COMMITTER_EMAIL="e2e@example.invalid",
        GIT_CONFIG_NOSYSTEM="1",
    )
    return env


def tokenjuice(*args: str, env: dict[str, str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run this checkout's `tokenjuice` as a user would (the console script on PATH)."""
    exe = TOKENJUICE_BIN / "tokenjuice"
    proc = subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=120, env=env, cwd=cwd, check=False)
    if proc.returncode != 0:
        raise AssertionError(f"tokenjuice {' '.join(args)} exited {proc.returncode}: {proc.stderr.strip()}")
    return proc


# ------------------------------------------------------------------ outcomes


@dataclass(frozen=True)
class Outcome:
    """A shell tool result read back: the exit code the host reported, the command's
    output as the host passed it on (its own framing removed), and whether the host
    marked the call as failed."""

    exit_code: int
    output: str
    failed: bool
    notes: tuple[str, ...] = ()


def refused(result: ToolResult) -> Outcome:
    """A tool result that reports no finished command (the host refused or blocked it)."""
    return Outcome(REFUSED, result.text, True)


@dataclass(repr=False)
class Session:
    """One host run against the scripted model."""

    returncode: int
    stdout: str
    stderr: str
    exchanges: list[Exchange]
    results: list[ToolResult]
    errors: list[str]

    def __repr__(self) -> str:
        return f"Session(exit {self.returncode}, {len(self.exchanges)} requests, {len(self.results)} tool results)"

    def describe(self) -> str:
        return (
            f"host exit {self.returncode}; {len(self.exchanges)} model requests; {len(self.results)} tool results; "
            f"server errors {self.errors}\n--- host stderr (tail) ---\n{self.stderr[-3000:]}"
            f"\n--- host stdout (tail) ---\n{self.stdout[-2000:]}"
        )


# ----------------------------------------------------------------- the hosts


@dataclass
class Host:
    """One agent CLI; subclasses fill in its settings, flags and result framing."""

    name: str
    exe: Path
    version: str
    # Flags of a session that may run every tool call without asking.
    unattended: tuple[str, ...] = ()
    # Whether the host runs a command on a terminal (a pty) rather than on pipes.
    terminal: ClassVar[bool] = False
    # Whether the host reads stdout and stderr on two pipes and joins them as they
    # arrive (their interleaving then depends on scheduling, not on the command).
    two_pipes: ClassVar[bool] = False

    # -- homes

    def home(self, root: Path, *, hooked: bool, mcp: bool = False, trust: bool = True) -> Path:
        """A home folder with this host set up for the scripted model, with tokenjuice's
        hook (installed by `tokenjuice install`) when `hooked`, its MCP server when `mcp`.
        `trust`: review and trust the hook where the host asks for that first."""
        home = Path(tempfile.mkdtemp(prefix=f"{self.name}-", dir=root))
        # Login shells (Codex runs `bash -lc`) rebuild PATH from /etc/profile; the user's
        # profile puts tokenjuice (and this checkout's pytest) back, as pipx's setup does.
        (home / ".profile").write_text(f'PATH="{TOKENJUICE_BIN}:$PATH"\nexport PATH\n')
        self.configure(home)
        env = self.env(home, "http://127.0.0.1:9")
        if hooked:
            tokenjuice("install", self.name, env=env)
            if trust:
                self.trust_hooks(home, root)
        if mcp:
            self.add_mcp(home, env)
        return home

    def trust_hooks(self, home: Path, cwd: Path) -> list[str]:
        """Trust the installed hooks where the host runs only reviewed ones (default: none)."""
        return []

    def configure(self, home: Path) -> None:
        """The host's own settings for a scripted session (auth, no update checks)."""

    def add_mcp(self, home: Path, env: dict[str, str]) -> None:
        raise NotImplementedError

    def trust_workspace(self, home: Path, workspace_root: Path) -> None:
        """Let the host trust folders under `workspace_root` where it asks first."""

    def env(self, home: Path, url: str) -> dict[str, str]:
        return base_env(home)

    def argv(self, url: str, prompt: str, flags: Sequence[str]) -> list[str]:
        raise NotImplementedError

    def outcome(self, result: ToolResult) -> Outcome:
        raise NotImplementedError

    def tool_text(self, result: ToolResult) -> str:
        """Another tool's result (an MCP tool's texts) without the host's own framing."""
        return result.text

    # -- sessions

    def run(
        self, script: Script, *, home: Path, cwd: Path, flags: Sequence[str] | None = None, prompt: str = "go"
    ) -> Session:
        """Run one non-interactive session in `cwd`; the host's process group is killed
        if it outlives SESSION_TIMEOUT_S."""
        with ScriptedModel(script) as model:
            argv = self.argv(model.url, prompt, self.unattended if flags is None else flags)
            proc = subprocess.Popen(
                argv,
                cwd=cwd,
                env=self.env(home, model.url),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                errors="replace",
                start_new_session=True,
            )
            try:
                out, err = proc.communicate(timeout=SESSION_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                out, err = proc.communicate()
                err += f"\n[e2e: killed after {SESSION_TIMEOUT_S:g}s]"
            finally:
                # Nothing the host started (a shell, an MCP server) outlives the session.
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
            rec = model.recorder
            with rec.lock:
                exchanges = list(rec.exchanges)
                errors = list(rec.errors)
        return Session(proc.returncode, out, err, exchanges, rec.results(), errors)


class ClaudeCode(Host):
    def configure(self, home: Path) -> None:
        (home / ".claude").mkdir(exist_ok=True)

    def settings(self, home: Path) -> Path:
        return home / ".claude" / "settings.json"

    def add_mcp(self, home: Path, env: dict[str, str]) -> None:
        _check(
            [str(self.exe), "mcp", "add", "--scope", "user", "tokenjuice", "--", str(TOKENJUICE_BIN / "tokenjuice"),
             "mcp"],
            env,
        )  # fmt: skip

    def env(self, home: Path, url: str) -> dict[str, str]:
        env = base_env(home)
        env.update(
            CLAUDE_CONFIG_DIR=str(home / ".claude"),
            ANTHROPIC_BASE_URL=url,
            ANTHROPIC_API_KEY="sk-ant-e2e-not-a-key",
            # Keeps its side requests (updates, telemetry, feedback) away.
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
            DISABLE_AUTOUPDATER="1",
            # MCP tools offered up front rather than behind its ToolSearch tool.
            ENABLE_TOOL_SEARCH="false",
        )
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            # It refuses to bypass permissions as root outside a declared sandbox.
            env["IS_SANDBOX"] = "1"
        return env

    def argv(self, url: str, prompt: str, flags: Sequence[str]) -> list[str]:
        return [str(self.exe), "-p", prompt, "--output-format", "json", *flags]

    def outcome(self, result: ToolResult) -> Outcome:
        # A failed command reads "Exit code N" and then the output; a good one is the output alone.
        text = result.text
        m = re.match(r"Exit code (\d+)\n?", text)
        if m:
            return Outcome(int(m.group(1)), text[m.end() :], bool(result.is_error))
        return Outcome(1 if result.is_error else 0, text, bool(result.is_error))


class Codex(Host):
    two_pipes = True  # codex's exec reads a child's stdout and stderr apart

    def configure(self, home: Path) -> None:
        (home / ".codex").mkdir(exist_ok=True)
        (home / ".codex" / "config.toml").write_text(
            'model = "scripted-model"\n'
            'model_provider = "scripted"\n'
            "check_for_update_on_startup = false\n"
            # Tool output reaches the model whole: the host's own truncation is not under test.
            "tool_output_token_limit = 100000\n"
            "[analytics]\nenabled = false\n"
            "[model_providers.scripted]\n"
            'name = "scripted"\n'
            'base_url = "http://127.0.0.1:9/v1"\n'
            'wire_api = "responses"\n'
            'env_key = "SCRIPTED_API_KEY"\n'
        )

    def add_mcp(self, home: Path, env: dict[str, str]) -> None:
        _check([str(self.exe), "mcp", "add", "tokenjuice", "--", str(TOKENJUICE_BIN / "tokenjuice"), "mcp"], env)

    def env(self, home: Path, url: str) -> dict[str, str]:
        env = base_env(home)
        env.update(CODEX_HOME=str(home / ".codex"), SCRIPTED_API_KEY="e2e-not-a-key")
        return env

    def argv(self, url: str, prompt: str, flags: Sequence[str]) -> list[str]:
        return [
            str(self.exe), "exec", "--skip-git-repo-check", "-c", f'model_providers.scripted.base_url="{url}/v1"',
            *flags, prompt,
        ]  # fmt: skip

    def outcome(self, result: ToolResult) -> Outcome:
        # "Chunk ID / Wall time / Process exited with code N / Original token count / Output:\n<output>"
        head, sep, body = result.text.partition("Output:\n")
        m = re.search(r"^Process exited with code (-?\d+)$", head, re.M)
        if not sep or m is None:
            return refused(result)
        code = int(m.group(1))
        return Outcome(code, body, code != 0)

    def tool_text(self, result: ToolResult) -> str:
        # An MCP result reads "Wall time: N seconds\nOutput:\n<texts>".
        m = re.match(r"Wall time: [\d.]+ seconds\nOutput:\n", result.text)
        return result.text[m.end() :] if m else result.text

    def trust_hooks(self, home: Path, cwd: Path) -> list[str]:
        """Trust every hook of this home the way Codex's /hooks review does: through
        its app server, `hooks/list` for the hash, `config/value/write` to keep it."""
        return codex_trust_hooks(self.exe, self.env(home, "http://127.0.0.1:9"), cwd)


class GeminiCli(Host):
    terminal = True  # node-pty, when it is installed (it is, with the npm package)

    def configure(self, home: Path) -> None:
        gemini = home / ".gemini"
        gemini.mkdir(exist_ok=True)
        (gemini / "settings.json").write_text(
            json.dumps(
                {
                    "security": {"auth": {"selectedType": "gemini-api-key"}},
                    "privacy": {"usageStatisticsEnabled": False},
                    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
                },
                indent=2,
            )
        )

    def trust_workspace(self, home: Path, workspace_root: Path) -> None:
        # Gemini CLI drops to its default approval mode in folders the user has not trusted.
        (home / ".gemini" / "trustedFolders.json").write_text(json.dumps({str(workspace_root): "TRUST_FOLDER"}))

    def add_mcp(self, home: Path, env: dict[str, str]) -> None:
        _check(
            [str(self.exe), "mcp", "add", "--scope", "user", "tokenjuice", str(TOKENJUICE_BIN / "tokenjuice"), "mcp"],
            env,
            cwd=home,
        )

    def env(self, home: Path, url: str) -> dict[str, str]:
        env = base_env(home)
        env.update(GEMINI_CLI_HOME=str(home), GEMINI_API_KEY="e2e-not-a-key", GOOGLE_GEMINI_BASE_URL=url)
        return env

    def argv(self, url: str, prompt: str, flags: Sequence[str]) -> list[str]:
        return [str(self.exe), *flags, "--output-format", "json", "-p", prompt]

    def tool_text(self, result: ToolResult) -> str:
        # Each text block of the result comes in an <untrusted_context> block of its own.
        return re.sub(r"<untrusted_context>\n(.*?)\n</untrusted_context>", r"\1", result.text, flags=re.S)

    def outcome(self, result: ToolResult) -> Outcome:
        # "<untrusted_context>\nOutput: <output>\n[Exit Code: N\n]...Process Group PGID: N\n</untrusted_context>"
        # and, after it, notes such as "[System] Tool input parameters were modified by a hook ...".
        text = result.text
        notes: tuple[str, ...] = ()
        m = re.fullmatch(r"<untrusted_context>\n(.*)\n</untrusted_context>(.*)", text, re.S)
        if m:
            text, rest = m.group(1), m.group(2)
            notes = tuple(line for line in rest.splitlines() if line.strip())
        lines = text.split("\n")
        trailer: dict[str, str] = {}
        labels = ("Exit Code", "Error", "Signal", "Background PIDs", "Process Group PGID")
        while lines and (label := lines[-1].partition(": ")[0]) in labels and label not in trailer:
            trailer[label] = lines.pop().partition(": ")[2]
        body = "\n".join(lines)
        if not body.startswith("Output: "):
            return refused(result)
        code = int(trailer.get("Exit Code", "0"))
        return Outcome(code, body[len("Output: ") :], code != 0 or "Error" in trailer, notes)


def _check(argv: list[str], env: dict[str, str], cwd: Path | None = None) -> None:
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env, cwd=cwd, check=False)
    if proc.returncode != 0:
        raise AssertionError(f"{' '.join(argv[:4])} exited {proc.returncode}: {proc.stderr.strip()[-500:]}")


def codex_trust_hooks(exe: Path, env: dict[str, str], cwd: Path) -> list[str]:
    """Mark each hook Codex lists for `cwd` as trusted; returns their keys."""
    proc = subprocess.Popen(
        [str(exe), "app-server"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
        cwd=cwd,
        start_new_session=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    stdin, stdout = proc.stdin, proc.stdout

    def call(ident: int, method: str, params: dict[str, object]) -> dict[str, object]:
        stdin.write(json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}) + "\n")
        stdin.flush()
        for line in stdout:
            msg = json.loads(line)
            if msg.get("id") == ident:
                if "error" in msg:
                    raise AssertionError(f"codex app-server {method}: {msg['error']}")
                result = msg.get("result")
                return result if isinstance(result, dict) else {}
        raise AssertionError(f"codex app-server closed before answering {method}")

    try:
        call(1, "initialize", {"clientInfo": {"name": "tokenjuice-e2e", "version": "1"}})
        stdin.write(json.dumps({"jsonrpc": "2.0", "method": "initialized"}) + "\n")
        listed = call(2, "hooks/list", {"cwds": [str(cwd)]})
        hooks = [h for entry in listed.get("data", []) for h in entry.get("hooks", [])]  # type: ignore[attr-defined]
        state = {h["key"]: {"trusted_hash": h["currentHash"]} for h in hooks}
        if state:
            call(3, "config/value/write", {"keyPath": "hooks.state", "value": state, "mergeStrategy": "upsert"})
        return sorted(state)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


HOST_CLASSES: dict[str, type[Host]] = {"claude-code": ClaudeCode, "codex": Codex, "gemini-cli": GeminiCli}
UNATTENDED: dict[str, tuple[str, ...]] = {
    "claude-code": ("--dangerously-skip-permissions",),
    "codex": ("--dangerously-bypass-approvals-and-sandbox",),
    "gemini-cli": ("--yolo",),
}


def load(name: str, root: Path | None = None) -> Host:
    package, version, binary = PINNED[name]
    exe = ensure_installed(package, version, binary, root)
    return HOST_CLASSES[name](name=name, exe=exe, version=version, unattended=UNATTENDED[name])
