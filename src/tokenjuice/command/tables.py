"""What the command analysis knows about programs: wrappers it sees through, setup
steps and no-ops it skips, and each program's global options that take a value (so
the subcommand after them is found)."""

from __future__ import annotations


def program_name(word: str) -> str:
    """`/usr/bin/git` → `git`, `.\\node_modules\\.bin\\jest.cmd` → `jest`."""
    base = word.replace("\\", "/").rsplit("/", 1)[-1]
    lower = base.lower()
    for ext in (".exe", ".cmd", ".bat"):
        if lower.endswith(ext):
            return base[: -len(ext)]
    return base


# wrapper → (options taking a value, options without value that may precede the command,
#            number of leading positional arguments that are not the command)
WRAPPERS: dict[str, tuple[frozenset[str], int]] = {
    "sudo": (
        frozenset(
            {
                "-u",
                "-g",
                "-h",
                "-p",
                "-C",
                "-D",
                "-r",
                "-t",
                "-U",
                "-T",
                "--user",
                "--group",
                "--host",
                "--prompt",
                "--chdir",
                "--role",
                "--type",
                "--other-user",
            }
        ),
        0,
    ),
    "doas": (frozenset({"-u", "-C"}), 0),
    "time": (frozenset({"-f", "--format", "-o", "--output"}), 0),
    "nice": (frozenset({"-n", "--adjustment"}), 0),
    "ionice": (frozenset({"-c", "-n", "-p", "--class", "--classdata"}), 0),
    "nohup": (frozenset(), 0),
    "command": (frozenset(), 0),
    "exec": (frozenset({"-a"}), 0),
    "builtin": (frozenset(), 0),
    "stdbuf": (frozenset({"-i", "-o", "-e"}), 0),
    "timeout": (frozenset({"-s", "--signal", "-k", "--kill-after"}), 1),
    "unbuffer": (frozenset(), 0),
    "chronic": (frozenset(), 0),
    "xvfb-run": (
        frozenset(
            {
                "-n",
                "--server-num",
                "-s",
                "--server-args",
                "-e",
                "--error-file",
                "-f",
                "--auth-file",
                "-p",
                "--xauth-protocol",
            }
        ),
        0,
    ),
    "caffeinate": (frozenset({"-t", "-w"}), 0),
    "flock": (frozenset({"-w", "--timeout", "-E", "--conflict-exit-code"}), 1),
    "setsid": (frozenset(), 0),
    "corepack": (frozenset(), 0),
}
ENV_VALUE_OPTS = frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string"})

SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish"})
SETUP = frozenset(
    {
        "cd",
        "pushd",
        "popd",
        "export",
        "set",
        "source",
        ".",
        "unset",
        "ulimit",
        "umask",
        "shopt",
        "alias",
        "trap",
        "declare",
        "typeset",
        "eval_noop",
    }
)
NOOPS = frozenset({"true", ":", "exit"})
# Pipeline stages after the producer that leave its output as it is (or a slice of it).
TRANSPARENT = frozenset({"tee", "cat", "head", "tail", "less", "more"})
SLICERS = frozenset({"head", "tail"})
# Pipeline stages before the consumer that only produce data for it.
PRODUCERS = frozenset({"echo", "printf", "yes", "cat", "true"})

PYTHONS_PREFIX = ("python", "pypy")
PYTHON_VALUE_OPTS = frozenset({"-W", "-X", "-Q", "--check-hash-based-pycs"})

UV_VALUE_OPTS = frozenset(
    {
        "--with",
        "--with-editable",
        "--with-requirements",
        "--python",
        "-p",
        "--project",
        "--directory",
        "--extra",
        "--group",
        "--only-group",
        "--no-group",
        "--env-file",
        "--package",
        "--index",
        "--index-url",
        "--extra-index-url",
        "--find-links",
        "-f",
        "--cache-dir",
        "--config-file",
        "--color",
        "--exclude-newer",
        "--resolution",
        "--prerelease",
        "--refresh-package",
        "--reinstall-package",
        "--upgrade-package",
        "-P",
        "--from",
        "--script",
        "--native-tls",
        "--allow-insecure-host",
        "--keyring-provider",
        "--link-mode",
    }
)
NPX_VALUE_OPTS = frozenset({"-p", "--package", "-c", "--call", "--cache", "--userconfig", "-w", "--workspace"})
PNPM_VALUE_OPTS = frozenset({"-C", "--dir", "--filter", "-F", "--workspace-root", "--reporter"})
CONDA_VALUE_OPTS = frozenset({"-n", "--name", "-p", "--prefix", "--cwd"})
# Package-manager options naming the directory whose package.json applies.
PM_DIR_OPTS = frozenset({"-C", "--dir", "--prefix", "--cwd"})


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# The package managers' own commands: any other word (`pnpm build`, `yarn jest`) runs
# the package script of that name, or else the binary (pnpm, yarn and bun only).
PM_COMMANDS: dict[str, frozenset[str]] = {
    "pnpm": _words(
        "add install i update up upgrade remove rm uninstall un link ln unlink import rebuild rb prune "
        "fetch install-test it patch patch-commit patch-remove audit list ls ll la outdated why licenses "
        "run run-script exec dlx create publish pack recursive multi m server store root bin setup init "
        "deploy env config c get set doctor self-update help dedupe approve-builds ignored-builds "
        "cat-file cat-index find-hash login logout whoami view info show version sbom"
    ),
    "yarn": _words(
        "add audit autoclean bin cache check config create dedupe dlx exec explain generate-lock-entry "
        "global help import info init install licenses link list login logout node outdated owner pack "
        "patch patch-commit plugin policies publish rebuild remove run search set tag team unlink unplug "
        "up upgrade upgrade-interactive version versions why workspace workspaces constraints npm stage"
    ),
    "bun": _words(
        "add a build create exec i init install link outdated patch pm publish remove rm repl run test "
        "unlink update upgrade x audit info why"
    ),
}

# Node tools that tokenjuice has rules for, run through a package manager without a
# script of that name (`pnpm tsc`, `yarn jest`, `yarn run eslint`).
JS_BINS = frozenset(
    {
        "tsc",
        "vue-tsc",
        "tsgo",
        "esbuild",
        "tsdown",
        "vite",
        "webpack",
        "webpack-cli",
        "biome",
        "eslint",
        "eslint_d",
        "oxlint",
        "prettier",
        "stylelint",
        "markdownlint",
        "markdownlint-cli2",
        "jest",
        "mocha",
        "playwright",
        "vitest",
    }
)

# Global options that take a value, per program, skipped to find the subcommand.
GLOBAL_VALUE_OPTS: dict[str, frozenset[str]] = {
    "git": frozenset(
        {
            "-C",
            "-c",
            "--git-dir",
            "--work-tree",
            "--namespace",
            "--exec-path",
            "--super-prefix",
            "--config-env",
            "--list-cmds",
            "--attr-source",
        }
    ),
    "cargo": frozenset({"--manifest-path", "--color", "--config", "-Z", "-C", "--target-dir"}),
    "docker": frozenset(
        {"--context", "-c", "-H", "--host", "--config", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey"}
    ),
    "kubectl": frozenset(
        {
            "-n",
            "--namespace",
            "--context",
            "--kubeconfig",
            "--cluster",
            "--user",
            "-s",
            "--server",
            "--token",
            "--as",
            "--as-group",
            "--request-timeout",
            "-v",
        }
    ),
    "helm": frozenset(
        {
            "-n",
            "--namespace",
            "--kube-context",
            "--kubeconfig",
            "--registry-config",
            "--repository-config",
            "--repository-cache",
        }
    ),
    "npm": frozenset({"--prefix", "-w", "--workspace", "--userconfig", "--cache", "--registry", "--loglevel"}),
    "pnpm": PNPM_VALUE_OPTS,
    "yarn": frozenset({"--cwd", "--cache-folder", "--modules-folder"}),
    "uv": frozenset({"--directory", "--project", "--cache-dir", "--config-file", "--color", "--python", "-p"}),
    "poetry": frozenset({"-C", "--directory", "-P", "--project"}),
    "gh": frozenset({"-R", "--repo", "--hostname"}),
    "terraform": frozenset(),
    "go": frozenset(),
    "dotnet": frozenset(),
    "pip": frozenset(
        {
            "--log",
            "--proxy",
            "--retries",
            "--timeout",
            "--exists-action",
            "--trusted-host",
            "--cert",
            "--client-cert",
            "--cache-dir",
            "--python",
            "--use-feature",
        }
    ),
    "aws": frozenset(
        {
            "--profile",
            "--region",
            "--output",
            "--endpoint-url",
            "--query",
            "--cli-read-timeout",
            "--cli-connect-timeout",
            "--color",
            "--ca-bundle",
        }
    ),
    "gcloud": frozenset({"--project", "--account", "--configuration", "--format", "--verbosity"}),
    "az": frozenset({"--subscription", "--output", "-o", "--query"}),
    "systemctl": frozenset(
        {
            "-H",
            "--host",
            "-M",
            "--machine",
            "-t",
            "--type",
            "-p",
            "--property",
            "--state",
            "-n",
            "--lines",
            "-o",
            "--output",
        }
    ),
    "brew": frozenset(),
    "apt": frozenset({"-o", "-c", "-t"}),
    "apt-get": frozenset({"-o", "-c", "-t"}),
    "dnf": frozenset({"-c", "--config", "--releasever", "--setopt", "--repo", "--enablerepo", "--disablerepo"}),
    "yum": frozenset({"-c", "--config", "--releasever", "--setopt", "--enablerepo", "--disablerepo"}),
    "composer": frozenset({"-d", "--working-dir"}),
    "bundle": frozenset(),
    "gem": frozenset(),
    "just": frozenset({"-f", "--justfile", "-d", "--working-directory", "--set", "--shell"}),
    "make": frozenset({"-C", "-f", "--file", "--makefile", "-j", "--jobs", "-I", "-o", "-W", "-l"}),
    "mvn": frozenset(
        {
            "-f",
            "--file",
            "-s",
            "--settings",
            "-P",
            "--activate-profiles",
            "-pl",
            "--projects",
            "-D",
            "-T",
            "--threads",
            "-gs",
            "-rf",
            "-t",
            "-l",
        }
    ),
    "gradle": frozenset(
        {
            "-p",
            "--project-dir",
            "-b",
            "--build-file",
            "-c",
            "--settings-file",
            "-D",
            "-P",
            "-x",
            "--exclude-task",
            "-I",
            "--init-script",
            "-g",
            "--gradle-user-home",
        }
    ),
}
GLOBAL_VALUE_OPTS["gradlew"] = GLOBAL_VALUE_OPTS["gradle"]
GLOBAL_VALUE_OPTS["mvnw"] = GLOBAL_VALUE_OPTS["mvn"]
GLOBAL_VALUE_OPTS["tofu"] = GLOBAL_VALUE_OPTS["terraform"]
GLOBAL_VALUE_OPTS["pip3"] = GLOBAL_VALUE_OPTS["pip"]
GLOBAL_VALUE_OPTS["docker-compose"] = GLOBAL_VALUE_OPTS["docker"]
GLOBAL_VALUE_OPTS["podman"] = GLOBAL_VALUE_OPTS["docker"]
