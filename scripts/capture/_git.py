"""Helpers for the git capture modules: reproducible repos and signal derivation.

Every git process (setup and captured runs) gets the same identity, an isolated global
config and a clock that advances one hour per commit, so commit hashes, and with them
the fixtures, are identical from one capture to the next.
"""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path
from typing import Any

from capture._lib import Result, Workspace, sig

CLOCK_START = 1_700_000_000

GLOBAL_CONFIG = """\
[user]
    name = Dana Dev
    email = dana@example.com
[init]
    defaultBranch = main
[protocol "file"]
    allow = always
[core]
    pager = cat
"""


class Git:
    """Run git in a workspace with a fixed identity and a deterministic clock."""

    def __init__(self, ws: Workspace, start: int = CLOCK_START) -> None:
        self.ws = ws
        self.now = start
        cfg = ws.path(".gitconfig-capture")
        cfg.write_text(GLOBAL_CONFIG, encoding="utf-8")
        self.base_env = dict(ws.env)
        self.base_env.update(
            {
                "GIT_CONFIG_GLOBAL": str(cfg),
                "GIT_CONFIG_NOSYSTEM": "1",
                "GIT_AUTHOR_NAME": "Dana Dev",
                "GIT_AUTHOR_EMAIL": "dana@example.com",
                "GIT_COMMITTER_NAME": "Dana Dev",
                "GIT_COMMITTER_EMAIL": "dana@example.com",
                "GIT_TERMINAL_PROMPT": "0",
                "GIT_EDITOR": "true",
                "GIT_SEQUENCE_EDITOR": "true",
            }
        )

    def env(self, author: str | None = None) -> dict[str, str]:
        stamp = f"{self.now} +0000"
        env = dict(self.base_env, GIT_AUTHOR_DATE=stamp, GIT_COMMITTER_DATE=stamp)
        if author:
            name, _, email = author.partition("<")
            env["GIT_AUTHOR_NAME"] = name.strip()
            env["GIT_AUTHOR_EMAIL"] = email.rstrip(">").strip()
        return env

    def tick(self, seconds: int = 3600) -> None:
        self.now += seconds

    def sh(self, command: str, cwd: str | Path = ".", *, check: bool = True, author: str | None = None) -> str:
        """Setup step (not a fixture): run a shell command, return stdout."""
        where = self._where(cwd)
        r = subprocess.run(command, shell=True, cwd=where, capture_output=True, text=True, env=self.env(author))
        if check and r.returncode != 0:
            raise RuntimeError(f"setup failed in {where}: {command}\n{r.stdout}\n{r.stderr}")
        return r.stdout

    def run(self, command: str, cwd: str | Path = ".") -> Result:
        """A captured run, as an agent would make it."""
        return self.ws.run(command, cwd, env=self.env())

    def write(self, path: str, content: str) -> None:
        p = self.ws.path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(content, encoding="utf-8")

    def commit(self, repo: str, message: str, files: dict[str, str] | None = None, *, author: str | None = None) -> str:
        for rel, content in (files or {}).items():
            self.write(f"{repo}/{rel}", content)
        self.sh("git add -A", repo)
        self.sh(f"git commit -q --allow-empty -m {shlex.quote(message)}", repo, author=author)
        self.tick()
        return self.sh("git rev-parse --short HEAD", repo).strip()

    def init(self, repo: str, *, bare: bool = False) -> None:
        self.sh(f"git init -q {'--bare ' if bare else ''}{shlex.quote(repo)}")

    def version(self) -> str:
        return self.ws.version(["git", "--version"])

    def _where(self, cwd: str | Path) -> Path:
        p = Path(cwd)
        return p if p.is_absolute() else self.ws.root / p


# ------------------------------------------------------------------ signals


def diff_line_signals(text: str) -> list[Any]:
    """Every distinct +/- line of a patch (not the ---/+++ headers, not bare +/-)."""
    seen: dict[str, None] = {}
    for line in text.splitlines():
        if line.startswith(("+++ ", "--- ")) or not line.startswith(("+", "-")):
            continue
        if line.strip() in ("+", "-"):
            continue
        seen.setdefault(line, None)
    return [sig("diff_line", ln) for ln in seen]


def conflict_paths(g: Git, repo: str) -> list[Any]:
    out = g.sh("git diff --name-only --diff-filter=U", repo)
    return [sig("conflict", p) for p in out.splitlines() if p]


def numstat_paths(g: Git, repo: str, args: str) -> list[Any]:
    out = g.sh(f"git diff --numstat {args}", repo)
    sigs = []
    for line in out.splitlines():
        path = line.split("\t", 2)[2]
        if " => " in path:
            path = path.split(" => ")[-1].strip("}")
        sigs.append(sig("path", path))
    return sigs


def stderr_lines(r: Result, *prefixes: str) -> list[Any]:
    """Lines of git's own error report (fatal:/error: ...), which must reach the agent."""
    return [
        sig("error", line.strip())
        for line in r.stderr.splitlines()
        if line.startswith(prefixes or ("fatal:", "error:"))
    ]
