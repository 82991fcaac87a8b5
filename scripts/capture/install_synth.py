"""Homebrew and dnf/yum: no macOS and no RPM system here, so these fixtures are built
from the tools' documented output formats with `synthesized(...)`.

Signals are the values each output is generated from (package names and versions,
counts, the error the scenario is about).
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from capture._lib import Workspace, sig, synthesized

BREW_SRC = (
    "Homebrew 4.x `brew install`/`brew upgrade` output (docs.brew.sh/Manpage; transcript in "
    "github.com/Homebrew/brew/issues/11168): '==> Fetching dependencies for', ghcr.io manifest/blob "
    "downloads with ### progress bars, '==> Installing <f> dependency: <d>', '==> Pouring <bottle>', "
    "'🍺  <Cellar path>: N files, SIZE', auto-update hints, '==> Caveats'"
)
DNF_SRC = (
    "dnf 4 (man7.org/linux/man-pages/man8/dnf.8.html; the transaction table of dnf/cli/output.py): "
    "'Last metadata expiration check', 'Dependencies resolved.', the ===-ruled Package/Arch/Version/"
    "Repository/Size table, 'Transaction Summary', '(n/N): file  speed | size  time' downloads, "
    "'Running transaction check' … per-package 'Installing  : nevra  n/N' steps, 'Installed:' list, "
    "'Complete!'; exit 1 with 'Error: Unable to find a match' for unknown packages"
)
DNF5_SRC = (
    "dnf5 (dnf5.readthedocs.io, Fedora 41+): 'Updating and loading repositories:', 'Repositories loaded.', "
    "the Package/Arch/Version/Repository/Size table, 'Transaction Summary:', '[n/N] <nevra> 100% | …' "
    "download and transaction progress, 'Complete!'"
)
YUM_SRC = (
    "yum 3 on RHEL/CentOS 7 (man yum; 'Loaded plugins', '--> Running transaction check', '---> Package "
    "x.arch e:v-r will be installed', '--> Finished Dependency Resolution', the transaction table, "
    "'Installed:'/'Dependency Installed:' lists, 'Complete!')"
)

BREW_DEPS = [
    ("libunistring", "1.2"),
    ("gettext", "0.22.5"),
    ("libidn2", "2.3.7"),
    ("ca-certificates", "2024-03-11"),
    ("openssl@3", "3.3.0"),
]
NEW_FORMULAE = [
    "aider",
    "bluesky-cli",
    "cargo-shear",
    "flowpipe",
    "gitu",
    "kaskade",
    "lume",
    "mise-env",
    "ollama-cli",
    "pgrok",
    "ruff-lsp",
    "swift-format",
    "tailspin",
    "uv-pubgrub",
    "zigmod",
]


def capture(ws: Workspace) -> list[dict[str, Any]]:
    return [
        _brew_install(),
        _brew_unknown(),
        _brew_already(),
        _brew_upgrade(),
        _dnf_install(),
        _dnf_upgrade_large(),
        _dnf_unknown(),
        _dnf5_install(),
        _yum_install(),
    ]


def _bar() -> str:
    return "#" * 72 + " 100.0%"


def _brew_install() -> dict[str, Any]:
    out = [
        "==> Auto-updating Homebrew...",
        "Adjust how often this is run with HOMEBREW_AUTO_UPDATE_SECS or disable with",
        "HOMEBREW_NO_AUTO_UPDATE. Hide these hints with HOMEBREW_NO_ENV_HINTS (see `man brew`).",
        "==> Auto-updated Homebrew!",
        "Updated 2 taps (homebrew/core and homebrew/cask).",
        "==> New Formulae",
        *NEW_FORMULAE,
        "",
        "You have 7 outdated formulae installed.",
        "",
        "==> Fetching dependencies for wget: libunistring, gettext, libidn2, ca-certificates and openssl@3",
    ]
    for name, ver in [*BREW_DEPS, ("wget", "1.24.5")]:
        out += [
            f"==> Fetching {name}",
            f"==> Downloading https://ghcr.io/v2/homebrew/core/{name.replace('@', '/')}/manifests/{ver}",
            _bar(),
            f"==> Downloading https://ghcr.io/v2/homebrew/core/{name.replace('@', '/')}/blobs/sha256:"
            + hashlib.sha256(f"{name}-{ver}".encode()).hexdigest(),
            _bar(),
        ]
    out.append("==> Installing dependencies for wget: libunistring, gettext, libidn2, ca-certificates and openssl@3")
    sizes = {
        "libunistring": "59 files, 5.0MB",
        "gettext": "2,043 files, 24.6MB",
        "libidn2": "80 files, 936.7KB",
        "ca-certificates": "3 files, 229.3KB",
        "openssl@3": "6,802 files, 32.4MB",
    }
    for name, ver in BREW_DEPS:
        out += [
            f"==> Installing wget dependency: {name}",
            f"==> Downloading https://ghcr.io/v2/homebrew/core/{name.replace('@', '/')}/manifests/{ver}",
            f"Already downloaded: /Users/dev/Library/Caches/Homebrew/downloads/{name}-{ver}.bottle_manifest.json",
            f"==> Pouring {name}--{ver}.arm64_sonoma.bottle.tar.gz",
        ]
        if name == "ca-certificates":
            out.append("==> Regenerating CA certificate bundle from keychain, this may take a while...")
        out.append(f"🍺  /opt/homebrew/Cellar/{name}/{ver}: {sizes[name]}")
    out += [
        "==> Installing wget",
        "==> Pouring wget--1.24.5.arm64_sonoma.bottle.tar.gz",
        "🍺  /opt/homebrew/Cellar/wget/1.24.5: 91 files, 4.5MB",
        "==> Running `brew cleanup wget`...",
        "Disable this behaviour by setting HOMEBREW_NO_INSTALL_CLEANUP.",
        "Hide these hints with HOMEBREW_NO_ENV_HINTS (see `man brew`).",
        "==> Caveats",
        "==> openssl@3",
        "A CA file has been bootstrapped using certificates from the system",
        "keychain. To add additional certificates, place .pem files in",
        "  /opt/homebrew/etc/openssl@3/certs",
        "",
        "and run",
        "  /opt/homebrew/opt/openssl@3/bin/c_rehash",
    ]
    return synthesized(
        "brew-install-with-dependencies",
        "package/brew-install",
        family="brew",
        command="brew install wget",
        exit_code=0,
        stdout="\n".join(out) + "\n",
        signals=[
            sig("installed", "/opt/homebrew/Cellar/wget/1.24.5"),
            *(sig("installed", f"/opt/homebrew/Cellar/{n}/{v}") for n, v in BREW_DEPS),
            sig("caveat", "A CA file has been bootstrapped"),
        ],
        format_source=BREW_SRC,
        tool_version="Homebrew 4.3.1",
    )


def _brew_unknown() -> dict[str, Any]:
    stdout = "==> Searching for similarly named formulae and casks...\n==> Formulae\nwget\nwgetpaste\n\nTo install wget, run:\n  brew install wget\n"
    stderr = 'Warning: No available formula with the name "wgett". Did you mean wget or wgetpaste?\nError: No formulae or casks found for wgett.\n'
    return synthesized(
        "brew-install-unknown-formula",
        "package/brew-install",
        family="brew",
        command="brew install wgett",
        exit_code=1,
        stdout=stdout,
        stderr=stderr,
        signals=[sig("error", "No formulae or casks found for wgett"), sig("hint", "brew install wget")],
        format_source=BREW_SRC,
        tool_version="Homebrew 4.3.1",
    )


def _brew_already() -> dict[str, Any]:
    stderr = (
        "Warning: wget 1.24.5 is already installed and up-to-date.\nTo reinstall 1.24.5, run:\n  brew reinstall wget\n"
    )
    return synthesized(
        "brew-install-already-installed",
        "package/brew-install",
        family="brew",
        command="brew install wget",
        exit_code=0,
        stdout="",
        stderr=stderr,
        signals=[sig("warning", "wget 1.24.5 is already installed and up-to-date")],
        format_source=BREW_SRC,
        tool_version="Homebrew 4.3.1",
    )


def _brew_upgrade() -> dict[str, Any]:
    rng = random.Random(7)
    pkgs = [
        ("node", "21.7.3", "22.2.0"),
        ("python@3.12", "3.12.2_1", "3.12.3"),
        ("git", "2.44.0", "2.45.1"),
        ("sqlite", "3.45.2", "3.45.3"),
        ("openssl@3", "3.2.1", "3.3.0"),
        ("icu4c", "74.2", "75.1"),
        ("libuv", "1.48.0", "1.48.0_1"),
        ("ripgrep", "14.1.0", "14.1.1"),
        ("gh", "2.47.0", "2.49.2"),
        ("ffmpeg", "6.1.1_7", "7.0_1"),
        ("harfbuzz", "8.4.0", "8.5.0"),
        ("libpng", "1.6.42", "1.6.43"),
    ]
    out = [f"==> Upgrading {len(pkgs)} outdated packages:"]
    out += [f"{n} {a} -> {b}" for n, a, b in pkgs]
    for n, _, b in pkgs:
        out += [
            f"==> Fetching {n}",
            f"==> Downloading https://ghcr.io/v2/homebrew/core/{n.replace('@', '/')}/manifests/{b}",
            _bar(),
            f"==> Downloading https://ghcr.io/v2/homebrew/core/{n.replace('@', '/')}/blobs/sha256:{rng.getrandbits(256):064x}",
            _bar(),
        ]
    for n, a, b in pkgs:
        files = rng.randint(20, 3000)
        out += [
            f"==> Upgrading {n}",
            f"  {a} -> {b} ",
            "",
            f"==> Pouring {n}--{b}.arm64_sonoma.bottle.tar.gz",
            f"🍺  /opt/homebrew/Cellar/{n}/{b}: {files:,} files, {rng.randint(1, 300)}.{rng.randint(0, 9)}MB",
            f"==> Running `brew cleanup {n}`...",
            f"Removing: /opt/homebrew/Cellar/{n}/{a}... ({files - 3:,} files, {rng.randint(1, 300)}.{rng.randint(0, 9)}MB)",
        ]
    out += [
        "==> Checking for dependents of upgraded formulae...",
        "==> No broken dependents found!",
        "==> Caveats",
        "==> node",
        "Bash completion has been installed to:",
        "  /opt/homebrew/etc/bash_completion.d",
    ]
    return synthesized(
        "brew-upgrade",
        "package/brew-upgrade",
        family="brew",
        command="brew upgrade",
        exit_code=0,
        stdout="\n".join(out) + "\n",
        stderr="Warning: ffmpeg 7.0_1 is keg-only and must be linked with `brew link --force ffmpeg`.\n",
        signals=[
            *(sig("upgraded", f"{n} {a} -> {b}") for n, a, b in pkgs),
            sig("warning", "ffmpeg 7.0_1 is keg-only"),
            sig("summary", "No broken dependents found"),
        ],
        format_source=BREW_SRC,
        tool_version="Homebrew 4.3.1",
    )


# ----------------------------------------------------------------------------- dnf


def _table(sections: list[tuple[str, list[tuple[str, str, str, str, str]]]]) -> list[str]:
    rule = "=" * 80
    out = [rule, " Package                  Arch     Version                   Repository     Size", rule]
    for title, rows in sections:
        out.append(f"{title}:")
        out += [f" {n:<24} {a:<8} {v:<25} {r:<10} {s:>8}" for n, a, v, r, s in rows]
    return out


def _dnf_install() -> dict[str, Any]:
    main = [("nginx", "x86_64", "1:1.24.0-1.fc39", "updates", "36 k")]
    deps = [
        ("fedora-logos-httpd", "noarch", "38.1.0-4.fc39", "fedora", "16 k"),
        ("gperftools-libs", "x86_64", "2.13-2.fc39", "fedora", "313 k"),
        ("libunwind", "x86_64", "1.7.2-2.fc39", "fedora", "72 k"),
        ("nginx-core", "x86_64", "1:1.24.0-1.fc39", "updates", "595 k"),
        ("nginx-filesystem", "noarch", "1:1.24.0-1.fc39", "updates", "9.4 k"),
        ("nginx-mimetypes", "noarch", "2.1.54-3.fc39", "fedora", "21 k"),
    ]
    allp = main + deps
    nevra = [f"{n}-{v.split(':')[-1]}.{a}" if ":" not in v else f"{n}-{v}.{a}" for n, a, v, _, _ in allp]
    out = ["Last metadata expiration check: 0:12:41 ago on Mon 04 Mar 2024 10:15:22 AM UTC.", "Dependencies resolved."]
    out += _table([("Installing", main), ("Installing dependencies", deps)])
    out += [
        "",
        "Transaction Summary",
        "=" * 80,
        f"Install  {len(allp)} Packages",
        "",
        "Total download size: 1.0 M",
        "Installed size: 3.1 M",
        "Downloading Packages:",
    ]
    for k, (n, a, v, _, s) in enumerate(allp, 1):
        out.append(f"({k}/{len(allp)}): {n}-{v.split(':')[-1]}.{a}.rpm" + f"{'1.2 MB/s | ' + s:>30}     00:00")
    out += [
        "-" * 80,
        "Total                                           1.1 MB/s | 1.0 MB     00:00",
        "Running transaction check",
        "Transaction check succeeded.",
        "Running transaction test",
        "Transaction test succeeded.",
        "Running transaction",
        f"  Preparing        :{'':>53}1/1",
    ]
    for k, nv in enumerate(reversed(nevra), 1):
        out.append(f"  Installing       : {nv:<50} {k}/{len(nevra)}")
        if "filesystem" in nv or nv.startswith("nginx-1"):
            out.append(f"  Running scriptlet: {nv:<50} {k}/{len(nevra)}")
    for k, nv in enumerate(nevra, 1):
        out.append(f"  Verifying        : {nv:<50} {k}/{len(nevra)}")
    out += ["", "Installed:"]
    for k in range(0, len(nevra), 2):
        out.append("  " + "   ".join(f"{x:<44}" for x in nevra[k : k + 2]).rstrip())
    out += ["", "Complete!"]
    return synthesized(
        "dnf-install-with-dependencies",
        "package/dnf-install",
        family="dnf",
        command="dnf install -y nginx",
        exit_code=0,
        stdout="\n".join(out) + "\n",
        signals=[
            sig("summary", f"Install  {len(allp)} Packages", f"Install {len(allp)} Packages"),
            sig("package", "nginx"),
            sig("version", "1:1.24.0-1.fc39"),
            sig("summary", "Complete!"),
        ],
        format_source=DNF_SRC,
        tool_version="dnf 4.18.2",
    )


def _dnf_upgrade_large() -> dict[str, Any]:
    rng = random.Random(11)
    stems = [
        "glibc",
        "kernel",
        "systemd",
        "openssl",
        "python3",
        "libxml2",
        "curl",
        "bash",
        "coreutils",
        "gnutls",
        "NetworkManager",
        "firefox",
        "mesa",
        "gtk4",
        "glib2",
        "pipewire",
        "sqlite",
        "vim",
        "git",
        "podman",
    ]
    suffixes = ["", "-libs", "-devel", "-common", "-core", "-tools", "-data", "-minimal"]
    rows = []
    seen: set[str] = set()
    while len(rows) < 160:
        n = rng.choice(stems) + rng.choice(suffixes)
        if n in seen:
            continue
        seen.add(n)
        v = f"{rng.randint(1, 9)}.{rng.randint(0, 40)}.{rng.randint(0, 20)}-{rng.randint(1, 9)}.fc39"
        rows.append((n, rng.choice(["x86_64", "noarch"]), v, "updates", f"{rng.randint(10, 9000)} k"))
    kernel = ("kernel-core", "x86_64", "6.7.7-200.fc39", "updates", "16 M")
    out = ["Last metadata expiration check: 1:03:12 ago on Mon 04 Mar 2024 09:24:51 AM UTC.", "Dependencies resolved."]
    out += _table([("Upgrading", rows), ("Installing", [kernel])])
    out += [
        "",
        "Transaction Summary",
        "=" * 80,
        "Install    1 Package",
        f"Upgrade  {len(rows)} Packages",
        "",
        "Total download size: 412 M",
        "Downloading Packages:",
    ]
    total = len(rows) + 1
    for k, (n, a, v, _, s) in enumerate([*rows, kernel], 1):
        out.append(f"({k}/{total}): {n}-{v}.{a}.rpm" + f"{'4.1 MB/s | ' + s:>30}     00:0{k % 10}")
    out += [
        "-" * 80,
        "Total                                            18 MB/s | 412 MB     00:22",
        "Running transaction check",
        "Transaction check succeeded.",
        "Running transaction test",
        "Transaction test succeeded.",
        "Running transaction",
    ]
    steps = len(rows) * 2 + 1
    k = 0
    for n, a, v, _, _ in rows:
        k += 1
        out.append(f"  Upgrading        : {n}-{v}.{a:<30} {k}/{steps}")
    out.append(f"  Installing       : kernel-core-6.7.7-200.fc39.x86_64{'':>17} {k + 1}/{steps}")
    out.append(f"  Running scriptlet: kernel-core-6.7.7-200.fc39.x86_64{'':>17} {k + 1}/{steps}")
    out.append("warning: /etc/ssh/sshd_config created as /etc/ssh/sshd_config.rpmnew")
    for n, a, v, _, _ in rows:
        k += 1
        out.append(f"  Cleanup          : {n}-{v.replace('fc39', 'fc39~old')}.{a:<22} {min(k + 1, steps)}/{steps}")
    for j, (n, a, v, _, _) in enumerate(rows, 1):
        out.append(f"  Verifying        : {n}-{v}.{a:<30} {j}/{steps}")
    out += ["", "Upgraded:"]
    names = [f"{n}-{v}.{a}" for n, a, v, _, _ in rows]
    for j in range(0, len(names), 2):
        out.append("  " + "   ".join(f"{x:<44}" for x in names[j : j + 2]).rstrip())
    out += ["Installed:", "  kernel-core-6.7.7-200.fc39.x86_64", "", "Complete!"]
    return synthesized(
        "dnf-upgrade-large",
        "package/dnf-install",
        family="dnf",
        command="dnf upgrade -y",
        exit_code=0,
        stdout="\n".join(out) + "\n",
        signals=[
            sig("summary", f"Upgrade  {len(rows)} Packages", f"Upgrade {len(rows)} Packages"),
            sig("summary", "Install    1 Package", "Install 1 Package"),
            sig("warning", "sshd_config.rpmnew"),
            sig("summary", "Complete!"),
        ],
        format_source=DNF_SRC,
        tool_version="dnf 4.18.2",
    )


def _dnf_unknown() -> dict[str, Any]:
    stdout = "Last metadata expiration check: 0:13:02 ago on Mon 04 Mar 2024 10:15:22 AM UTC.\nNo match for argument: nginxx\n"
    stderr = "Error: Unable to find a match: nginxx\n"
    return synthesized(
        "dnf-install-unknown",
        "package/dnf-install",
        family="dnf",
        command="dnf install -y nginxx",
        exit_code=1,
        stdout=stdout,
        stderr=stderr,
        signals=[sig("error", "Unable to find a match: nginxx"), sig("error", "No match for argument: nginxx")],
        format_source=DNF_SRC,
        tool_version="dnf 4.18.2",
    )


def _dnf5_install() -> dict[str, Any]:
    pk = [
        ("htop", "x86_64", "3.3.0-3.fc41", "fedora", "459.2 KiB"),
        ("hwloc-libs", "x86_64", "2.10.0-4.fc41", "fedora", "2.9 MiB"),
        ("libnl3", "x86_64", "3.10.0-1.fc41", "fedora", "1.0 MiB"),
    ]
    out = [
        "Updating and loading repositories:",
        " Fedora 41 - x86_64 - Updates          100% |   9.9 MiB/s |   6.0 MiB |  00m01s",
        " Fedora 41 - x86_64                    100% |  22.5 MiB/s |  35.4 MiB |  00m02s",
        "Repositories loaded.",
        "Package                Arch    Version          Repository      Size",
        "Installing:",
        f" {pk[0][0]:<22} {pk[0][1]:<7} {pk[0][2]:<16} {pk[0][3]:<10} {pk[0][4]:>10}",
        "Installing dependencies:",
        *(f" {n:<22} {a:<7} {v:<16} {r:<10} {s:>10}" for n, a, v, r, s in pk[1:]),
        "",
        "Transaction Summary:",
        " Installing:         3 packages",
        "",
        "Total size of inbound packages is 1 MiB. Need to download 1 MiB.",
        "After this operation, 4 MiB extra will be used (install 4 MiB, remove 0 B).",
    ]
    for k, (n, a, v, _, _) in enumerate(pk, 1):
        out.append(f"[{k}/3] {n}-0:{v}.{a}                  100% |   2.0 MiB/s | 180.5 KiB |  00m00s")
    out += [
        "-" * 80,
        "[3/3] Total                                 100% |   1.6 MiB/s |   1.1 MiB |  00m01s",
        "Running transaction",
        "[1/5] Verify package files                  100% | 750.0   B/s |   3.0   B |  00m00s",
        "[2/5] Prepare transaction                   100% |  50.0   B/s |   3.0   B |  00m00s",
    ]
    for k, (n, a, v, _, _) in enumerate(reversed(pk), 3):
        out.append(f"[{k}/5] Installing {n}-0:{v}.{a}      100% |  15.1 MiB/s |   1.0 MiB |  00m00s")
    out.append("Complete!")
    return synthesized(
        "dnf5-install",
        "package/dnf-install",
        family="dnf",
        command="dnf install -y htop",
        exit_code=0,
        stdout="\n".join(out) + "\n",
        signals=[
            sig("summary", "Installing:         3 packages", "Installing: 3 packages"),
            sig("package", "htop"),
            sig("version", "3.3.0-3.fc41"),
            sig("summary", "Complete!"),
        ],
        format_source=DNF5_SRC,
        tool_version="dnf5 5.2.6",
    )


def _yum_install() -> dict[str, Any]:
    out = [
        "Loaded plugins: fastestmirror",
        "Loading mirror speeds from cached hostfile",
        " * base: mirror.example.net",
        " * extras: mirror.example.net",
        " * updates: mirror.example.net",
        "Resolving Dependencies",
        "--> Running transaction check",
        "---> Package httpd.x86_64 0:2.4.6-99.el7.centos.1 will be installed",
        "--> Processing Dependency: httpd-tools = 2.4.6-99.el7.centos.1 for package: httpd-2.4.6-99.el7.centos.1.x86_64",
        "--> Processing Dependency: /etc/mime.types for package: httpd-2.4.6-99.el7.centos.1.x86_64",
        "--> Processing Dependency: libaprutil-1.so.0()(64bit) for package: httpd-2.4.6-99.el7.centos.1.x86_64",
        "--> Processing Dependency: libapr-1.so.0()(64bit) for package: httpd-2.4.6-99.el7.centos.1.x86_64",
        "--> Running transaction check",
        "---> Package apr.x86_64 0:1.4.8-7.el7 will be installed",
        "---> Package apr-util.x86_64 0:1.5.2-6.el7_9.1 will be installed",
        "---> Package httpd-tools.x86_64 0:2.4.6-99.el7.centos.1 will be installed",
        "---> Package mailcap.noarch 0:2.1.41-2.el7 will be installed",
        "--> Finished Dependency Resolution",
        "",
        "Dependencies Resolved",
        "",
        "=" * 80,
        " Package            Arch          Version                      Repository      Size",
        "=" * 80,
        "Installing:",
        " httpd              x86_64        2.4.6-99.el7.centos.1        updates        2.7 M",
        "Installing for dependencies:",
        " apr                x86_64        1.4.8-7.el7                  base           104 k",
        " apr-util           x86_64        1.5.2-6.el7_9.1              updates         92 k",
        " httpd-tools        x86_64        2.4.6-99.el7.centos.1        updates         94 k",
        " mailcap            noarch        2.1.41-2.el7                 base            31 k",
        "",
        "Transaction Summary",
        "=" * 80,
        "Install  1 Package (+4 Dependent packages)",
        "",
        "Total download size: 3.0 M",
        "Installed size: 10 M",
        "Downloading packages:",
        "(1/5): apr-1.4.8-7.el7.x86_64.rpm                               | 104 kB  00:00:00",
        "(2/5): apr-util-1.5.2-6.el7_9.1.x86_64.rpm                      |  92 kB  00:00:00",
        "(3/5): httpd-tools-2.4.6-99.el7.centos.1.x86_64.rpm             |  94 kB  00:00:00",
        "(4/5): mailcap-2.1.41-2.el7.noarch.rpm                          |  31 kB  00:00:00",
        "(5/5): httpd-2.4.6-99.el7.centos.1.x86_64.rpm                   | 2.7 MB  00:00:01",
        "-" * 80,
        "Total                                                2.4 MB/s | 3.0 MB  00:00:01",
        "Running transaction check",
        "Running transaction test",
        "Transaction test succeeded",
        "Running transaction",
        "  Installing : apr-1.4.8-7.el7.x86_64                                     1/5",
        "  Installing : apr-util-1.5.2-6.el7_9.1.x86_64                            2/5",
        "  Installing : httpd-tools-2.4.6-99.el7.centos.1.x86_64                   3/5",
        "  Installing : mailcap-2.1.41-2.el7.noarch                                4/5",
        "  Installing : httpd-2.4.6-99.el7.centos.1.x86_64                         5/5",
        "  Verifying  : httpd-2.4.6-99.el7.centos.1.x86_64                         1/5",
        "  Verifying  : mailcap-2.1.41-2.el7.noarch                                2/5",
        "  Verifying  : apr-1.4.8-7.el7.x86_64                                     3/5",
        "  Verifying  : httpd-tools-2.4.6-99.el7.centos.1.x86_64                   4/5",
        "  Verifying  : apr-util-1.5.2-6.el7_9.1.x86_64                            5/5",
        "",
        "Installed:",
        "  httpd.x86_64 0:2.4.6-99.el7.centos.1",
        "",
        "Dependency Installed:",
        "  apr.x86_64 0:1.4.8-7.el7    apr-util.x86_64 0:1.5.2-6.el7_9.1    httpd-tools.x86_64 0:2.4.6-99.el7.centos.1",
        "  mailcap.noarch 0:2.1.41-2.el7",
        "",
        "Complete!",
    ]
    return synthesized(
        "yum-install-el7",
        "package/yum-install",
        family="dnf",
        command="yum install -y httpd",
        exit_code=0,
        stdout="\n".join(out) + "\n",
        signals=[
            sig("summary", "Install  1 Package (+4 Dependent packages)", "Install 1 Package (+4 Dependent packages)"),
            sig("package", "httpd"),
            sig("version", "2.4.6-99.el7.centos.1"),
            sig("summary", "Complete!"),
        ],
        format_source=YUM_SRC,
        tool_version="yum 3.4.3",
    )
