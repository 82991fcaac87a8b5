"""ls, find, fd, tree, git ls-files, du, df and wc over a real source tree.

The tree is a small repository holding copies of a few packages from the capture
venv (sphinx, docutils, pygments, jinja2, requests: a few thousand real files), a
README and docs, committed with git. Permission errors come from running the tool as
an unprivileged user (setpriv --reuid 65534) on a tree with an unreadable directory;
the recorded command is what the agent typed. A nearly full filesystem is a small
tmpfs mounted in the workspace and filled to 96%.

Inventory listings carry no must-keep lines; their signals are the errors, the counts
the tools report (checked against os.walk), and, for short listings, the names.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from capture._lib import Result, Workspace, sig, synthesized

PACKAGES = ("sphinx", "docutils", "pygments", "jinja2", "requests")
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


def build_repo(ws: Workspace, name: str = "bigrepo") -> Path:
    """A git repository with a few thousand real files (copies of installed packages)."""
    repo = ws.path(name)
    if repo.exists():
        return repo
    ws.pip_install(*PACKAGES)
    py = ws.tools / "venv" / "bin" / "python"
    site = subprocess.run(
        [str(py), "-c", "import sphinx, os; print(os.path.dirname(os.path.dirname(sphinx.__file__)))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so")
    for pkg in PACKAGES:
        shutil.copytree(Path(site) / pkg, repo / "lib" / pkg, ignore=ignore)
    ws.write(f"{name}/README.md", "# bigrepo\n\nVendored copies of a few documentation tools, for capture.\n")
    ws.write(f"{name}/pyproject.toml", '[project]\nname = "bigrepo"\nversion = "0.1.0"\n')
    for i, topic in enumerate(["install", "usage", "themes", "extensions", "faq"]):
        ws.write(f"{name}/docs/{topic}.md", f"# {topic.title()}\n\nSection {i} of the handbook.\n")
    ws.write(f"{name}/tests/test_smoke.py", "def test_import():\n    import jinja2  # noqa: F401\n")
    ws.sh(
        "git init -q && git add -A && git -c user.name=capture -c user.email=capture@example.test "
        "commit -q -m 'vendor packages'",
        repo,
    )
    return repo


def lock_down(ws: Workspace, repo: Path) -> list[str]:
    """Unreadable corners for an unprivileged user; returns their paths relative to ws.root."""
    for p in (ws.root.parent, ws.root):
        p.chmod(0o755)
    secret = repo / "secrets"
    secret.mkdir(exist_ok=True)
    (secret / "prod.env").write_text("API_TOKEN=redacted\n")
    secret.chmod(0o000)
    cache = repo / "lib" / "sphinx" / "build_cache"
    cache.mkdir(exist_ok=True)
    (cache / "index.bin").write_bytes(b"\0" * 64)
    cache.chmod(0o700)  # owned by root: closed to others
    return [os.path.relpath(secret, ws.root), os.path.relpath(cache, ws.root)]


def unlock(paths: list[str], ws: Workspace) -> None:
    for rel in paths:
        ws.path(rel).chmod(0o755)


def as_nobody(ws: Workspace, argv: list[str], cwd: str | Path | None = None) -> Result:
    """Run as user nobody; the fixture records the command the agent typed."""
    import shlex

    r = ws.run([*NOBODY, *argv], cwd)
    r.command = shlex.join(argv)
    r.argv = list(argv)
    return r


def walk_counts(root: Path) -> tuple[int, int]:
    """(directories, files) the way tree reports them: the root counts, hidden entries do not."""
    n_dirs, n_files = 1, 0
    for _, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        n_dirs += len(dirs)
        n_files += sum(1 for f in files if not f.startswith("."))
    return n_dirs, n_files


def _tree_counts(n_dirs: int, n_files: int) -> str:
    """tree's report line: `1 directory, 20 files`."""
    return f"{n_dirs} director{'y' if n_dirs == 1 else 'ies'}, {n_files} file{'' if n_files == 1 else 's'}"


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("ls", "find", "tree", "fdfind", "git", "du", "df", "wc", "setpriv")
    repo = build_repo(ws)
    out: list[dict[str, Any]] = []

    def fx(
        id: str,
        rule: str,
        family: str,
        r: Result,
        signals: list[Any],
        source: str,
        tool: list[str],
        notes: str | None = None,
    ) -> None:
        out.append(
            ws.fixture(
                id,
                rule,
                r,
                family=family,
                signals=signals,
                signal_source=source,
                tool_version=ws.version(tool),
                notes=notes,
            )
        )

    ls_v, find_v, fd_v, tree_v = (
        ["ls", "--version"],
        ["find", "--version"],
        ["fdfind", "--version"],
        ["tree", "--version"],
    )

    # ls
    r = ws.run(["ls"], repo)
    fx(
        "ls-plain-small",
        "filesystem/ls",
        "ls",
        r,
        [sig("name", n) for n in sorted(os.listdir(repo)) if not n.startswith(".")],
        "os.listdir of the directory",
        ls_v,
    )
    r = ws.run(["ls", "-la"], repo)
    fx(
        "ls-la-small",
        "filesystem/ls",
        "ls",
        r,
        [sig("name", n) for n in os.listdir(repo)],
        "os.listdir of the directory",
        ls_v,
    )
    lexers = repo / "lib" / "pygments" / "lexers"
    r = ws.run(["ls", "-la", "lib/pygments/lexers"], repo)
    fx(
        "ls-la-large-dir",
        "filesystem/ls",
        "ls",
        r,
        [],
        "none: an inventory listing",
        ls_v,
        f"{len(os.listdir(lexers))} entries in one directory",
    )
    r = ws.run(["ls", "-R", "lib"], repo)
    fx("ls-recursive-large", "filesystem/ls", "ls", r, [], "none: an inventory listing", ls_v)
    r = ws.run(["ls", "-l", "missing.txt", "README.md"], repo)
    fx(
        "ls-missing-file",
        "filesystem/ls",
        "ls",
        r,
        [sig("error", "ls: cannot access 'missing.txt': No such file or directory"), sig("name", "README.md")],
        "one of the two operands does not exist",
        ls_v,
    )

    locked = lock_down(ws, repo)
    try:
        denied = [sig("error", f"‘{p}’: Permission denied", f"'{p}': Permission denied") for p in locked]
        r = as_nobody(ws, ["ls", "-R", "bigrepo/lib/sphinx", "bigrepo/secrets"])
        fx(
            "ls-recursive-permission-denied",
            "filesystem/ls",
            "ls",
            r,
            denied,
            "the two directories closed to nobody",
            ls_v,
            "run as user nobody (setpriv) so permissions apply",
        )
        r = as_nobody(ws, ["find", "bigrepo", "-name", "*.rst"])
        fx(
            "find-permission-denied",
            "filesystem/find",
            "find",
            r,
            denied,
            "the two directories closed to nobody",
            find_v,
            "run as user nobody (setpriv) so permissions apply",
        )
        r = as_nobody(ws, ["tree", "bigrepo/lib/sphinx"], None)
        fx(
            "tree-error-opening-dir",
            "filesystem/tree",
            "tree",
            r,
            [sig("error", "build_cache  [error opening dir]")],
            "the directory closed to nobody",
            tree_v,
            "run as user nobody (setpriv) so permissions apply",
        )
        r = as_nobody(ws, ["du", "-sh", "bigrepo"])
        fx(
            "du-permission-denied",
            "system/du",
            "du",
            r,
            [
                sig(
                    "error",
                    f"cannot read directory '{p}': Permission denied",
                    f"cannot read directory ‘{p}’: Permission denied",
                )
                for p in locked
            ],
            "the two directories closed to nobody",
            ["du", "--version"],
            "run as user nobody (setpriv)",
        )
    finally:
        unlock(locked, ws)
        shutil.rmtree(repo / "secrets", ignore_errors=True)
        shutil.rmtree(repo / "lib" / "sphinx" / "build_cache", ignore_errors=True)

    # find
    r = ws.run(["find", ".", "-type", "f", "-not", "-path", "./.git/*"], repo)
    fx("find-type-f-large", "filesystem/find", "find", r, [], "none: an inventory listing", find_v)
    r = ws.run(["find", "lib/requests", "-name", "*.py"], repo)
    py = sorted(str(p.relative_to(repo)) for p in (repo / "lib" / "requests").rglob("*.py"))
    fx("find-name-small", "filesystem/find", "find", r, [sig("path", p) for p in py], "Path.rglob('*.py')", find_v)
    r = ws.run(["find", "lib/jinja2"], repo)
    fx(
        "find-medium-listing",
        "filesystem/find",
        "find",
        r,
        [sig("name", p.name) for p in sorted((repo / "lib" / "jinja2").iterdir())],
        "the directory's own entries (os.listdir): each name must stay",
        find_v,
    )
    r = ws.run(["find", "lib/nonexistent", "-name", "*.py"], repo)
    fx(
        "find-missing-start",
        "filesystem/find",
        "find",
        r,
        [sig("error", "find: ‘lib/nonexistent’: No such file or directory")],
        "a start path that does not exist",
        find_v,
    )

    # fd
    r = ws.run(["fdfind", "-e", "py", ".", "lib"], repo)
    fx("fd-extension-large", "filesystem/fd", "find", r, [], "none: an inventory listing", fd_v)
    r = ws.run(["fdfind", "config", "lib/sphinx"], repo)
    hits = sorted(
        str(p.relative_to(repo))
        for p in (repo / "lib" / "sphinx").rglob("*config*")
        if not any(part.startswith(".") for part in p.relative_to(repo).parts)
    )
    fx("fd-pattern-small", "filesystem/fd", "find", r, [sig("path", p) for p in hits], "Path.rglob('*config*')", fd_v)
    r = ws.run(["fdfind", "zzz-no-such-name", "lib"], repo)
    fx("fd-no-match", "filesystem/fd", "find", r, [], "none: nothing matches", fd_v)

    # tree
    n_dirs, n_files = walk_counts(repo / "lib" / "requests")
    r = ws.run(["tree", "lib/requests"], repo)
    fx(
        "tree-small",
        "filesystem/tree",
        "tree",
        r,
        [sig("summary", _tree_counts(n_dirs, n_files))],
        "os.walk counts (the root included, hidden entries skipped, as tree counts)",
        tree_v,
    )
    n_dirs, n_files = walk_counts(repo / "lib")
    r = ws.run(["tree", "lib"], repo)
    fx(
        "tree-large",
        "filesystem/tree",
        "tree",
        r,
        [sig("summary", _tree_counts(n_dirs, n_files))],
        "os.walk counts (the root included, hidden entries skipped, as tree counts)",
        tree_v,
    )
    r = ws.run(["tree", "-L", "2", "lib/sphinx"], repo)
    fx(
        "tree-depth-2",
        "filesystem/tree",
        "tree",
        r,
        [sig("summary", "directories, ")],
        "tree's own report line",
        tree_v,
    )

    # git ls-files
    git_v = ["git", "--version"]
    tracked = ws.sh("git ls-files", repo).splitlines()
    r = ws.run(["git", "ls-files"], repo)
    fx(
        "git-ls-files-large",
        "filesystem/git-ls-files",
        "git-ls-files",
        r,
        [sig("count", f"{len(tracked):,} files")],
        "the number of paths git ls-files lists (split in Python)",
        git_v,
    )
    r = ws.run(["git", "ls-files", "docs", "tests"], repo)
    fx(
        "git-ls-files-small",
        "filesystem/git-ls-files",
        "git-ls-files",
        r,
        [sig("path", p) for p in tracked if p.startswith(("docs/", "tests/"))],
        "the tracked paths under docs/ and tests/",
        git_v,
    )
    ws.path("notrepo").mkdir(exist_ok=True)
    r = ws.run(["git", "ls-files"], "notrepo")
    fx(
        "git-ls-files-not-a-repo",
        "filesystem/git-ls-files",
        "git-ls-files",
        r,
        [sig("error", "fatal: not a git repository")],
        "a directory outside any repository",
        git_v,
    )

    # du
    du_v = ["du", "--version"]
    r = ws.run("du -sh *", repo / "lib")
    sizes = sorted(
        ((int(ln.split("\t")[0]), ln.split("\t")[1]) for ln in ws.sh("du -sk *", repo / "lib").splitlines()),
        reverse=True,
    )
    fx(
        "du-sh-star",
        "system/du",
        "du",
        r,
        [sig("entry", name) for _, name in sizes],
        "du -sk * (sizes in KiB) for the order; every entry",
        du_v,
    )
    r = ws.run(["du", "-ah", "lib/docutils"], repo)
    top = sorted(
        ((int(ln.split("\t")[0]), ln.split("\t")[1]) for ln in ws.sh("du -ak lib/docutils", repo).splitlines()),
        reverse=True,
    )[:8]
    fx(
        "du-all-large",
        "system/du",
        "du",
        r,
        [sig("entry", f"\t{name}") for _, name in top],
        "du -ak (KiB): the 8 largest entries",
        du_v,
    )

    # df
    _df(ws, out)

    # wc
    wc_v = ["wc", "--version"]
    files = sorted(p.name for p in lexers.glob("*.py"))
    counts = {f: (lexers / f).read_bytes().count(b"\n") for f in files}
    r = ws.run("wc -l *.py", lexers)
    biggest = sorted(counts, key=lambda f: -counts[f])[:5]
    fx(
        "wc-lines-many",
        "text/wc",
        "wc",
        r,
        [sig("total", f"{sum(counts.values())} total"), *(sig("file", f"{counts[f]} {f}") for f in biggest)],
        "newlines counted in Python: the total and the 5 largest files",
        wc_v,
    )
    r = ws.run(["wc", "README.md", "pyproject.toml"], repo)
    fx(
        "wc-small",
        "text/wc",
        "wc",
        r,
        [sig("file", "README.md"), sig("file", "pyproject.toml")],
        "both operands",
        wc_v,
    )
    r = ws.run(["wc", "-l", "missing.txt", "README.md"], repo)
    fx(
        "wc-missing-file",
        "text/wc",
        "wc",
        r,
        [sig("error", "wc: missing.txt: No such file or directory")],
        "one operand does not exist",
        wc_v,
    )
    return out


def _df(ws: Workspace, out: list[dict[str, Any]]) -> None:
    version = ws.version(["df", "--version"])
    mnt = ws.path("scratchfs")
    mnt.mkdir(exist_ok=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mnt)], capture_output=True)
    try:
        if mounted.returncode == 0:
            (mnt / "fill.bin").write_bytes(b"\1" * (4 * 1024 * 1024 - 160 * 1024))
        r = ws.run(["df", "-h"])
        rows = ws.sh("df --output=pcent,target").splitlines()[1:]
        pairs = [ln.split(None, 1) for ln in rows if ln.strip()]
        full = [(pct, target) for pct, target in pairs if pct.rstrip("%").isdigit() and int(pct.rstrip("%")) >= 85]
        sigs = [sig("mount", target.strip()) for _, target in full] + [sig("usage", pct) for pct, _ in full]
        out.append(
            ws.fixture(
                "df-h-near-full",
                "system/df",
                r,
                family="df",
                signals=sigs or [sig("header", "Filesystem")],
                signal_source="df --output=pcent,target: every filesystem at 85% or more",
                tool_version=version,
                notes="a 4 MiB tmpfs in the workspace filled to 96%"
                if mounted.returncode == 0
                else "mounting a tmpfs was not permitted: no near-full filesystem",
            )
        )
    finally:
        if mounted.returncode == 0:
            subprocess.run(["umount", str(mnt)], capture_output=True)
    r = ws.run(["df", "-h", "/nonexistent/path"])
    out.append(
        ws.fixture(
            "df-missing-path",
            "system/df",
            r,
            family="df",
            signals=[sig("error", "df: /nonexistent/path: No such file or directory")],
            signal_source="a path that does not exist",
            tool_version=version,
        )
    )
    # A workstation with snap packages: dozens of read-only squashfs loop mounts.
    rows = [
        ("udev", "7.7G", "0", "7.7G", "0%", "/dev"),
        ("tmpfs", "1.6G", "2.3M", "1.6G", "1%", "/run"),
        ("/dev/nvme0n1p2", "468G", "431G", "13G", "98%", "/"),
        ("tmpfs", "7.8G", "187M", "7.6G", "3%", "/dev/shm"),
        ("tmpfs", "5.0M", "4.0K", "5.0M", "1%", "/run/lock"),
    ]
    snaps = [
        "core20_2318",
        "core22_1564",
        "firefox_4793",
        "gnome-42-2204_176",
        "gtk-common-themes_1535",
        "snapd-desktop-integration_178",
        "snapd_21759",
        "snap-store_1113",
        "code_171",
        "bare_5",
        "core18_2829",
        "thunderbird_523",
        "vlc_3777",
        "spotify_80",
        "slack_153",
        "zoom-client_238",
    ]
    for n, snap in enumerate(snaps):
        name, rev = snap.rsplit("_", 1)
        size = f"{(n * 37) % 300 + 4}M"
        rows.append((f"/dev/loop{n}", size, size, "0", "100%", f"/snap/{name}/{rev}"))
    rows += [
        ("/dev/nvme0n1p1", "511M", "6.1M", "505M", "2%", "/boot/efi"),
        ("/dev/sda1", "916G", "812G", "58G", "94%", "/mnt/backup"),
        ("nas.local:/export/media", "3.6T", "1.9T", "1.7T", "53%", "/mnt/media"),
        ("tmpfs", "1.6G", "156K", "1.6G", "1%", "/run/user/1000"),
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    widths[0] = max(widths[0], len("Filesystem"))
    lines = [
        f"{'Filesystem':<{widths[0]}} {'Size':>{widths[1]}} {'Used':>{widths[2]}} {'Avail':>{widths[3]}} Use% Mounted on"
    ]
    for r6 in rows:
        lines.append(
            f"{r6[0]:<{widths[0]}} {r6[1]:>{widths[1]}} {r6[2]:>{widths[2]}} {r6[3]:>{widths[3]}} {r6[4]:>4} {r6[5]}"
        )
    out.append(
        synthesized(
            "df-h-workstation-snaps",
            "system/df",
            family="df",
            command="df -h",
            exit_code=0,
            stdout="\n".join(lines) + "\n",
            signals=[
                sig("mount", "/dev/nvme0n1p2"),
                sig("usage", "98%"),
                sig("mount", "/mnt/backup"),
                sig("usage", "94%"),
                sig("mount", "nas.local:/export/media"),
            ],
            format_source="GNU coreutils manual, 'df invocation' (columns Filesystem Size Used Avail Use% Mounted on; "
            "-h powers of 1024); snap packages mount read-only squashfs images on /dev/loopN at /snap/NAME/REV",
            tool_version=version,
        )
    )
