#!/usr/bin/env python3
"""Secret redaction: precision on real code, recall on a seeded corpus, and speed.

    python scripts/redaction_bench.py               # all three (about a minute)
    python scripts/redaction_bench.py -v            # also every redaction in the code corpus
    python scripts/redaction_bench.py --git DIR     # also DIR's `git log -p` (its hits unreviewed)
    python scripts/redaction_bench.py --only precision|recall|speed

Precision: the redactor over code full of `password`, `token`, `secret`, `key` and
`auth` as identifiers: the standard library's getpass, smtplib, imaplib, ftplib, netrc,
urllib.request, http.client, hmac, secrets, ssl (and poplib, http.cookiejar,
urllib.parse, xmlrpc.client, nntplib, hashlib, base64); every module of the installed
packages whose path names auth, token, secret, password, credential, jwt, oauth or
netrc; and this repository's own `git log -p` up to PINNED. A redaction counts as
genuine when it is listed in scripts/redaction_reviewed.txt (a fake secret a test or
a document plants, reviewed by eye); any other is a false positive.

Recall: every sample of `tokenjuice.detectors.samples` (at least 30 kinds, fake but
well formed) placed both in a command's output and in its command line, run through
`tokenjuice wrap -c` with the ledger recording commands; the secret must be absent
from the text the model gets, from `tokenjuice cat`, `tokenjuice ls` (and `--json`),
from the ledger and from every file under the state directory.

Speed: `Redactor.redact` over a `git log -p`-like text of 10, 20 and 40 MB (this
repository's history repeated), best of three.

Exit status 1 when precision or recall is below 100% or 40 MB takes more than 5 s.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from tokenjuice.detectors.samples import Sample, samples  # noqa: E402
from tokenjuice.redact import Redactor  # noqa: E402

# The history the reviewed list covers (the commit this benchmark was written on).
PINNED = "d683078"
STDLIB_MODULES = (
    "getpass.py",
    "smtplib.py",
    "imaplib.py",
    "ftplib.py",
    "netrc.py",
    "urllib/request.py",
    "http/client.py",
    "hmac.py",
    "secrets.py",
    "ssl.py",
    "poplib.py",
    "http/cookiejar.py",
    "urllib/parse.py",
    "xmlrpc/client.py",
    "nntplib.py",
    "hashlib.py",
    "base64.py",
)
AUTH_PATH = re.compile(r"(?i)(auth|token|secret|passw|credential|jwt|netrc)")
REVIEWED = Path(__file__).with_name("redaction_reviewed.txt")
SPEED_LIMIT_S = 5.0


def digest(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def reviewed() -> set[tuple[str, str]]:
    """(kind, digest of the value) pairs reviewed as genuine secret literals."""
    out = set()
    for line in REVIEWED.read_text().splitlines():
        parts = line.split(None, 2)
        if len(parts) >= 2 and not line.startswith("#"):
            out.add((parts[0], parts[1]))
    return out


# ------------------------------------------------------------------- precision


def code_corpus(git_dirs: list[str]) -> list[tuple[str, str, str]]:
    """(corpus, label, text) for every piece of the code corpus."""
    out = []
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    for name in STDLIB_MODULES:
        p = stdlib / name
        if p.exists():
            out.append(("stdlib", name, p.read_text("utf-8", "surrogateescape")))
    site = Path(sysconfig.get_paths()["purelib"])
    for p in sorted(site.rglob("*.py")):
        rel = p.relative_to(site).as_posix()
        if AUTH_PATH.search(rel) and not rel.startswith("tokenjuice"):
            out.append(("packages", rel, p.read_text("utf-8", "surrogateescape")))
    log = _git_log(str(REPO), PINNED)
    if log is not None:
        out.append(("git", f"tokenjuice {PINNED}", log))
    for d in git_dirs:
        log = _git_log(d, "HEAD")
        if log is not None:
            out.append((f"git {d}", "HEAD", log))
    return out


def _git_log(repo: str, rev: str) -> str | None:
    p = subprocess.run(["git", "-C", repo, "log", "-p", rev], capture_output=True, check=False)
    if p.returncode != 0:
        print(f"  (no `git log -p {rev}` in {repo}: {p.stderr.decode(errors='replace').strip()[:100]})")
        return None
    return p.stdout.decode("utf-8", "surrogateescape")


def precision(redactor: Redactor, git_dirs: list[str], verbose: bool) -> bool:
    known = reviewed()
    totals: dict[str, list[int]] = {}
    unreviewed = []
    for corpus, label, text in code_corpus(git_dirs):
        row = totals.setdefault(corpus, [0, 0, 0, 0])
        row[0] += 1
        row[1] += len(text)
        for s, e, kind, _ in redactor.spans(text):
            value = text[s:e]
            genuine = (kind, digest(value)) in known
            row[2] += 1
            row[3] += genuine
            where = _where(text, s) if corpus.startswith("git") else label
            line = _line(text, s, e)
            if not genuine:
                unreviewed.append(f"{kind} {digest(value)} {corpus} {where}: {line}")
            if verbose:
                print(f"  {'genuine ' if genuine else 'OUTSIDE '} {corpus} {where} {kind}: {line}")
    print("precision on code (a redaction is genuine when reviewed as a secret literal):")
    print("| corpus | files | MB | redactions | genuine | outside genuine literals | precision |")
    print("|---|---|---|---|---|---|---|")
    for corpus, (files, size, n, ok) in totals.items():
        pct = 100.0 * ok / n if n else 100.0
        print(f"| {corpus} | {files} | {size / 1e6:.1f} | {n} | {ok} | {n - ok} | {pct:.1f}% |")
    for u in unreviewed:
        print(f"  unreviewed: {u}")
    return not unreviewed


def _where(text: str, pos: int) -> str:
    i = text.rfind("\ndiff --git a/", 0, pos)
    if i < 0:
        return "?"
    return text[i + 14 : text.find(" ", i + 14)]


def _line(text: str, s: int, e: int) -> str:
    a = text.rfind("\n", 0, s) + 1
    b = text.find("\n", e)
    b = len(text) if b < 0 else b
    return (text[a:s] + "⟦" + text[s:e][:24] + "⟧" + text[e:b]).strip()[:160]


# ----------------------------------------------------------------------- recall


def recall(corpus: list[Sample]) -> bool:
    kinds: dict[str, list[int]] = {}
    failed = []
    for sample in corpus:
        leaks = run_sample(sample)
        row = kinds.setdefault(sample.kind, [0, 0])
        row[0] += 1
        row[1] += not leaks
        if leaks:
            failed.append(f"{sample.name} ({sample.kind}): found in {', '.join(leaks)}")
    n = len(corpus)
    ok = n - len(failed)
    print(
        f"recall on the seeded corpus: {ok}/{n} samples ({100.0 * ok / n:.1f}%), "
        f"{sum(1 for v in kinds.values() if v[0] == v[1])}/{len(kinds)} kinds, each in the output and the "
        "command line; checked in the text, tokenjuice cat, tokenjuice ls (and --json), the ledger and "
        "every file under the state directory"
    )
    for f in failed:
        print(f"  LEAK {f}")
    return not failed


PLACES = ("text", "cat", "ls", "ls --json", "ledger", "state files")


def run_sample(sample: Sample) -> list[str]:
    """Where the sample's secret survived (empty: nowhere)."""
    with tempfile.TemporaryDirectory(prefix="tj-recall-") as home, tempfile.TemporaryDirectory() as cwd:
        work = Path(cwd)
        lines = [f"step {i}: ok" for i in range(3000)]
        lines[1500:1500] = sample.output.split("\n")
        (work / "out.txt").write_text("\n".join(lines) + "\nerror: deploy failed\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith("TOKENJUICE_")}
        env.update(TOKENJUICE_HOME=home, TOKENJUICE_LEDGER_COMMANDS="1", PYTHONPATH=str(REPO / "src"))

        def tj(*args: str) -> str:
            p = subprocess.run(
                [sys.executable, "-m", "tokenjuice", *args], cwd=work, env=env, capture_output=True, check=False
            )
            return p.stdout.decode("utf-8", "replace") + p.stderr.decode("utf-8", "replace")

        seen: dict[str, str] = {"text": tj("wrap", "-c", f": {sample.command}; cat out.txt; exit 3")}
        seen["ls"] = tj("ls")
        seen["ls --json"] = tj("ls", "--json")
        ids = [row["id"] for row in json.loads(seen["ls --json"] or "[]")]
        seen["cat"] = "".join(tj("cat", i) for i in ids)
        if "step 2999: ok" not in seen["cat"]:
            return ["(no stored output to check)"]
        if f"[REDACTED:{sample.kind}]" not in seen["cat"]:
            return [f"(not named {sample.kind} in the stored output)"]
        state = Path(home)
        seen["ledger"] = "".join(p.read_text("utf-8", "replace") for p in state.rglob("*.jsonl"))
        seen["state files"] = b"".join(p.read_bytes() for p in state.rglob("*") if p.is_file()).decode(
            "utf-8", "replace"
        )
        needles = {sample.secret, sample.core}
        return [place for place in PLACES if any(n in seen[place] for n in needles)]


# ------------------------------------------------------------------------ speed


def speed(redactor: Redactor) -> bool:
    log = _git_log(str(REPO), "HEAD") or ""
    if len(log) < 1_000_000:
        print("speed: no git history to build the text from; skipped")
        return True
    print("speed (Redactor.redact, best of 3):")
    print("| text | MB | seconds | MB/s | redactions |")
    print("|---|---|---|---|---|")
    ok = True
    redactor.redact(log[:100_000])
    for mb in (10, 20, 40):
        n = mb * 1_000_000
        text = (log * (n // len(log) + 1))[:n]
        best = float("inf")
        found: dict[str, int] = {}
        for _ in range(3):
            t0 = time.perf_counter()
            _, found = redactor.redact(text)
            best = min(best, time.perf_counter() - t0)
        print(f"| git log -p | {mb} | {best:.2f} | {mb / best:.0f} | {sum(found.values())} |")
        ok = ok and (mb < 40 or best <= SPEED_LIMIT_S)
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-v", "--verbose", action="store_true", help="list every redaction in the code corpus")
    ap.add_argument("--git", action="append", default=[], metavar="DIR", help="another repository's history")
    ap.add_argument("--only", choices=("precision", "recall", "speed"))
    args = ap.parse_args()
    redactor = Redactor()
    ok = True
    if args.only in (None, "precision"):
        ok = precision(redactor, args.git, args.verbose) and ok
    if args.only in (None, "recall"):
        ok = recall(samples()) and ok
    if args.only in (None, "speed"):
        ok = speed(redactor) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
